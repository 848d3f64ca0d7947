package cx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// spec: R4.5-cx-required, R4.5-cx-optional, D-cx
func TestDecodeRequestErrors(t *testing.T) {
	deep := `{"scheduleId":"s","x":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `,"data":[{"ID":"A","Name":"a"}]}`
	for _, tc := range []struct {
		name     string
		body     string
		limits   Limits
		wantCode string
		wantIn   string // a part of the message
	}{
		{"NotJSON", `scheduleId=s`, Limits{}, CodeInvalidRequest, "not valid JSON"},
		{"Empty", ``, Limits{}, CodeInvalidRequest, "ends before"},
		{"NotObject", `[1]`, Limits{}, CodeInvalidRequest, "must be a JSON object"},
		{"Truncated", `{"scheduleId":"s","data":[{"ID":"A"`, Limits{}, CodeInvalidRequest, "ends before"},
		{"TrailingValue", `{"scheduleId":"s","data":[{"ID":"A","Name":"a"}]} {}`, Limits{}, CodeInvalidRequest, "more than one JSON value"},
		{"DataNotArray", `{"scheduleId":"s","data":{"ID":"A"}}`, Limits{}, CodeInvalidRequest, "data must be an array"},
		{"DataNull", `{"scheduleId":"s","data":null}`, Limits{}, CodeInvalidRequest, "data must be an array of objects, not null"},
		{"RowNotObject", `{"scheduleId":"s","data":[{"ID":"A","Name":"a"},"B"]}`, Limits{}, CodeInvalidRequest, "data[1] must be an object"},
		{"Number", `{"scheduleId":"s","data":[{"ID":7,"Name":"a"}]}`, Limits{}, CodeInvalidRequest, `data[0], key "ID": the value must be a string, not a number`},
		{"Boolean", `{"scheduleId":"s","data":[{"ID":"A","Name":true}]}`, Limits{}, CodeInvalidRequest, `key "Name": the value must be a string, not a boolean`},
		{"Null", `{"scheduleId":"s","data":[{"ID":"A","Name":"a","ParentID":null}]}`, Limits{}, CodeInvalidRequest, `key "ParentID": the value must be a string, not null`},
		{"NestedObject", `{"scheduleId":"s","data":[{"ID":"A","Name":{"x":"y"}}]}`, Limits{}, CodeInvalidRequest, "not an object"},
		{"NestedArray", `{"scheduleId":"s","data":[{"ID":"A","Name":"a"},{"ID":"B","Predecessors":["A"]}]}`, Limits{}, CodeInvalidRequest, `data[1], key "Predecessors": the value must be a string, not an array`},
		{"UnknownKeyNumber", `{"scheduleId":"s","data":[{"ID":"A","Name":"a","Cost":12.5}]}`, Limits{}, CodeInvalidRequest, `key "Cost"`},
		{"DuplicateKey", `{"scheduleId":"s","data":[{"ID":"A","Name":"a","ID":"B"}]}`, Limits{}, CodeInvalidRequest, `data[0] has the key "ID" twice`},
		{"DeepNesting", deep, Limits{}, CodeInvalidRequest, "nested too deeply"},
		{"DeepNestingInRow", `{"scheduleId":"s","data":[{"ID":` + strings.Repeat("[", 100_000) + `]}]}`, Limits{}, CodeInvalidRequest, "nested too deeply"},
		{"EscapedKeyAndValue", `{"scheduleId":"s","data":[{"\u0049D":"A","Name":"a\"b\"","ParentID":5}]}`, Limits{}, CodeInvalidRequest, `data[0], key "ParentID": the value must be a string, not a number`},
		{"InvalidUTF8", "{\"scheduleId\":\"s\",\"data\":[{\"ID\":\"A\xff\",\"Name\":\"a\"}]}", Limits{}, CodeInvalidRequest, "not valid UTF-8"},
		{"CutRune", "{\"scheduleId\":\"s\",\"data\":[{\"ID\":\"A\",\"Name\":\"a\xe2\x82\"}]}", Limits{}, CodeInvalidRequest, "not valid UTF-8"},
		{"ScheduleIDMissing", `{"data":[{"ID":"A","Name":"a"}]}`, Limits{}, CodeScheduleIDRequired, "scheduleId is required"},
		{"ScheduleIDBlank", `{"scheduleId":"  ","data":[{"ID":"A","Name":"a"}]}`, Limits{}, CodeScheduleIDRequired, "scheduleId is required"},
		{"ScheduleIDCase", `{"scheduleID":"s","data":[{"ID":"A","Name":"a"}]}`, Limits{}, CodeScheduleIDRequired, `the body has "scheduleID"`},
		{"ScheduleIDNotString", `{"scheduleId":12,"data":[{"ID":"A","Name":"a"}]}`, Limits{}, CodeInvalidRequest, "scheduleId must be a string"},
		{"DataEmpty", `{"scheduleId":"s","data":[]}`, Limits{}, CodeDataEmpty, "at least one row"},
		{"DataMissing", `{"scheduleId":"s"}`, Limits{}, CodeDataEmpty, "at least one row"},
		{"RowsLimit", `{"scheduleId":"s","data":[{"ID":"A","Name":"a"},{"ID":"B","Name":"b"},{"ID":"C","Name":"c"}]}`, Limits{MaxRows: 2}, CodeRowsLimit, "at most 2 rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := DecodeRequest(strings.NewReader(tc.body), tc.limits)
			var re *RequestError
			if !errors.As(err, &re) {
				t.Fatalf("DecodeRequest = %+v, %v; want a *RequestError", req, err)
			}
			if re.Code != tc.wantCode || !strings.Contains(re.Message, tc.wantIn) {
				t.Errorf("error = %q %q; want code %s with %q", re.Code, re.Message, tc.wantCode, tc.wantIn)
			}
		})
	}
}

// spec: R4.5-cx-required, R4.5-cx-optional, D-cx
func TestDecodeRequest(t *testing.T) {
	body := `{"comment": {"any": ["thing", 1, null]}, "data": [
		{"ID": "A", "Name": "Pump ✓", "PM Email Address": "pm@example.com", "parentId": "X", "Colour": "red"},
		{"Na\u006de" : "B \"2\" \u00e9\/", "ID":"B","createdAt":"2024-01-31", "Colour": "blue", "Size": "L", "id": "b"}
	], "scheduleId": "S-1"}`
	got, err := DecodeRequest(iotest.OneByteReader(strings.NewReader(body)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := &Request{
		ScheduleID: "S-1",
		Rows: []Row{
			{ID: "A", Name: "Pump ✓", PMEmail: "pm@example.com"},
			{ID: "B", Name: `B "2" é/`, CreatedAt: "2024-01-31"},
		},
		FieldIssues: []Issue{
			{Index: 0, RowID: "A", Field: "parentId", Code: CodeFieldNameMismatch, Value: "X"},
			{Index: 1, RowID: "B", Field: "id", Code: CodeFieldNameMismatch, Value: "b"},
		},
		Warnings: []Issue{
			{Index: 0, RowID: "A", Field: "Colour", Code: CodeUnknownField},
			{Index: 1, RowID: "B", Field: "Size", Code: CodeUnknownField},
		},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Issue{}, "Message")); diff != "" {
		t.Errorf("DecodeRequest (-want +got):\n%s", diff)
	}
	if msg := got.FieldIssues[0].Message; msg != `row 1 (ID A): the key "parentId" must be written "ParentID" (keys are case-sensitive); its value was not used` {
		t.Errorf("message = %q", msg)
	}
}

// The decoder stops at the first row past the limit instead of reading
// the rest of a huge body.
//
// spec: D-cx
func TestDecodeRequestStopsAtRowLimit(t *testing.T) {
	endless := io.MultiReader(strings.NewReader(`{"scheduleId":"s","data":[`), &rowStream{})
	_, err := DecodeRequest(endless, Limits{MaxRows: 1000})
	var re *RequestError
	if !errors.As(err, &re) || re.Code != CodeRowsLimit {
		t.Fatalf("err = %v, want ROWS_LIMIT", err)
	}
}

// rowStream is an endless stream of rows.
type rowStream struct{ pending []byte }

func (s *rowStream) Read(p []byte) (int, error) {
	if len(s.pending) == 0 {
		s.pending = []byte(`{"ID":"A","Name":"a"},`)
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

// spec: D-cx
func TestUTF8Reader(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		ok   bool
	}{
		{"ASCII", "hello", true},
		{"Multibyte", "héllo → ✓ 𝄞", true},
		{"ReplacementCharacter", "a\uFFFDb", true},
		{"BadByte", "a\xffb", false},
		{"Overlong", "a\xc0\xafb", false},
		{"Surrogate", "a\xed\xa0\x80b", false},
		{"CutAtEnd", "ab\xf0\x9d\x84", false},
		{"BadContinuation", "a\xe2\x28\xa1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in)), iotest.HalfReader(strings.NewReader(tc.in))} {
				got, err := io.ReadAll(&utf8Reader{r: r})
				if tc.ok && (err != nil || !bytes.Equal(got, []byte(tc.in))) {
					t.Errorf("ReadAll = %q, %v; want the input back", got, err)
				}
				if !tc.ok && !errors.Is(err, errInvalidUTF8) {
					t.Errorf("ReadAll err = %v, want errInvalidUTF8", err)
				}
			}
		})
	}
}

// spec: D-cx
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"scheduleId":"s","data":[{"ID":"A","Name":"a","parentId":"x","Colour":"red"}]}`,
		`{"scheduleId":"s","x":[{"y":[]}],"data":[{"\u0049D":"A\n","Name":"a"},{}]}`,
		`{"scheduleId":"s","data":[{"ID":1}]}`,
		`{"data":[]}`,
		`[]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := DecodeRequest(bytes.NewReader(body), Limits{MaxRows: 50})
		if err != nil {
			var re *RequestError
			if !errors.As(err, &re) {
				t.Fatalf("error %v is not a *RequestError", err)
			}
			return
		}
		if len(req.Rows) == 0 || strings.TrimSpace(req.ScheduleID) == "" {
			t.Fatalf("accepted a request without rows or schedule: %+v", req)
		}
		Validate(req, nil)
	})
}

// TestAttackCaseMismatchedKeysFlood sends rows whose every extra key differs
// from a field only in case: each is an error, but the request keeps about
// MaxErrors of them and counts the rest, so a 32 MiB body of such keys
// cannot hold millions of Issues in memory; the report still counts them
// all and lists the first MaxErrors exactly.
//
// attack: cx-case-mismatch-flood
func TestAttackCaseMismatchedKeysFlood(t *testing.T) {
	const rows, perRow = 5000, 3
	var b strings.Builder
	b.WriteString(`{"scheduleId":"s","data":[`)
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"ID":"R%d","Name":"n","parentId":"x","pm email address":"y","BUILDING":"z"}`, i)
	}
	b.WriteString(`]}`)
	req, err := DecodeRequest(strings.NewReader(b.String()), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	kept := len(req.FieldIssues)
	if kept > 2*MaxErrors || kept < MaxErrors {
		t.Errorf("kept %d field issues, want between %d and %d", kept, MaxErrors, 2*MaxErrors)
	}
	if got := kept + req.FieldIssuesDropped; got != rows*perRow {
		t.Errorf("kept + dropped = %d, want %d", got, rows*perRow)
	}
	rep := Validate(req, nil)
	if rep.Summary.Errors != rows*perRow || !rep.Truncated || len(rep.Errors) != MaxErrors {
		t.Fatalf("summary errors %d truncated %v listed %d; want %d, true, %d", rep.Summary.Errors, rep.Truncated, len(rep.Errors), rows*perRow, MaxErrors)
	}
	// The listed errors are the first MaxErrors in report order: rows 0.. in turn.
	last := rep.Errors[len(rep.Errors)-1]
	if want := (MaxErrors - 1) / perRow; last.Index != want {
		t.Errorf("last listed error is of row %d, want %d", last.Index, want)
	}
}
