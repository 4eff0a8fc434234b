package plan

import (
	"github.com/stacksim/stacksim/plan/graph"
)

// ForDelete plans the deletion of a stack: every resource it still has, in
// the reverse of the deployed dependency order (a resource before what it
// depends on), ties in deployed order, in the phase DELETE_IN_PROGRESS.
//
//   - DeletionPolicy Delete → Delete; Retain and RetainExceptOnCreate →
//     Retain (DELETE_SKIPPED: the stack's deletion is not the rollback of
//     their creation); Snapshot → Snapshot.
//   - A resource named in retainResources (DeleteStack's RetainResources,
//     which the engine accepts only for a stack in DELETE_FAILED, and
//     checks names against) → Retain.
//   - A resource already DELETE_COMPLETE or DELETE_SKIPPED has no step (a
//     retried delete skips what the last one deleted); DELETE_FAILED ones
//     are deleted again.
//   - A resource that never got a physical resource → Forget, whatever
//     its policy, unless a delete of it failed (a custom resource, sent
//     its Delete by the rollback of a Create that got no answer): it is
//     deleted again, or retained.
//
// The order between two resources holds through resources that have no
// step any more: if C depended on B which depended on A and B is gone, C is
// still deleted before A.
func ForDelete(deployed Deployed, retainResources []string) *Plan {
	retain := make(map[string]bool, len(retainResources))
	for _, id := range retainResources {
		retain[id] = true
	}
	rs := deployed.Resources
	index := make(map[string]int, len(rs))
	for i := range rs {
		if _, dup := index[rs[i].LogicalID]; !dup {
			index[rs[i].LogicalID] = i
		}
	}
	// Vertices are the deployed resources, in deployed order; an edge runs
	// from a dependent to its dependency (deleted first).
	g := graph.New(len(rs))
	keep := make([]bool, len(rs))
	for i := range rs {
		if index[rs[i].LogicalID] != i {
			continue
		}
		keep[i] = !rs[i].gone()
		for _, dep := range rs[i].DependsOn {
			if j, ok := index[dep]; ok && j != i {
				g.AddEdge(i, j)
			}
		}
	}
	induced, err := g.Induce(keep)
	if err != nil {
		induced = dropCycles(g, err, keep)
	}
	order, err := induced.Order()
	if err != nil {
		order = breakCycles(induced, err)
	}
	ids := make([]int, len(rs))
	n := 0
	for _, v := range order {
		if keep[v] {
			n++
			ids[v] = n
		}
	}
	p := &Plan{Operation: OpDelete, Steps: make([]Step, 0, n)}
	for _, v := range order {
		if !keep[v] {
			continue
		}
		d := &rs[v]
		a := deletion(d.DeletionPolicy)
		switch {
		case d.neverCreated() && !d.deleteFailed():
			a = Forget
		case retain[d.LogicalID]:
			a = Retain
		}
		s := Step{
			ID:                  ids[v],
			LogicalID:           d.LogicalID,
			ResourceType:        d.Type,
			Action:              a,
			Phase:               PhaseDelete,
			PhysicalID:          d.PhysicalID,
			Custom:              IsCustom(d.Type),
			PolicyAction:        policyAction(a),
			DeletionPolicy:      policy(d.DeletionPolicy),
			UpdateReplacePolicy: policy(d.UpdateReplacePolicy),
		}
		for _, u := range induced.Predecessors(v) {
			s.After = append(s.After, ids[u])
		}
		sortInts(s.After)
		p.Steps = append(p.Steps, s)
	}
	return p
}

// dropCycles is the induced graph of a graph with cycles (which a deployed
// template cannot have): the edges inside each cycle dropped first.
func dropCycles(g *graph.Graph, err error, keep []bool) *graph.Graph {
	order := breakCycles(g, err)
	pos := make([]int, g.Len())
	for i, v := range order {
		pos[v] = i
	}
	h := graph.New(g.Len())
	for u := 0; u < g.Len(); u++ {
		for _, v := range g.Successors(u) {
			if pos[u] < pos[v] {
				h.AddEdge(u, v)
			}
		}
	}
	induced, err := h.Induce(keep)
	if err != nil {
		return graph.New(g.Len())
	}
	return induced
}
