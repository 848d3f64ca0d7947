package cx

import (
	"fmt"
	"strings"
)

// checkCycles reports every group of rows that wait on each other in a loop
// (a strongly connected component of more than one row) once, with the
// shortest loop through its earliest row. An edge u → v means u comes
// before v: v lists u in Predecessors, v is TopDown under its parent u, or u
// is BottomUp under its parent v.
func (v *validator) checkCycles() {
	off, to := v.dependencyGraph()
	comp, size := stronglyConnected(off, to)
	var prev []int32
	for nd := range v.rows {
		c := comp[nd]
		if size[c] < 2 {
			continue
		}
		size[c] = 0 // report each group once, from its lowest node
		if prev == nil {
			prev = make([]int32, len(v.rows))
			for i := range prev {
				prev[i] = -1
			}
		}
		v.reportCycle(int32(nd), comp, off, to, prev)
	}
}

// dependencyGraph builds the edges of checkCycles in compressed form: the
// successors of node u are to[off[u]:off[u+1]].
func (v *validator) dependencyGraph() (off, to []int32) {
	n := len(v.rows)
	off = make([]int32, n+1)
	edges := func(add func(from, to int32)) {
		for w := range n {
			for _, u := range v.predTo[v.predOff[w]:v.predOff[w+1]] {
				add(u, int32(w))
			}
			p := v.par[w]
			if p < 0 {
				continue
			}
			switch v.rows[w].ParentChildDependency {
			case DependencyTopDown:
				add(p, int32(w))
			case DependencyBottomUp:
				add(int32(w), p)
			}
		}
	}
	edges(func(from, _ int32) { off[from+1]++ })
	for u := range n {
		off[u+1] += off[u]
	}
	to = make([]int32, off[n])
	fill := append([]int32(nil), off[:n]...)
	edges(func(from, t int32) {
		to[fill[from]] = t
		fill[from]++
	})
	return off, to
}

// stronglyConnected numbers the strongly connected components of a graph
// with Tarjan's algorithm, iteratively so that long chains cannot overflow
// the stack, in O(nodes + edges). It returns each node's component and the
// size of each component.
func stronglyConnected(off, to []int32) (comp, size []int32) {
	n := len(off) - 1
	order := make([]int32, n) // DFS number + 1; 0 = not visited yet
	low := make([]int32, n)
	comp = make([]int32, n)
	for i := range comp {
		comp[i] = -1 // -1 while unassigned: visited and still on the stack
	}
	var stack []int32
	type frame struct{ node, edge int32 }
	var calls []frame
	clock := int32(0)
	enter := func(w int32) {
		clock++
		order[w], low[w] = clock, clock
		stack = append(stack, w)
		calls = append(calls, frame{w, off[w]})
	}
	for s := range int32(n) {
		if order[s] != 0 {
			continue
		}
		enter(s)
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			u := f.node
			if f.edge < off[u+1] {
				w := to[f.edge]
				f.edge++
				if order[w] == 0 {
					enter(w)
				} else if comp[w] < 0 {
					low[u] = min(low[u], order[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				parent := calls[len(calls)-1].node
				low[parent] = min(low[parent], low[u])
			}
			if low[u] == order[u] {
				c := int32(len(size))
				count := int32(0)
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = c
					count++
					if w == u {
						break
					}
				}
				size = append(size, count)
			}
		}
	}
	return comp, size
}

// reportCycle finds, by breadth-first search inside root's component, the
// shortest loop through root and reports the group. prev is scratch space
// of -1s, restored before returning.
func (v *validator) reportCycle(root int32, comp, off, to, prev []int32) {
	c := comp[root]
	queue := []int32{root}
	var last int32 = -1
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		for _, w := range to[off[u]:off[u+1]] {
			if comp[w] != c {
				continue
			}
			if w == root && last < 0 {
				last = u
			}
			if prev[w] < 0 && w != root {
				prev[w] = u
				queue = append(queue, w)
			}
		}
	}
	var loop []string
	for u := last; u != root; u = prev[u] {
		loop = append(loop, v.rows[u].ID)
	}
	loop = append(loop, v.rows[root].ID)
	for i, j := 0, len(loop)-1; i < j; i, j = i+1, j-1 {
		loop[i], loop[j] = loop[j], loop[i]
	}
	loop = append(loop, v.rows[root].ID)

	names := make([]string, 0, 10)
	for _, u := range queue[:min(len(queue), 10)] {
		names = append(names, v.rows[u].ID)
	}
	group := strings.Join(names, ", ")
	if len(queue) > len(names) {
		group += fmt.Sprintf(" and %d more", len(queue)-len(names))
	}
	for _, u := range queue {
		prev[u] = -1
	}
	index, id := v.nodeName(root)
	v.errs.add(Issue{
		Index: index, RowID: id, Field: FieldPredecessors, Code: CodeCircularDependency,
		Message: fmt.Sprintf("%s: rows %s wait on each other in a loop, for example %s "+
			"(an arrow means \"comes before\", through Predecessors or a TopDown/BottomUp parent); remove one of these links",
			rowName(index, id), group, strings.Join(loop, " → ")),
		Cycle: loop,
	})
}
