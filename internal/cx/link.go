package cx

// checkLinks parses every row's Predecessors against the merged set,
// reports PREDECESSOR_SYNTAX, PREDECESSOR_NOT_FOUND, SELF_DEPENDENCY,
// DUPLICATE_PREDECESSOR and PARENT_CHILD_DEPENDENCY, and keeps the links of
// each node in predOff/predTo. A row whose Predecessors cannot be read
// contributes no links.
func (v *validator) checkLinks() {
	n := len(v.rows)
	known := func(id string) bool { _, ok := v.ids[id]; return ok }
	v.predOff = make([]int32, n+1)
	v.predTo = make([]int32, 0, 2*n)
	seen := make([]int32, n) // seen[p] == stamp: p is already listed by the current row
	stamp := int32(0)
	var buf []Predecessor
	visit := func(index int, r *Row, nd int32) {
		stamp++
		var err error
		buf, err = appendPredecessors(buf[:0], r.Predecessors, known)
		if err != nil {
			if index >= 0 {
				v.errorf(index, r.ID, FieldPredecessors, CodePredecessorSyntax, r.Predecessors,
					"Predecessors cannot be read: %v", err)
			}
			return
		}
		for _, p := range buf {
			pn, ok := v.ids[p.ID]
			switch {
			case !ok:
				if index >= 0 {
					v.errorf(index, r.ID, FieldPredecessors, CodePredecessorNotFound, p.ID,
						"Predecessors names %s, which is not in this upload or the schedule", p.ID)
				}
			case p.ID == r.ID:
				if index >= 0 {
					v.errorf(index, r.ID, FieldPredecessors, CodeSelfDependency, p.ID, "a row cannot be its own predecessor")
				}
			case seen[pn] == stamp:
				if index >= 0 {
					v.errorf(index, r.ID, FieldPredecessors, CodeDuplicatePredecessor, p.ID,
						"Predecessors names %s more than once", p.ID)
				}
			default:
				seen[pn] = stamp
				if nd >= 0 {
					v.predTo = append(v.predTo, pn)
					v.checkParentChild(nd, pn)
				}
			}
		}
	}
	for i := range v.req.Rows {
		nd := int32(-1)
		if v.isNodeRow(i) {
			nd = v.rowNode[i]
			v.predOff[nd] = int32(len(v.predTo))
		}
		visit(i, &v.req.Rows[i], nd)
	}
	for nd := v.stored; nd < int32(n); nd++ {
		v.predOff[nd] = int32(len(v.predTo))
		visit(-1, v.rows[nd], nd)
	}
	v.predOff[n] = int32(len(v.predTo))
}

// checkParentChild reports node nd depending on its own ancestor or
// descendant pn.
func (v *validator) checkParentChild(nd, pn int32) {
	var rel string
	switch {
	case v.par[nd] == pn:
		rel = "its parent"
	case v.par[pn] == nd:
		rel = "its child"
	case v.isAncestor(pn, nd):
		rel = "an ancestor of it"
	case v.isAncestor(nd, pn):
		rel = "a descendant of it"
	default:
		return
	}
	index, id := v.nodeName(nd)
	v.errorf(index, id, FieldPredecessors, CodeParentChildDependency, v.rows[pn].ID,
		"Predecessors names %s, which is %s in the ParentID tree; a row cannot depend on its own ancestor or descendant",
		v.rows[pn].ID, rel)
}
