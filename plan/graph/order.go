package graph

import (
	"fmt"
	"strings"
)

// CycleError says the graph has cycles: each is a strongly connected
// component that holds one, its vertices ascending, the components in the
// order of their smallest vertex.
type CycleError struct {
	Cycles [][]int
}

func (e *CycleError) Error() string {
	parts := make([]string, len(e.Cycles))
	for i, c := range e.Cycles {
		parts[i] = fmt.Sprint(c)
	}
	return "graph: cycle between vertices " + strings.Join(parts, ", ")
}

// Order returns the vertices in topological order: every edge u→v has u
// before v. Among the vertices that may come next, the smallest comes first,
// so that the order is the vertex order wherever the edges allow it (the
// lexicographically smallest topological order). A graph with cycles gives a
// *CycleError naming them.
func (g *Graph) Order() ([]int, error) {
	g.index()
	indeg := make([]int, g.n)
	for v := 0; v < g.n; v++ {
		indeg[v] = g.predOff[v+1] - g.predOff[v]
	}
	ready := make(minHeap, 0, g.n)
	for v := 0; v < g.n; v++ {
		if indeg[v] == 0 {
			ready = append(ready, v)
		}
	}
	// The initial candidates are ascending: already a heap.
	order := make([]int, 0, g.n)
	for len(ready) > 0 {
		u := ready.pop()
		order = append(order, u)
		for _, v := range g.succ[g.succOff[u]:g.succOff[u+1]] {
			indeg[v]--
			if indeg[v] == 0 {
				ready.push(v)
			}
		}
	}
	if len(order) < g.n {
		return nil, &CycleError{Cycles: g.Cycles()}
	}
	return order, nil
}

// Levels groups the vertices by the length of the longest path that reaches
// them: level 0 holds the vertices with no predecessor, level k those whose
// predecessors all lie in levels below k and at least one in k-1. Running
// one level after another, every vertex of a level at once, respects every
// edge and is as parallel as the edges allow. Each level is ascending.
func (g *Graph) Levels() ([][]int, error) {
	order, err := g.Order()
	if err != nil {
		return nil, err
	}
	level := make([]int, g.n)
	depth := 0
	for _, v := range order {
		l := 0
		for _, u := range g.pred[g.predOff[v]:g.predOff[v+1]] {
			if level[u]+1 > l {
				l = level[u] + 1
			}
		}
		level[v] = l
		if l+1 > depth {
			depth = l + 1
		}
	}
	sizes := make([]int, depth)
	for _, l := range level {
		sizes[l]++
	}
	flat := make([]int, g.n)
	out := make([][]int, depth)
	at := 0
	for l, s := range sizes {
		out[l] = flat[at : at : at+s]
		at += s
	}
	for v := 0; v < g.n; v++ { // ascending within each level
		out[level[v]] = append(out[level[v]], v)
	}
	return out, nil
}

// minHeap is a binary min-heap of vertices, without the boxing of
// container/heap.
type minHeap []int

func (h *minHeap) push(v int) {
	*h = append(*h, v)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p] <= a[i] {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *minHeap) pop() int {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	i := 0
	for {
		l, small := 2*i+1, i
		if l < len(a) && a[l] < a[small] {
			small = l
		}
		if r := l + 1; r < len(a) && a[r] < a[small] {
			small = r
		}
		if small == i {
			break
		}
		a[i], a[small] = a[small], a[i]
		i = small
	}
	*h = a
	return top
}
