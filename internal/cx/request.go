package cx

import (
	"fmt"
	"strings"
)

// DefaultMaxRows is the row limit of an upload when Limits.MaxRows is zero.
const DefaultMaxRows = 100_000

// DefaultMaxSheetBytes is the text budget of a spreadsheet upload when
// Limits.MaxSheetBytes is zero: 32 MiB, as much as the largest JSON body,
// whose values cannot be longer than the body.
const DefaultMaxSheetBytes = 32 << 20

// Limits bounds what DecodeRequest and the spreadsheet reader accept.
type Limits struct {
	MaxRows int // rows per upload; 0 means DefaultMaxRows
	// MaxSheetBytes bounds the text a spreadsheet reader produces: the sum
	// of the lengths in bytes of the cells it reads, and of a workbook's
	// shared-string table. 0 means DefaultMaxSheetBytes.
	MaxSheetBytes int64
}

func (l Limits) maxRows() int {
	if l.MaxRows <= 0 {
		return DefaultMaxRows
	}
	return l.MaxRows
}

// Request is a decoded upload. FieldIssues holds FIELD_NAME_MISMATCH errors
// found while decoding, which Validate reports with the other errors;
// Warnings holds UNKNOWN_FIELD warnings. FieldIssues keeps the rows'
// issues up to about MaxErrors (a report lists no more) and FieldIssuesDropped
// counts the rest, so a body of case-mismatched keys costs a counter, not
// an Issue each.
type Request struct {
	ScheduleID         string
	Rows               []Row
	Warnings           []Issue
	FieldIssues        []Issue
	FieldIssuesDropped int
}

// rowChunk is the most rows allocated at a time; the chunks are joined once
// at the end, which allocates far less than growing one slice.
const rowChunk = 4096

// maxUnknownKeys bounds the distinct unknown keys that get a warning.
const maxUnknownKeys = 100

// Builder assembles a Request one row and one key at a time. DecodeRequest
// and the spreadsheet reader both use it, so a key means the same in a JSON
// body and in a header row.
type Builder struct {
	req     Request // Rows is filled in by Request
	done    [][]Row // full chunks of rows
	rows    []Row   // the current chunk; its last row is the current row
	n       int     // rows so far
	max     int
	unknown map[string]bool
	set     uint32 // bit i: Fields[i] was set in the current row
	issueAt int    // first FieldIssues entry of the current row
	warnAt  int    // first Warnings entry of the current row
}

// NewBuilder returns a Builder for a request of the given schedule.
func NewBuilder(scheduleID string, limits Limits) *Builder {
	return &Builder{req: Request{ScheduleID: scheduleID}, max: limits.maxRows(), unknown: map[string]bool{}}
}

// SetScheduleID sets the schedule of the request.
func (b *Builder) SetScheduleID(id string) { b.req.ScheduleID = id }

// StartRow begins a new row. It returns a ROWS_LIMIT *RequestError as soon
// as the row limit is passed.
func (b *Builder) StartRow() error {
	if b.n >= b.max {
		return requestErrorf(CodeRowsLimit, "an upload holds at most %d rows", b.max)
	}
	if len(b.rows) == cap(b.rows) {
		if b.rows != nil {
			b.done = append(b.done, b.rows)
		}
		b.rows = make([]Row, 0, min(max(16, 2*cap(b.rows)), rowChunk, b.max))
	}
	b.rows = append(b.rows, Row{})
	b.n++
	b.set = 0
	b.issueAt, b.warnAt = len(b.req.FieldIssues), len(b.req.Warnings)
	return nil
}

// Set stores one key of the current row. A canonical key sets the field; a
// key that differs from one only in case becomes a FIELD_NAME_MISMATCH
// error and any other key an UNKNOWN_FIELD warning (once per key). A key
// given twice in one row is an INVALID_REQUEST *RequestError.
func (b *Builder) Set(key, value string) error {
	index, row := b.n-1, &b.rows[len(b.rows)-1]
	field, exact := MatchField(key)
	switch {
	case exact:
		bit := uint32(1) << FieldIndex(field)
		if b.set&bit != 0 {
			return requestErrorf(CodeInvalidRequest, "data[%d] has the key %q twice", index, key)
		}
		b.set |= bit
		row.SetField(field, value)
	case field != "" && b.keepIssue(index):
		b.req.FieldIssues = append(b.req.FieldIssues, Issue{
			Index: index, Field: key, Code: CodeFieldNameMismatch, Value: clip(value),
		})
	case field != "":
		b.req.FieldIssuesDropped++
	case !b.unknown[key] && len(b.unknown) < maxUnknownKeys:
		b.unknown[key] = true
		b.req.Warnings = append(b.req.Warnings, Issue{
			Index: index, Field: key, Code: CodeUnknownField,
		})
	}
	return nil
}

// keepIssue reports whether a FIELD_NAME_MISMATCH of row index is kept.
// Past MaxErrors only the row of the last kept issue keeps adding (the
// report sorts by row, so the first MaxErrors stay exact), and no row
// keeps more than MaxErrors beyond that.
func (b *Builder) keepIssue(index int) bool {
	n := len(b.req.FieldIssues)
	if n < MaxErrors {
		return true
	}
	return b.req.FieldIssues[n-1].Index == index && n < 2*MaxErrors
}

// EndRow finishes the current row: the issues it raised get the row's ID
// and their messages, which name the row.
func (b *Builder) EndRow() {
	if len(b.req.FieldIssues) == b.issueAt && len(b.req.Warnings) == b.warnAt {
		return
	}
	index, id := b.n-1, b.rows[len(b.rows)-1].ID
	name := rowName(index, id)
	for i := range b.req.FieldIssues[b.issueAt:] {
		is := &b.req.FieldIssues[b.issueAt+i]
		field, _ := MatchField(is.Field)
		is.RowID = id
		is.Message = fmt.Sprintf("%s: the key %q must be written %q (keys are case-sensitive); its value was not used", name, is.Field, field)
	}
	for i := range b.req.Warnings[b.warnAt:] {
		is := &b.req.Warnings[b.warnAt+i]
		is.RowID = id
		is.Message = fmt.Sprintf("%s: %q is not a known key; its values were ignored in every row", name, is.Field)
	}
}

// Request returns the assembled request, or a *RequestError with
// SCHEDULE_ID_REQUIRED when the schedule is blank or DATA_EMPTY when there
// are no rows.
func (b *Builder) Request() (*Request, error) {
	if strings.TrimSpace(b.req.ScheduleID) == "" {
		return nil, requestErrorf(CodeScheduleIDRequired, "scheduleId is required")
	}
	if b.n == 0 {
		return nil, requestErrorf(CodeDataEmpty, "data must hold at least one row")
	}
	if b.req.Rows == nil {
		b.req.Rows = make([]Row, 0, b.n)
		for _, c := range append(b.done, b.rows) {
			b.req.Rows = append(b.req.Rows, c...)
		}
		b.done, b.rows = nil, nil
	}
	return &b.req, nil
}
