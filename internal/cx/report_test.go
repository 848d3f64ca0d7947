package cx

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// spec: D-cx
func TestReportTruncated(t *testing.T) {
	// 1,500 rows with two errors each, found in different passes: the report
	// keeps the first 1,000 by row index, then field.
	rows := make([]Row, 1500)
	for i := range rows {
		rows[i] = Row{ID: "R" + strconv.Itoa(i), ParentID: "missing"}
	}
	rep := Validate(&Request{ScheduleID: "S", Rows: rows}, nil)
	if !rep.Truncated || len(rep.Errors) != MaxErrors || rep.Summary.Errors != 3000 {
		t.Fatalf("truncated %v, %d listed, %d found; want true, %d, 3000", rep.Truncated, len(rep.Errors), rep.Summary.Errors, MaxErrors)
	}
	for i, is := range rep.Errors {
		wantIndex, wantCode := i/2, CodeNameRequired
		if i%2 == 1 {
			wantCode = CodeParentNotFound
		}
		if is.Index != wantIndex || is.Code != wantCode {
			t.Fatalf("error %d = row %d %s; want row %d %s", i, is.Index, is.Code, wantIndex, wantCode)
		}
	}
}

// spec: D-cx
func TestReportSorted(t *testing.T) {
	rows := []Row{
		row("B", "", "Predecessors", "Z", "createdAt", "x", "PM Email Address", "x"),
		row("A", "a", "ParentID", "Q", "ParentChildDependency", "x"),
	}
	rep := Validate(&Request{ScheduleID: "S", Rows: rows}, nil)
	type key struct {
		Index int
		Field string
	}
	var got []key
	for _, is := range rep.Errors {
		got = append(got, key{is.Index, is.Field})
	}
	want := []key{
		{0, FieldName}, {0, FieldPredecessors}, {0, FieldPMEmail}, {0, FieldCreatedAt},
		{1, FieldParentID}, {1, FieldParentChildDependency},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// spec: D-cx
func TestSummarize(t *testing.T) {
	existing := []Row{row("A", "a"), row("B", "b"), row("C", "c", "Building", "B1")}
	rows := []Row{row("A", "a"), row("B", "b renamed"), row("C", "c"), row("D", "d")}
	want := Summary{Received: 4, Created: 1, Updated: 2, Unchanged: 1}
	if diff := cmp.Diff(want, Summarize(rows, existing)); diff != "" {
		t.Errorf("Summarize (-want +got):\n%s", diff)
	}
	rep := Validate(&Request{ScheduleID: "S", Rows: rows, Warnings: []Issue{{Index: 0, RowID: "A", Field: "X", Code: CodeUnknownField}}}, existing)
	want.Warnings = 1
	if diff := cmp.Diff(want, rep.Summary); diff != "" {
		t.Errorf("Validate summary (-want +got):\n%s", diff)
	}
	if !rep.OK() || rep.Errors == nil || len(rep.Warnings) != 1 {
		t.Errorf("report = %+v; want OK with an empty error list and one warning", rep)
	}
}
