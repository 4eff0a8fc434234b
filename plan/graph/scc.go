package graph

import "slices"

// Cycles returns the strongly connected components that hold a cycle (more
// than one vertex, or one vertex with an edge to itself), each ascending, in
// the order of their smallest vertex. Tarjan's algorithm, iterative, so that
// a chain of 100,000 vertices needs no deep stack.
func (g *Graph) Cycles() [][]int {
	g.index()
	const unvisited = -1
	index := make([]int, g.n)
	low := make([]int, g.n)
	onStack := make([]bool, g.n)
	for i := range index {
		index[i] = unvisited
	}
	type frame struct{ v, next int }
	var (
		stack []int
		call  []frame
		out   [][]int
		count int
	)
	for root := 0; root < g.n; root++ {
		if index[root] != unvisited {
			continue
		}
		index[root], low[root] = count, count
		count++
		stack = append(stack, root)
		onStack[root] = true
		call = append(call, frame{root, g.succOff[root]})
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.next < g.succOff[v+1] {
				w := g.succ[f.next]
				f.next++
				switch {
				case index[w] == unvisited:
					index[w], low[w] = count, count
					count++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, g.succOff[w]})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			// v is finished.
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			i := len(stack) - 1
			for stack[i] != v {
				i--
			}
			comp := slices.Clone(stack[i:])
			for _, w := range comp {
				onStack[w] = false
			}
			stack = stack[:i]
			if len(comp) > 1 || g.HasEdge(v, v) {
				slices.Sort(comp)
				out = append(out, comp)
			}
		}
	}
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}
