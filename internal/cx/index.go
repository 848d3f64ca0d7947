package cx

import (
	"fmt"
	"strings"
)

// intern numbers the rows of the merged set once, so that every later pass
// works on int32 slices instead of maps keyed by ID.
func (v *validator) intern() {
	rows := v.req.Rows
	n := len(rows) + len(v.existing)
	v.ids = make(map[string]int32, n)
	v.rows = make([]*Row, 0, n)
	v.index = make([]int32, 0, n)
	v.rowNode = make([]int32, len(rows))
	for i := range rows {
		id := rows[i].ID
		if strings.TrimSpace(id) == "" {
			v.rowNode[i] = -1
			continue
		}
		nd, ok := v.ids[id]
		if !ok {
			nd = v.addNode(&rows[i], int32(i))
		}
		v.rowNode[i] = nd
	}
	v.stored = int32(len(v.rows))
	for i := range v.existing {
		if _, ok := v.ids[v.existing[i].ID]; !ok {
			v.addNode(&v.existing[i], -1)
		}
	}
}

func (v *validator) addNode(r *Row, index int32) int32 {
	nd := int32(len(v.rows))
	v.ids[r.ID] = nd
	v.rows = append(v.rows, r)
	v.index = append(v.index, index)
	return nd
}

// isNodeRow reports whether upload row i is the row of its node, that is
// the first row with its ID.
func (v *validator) isNodeRow(i int) bool {
	nd := v.rowNode[i]
	return nd >= 0 && int(v.index[nd]) == i
}

// checkDuplicates reports every row whose ID another uploaded row has too.
func (v *validator) checkDuplicates() {
	var dups map[int32][]int // node → upload indexes, only for repeated IDs
	for i := range v.req.Rows {
		if nd := v.rowNode[i]; nd >= 0 && !v.isNodeRow(i) {
			if dups == nil {
				dups = map[int32][]int{}
			}
			if dups[nd] == nil {
				dups[nd] = []int{int(v.index[nd])}
			}
			dups[nd] = append(dups[nd], i)
		}
	}
	for nd, at := range dups {
		id := v.rows[nd].ID
		for _, i := range at {
			v.errorf(i, id, FieldID, CodeDuplicateID, id,
				"the ID %s is used by %d rows of this upload (%s); IDs must be unique", id, len(at), rowList(at))
		}
	}
}

// rowList names up to five rows by their 1-based numbers.
func rowList(at []int) string {
	const show = 5
	var b strings.Builder
	b.WriteString("rows ")
	for k, i := range at[:min(len(at), show)] {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, i+1)
	}
	if len(at) > show {
		fmt.Fprintf(&b, " and %d more", len(at)-show)
	}
	return b.String()
}
