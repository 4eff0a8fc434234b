package template

import (
	"sort"
	"strings"
)

// unresolvedRef is a name a section refers to that nothing declares.
type unresolvedRef struct {
	name string
	at   *Node
}

func (b *builder) addUnresolved(block, name string, at *Node) {
	b.unresolved[block] = append(b.unresolved[block], unresolvedRef{name, at})
}

// reportUnresolved gives one error per undeclared name and section, at its
// first occurrence, in AWS's words.
func (b *builder) reportUnresolved() {
	for _, block := range []string{"Rules", "Resources", "Outputs"} {
		seen := map[string]bool{}
		for _, u := range b.unresolved[block] {
			if seen[u.name] {
				continue
			}
			seen[u.name] = true
			b.c.at(u.at, "%s", unresolvedMessage(block, u.name))
		}
	}
}

// unresolvedMessage is AWS's message for references nothing declares.
func unresolvedMessage(block string, names ...string) string {
	list := "[" + strings.Join(names, ", ") + "]"
	if block == "Outputs" {
		return "Unresolved resource dependencies " + list + " in the Outputs block of the template"
	}
	return "Template format error: Unresolved resource dependencies " + list + " in the " + block + " block of the template"
}

// conditionCycles refuses conditions that depend on themselves.
func (b *builder) conditionCycles() {
	conds := b.t.Conditions
	index := make(map[string]int, len(conds))
	for i, c := range conds {
		index[c.Name] = i
	}
	edges := make([][]int, len(conds))
	for i, c := range conds {
		for _, d := range b.condDeps[c.Name] {
			if j, ok := index[d]; ok {
				edges[i] = append(edges[i], j)
			}
		}
	}
	for _, scc := range cycles(len(conds), edges) {
		names := make([]string, len(scc))
		for i, v := range scc {
			names[i] = conds[v].Name
		}
		first := conds[scc[0]]
		b.c.atPos(first.Pos, "/Conditions/"+first.Name, "Template format error: Circular dependency between conditions: [%s]", strings.Join(names, ", "))
	}
}

// resourceCycles refuses resources that depend on themselves through
// references that hold whatever the conditions (those outside Fn::If).
// Bind checks again with the conditions of a binding applied.
func (b *builder) resourceCycles() {
	for _, e := range resourceCycleErrors(b.c.file, b.t.Resources, func(r *Resource, ref *Reference) bool {
		return !ref.Conditional()
	}) {
		b.c.add(e)
	}
}

// resourceCycleErrors finds the dependency cycles among resources, using
// the references live says hold.
func resourceCycleErrors(file string, resources []*Resource, live func(*Resource, *Reference) bool) []*Error {
	index := make(map[string]int, len(resources))
	for i, r := range resources {
		index[r.LogicalID] = i
	}
	// The edges of all resources share one backing array.
	n := 0
	for _, r := range resources {
		n += len(r.refs)
	}
	all := make([]int, 0, n)
	edges := make([][]int, len(resources))
	for i, r := range resources {
		start := len(all)
		for k := range r.refs {
			ref := &r.refs[k]
			if !ref.IsResource() || !live(r, ref) {
				continue
			}
			if j, ok := index[ref.Target]; ok {
				all = append(all, j)
			}
		}
		edges[i] = all[start:len(all):len(all)]
	}
	var out []*Error
	for _, scc := range cycles(len(resources), edges) {
		names := make([]string, len(scc))
		for i, v := range scc {
			names[i] = resources[v].LogicalID
		}
		first := resources[scc[0]]
		out = append(out, &Error{
			File: file, Line: first.Pos.Line, Col: first.Pos.Col, Path: "/Resources/" + first.LogicalID,
			Message: "Circular dependency between resources: [" + strings.Join(names, ", ") + "]",
		})
	}
	return out
}

// cycles returns the strongly connected components of a graph that hold a
// cycle (more than one vertex, or a vertex with an edge to itself), each
// sorted by vertex, in the order of their smallest vertex. Tarjan's
// algorithm, iterative so that a chain of 10,000 resources needs no deep
// stack.
func cycles(n int, edges [][]int) [][]int {
	const unvisited = -1
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unvisited
	}
	var stack, scc []int
	var out [][]int
	next := 0
	type frame struct{ v, edge int }
	var call []frame
	for root := 0; root < n; root++ {
		if index[root] != unvisited {
			continue
		}
		call = append(call[:0], frame{root, 0})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.edge < len(edges[v]) {
				w := edges[v][f.edge]
				f.edge++
				if index[w] == unvisited {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				if p := call[len(call)-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] != index[v] {
				continue
			}
			scc = scc[:0]
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			if len(scc) > 1 || selfLoop(v, edges) {
				found := append([]int(nil), scc...)
				sort.Ints(found)
				out = append(out, found)
			}
		}
	}
	// Order by smallest member, so errors follow the template.
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

func selfLoop(v int, edges [][]int) bool {
	for _, w := range edges[v] {
		if w == v {
			return true
		}
	}
	return false
}
