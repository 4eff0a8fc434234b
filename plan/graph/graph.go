package graph

import (
	"fmt"
	"slices"
)

// Graph is a directed graph over the vertices 0..Len()-1. An edge from u to
// v says that u comes before v. Duplicate edges are kept once; an edge from
// a vertex to itself is a cycle.
//
// Edges are stored as a list and indexed (compressed adjacency, both
// directions) on the first query after a change, so that building a graph of
// n vertices and e edges costs a handful of allocations, not one per vertex.
// A Graph is not safe for concurrent use while edges are being added.
type Graph struct {
	n     int
	edges []edge

	indexed       bool
	succOff, succ []int
	predOff, pred []int
}

type edge struct{ from, to int }

// New returns a graph of n vertices and no edges.
func New(n int) *Graph {
	if n < 0 {
		panic(fmt.Sprintf("graph: negative vertex count %d", n))
	}
	return &Graph{n: n}
}

// Len is the number of vertices.
func (g *Graph) Len() int { return g.n }

// AddEdge adds an edge from u to v: u comes before v. It panics when a
// vertex is out of range, as indexing a slice does.
func (g *Graph) AddEdge(u, v int) {
	if u < 0 || u >= g.n || v < 0 || v >= g.n {
		panic(fmt.Sprintf("graph: edge %d→%d out of range [0, %d)", u, v, g.n))
	}
	g.edges = append(g.edges, edge{u, v})
	g.indexed = false
}

// Grow reserves room for e more edges.
func (g *Graph) Grow(e int) { g.edges = slices.Grow(g.edges, e) }

// EdgeCount is the number of distinct edges.
func (g *Graph) EdgeCount() int {
	g.index()
	return len(g.succ)
}

// Successors returns the vertices v with an edge u→v, ascending. The slice
// belongs to the graph: do not change it.
func (g *Graph) Successors(u int) []int {
	g.index()
	return g.succ[g.succOff[u]:g.succOff[u+1]]
}

// Predecessors returns the vertices u with an edge u→v, ascending. The
// slice belongs to the graph: do not change it.
func (g *Graph) Predecessors(v int) []int {
	g.index()
	return g.pred[g.predOff[v]:g.predOff[v+1]]
}

// HasEdge tells whether the edge u→v exists.
func (g *Graph) HasEdge(u, v int) bool {
	_, ok := slices.BinarySearch(g.Successors(u), v)
	return ok
}

// index builds the compressed adjacency of both directions with a counting
// sort: O(n + e), four allocations. Edges sort by (from, to) for the
// successor lists and by (to, from) for the predecessor lists; duplicates
// are dropped.
func (g *Graph) index() {
	if g.indexed {
		return
	}
	g.succOff, g.succ = bucket(g.n, g.edges, func(e edge) (int, int) { return e.from, e.to })
	g.predOff, g.pred = bucket(g.n, g.edges, func(e edge) (int, int) { return e.to, e.from })
	g.indexed = true
}

// bucket groups edges by key (one counting sort by the other end, then one
// by key, so that every group is sorted) and drops duplicates.
func bucket(n int, edges []edge, kv func(edge) (int, int)) (off, out []int) {
	// First pass: stable counting sort by value into tmp.
	count := make([]int, n+1)
	for _, e := range edges {
		_, v := kv(e)
		count[v+1]++
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	tmp := make([]edge, len(edges))
	for _, e := range edges {
		_, v := kv(e)
		tmp[count[v]] = e
		count[v]++
	}
	// Second pass: stable counting sort by key; values come out sorted.
	off = make([]int, n+1)
	for _, e := range tmp {
		k, _ := kv(e)
		off[k+1]++
	}
	for i := 1; i <= n; i++ {
		off[i] += off[i-1]
	}
	out = make([]int, len(edges))
	pos := slices.Clone(off[:n])
	for _, e := range tmp {
		k, v := kv(e)
		out[pos[k]] = v
		pos[k]++
	}
	// Drop duplicates within each group, compacting in place.
	w := 0
	for k := 0; k < n; k++ {
		start, end := off[k], off[k+1]
		off[k] = w
		for i := start; i < end; i++ {
			if i > start && out[i] == out[i-1] {
				continue
			}
			out[w] = out[i]
			w++
		}
	}
	off[n] = w
	return off, out[:w]
}

// Reverse returns a graph with every edge turned around.
func (g *Graph) Reverse() *Graph {
	r := &Graph{n: g.n, edges: make([]edge, len(g.edges))}
	for i, e := range g.edges {
		r.edges[i] = edge{e.to, e.from}
	}
	return r
}
