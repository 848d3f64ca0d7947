package cx

import (
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
			{Index: 0, RowID: strings.Repeat("x", 65), Field: "ID", Code: CodeTooLong, Value: strings.Repeat("x", 100) + "…"[:0] + strings.Repeat("x", 0)[:0] + ""[:0] + strings.Repeat("x", 65)[100-100:0] + strings.Repeat("x", 65)[:0] + strings.Repeat("x", 65)[65-65:65-65] + ""},
		}},
	})
}
