package plan

import (
	"errors"

	"github.com/stacksim/stacksim/plan/graph"
	"github.com/stacksim/stacksim/template"
)

// forward is the dependency graph of a bound template: its resources in
// template order (vertex i is resources[i]), an edge from each dependency to
// its dependent, and a topological order with ties in template order.
type forward struct {
	resources []*template.Resource
	index     map[string]int
	deps      [][]int // vertex → its dependencies' vertices, template order
	order     []int
	stepID    []int // vertex → its step ID (position in order + 1)
	slab      []int // backing array of the After slices
}

func newForward(b Bound) (*forward, error) {
	f := &forward{resources: b.Resources()}
	n := len(f.resources)
	f.index = make(map[string]int, n)
	for i, r := range f.resources {
		f.index[r.LogicalID] = i
	}
	g := graph.New(n)
	g.Grow(2 * n)
	f.deps = make([][]int, n)
	var flat []int // one backing array for every vertex's dependencies
	for i, r := range f.resources {
		at := len(flat)
		for _, dep := range b.DependsOn(r.LogicalID) {
			if j, ok := f.index[dep]; ok {
				flat = append(flat, j)
				g.AddEdge(j, i)
			}
		}
		f.deps[i] = flat[at:len(flat):len(flat)]
	}
	order, err := g.Order()
	if err != nil {
		return nil, f.cycleError(err)
	}
	f.order = order
	f.stepID = make([]int, n)
	for k, v := range order {
		f.stepID[v] = k + 1
	}
	return f, nil
}

// cycleError words a graph's cycles as CloudFormation does.
func (f *forward) cycleError(err error) error {
	var ce *graph.CycleError
	if !errors.As(err, &ce) {
		return err
	}
	out := &CycleError{}
	for _, c := range ce.Cycles {
		names := make([]string, len(c))
		for i, v := range c {
			names[i] = f.resources[v].LogicalID
		}
		out.Cycles = append(out.Cycles, names)
	}
	return out
}

// after is the step IDs of a vertex's dependencies, ascending. The slices
// of all vertices share one backing array (each capped at its length).
func (f *forward) after(v int) []int {
	if len(f.deps[v]) == 0 {
		return nil
	}
	if f.slab == nil {
		n := 0
		for _, d := range f.deps {
			n += len(d)
		}
		f.slab = make([]int, 0, n)
	}
	at := len(f.slab)
	for _, d := range f.deps[v] {
		f.slab = append(f.slab, f.stepID[d])
	}
	out := f.slab[at:len(f.slab):len(f.slab)]
	sortInts(out)
	return out
}
