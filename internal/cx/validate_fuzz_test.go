package cx

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fuzzGraph turns fuzz bytes into a small upload and stored rows whose IDs
// come from a pool of eight, so that parents, predecessors, replaced stored
// rows, repeated IDs, self links and missing IDs all occur.
func fuzzGraph(data []byte) (upload, existing []Row) {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	pool := []string{"A", "B", "C", "D", "E", "F", "G", "H", "missing"}
	deps := []string{"", DependencyNone, DependencyTopDown, DependencyBottomUp}
	gen := func() Row {
		r := Row{ID: pool[next()%8], Name: "n"}
		if p := next() % 10; p < len(pool) {
			r.ParentID = pool[p]
		}
		r.ParentChildDependency = deps[next()%len(deps)]
		var preds []string
		for range next() % 4 {
			preds = append(preds, pool[next()%len(pool)])
		}
		r.Predecessors = strings.Join(preds, ", ")
		return r
	}
	upload = make([]Row, 1+next()%8)
	for i := range upload {
		upload[i] = gen()
	}
	existing = make([]Row, next()%4)
	for i := range existing {
		existing[i] = gen()
	}
	return upload, existing
}

// merged applies the upsert the simple way: the first row of each ID wins,
// uploaded rows over stored ones.
func merged(upload, existing []Row) map[string]Row {
	m := map[string]Row{}
	for _, rows := range [][]Row{upload, existing} {
		for _, r := range rows {
			if _, ok := m[r.ID]; !ok {
				m[r.ID] = r
			}
		}
	}
	return m
}

// bruteEdges lists the "comes before" edges of the merged set, without
// self-loops (those are SELF_DEPENDENCY and SELF_PARENT errors instead).
func bruteEdges(m map[string]Row) (deps, parents map[string][]string) {
	deps, parents = map[string][]string{}, map[string][]string{}
	add := func(e map[string][]string, from, to string) {
		if _, ok := m[from]; ok && from != to {
			if _, ok := m[to]; ok {
				e[from] = append(e[from], to)
			}
		}
	}
	for id, r := range m {
		if r.Predecessors != "" {
			for _, p := range strings.Split(r.Predecessors, ", ") {
				add(deps, p, id)
			}
		}
		add(parents, id, r.ParentID)
		switch r.ParentChildDependency {
		case DependencyTopDown:
			add(deps, r.ParentID, id)
		case DependencyBottomUp:
			add(deps, id, r.ParentID)
		}
	}
	return deps, parents
}

// reaches reports whether to can be reached from from by one or more edges.
func reaches(e map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	stack := slices.Clone(e[from])
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if u == to {
			return true
		}
		if !seen[u] {
			seen[u] = true
			stack = append(stack, e[u]...)
		}
	}
	return false
}

// onCycles is the brute-force answer: the rows that can reach themselves.
func onCycles(m map[string]Row, e map[string][]string) []string {
	var ids []string
	for id := range m {
		if reaches(e, id, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// checkLoop fails unless loop is a closed walk along edges of e.
func checkLoop(t *testing.T, e map[string][]string, loop []string) {
	t.Helper()
	if len(loop) < 3 || loop[0] != loop[len(loop)-1] {
		t.Fatalf("cycle %v is not closed", loop)
	}
	for i := 0; i+1 < len(loop); i++ {
		if !slices.Contains(e[loop[i]], loop[i+1]) {
			t.Fatalf("cycle %v uses %s → %s, which is not a link", loop, loop[i], loop[i+1])
		}
	}
}

// FuzzValidate checks cycle detection against brute force on small random
// graphs: the rows reported in CIRCULAR_DEPENDENCY groups (each issue names
// one loop; its group is every row on a loop with it) are exactly the rows
// that can reach themselves, with every group reported once; the rows in
// PARENT_CYCLE loops are exactly those whose parent chain comes back to them.
//
// spec: R4.5-cx-cycle, R4.5-cx-parent
func FuzzValidate(f *testing.F) {
	for _, seed := range []string{
		"",
		"\x03\x00\x01\x00\x01\x01\x01\x01\x02\x00\x02\x00\x01\x01\x02\x00\x00\x01\x00",
		"\x07\x00\x01\x02\x02\x01\x03\x01\x02\x03\x01\x02\x02\x02\x03\x03\x03\x04\x00\x02\x01\x04\x04\x05\x03\x01\x05",
		"\x05\x00\x01\x03\x00\x01\x02\x02\x00\x03\x01\x02\x03\x00\x02\x02\x01\x01\x00\x00\x03\x01\x00\x00\x01\x03",
		"\x02\x00\x00\x00\x01\x01\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x03\x01\x00\x01\x00\x01\x00\x00",
		"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0\xef\xee\xed\xec\xeb\xea\xe9\xe8\xe7\xe6",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		upload, existing := fuzzGraph(data)
		rep := Validate(&Request{ScheduleID: "S", Rows: upload}, existing)
		m := merged(upload, existing)
		deps, parents := bruteEdges(m)

		var groups []string
		for _, is := range rep.Errors {
			if is.Code != CodeCircularDependency {
				continue
			}
			checkLoop(t, deps, is.Cycle)
			for id := range m {
				if id == is.Cycle[0] || (reaches(deps, id, is.Cycle[0]) && reaches(deps, is.Cycle[0], id)) {
					if slices.Contains(groups, id) {
						t.Fatalf("%s is in two reported groups", id)
					}
					groups = append(groups, id)
				}
			}
		}
		slices.Sort(groups)
		if diff := cmp.Diff(onCycles(m, deps), groups); diff != "" {
			t.Fatalf("rows on dependency loops (-brute force +reported):\n%s\nupload %+v\nstored %+v", diff, upload, existing)
		}

		var inParentLoops []string
		for _, is := range rep.Errors {
			if is.Code == CodeParentCycle {
				checkLoop(t, parents, is.Cycle)
				inParentLoops = append(inParentLoops, is.Cycle[1:]...)
			}
		}
		slices.Sort(inParentLoops)
		if diff := cmp.Diff(onCycles(m, parents), inParentLoops); diff != "" {
			t.Fatalf("rows on parent loops (-brute force +reported):\n%s\nupload %+v\nstored %+v", diff, upload, existing)
		}
	})
}
