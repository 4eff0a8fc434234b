package graph

import "slices"

// Induce returns the graph on the vertices that keep says to keep, numbered
// as before (the others are left without edges), with an edge u→v wherever
// the original graph has a path from u to v whose inner vertices are all
// dropped. The order the dropped vertices imposed between kept ones is thus
// preserved, and nothing else is added. The graph must be acyclic.
//
// The sets of kept vertices reachable through dropped ones are computed once
// per dropped vertex, in reverse topological order.
func (g *Graph) Induce(keep []bool) (*Graph, error) {
	order, err := g.Order()
	if err != nil {
		return nil, err
	}
	out := New(g.n)
	out.Grow(len(g.succ))
	// reach[d] for a dropped d: the kept vertices reachable from d through
	// dropped vertices only, ascending.
	reach := make([][]int, g.n)
	for i := len(order) - 1; i >= 0; i-- {
		d := order[i]
		if keep[d] {
			continue
		}
		var set []int
		for _, s := range g.Successors(d) {
			if keep[s] {
				set = append(set, s)
			} else {
				set = append(set, reach[s]...)
			}
		}
		slices.Sort(set)
		reach[d] = slices.Compact(set)
	}
	for u := 0; u < g.n; u++ {
		if !keep[u] {
			continue
		}
		for _, s := range g.Successors(u) {
			if keep[s] {
				out.AddEdge(u, s)
				continue
			}
			for _, v := range reach[s] {
				out.AddEdge(u, v)
			}
		}
	}
	return out, nil
}

// Restrict returns the graph on the vertices that keep says to keep,
// numbered as before, with the edges of g between kept vertices only.
func (g *Graph) Restrict(keep []bool) *Graph {
	out := New(g.n)
	for _, e := range g.edges {
		if keep[e.from] && keep[e.to] {
			out.edges = append(out.edges, e)
		}
	}
	return out
}
