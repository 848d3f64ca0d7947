package cx

import "fmt"

// Validate checks an upload against the rows already stored in its
// schedule. The upload is an upsert by ID: the merged set is the stored rows,
// each replaced by the uploaded row with the same ID, plus the new rows;
// references may point to stored rows and a loop may close through them.
// Every rule is checked and every error reported (up to MaxErrors); stored
// rows that an upload pulls into a loop or a parent-child conflict are
// reported with Index -1. The cost is linear in rows plus links.
func Validate(req *Request, existing []Row) *Report {
	v := &validator{req: req, existing: existing, errs: collector{limit: MaxErrors}}
	for _, is := range req.FieldIssues {
		v.errs.add(is)
	}
	if req.FieldIssuesDropped > 0 {
		v.errs.total += req.FieldIssuesDropped
		v.errs.dropped = true
	}
	v.checkFields()
	v.intern()
	v.checkDuplicates()
	v.checkParents()
	v.checkLinks()
	v.checkCycles()

	warnings := collector{limit: MaxErrors, list: append([]Issue(nil), req.Warnings...)}
	rep := &Report{
		Errors:   v.errs.issues(),
		Warnings: warnings.issues(),
		Summary:  Summarize(req.Rows, existing),
	}
	rep.Truncated = v.errs.dropped
	rep.Summary.Errors = v.errs.total
	rep.Summary.Warnings = len(req.Warnings)
	return rep
}

// validator holds the merged set as a graph of int32 nodes: the uploaded
// rows with an ID (first occurrence of each ID) in upload order, then the
// stored rows the upload does not replace.
type validator struct {
	req      *Request
	existing []Row
	errs     collector

	ids     map[string]int32 // ID → node
	rows    []*Row           // node → row
	index   []int32          // node → upload index, -1 for a stored row
	rowNode []int32          // upload index → node, -1 without an ID
	stored  int32            // the first stored node

	par       []int32 // node → parent node, -1 for none
	tin, tout []int32 // parent forest, entry and last-descendant times

	predOff []int32 // node n links to predTo[predOff[n]:predOff[n+1]]
	predTo  []int32
}

// errorf records an error whose message starts with the row's name.
func (v *validator) errorf(index int, rowID, field, code, value, format string, args ...any) {
	v.errs.add(Issue{
		Index: index, RowID: rowID, Field: field, Code: code, Value: clip(value),
		Message: rowName(index, rowID) + ": " + fmt.Sprintf(format, args...),
	})
}

// nodeName returns the row index and ID of a node for errorf.
func (v *validator) nodeName(n int32) (int, string) {
	return int(v.index[n]), v.rows[n].ID
}
