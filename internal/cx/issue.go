package cx

import (
	"cmp"
	"fmt"
	"unicode/utf8"
)

// Issue is one error or warning of an upload. Index is the 0-based position
// of the row in the upload, -1 for a row already stored in the schedule;
// messages count rows from 1 ("row 3" is Index 2). Field is the key the issue
// is about, Value the offending value (shortened when long) and Cycle the IDs
// along a loop, first and last the same.
type Issue struct {
	Index   int      `json:"index"`
	RowID   string   `json:"rowId"`
	Field   string   `json:"field"`
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Value   string   `json:"value,omitempty"`
	Cycle   []string `json:"cycle,omitempty"`
}

// rowName names a row for a message: "row 3 (ID AHU-1)", "row 3", or
// "stored row AHU-1" for a row that is not part of the upload.
func rowName(index int, id string) string {
	switch {
	case index < 0:
		return fmt.Sprintf("stored row %s", id)
	case id == "":
		return fmt.Sprintf("row %d", index+1)
	default:
		return fmt.Sprintf("row %d (ID %s)", index+1, id)
	}
}

// maxValueRunes bounds Issue.Value so that a report stays small.
const maxValueRunes = 100

func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxValueRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == maxValueRunes {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// compareIssues orders issues by row index, then field in the order of
// Fields, then code and message.
func compareIssues(a, b *Issue) int {
	if c := cmp.Compare(a.Index, b.Index); c != 0 {
		return c
	}
	if c := cmp.Compare(fieldRank(a.Field), fieldRank(b.Field)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Field, b.Field); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	return cmp.Compare(a.Message, b.Message)
}

// fieldRank places a field, or a key that only differs from one in case, at
// the position of its canonical name; other keys come last.
func fieldRank(field string) int {
	if i := FieldIndex(field); i >= 0 {
		return i
	}
	if f, _ := MatchField(field); f != "" {
		return FieldIndex(f)
	}
	return len(Fields)
}
