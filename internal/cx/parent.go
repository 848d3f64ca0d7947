package cx

import "strings"

// checkParents resolves ParentID links, reports SELF_PARENT,
// PARENT_NOT_FOUND and PARENT_CYCLE, and numbers the parent forest for the
// ancestor test of isAncestor.
func (v *validator) checkParents() {
	n := len(v.rows)
	v.par = make([]int32, n)
	for i := range v.par {
		v.par[i] = -1
	}
	for i := range v.req.Rows {
		r := &v.req.Rows[i]
		if p, ok := v.parentOf(i, r); ok && v.isNodeRow(i) {
			v.par[v.rowNode[i]] = p
		}
	}
	for nd := v.stored; nd < int32(n); nd++ {
		if p, ok := v.parentOf(-1, v.rows[nd]); ok {
			v.par[nd] = p
		}
	}
	cut := v.parentCycles()
	v.numberForest(cut)
}

// parentOf resolves r's parent, reporting a bad one when index >= 0.
func (v *validator) parentOf(index int, r *Row) (int32, bool) {
	if r.ParentID == "" {
		return -1, false
	}
	if r.ParentID == r.ID {
		if index >= 0 {
			v.errorf(index, r.ID, FieldParentID, CodeSelfParent, r.ParentID, "a row cannot be its own parent")
		}
		return -1, false
	}
	p, ok := v.ids[r.ParentID]
	if !ok && index >= 0 {
		v.errorf(index, r.ID, FieldParentID, CodeParentNotFound, r.ParentID,
			"ParentID names %s, which is not in this upload or the schedule", r.ParentID)
	}
	return p, ok
}

// parentCycles reports each loop of ParentID links once, starting at its
// lowest node (the earliest uploaded row), and returns, per node, whether
// its parent link is cut to turn the parent graph into a forest. Each node
// has one parent, so one walk per node, marking what it visits, finds every
// loop in linear time.
func (v *validator) parentCycles() (cut []bool) {
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(v.rows))
	var path []int32
	for s := range v.rows {
		path = path[:0]
		u := int32(s)
		for u >= 0 && state[u] == unseen {
			state[u] = onPath
			path = append(path, u)
			u = v.par[u]
		}
		if u >= 0 && state[u] == onPath {
			k := len(path) - 1
			for path[k] != u {
				k--
			}
			root := v.reportParentCycle(path[k:])
			if cut == nil {
				cut = make([]bool, len(v.rows))
			}
			cut[root] = true
		}
		for _, w := range path {
			state[w] = done
		}
	}
	return cut
}

// reportParentCycle reports the loop through loop's nodes (each the parent
// of the one before, the last's parent the first) and returns its root.
func (v *validator) reportParentCycle(loop []int32) int32 {
	at := 0
	for k, nd := range loop {
		if nd < loop[at] {
			at = k
		}
	}
	ids := make([]string, 0, len(loop)+1)
	for k := range loop {
		ids = append(ids, v.rows[loop[(at+k)%len(loop)]].ID)
	}
	ids = append(ids, ids[0])
	root := loop[at]
	index, id := v.nodeName(root)
	v.errs.add(Issue{
		Index: index, RowID: id, Field: FieldParentID, Code: CodeParentCycle, Value: v.rows[root].ParentID,
		Message: rowName(index, id) + ": the ParentID links go round in a loop: " + strings.Join(ids, " → "),
		Cycle:   ids,
	})
	return root
}

// numberForest gives every node its entry time tin and the last entry time
// tout of its subtree in the parent forest (loops cut where cut says), with
// an explicit stack, so that isAncestor is O(1) and deep trees are safe.
func (v *validator) numberForest(cut []bool) {
	n := len(v.rows)
	parent := func(u int) int32 {
		if cut != nil && cut[u] {
			return -1
		}
		return v.par[u]
	}
	off := make([]int32, n+1) // children of p: kids[off[p]:off[p+1]]
	for u := range n {
		if p := parent(u); p >= 0 {
			off[p+1]++
		}
	}
	for p := range n {
		off[p+1] += off[p]
	}
	kids := make([]int32, off[n])
	fill := append([]int32(nil), off[:n]...)
	for u := range n {
		if p := parent(u); p >= 0 {
			kids[fill[p]] = int32(u)
			fill[p]++
		}
	}
	v.tin = make([]int32, n)
	v.tout = make([]int32, n)
	clock := int32(0)
	var next []int32 // the DFS stack: pairs of node and child cursor
	for r := range n {
		if parent(r) >= 0 {
			continue
		}
		next = append(next[:0], int32(r), off[r])
		v.tin[r] = clock
		clock++
		for len(next) > 0 {
			u, c := next[len(next)-2], next[len(next)-1]
			if c < off[u+1] {
				next[len(next)-1]++
				w := kids[c]
				v.tin[w] = clock
				clock++
				next = append(next, w, off[w])
				continue
			}
			v.tout[u] = clock - 1
			next = next[:len(next)-2]
		}
	}
}

// isAncestor reports whether a is a proper ancestor of b in the parent forest.
func (v *validator) isAncestor(a, b int32) bool {
	return v.tin[a] < v.tin[b] && v.tin[b] <= v.tout[a]
}
