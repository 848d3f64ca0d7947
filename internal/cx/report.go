package cx

import "slices"

// MaxErrors is the number of errors a Report lists at most.
const MaxErrors = 1000

// Report is the outcome of Validate. Errors are sorted by row index, then
// field; when more than MaxErrors were found, only the first MaxErrors are
// kept and Truncated is set.
type Report struct {
	Errors    []Issue `json:"errors"`
	Warnings  []Issue `json:"warnings"`
	Truncated bool    `json:"truncated"`
	Summary   Summary `json:"summary"`
}

// OK reports whether the upload may be applied.
func (r *Report) OK() bool { return len(r.Errors) == 0 }

// Summary counts the rows of an upload. Created, Updated and Unchanged say
// what applying it would do; Errors is the number of errors found, which
// may exceed the number listed.
type Summary struct {
	Received  int `json:"received"`
	Created   int `json:"created"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	Warnings  int `json:"warnings"`
	Errors    int `json:"errors"`
}

// Summarize counts which rows an upsert of rows by ID would create, update
// or leave unchanged (every field equal to the stored row). It is meant for
// a valid upload; a repeated ID is counted each time.
func Summarize(rows, existing []Row) Summary {
	s := Summary{Received: len(rows)}
	stored := make(map[string]*Row, len(existing))
	for i := range existing {
		stored[existing[i].ID] = &existing[i]
	}
	for i := range rows {
		switch old, ok := stored[rows[i].ID]; {
		case !ok:
			s.Created++
		case *old == rows[i]:
			s.Unchanged++
		default:
			s.Updated++
		}
	}
	return s
}

// collector keeps the first limit issues in sort order without holding
// every issue of a hopeless upload.
type collector struct {
	list    []Issue
	limit   int
	total   int
	dropped bool
}

func (c *collector) add(is Issue) {
	c.total++
	c.list = append(c.list, is)
	if len(c.list) >= 2*c.limit {
		c.prune()
	}
}

func (c *collector) prune() {
	slices.SortFunc(c.list, func(a, b Issue) int { return compareIssues(&a, &b) })
	if len(c.list) > c.limit {
		clear(c.list[c.limit:])
		c.list = c.list[:c.limit]
		c.dropped = true
	}
}

// issues returns the kept issues, sorted, never nil.
func (c *collector) issues() []Issue {
	c.prune()
	if c.list == nil {
		return []Issue{}
	}
	return c.list
}
