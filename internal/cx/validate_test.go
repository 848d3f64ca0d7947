package cx

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// row returns a Row with ID and Name and more fields as name, value pairs.
func row(id, name string, kv ...string) Row {
	r := Row{ID: id, Name: name}
	for i := 0; i+1 < len(kv); i += 2 {
		if !r.SetField(kv[i], kv[i+1]) {
			panic("unknown field " + kv[i])
		}
	}
	return r
}

type validateCase struct {
	name     string
	rows     []Row
	existing []Row
	want     []Issue // Message is not compared
}

func runValidateCases(t *testing.T, cases []validateCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := Validate(&Request{ScheduleID: "S", Rows: tc.rows}, tc.existing)
			if diff := cmp.Diff(tc.want, rep.Errors, cmpopts.IgnoreFields(Issue{}, "Message"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			for _, is := range rep.Errors {
				if is.Message == "" {
					t.Errorf("issue %s has no message", is.Code)
				}
			}
		})
	}
}

// spec: R4.5-cx-required, R4.5-cx-optional, D-cx
func TestValidateFields(t *testing.T) {
	long := strings.Repeat("é", 256)
	runValidateCases(t, []validateCase{
		{name: "OK", rows: []Row{
			row("A", "Pump", "createdAt", "2024-02-29", "updatedAt", "2024-03-01", "PM Email Address", "pm@example.com",
				"ParentChildDependency", "None", "Parent milestone", "M1", "Milestone", "M1.1", "Predecessors", strings.Repeat(" ", 2000)),
			row("B", "Fan", "ParentChildDependency", "", "TemplateID", strings.Repeat("é", 255), "ID", strings.Repeat("é", 64)),
		}},
		{name: "IDRequired", rows: []Row{row("", "Pump"), row("  ", "Fan")}, want: []Issue{
			{Index: 0, Field: "ID", Code: CodeIDRequired},
			{Index: 1, Field: "ID", Code: CodeIDRequired, Value: "  "},
		}},
		{name: "NameRequired", rows: []Row{row("A", ""), row("B", " \t")}, want: []Issue{
			{Index: 0, RowID: "A", Field: "Name", Code: CodeNameRequired},
			{Index: 1, RowID: "B", Field: "Name", Code: CodeNameRequired, Value: " \t"},
		}},
		{name: "IDInvalid", rows: []Row{row("A,1", "a"), row("B;2", "b"), row(" C", "c"), row("D ", "d")}, want: []Issue{
			{Index: 0, RowID: "A,1", Field: "ID", Code: CodeIDInvalid, Value: "A,1"},
			{Index: 1, RowID: "B;2", Field: "ID", Code: CodeIDInvalid, Value: "B;2"},
			{Index: 2, RowID: " C", Field: "ID", Code: CodeIDInvalid, Value: " C"},
			{Index: 3, RowID: "D ", Field: "ID", Code: CodeIDInvalid, Value: "D "},
		}},
		{name: "TooLong", rows: []Row{
			row(strings.Repeat("x", 65), "a"),
			row("B", long, "Predecessors", strings.Repeat(" ", 2001), "updatedBy", long),
		}, want: []Issue{
			{Index: 0, RowID: strings.Repeat("x", 65), Field: "ID", Code: CodeTooLong, Value: strings.Repeat("x", 65)},
			{Index: 1, RowID: "B", Field: "Name", Code: CodeTooLong, Value: clipped("é")},
			{Index: 1, RowID: "B", Field: "Predecessors", Code: CodeTooLong, Value: clipped(" ")},
			{Index: 1, RowID: "B", Field: "updatedBy", Code: CodeTooLong, Value: clipped("é")},
		}},
		{name: "InvalidDate", rows: []Row{
			row("A", "a", "createdAt", "2023-02-29"),
			row("B", "b", "createdAt", "2024-1-05"),
			row("C", "c", "updatedAt", "2024-01-05T10:00:00Z"),
			row("D", "d", "updatedAt", "05/01/2024"),
			row("E", "e", "createdAt", "2024-13-01", "updatedAt", "2024-12-32"),
			row("F", "f", "createdAt", "+024-01-01"),
		}, want: []Issue{
			{Index: 0, RowID: "A", Field: "createdAt", Code: CodeInvalidDate, Value: "2023-02-29"},
			{Index: 1, RowID: "B", Field: "createdAt", Code: CodeInvalidDate, Value: "2024-1-05"},
			{Index: 2, RowID: "C", Field: "updatedAt", Code: CodeInvalidDate, Value: "2024-01-05T10:00:00Z"},
			{Index: 3, RowID: "D", Field: "updatedAt", Code: CodeInvalidDate, Value: "05/01/2024"},
			{Index: 4, RowID: "E", Field: "createdAt", Code: CodeInvalidDate, Value: "2024-13-01"},
			{Index: 4, RowID: "E", Field: "updatedAt", Code: CodeInvalidDate, Value: "2024-12-32"},
			{Index: 5, RowID: "F", Field: "createdAt", Code: CodeInvalidDate, Value: "+024-01-01"},
		}},
		{name: "DateOrder", rows: []Row{
			row("A", "a", "createdAt", "2024-03-01", "updatedAt", "2024-02-29"),
			row("B", "b", "createdAt", "2024-03-01", "updatedAt", "2024-03-01"),
			row("C", "c", "updatedAt", "2020-01-01"),
		}, want: []Issue{
			{Index: 0, RowID: "A", Field: "updatedAt", Code: CodeDateOrder, Value: "2024-02-29"},
		}},
		{name: "InvalidEmail", rows: []Row{
			row("A", "a", "PM Email Address", "pm.example.com"),
			row("B", "b", "PM Email Address", "Pat <pat@example.com>"),
			row("C", "c", "PM Email Address", "<pat@example.com>"),
			row("D", "d", "PM Email Address", " pat@example.com"),
			row("E", "e", "PM Email Address", "pat@example.com, kim@example.com"),
			row("F", "f", "PM Email Address", "pat.o'neil+cx@example.co.uk"),
		}, want: []Issue{
			{Index: 0, RowID: "A", Field: "PM Email Address", Code: CodeInvalidEmail, Value: "pm.example.com"},
			{Index: 1, RowID: "B", Field: "PM Email Address", Code: CodeInvalidEmail, Value: "Pat <pat@example.com>"},
			{Index: 2, RowID: "C", Field: "PM Email Address", Code: CodeInvalidEmail, Value: "<pat@example.com>"},
			{Index: 3, RowID: "D", Field: "PM Email Address", Code: CodeInvalidEmail, Value: " pat@example.com"},
			{Index: 4, RowID: "E", Field: "PM Email Address", Code: CodeInvalidEmail, Value: "pat@example.com, kim@example.com"},
		}},
		{name: "InvalidEnum", rows: []Row{
			row("A", "a", "ParentChildDependency", "topdown"),
			row("B", "b", "ParentChildDependency", "Both"),
			row("C", "c", "ParentChildDependency", "BottomUp"),
		}, want: []Issue{
			{Index: 0, RowID: "A", Field: "ParentChildDependency", Code: CodeInvalidEnum, Value: "topdown"},
			{Index: 1, RowID: "B", Field: "ParentChildDependency", Code: CodeInvalidEnum, Value: "Both"},
		}},
		{name: "MilestonePairIncomplete", rows: []Row{
			row("A", "a", "Parent milestone", "Start-up"),
			row("B", "b", "Milestone", "Only the milestone"),
		}, want: []Issue{
			{Index: 0, RowID: "A", Field: "Milestone", Code: CodeMilestonePairIncomplete},
		}},
		{name: "PredecessorSyntax", rows: []Row{
			row("A", "a"),
			row("B", "b", "Predecessors", "A,,A"),
			row("C", "c", "Predecessors", "A+2d"),
		}, want: []Issue{
			{Index: 1, RowID: "B", Field: "Predecessors", Code: CodePredecessorSyntax, Value: "A,,A"},
			{Index: 2, RowID: "C", Field: "Predecessors", Code: CodePredecessorSyntax, Value: "A+2d"},
		}},
	})
}

func clipped(unit string) string { return strings.Repeat(unit, maxValueRunes) + "…" }

// Keys that match a field only by case are errors of the row, reported
// with the rest in index order.
//
// spec: R4.5-cx-required, D-cx
func TestValidateFieldNameMismatch(t *testing.T) {
	req, err := DecodeRequest(strings.NewReader(`{"scheduleId":"S","data":[
		{"id":"A","Name":"a"},
		{"ID":"B","Name":"b","parentId":"A","PM email address":"x@example.com"}]}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Issue{
		{Index: 0, Field: "ID", Code: CodeIDRequired},
		{Index: 0, Field: "id", Code: CodeFieldNameMismatch, Value: "A"},
		{Index: 1, RowID: "B", Field: "parentId", Code: CodeFieldNameMismatch, Value: "A"},
		{Index: 1, RowID: "B", Field: "PM email address", Code: CodeFieldNameMismatch, Value: "x@example.com"},
	}
	got := Validate(req, nil).Errors
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Issue{}, "Message")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// spec: R4.5-cx-parent, D-cx
func TestValidateParents(t *testing.T) {
	runValidateCases(t, []validateCase{
		{name: "OK", rows: []Row{row("A", "a"), row("B", "b", "ParentID", "A"), row("C", "c", "ParentID", "S1")},
			existing: []Row{row("S1", "stored")}},
		{name: "SelfParent", rows: []Row{row("A", "a", "ParentID", "A")}, want: []Issue{
			{Index: 0, RowID: "A", Field: "ParentID", Code: CodeSelfParent, Value: "A"},
		}},
		{name: "ParentNotFound", rows: []Row{row("A", "a", "ParentID", "Z"), row("B", "b", "ParentID", " A")}, want: []Issue{
			{Index: 0, RowID: "A", Field: "ParentID", Code: CodeParentNotFound, Value: "Z"},
			{Index: 1, RowID: "B", Field: "ParentID", Code: CodeParentNotFound, Value: " A"},
		}},
		{name: "ParentCycle", rows: []Row{
			row("X", "x", "ParentID", "C"), // hangs off the loop, is not part of it
			row("A", "a", "ParentID", "B"),
			row("B", "b", "ParentID", "C"),
			row("C", "c", "ParentID", "A"),
		}, want: []Issue{
			{Index: 1, RowID: "A", Field: "ParentID", Code: CodeParentCycle, Value: "B", Cycle: []string{"A", "B", "C", "A"}},
		}},
		{name: "ParentCycleThroughStoredRow", rows: []Row{row("A", "a", "ParentID", "S1")},
			existing: []Row{row("S1", "stored", "ParentID", "A"), row("A", "old A")},
			want: []Issue{
				{Index: 0, RowID: "A", Field: "ParentID", Code: CodeParentCycle, Value: "S1", Cycle: []string{"A", "S1", "A"}},
			}},
		{name: "DuplicateID", rows: []Row{row("A", "a"), row("B", "b"), row("A", "a again"), row("A", "and again")}, want: []Issue{
			{Index: 0, RowID: "A", Field: "ID", Code: CodeDuplicateID, Value: "A"},
			{Index: 2, RowID: "A", Field: "ID", Code: CodeDuplicateID, Value: "A"},
			{Index: 3, RowID: "A", Field: "ID", Code: CodeDuplicateID, Value: "A"},
		}},
		{name: "SameIDAsStoredRowIsAnUpdate", rows: []Row{row("S1", "new name")}, existing: []Row{row("S1", "stored")}},
		{name: "ParentChildDependency", rows: []Row{
			row("A", "a"),
			row("B", "b", "ParentID", "A", "Predecessors", "A"),    // its parent
			row("C", "c", "ParentID", "B", "Predecessors", "A SS"), // an ancestor
			row("D", "d", "Predecessors", "E"),                     // its child
			row("E", "e", "ParentID", "D"),
			row("F", "f", "Predecessors", "H"),                  // a descendant
			row("G", "g", "ParentID", "F", "Predecessors", "C"), // another branch: fine
			row("H", "h", "ParentID", "G"),
		}, want: []Issue{
			{Index: 1, RowID: "B", Field: "Predecessors", Code: CodeParentChildDependency, Value: "A"},
			{Index: 2, RowID: "C", Field: "Predecessors", Code: CodeParentChildDependency, Value: "A"},
			{Index: 3, RowID: "D", Field: "Predecessors", Code: CodeParentChildDependency, Value: "E"},
			{Index: 5, RowID: "F", Field: "Predecessors", Code: CodeParentChildDependency, Value: "H"},
		}},
		{name: "ParentChildDependencyOfStoredRow", rows: []Row{row("X", "x", "ParentID", "S1")},
			existing: []Row{row("S1", "stored", "Predecessors", "X"), row("X", "old x")},
			want: []Issue{
				{Index: -1, RowID: "S1", Field: "Predecessors", Code: CodeParentChildDependency, Value: "X"},
			}},
	})
}

// spec: R4.5-cx-parent, D-cx
func TestValidatePredecessors(t *testing.T) {
	runValidateCases(t, []validateCase{
		{name: "OK", rows: []Row{row("A", "a"), row("B", "b", "Predecessors", "A FS+2d; S1 SS")},
			existing: []Row{row("S1", "stored")}},
		{name: "ExactIDWins", rows: []Row{row("AHU-1FS", "a"), row("B", "b", "Predecessors", "AHU-1FS")}},
		{name: "NotFound", rows: []Row{row("A", "a"), row("B", "b", "Predecessors", "A, P-9, Q SS+1d")}, want: []Issue{
			{Index: 1, RowID: "B", Field: "Predecessors", Code: CodePredecessorNotFound, Value: "P-9"},
			{Index: 1, RowID: "B", Field: "Predecessors", Code: CodePredecessorNotFound, Value: "Q"},
		}},
		{name: "SelfDependency", rows: []Row{row("A", "a", "Predecessors", "A SS")}, want: []Issue{
			{Index: 0, RowID: "A", Field: "Predecessors", Code: CodeSelfDependency, Value: "A"},
		}},
		{name: "DuplicatePredecessor", rows: []Row{row("A", "a"), row("B", "b", "Predecessors", "A; A SS+1d")}, want: []Issue{
			{Index: 1, RowID: "B", Field: "Predecessors", Code: CodeDuplicatePredecessor, Value: "A"},
		}},
	})
}

// spec: R4.5-cx-cycle, D-cx
func TestValidateCycles(t *testing.T) {
	runValidateCases(t, []validateCase{
		{name: "Acyclic", rows: []Row{
			row("A", "a"), row("B", "b", "Predecessors", "A"), row("C", "c", "Predecessors", "A, B"),
		}},
		{name: "Triangle", rows: []Row{
			row("A", "a", "Predecessors", "C"), row("B", "b", "Predecessors", "A"), row("C", "c", "Predecessors", "B"),
		}, want: []Issue{
			{Index: 0, RowID: "A", Field: "Predecessors", Code: CodeCircularDependency, Cycle: []string{"A", "B", "C", "A"}},
		}},
		{name: "TwoGroupsReportedOnceEach", rows: []Row{
			row("A", "a", "Predecessors", "B"), row("B", "b", "Predecessors", "A, C"), row("C", "c", "Predecessors", "B"),
			row("D", "d", "Predecessors", "E"), row("E", "e", "Predecessors", "D"),
			row("F", "f", "Predecessors", "A, D"),
		}, want: []Issue{
			{Index: 0, RowID: "A", Field: "Predecessors", Code: CodeCircularDependency, Cycle: []string{"A", "B", "A"}},
			{Index: 3, RowID: "D", Field: "Predecessors", Code: CodeCircularDependency, Cycle: []string{"D", "E", "D"}},
		}},
		{name: "ThroughStoredRow", rows: []Row{
			row("A", "a", "Predecessors", "S1"), row("B", "b", "Predecessors", "A"),
		}, existing: []Row{row("S1", "stored", "Predecessors", "B")}, want: []Issue{
			{Index: 0, RowID: "A", Field: "Predecessors", Code: CodeCircularDependency, Cycle: []string{"A", "B", "S1", "A"}},
		}},
		{name: "UploadReplacesStoredLink", rows: []Row{
			row("S1", "stored, now without its link"), row("A", "a", "Predecessors", "S1"),
		}, existing: []Row{row("S1", "stored", "Predecessors", "A")}},
		{name: "TopDownParent", rows: []Row{
			row("P", "parent", "Predecessors", "X"),
			row("C", "child", "ParentID", "P", "ParentChildDependency", "TopDown"),
			row("X", "x", "Predecessors", "C"),
		}, want: []Issue{
			{Index: 0, RowID: "P", Field: "Predecessors", Code: CodeCircularDependency, Cycle: []string{"P", "C", "X", "P"}},
		}},
		{name: "BottomUpParent", rows: []Row{
			row("P", "parent"),
			row("C", "child", "ParentID", "P", "ParentChildDependency", "BottomUp", "Predecessors", "Y"),
			row("X", "x", "Predecessors", "P"),
			row("Y", "y", "Predecessors", "X"),
		}, want: []Issue{
			{Index: 0, RowID: "P", Field: "Predecessors", Code: CodeCircularDependency, Cycle: []string{"P", "X", "Y", "C", "P"}},
		}},
		{name: "NoneAddsNoEdge", rows: []Row{
			row("P", "parent", "Predecessors", "X"),
			row("C", "child", "ParentID", "P", "ParentChildDependency", "None"),
			row("X", "x", "Predecessors", "C"),
		}},
		{name: "ParentCycleWithTopDown", rows: []Row{
			row("A", "a", "ParentID", "B", "ParentChildDependency", "TopDown"),
			row("B", "b", "ParentID", "A", "ParentChildDependency", "TopDown"),
		}, want: []Issue{
			{Index: 0, RowID: "A", Field: "ParentID", Code: CodeParentCycle, Value: "B", Cycle: []string{"A", "B", "A"}},
			{Index: 0, RowID: "A", Field: "Predecessors", Code: CodeCircularDependency, Cycle: []string{"A", "B", "A"}},
		}},
	})
}

// A chain of a million rows, each the parent and the predecessor of the
// next and closed into one loop, is checked without recursion.
//
// spec: R4.5-cx-cycle
func TestValidateLongChain(t *testing.T) {
	if testing.Short() {
		t.Skip("a million rows")
	}
	const n = 1_000_000
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{ID: "R" + strconv.Itoa(i), Name: "r"}
		if i > 0 {
			rows[i].Predecessors = rows[i-1].ID
			rows[i].ParentID = rows[i-1].ID
		}
	}
	rows[0].Predecessors = rows[n-1].ID
	// Every row also depends on its parent: a million errors, of which the
	// report keeps the first thousand.
	rep := Validate(&Request{ScheduleID: "S", Rows: rows}, nil)
	if !rep.Truncated || len(rep.Errors) != MaxErrors || rep.Summary.Errors != n+1 {
		t.Errorf("truncated %v, %d errors listed, %d found; want true, %d, %d", rep.Truncated, len(rep.Errors), rep.Summary.Errors, MaxErrors, n+1)
	}
	var cycles []Issue
	for _, is := range rep.Errors {
		if is.Code == CodeCircularDependency {
			cycles = append(cycles, is)
		}
	}
	if len(cycles) != 1 || len(cycles[0].Cycle) != n+1 {
		t.Fatalf("got %d cycle issues; want one with a loop of %d rows", len(cycles), n)
	}
}
