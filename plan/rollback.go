package plan

import (
	"fmt"

	"github.com/stacksim/stacksim/plan/graph"
)

// RollbackOptions tune a rollback.
type RollbackOptions struct {
	// RetainExceptOnCreate is the stack's RetainExceptOnCreate flag
	// (CreateStack, UpdateStack): resources the failed operation created are
	// deleted even when their DeletionPolicy is Retain.
	RetainExceptOnCreate bool
}

// Rollback plans the undoing of a failed create or update from its plan and
// the journal of what ran: the inverse of every step that started, in the
// reverse sense.
//
// A create rolls back in ROLLBACK_IN_PROGRESS: what each step created is
// deleted, a resource before what it depends on (its DeletionPolicy holds:
// Retain retains unless opts.RetainExceptOnCreate, RetainExceptOnCreate
// deletes, Snapshot snapshots). A step whose resource got no physical
// resource is a Forget; a custom resource is always sent its Delete (AWS
// sends one even after a failed Create).
//
// An update rolls back in two phases. In UPDATE_ROLLBACK_IN_PROGRESS, in
// the deployed template's dependency order (a resource's old properties
// resolve against what it refers to, which must be back first):
//
//   - a resource updated in place (done, failed, cancelled or in flight) is
//     updated back to its old properties (Update; a step that changed only
//     Metadata or policies changes them back without a handler call);
//   - a replaced resource whose old physical resource still stands goes
//     back to it (Restore of PhysicalID; for a custom resource that is the
//     Update with ResourceProperties = old, OldResourceProperties = new);
//   - a DeleteThenCreate whose old physical resource is gone is created
//     again with its old properties (Create, or DeleteThenCreate of the new
//     physical resource NewPhysicalID when the step made one).
//
// In UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS, in the reverse of the
// desired template's dependency order, everything the update created is
// deleted: added resources (by the rule of a create's rollback) and the new
// physical resources of replacements (Delete).
//
// The engine resolves the properties of rollback steps against the
// template the stack had before the operation.
func Rollback(forward *Plan, journal Journal, opts RollbackOptions) (*Plan, error) {
	var main, cleanup Phase
	switch forward.Operation {
	case OpCreate:
		main = PhaseRollback
	case OpUpdate:
		main, cleanup = PhaseUpdateRollback, PhaseUpdateRollbackCleanup
	default:
		return nil, fmt.Errorf("plan: a %s operation has no rollback", forward.Operation)
	}
	last := journal.Last()
	steps := forward.In(forward.Phases()[0])
	pos := make(map[int]int, len(steps))
	for i, s := range steps {
		pos[s.ID] = i
	}
	for id, e := range last {
		s := forward.Step(id)
		switch {
		case s == nil:
			return nil, fmt.Errorf("plan: journal entry for step %d, which the %s plan does not have", id, forward.Operation)
		case s.Phase != steps[0].Phase:
			return nil, fmt.Errorf("plan: cannot roll back: the %s reached its %s phase (step %d, %s)", forward.Operation, s.Phase, id, s.LogicalID)
		case e.LogicalID != "" && e.LogicalID != s.LogicalID:
			return nil, fmt.Errorf("plan: journal entry for step %d names %s, the step is %s's", id, e.LogicalID, s.LogicalID)
		case e.Outcome < Done || e.Outcome > InFlight:
			return nil, fmt.Errorf("plan: journal entry for step %d (%s) has no outcome", id, s.LogicalID)
		}
	}

	// undo[i] and remove[i]: the rollback-phase and cleanup-phase steps
	// undoing forward step i (nil when none).
	undo := make([]*Step, len(steps))
	remove := make([]*Step, len(steps))
	for i := range steps {
		s := &steps[i]
		e, ok := last[s.ID]
		if !ok {
			continue
		}
		base := Step{LogicalID: s.LogicalID, ResourceType: s.ResourceType, Custom: s.Custom, Undoes: s.ID,
			DeletionPolicy: s.DeletionPolicy, UpdateReplacePolicy: s.UpdateReplacePolicy}
		old := s.PhysicalID
		if e.OldPhysicalID != "" {
			old = e.OldPhysicalID
		}
		deleteNew := func() *Step {
			d := base
			d.Action, d.PhysicalID = Delete, e.NewPhysicalID
			return &d
		}
		restore := func() *Step {
			r := base
			r.Action, r.PhysicalID, r.NewPhysicalID = Restore, old, e.NewPhysicalID
			return &r
		}
		switch a := e.ran(s.Action); a {
		case NoOp:
		case Create:
			d := base
			d.PhysicalID = e.NewPhysicalID
			switch {
			case e.created() || s.Custom:
				d.Action = createdDeletion(s.DeletionPolicy, opts)
			default:
				d.Action = Forget
			}
			if forward.Operation == OpCreate {
				undo[i] = &d
			} else {
				remove[i] = &d
			}
		case Update:
			if e.leftOld(a) {
				undo[i], remove[i] = restore(), deleteNew()
				break
			}
			r := base
			r.Action, r.PhysicalID, r.Scope = Update, old, append([]string(nil), s.Scope...)
			undo[i] = &r
		case CreateThenDelete:
			undo[i] = restore()
			if e.created() {
				remove[i] = deleteNew()
			}
		case DeleteThenCreate:
			switch {
			case !e.OldDeleted:
				undo[i] = restore()
				if e.created() {
					remove[i] = deleteNew()
				}
			case e.created():
				r := base
				r.Action, r.PhysicalID, r.NewPhysicalID = DeleteThenCreate, e.NewPhysicalID, e.NewPhysicalID
				undo[i] = &r
			default:
				r := base
				r.Action = Create
				undo[i] = &r
			}
		default:
			return nil, fmt.Errorf("plan: cannot roll back step %d (%s): %s is not a forward action", s.ID, s.LogicalID, a)
		}
	}

	p := &Plan{Operation: OpUpdateRollback}
	if forward.Operation == OpCreate {
		p.Operation = OpRollback
		p.Steps = order(steps, undo, main, reverseAfter(steps, pos), 0)
		return p, nil
	}
	p.Steps = order(steps, undo, main, priorAfter(steps, pos), 0)
	p.Steps = append(p.Steps, order(steps, remove, cleanup, reverseAfter(steps, pos), len(p.Steps))...)
	return p, nil
}

// createdDeletion is how the rollback of the operation that created a
// resource removes it.
func createdDeletion(deletionPolicy string, opts RollbackOptions) Action {
	switch policy(deletionPolicy) {
	case "Retain":
		if opts.RetainExceptOnCreate {
			return Delete
		}
		return Retain
	case "Snapshot":
		return Snapshot
	}
	return Delete // Delete, RetainExceptOnCreate
}

// priorAfter is the graph of the forward steps by the deployed template's
// dependencies: an edge from a dependency to its dependent.
func priorAfter(steps []Step, pos map[int]int) *graph.Graph {
	g := graph.New(len(steps))
	for i, s := range steps {
		for _, a := range s.PriorAfter {
			if j, ok := pos[a]; ok {
				g.AddEdge(j, i)
			}
		}
	}
	return g
}

// reverseAfter is the graph of the forward steps by the desired template's
// dependencies, turned around: an edge from a dependent to its dependency.
func reverseAfter(steps []Step, pos map[int]int) *graph.Graph {
	g := graph.New(len(steps))
	for i, s := range steps {
		for _, a := range s.After {
			if j, ok := pos[a]; ok {
				g.AddEdge(i, j)
			}
		}
	}
	return g
}

// order makes the steps of one phase from the rollback steps planned for
// forward steps (nil where none), ordered by g — through forward steps
// without a rollback step too — ties in forward order, numbered from after
// before.
func order(steps []Step, planned []*Step, phase Phase, g *graph.Graph, before int) []Step {
	keep := make([]bool, len(steps))
	n := 0
	for i, s := range planned {
		if s != nil {
			keep[i] = true
			n++
		}
	}
	if n == 0 {
		return nil
	}
	induced, err := g.Induce(keep)
	if err != nil {
		induced = dropCycles(g, err, keep)
	}
	ord, err := induced.Order()
	if err != nil {
		ord = breakCycles(induced, err)
	}
	ids := make([]int, len(steps))
	out := make([]Step, 0, n)
	for _, v := range ord {
		if !keep[v] {
			continue
		}
		s := *planned[v]
		s.ID = before + len(out) + 1
		s.Phase = phase
		s.PolicyAction = policyAction(s.Action)
		ids[v] = s.ID
		for _, u := range induced.Predecessors(v) {
			s.After = append(s.After, ids[u])
		}
		sortInts(s.After)
		out = append(out, s)
	}
	return out
}
