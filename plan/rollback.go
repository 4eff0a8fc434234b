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
// An update rolls back to the previous template in two phases. In
// UPDATE_ROLLBACK_IN_PROGRESS, in the previous template's dependency order
// (a resource's old properties resolve against what it refers to, which
// must be back first):
//
//   - a resource updated in place (done, failed, cancelled or in flight) is
//     updated back to its old properties (Update; a step that changed only
//     Metadata or policies changes them back without a handler call);
//   - a replaced resource whose old physical resource still stands goes
//     back to it (Restore of PhysicalID; for a custom resource that is the
//     Update with ResourceProperties = old, OldResourceProperties = new);
//   - a resource whose old physical resource is gone (DeleteThenCreate) is
//     created again with its old properties (Create, or DeleteThenCreate of
//     the new physical resource NewPhysicalID when the step made one).
//
// A resource created again gets a new physical id, and so may a custom
// resource whose handler answers one; so every resource that refers to
// such a resource in the previous template, directly or not, is updated
// too: an Update the engine decides at run time like any other, which may
// replace (and then its old physical resource is deleted in the cleanup).
//
// In UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS everything the update
// created is deleted, in the reverse of the desired template's dependency
// order: added resources (by the rule of a create's rollback) and the new
// physical resources of replacements (Delete); and so are the old physical
// resources of what the rollback itself replaced (guarded as IfReplaced).
//
// The engine resolves the properties of rollback steps against the template
// the stack had before the operation, and decides every Update step again
// when it starts (Decide), as in a forward phase.
func Rollback(forward *Plan, journal Journal, opts RollbackOptions) (*Plan, error) {
	if forward.Operation != OpCreate && forward.Operation != OpUpdate {
		return nil, fmt.Errorf("plan: a %s operation has no rollback", forward.Operation)
	}
	steps := forward.In(forward.Phases()[0])
	last := journal.Last()
	if err := checkJournal(forward, steps, last); err != nil {
		return nil, err
	}
	pos := make(map[int]int, len(steps))
	for i, s := range steps {
		pos[s.ID] = i
	}
	r := &rollback{forward: forward, steps: steps, pos: pos, last: last, opts: opts}
	if forward.Operation == OpCreate {
		return r.create()
	}
	return r.update()
}

func checkJournal(forward *Plan, steps []Step, last map[int]Entry) error {
	for id, e := range last {
		s := forward.Step(id)
		switch {
		case s == nil:
			return fmt.Errorf("plan: journal entry for step %d, which the %s plan does not have", id, forward.Operation)
		case len(steps) == 0 || s.Phase != steps[0].Phase:
			return fmt.Errorf("plan: cannot roll back: the %s reached its %s phase (step %d, %s)", forward.Operation, s.Phase, id, s.LogicalID)
		case e.LogicalID != "" && e.LogicalID != s.LogicalID:
			return fmt.Errorf("plan: journal entry for step %d names %s, the step is %s's", id, e.LogicalID, s.LogicalID)
		case e.Outcome < Done || e.Outcome > InFlight:
			return fmt.Errorf("plan: journal entry for step %d (%s) has no outcome", id, s.LogicalID)
		}
		switch e.ran(s.Action) {
		case NoOp, Create, Update, CreateThenDelete, DeleteThenCreate, Import:
		default:
			return fmt.Errorf("plan: cannot roll back step %d (%s): %s is not a forward action", s.ID, s.LogicalID, e.ran(s.Action))
		}
	}
	return nil
}

type rollback struct {
	forward *Plan
	steps   []Step // the forward phase
	pos     map[int]int
	last    map[int]Entry
	opts    RollbackOptions
}

func (r *rollback) base(s *Step) Step {
	return Step{LogicalID: s.LogicalID, ResourceType: s.ResourceType, Custom: s.Custom, Undoes: s.ID,
		DeletionPolicy: s.DeletionPolicy, UpdateReplacePolicy: s.UpdateReplacePolicy}
}

// removeCreated is the step that removes what a forward Create made.
func (r *rollback) removeCreated(s *Step, e Entry) *Step {
	d := r.base(s)
	d.PhysicalID = e.NewPhysicalID
	if e.created() || s.Custom {
		d.Action = createdDeletion(s.DeletionPolicy, r.opts)
	} else {
		d.Action = Forget
	}
	return &d
}

// releaseImported is the step that lets go of what a forward Import
// (ImportExistingResources) adopted: the resource existed before the
// operation, so its rollback leaves it in the account, whatever its
// DeletionPolicy (Retain or RetainExceptOnCreate: neither deletes what
// the operation did not create).
func (r *rollback) releaseImported(s *Step) *Step {
	d := r.base(s)
	d.Action, d.PhysicalID = Release, s.PhysicalID
	return &d
}

func (r *rollback) create() (*Plan, error) {
	undo := make([]*Step, len(r.steps))
	for i := range r.steps {
		s := &r.steps[i]
		e, ok := r.last[s.ID]
		switch {
		case !ok:
		case e.ran(s.Action) == Create:
			undo[i] = r.removeCreated(s, e)
		case e.ran(s.Action) == Import:
			undo[i] = r.releaseImported(s)
		}
	}
	p := &Plan{Operation: OpRollback}
	p.Steps = orderSteps(undo, PhaseRollback, r.reverseAfter(), 0)
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

// reverseAfter is the graph of the forward steps by the desired template's
// dependencies, turned around: an edge from a dependent to its dependency.
func (r *rollback) reverseAfter() *graph.Graph {
	g := graph.New(len(r.steps))
	for i, s := range r.steps {
		for _, a := range s.After {
			if j, ok := r.pos[a]; ok {
				g.AddEdge(i, j)
			}
		}
	}
	return g
}

// slot is what the rollback phase does to one resource of the previous
// template: first a Restore, Update, Create or DeleteThenCreate, then, for
// a restored resource that must be resolved again, an Update.
type slot struct {
	first, second *Step
	recreated     bool // first makes a new physical resource
	mayReplace    []*Step
}

func (r *rollback) update() (*Plan, error) {
	prior := r.forward.Prior
	pidx := make(map[string]int, len(prior))
	for i, pr := range prior {
		pidx[pr.LogicalID] = i
	}
	slots := make([]slot, len(prior))
	remove := make([]*Step, len(r.steps)) // cleanup of what forward step i made
	for i := range r.steps {
		s := &r.steps[i]
		e, ok := r.last[s.ID]
		if !ok {
			continue
		}
		p, existed := pidx[s.LogicalID]
		old := s.PhysicalID
		if e.OldPhysicalID != "" {
			old = e.OldPhysicalID
		}
		deleteNew := func() *Step {
			d := r.base(s)
			d.Action, d.PhysicalID = Delete, e.NewPhysicalID
			return &d
		}
		restore := func() *Step {
			st := r.base(s)
			st.Action, st.PhysicalID, st.NewPhysicalID = Restore, old, e.NewPhysicalID
			return &st
		}
		if !existed && e.ran(s.Action) != Create && e.ran(s.Action) != Import && e.ran(s.Action) != NoOp {
			return nil, fmt.Errorf("plan: step %d (%s) changed a resource the plan's Prior does not have", s.ID, s.LogicalID)
		}
		sl := &slot{}
		if existed {
			sl = &slots[p]
		}
		switch a := e.ran(s.Action); a {
		case NoOp:
		case Create:
			remove[i] = r.removeCreated(s, e)
		case Import:
			remove[i] = r.releaseImported(s)
		case Update:
			if e.leftOld(s) {
				sl.first, remove[i] = restore(), deleteNew()
				break
			}
			st := r.base(s)
			st.Action, st.PhysicalID, st.Scope = Update, old, append([]string(nil), s.Scope...)
			sl.first = &st
		case CreateThenDelete:
			sl.first = restore()
			if e.created() {
				remove[i] = deleteNew()
			}
		case DeleteThenCreate:
			switch {
			case !e.OldDeleted:
				sl.first = restore()
				if e.created() {
					remove[i] = deleteNew()
				}
			case e.created():
				st := r.base(s)
				st.Action, st.PhysicalID, st.NewPhysicalID = DeleteThenCreate, e.NewPhysicalID, e.NewPhysicalID
				sl.first, sl.recreated = &st, true
			default:
				st := r.base(s)
				st.Action = Create
				sl.first, sl.recreated = &st, true
			}
		}
	}
	r.cascade(prior, pidx, slots)

	p := &Plan{Operation: OpUpdateRollback}
	p.Steps = r.rollbackPhase(prior, pidx, slots)
	p.Steps = append(p.Steps, r.cleanupPhase(prior, pidx, slots, remove, len(p.Steps))...)
	return p, nil
}

// cascade plans, for every resource that refers (in the previous template,
// directly or not) to one the rollback creates again or may replace (a
// custom resource, whose handler may answer a new physical id), an Update
// that resolves its old properties again — except resources that never
// completed (CREATE_FAILED), which have nothing to update; and marks the
// steps that may replace: those Updates, and every step that calls a
// custom resource's handler.
func (r *rollback) cascade(prior []PriorResource, pidx map[string]int, slots []slot) {
	dependents := make([][]int, len(prior))
	for i, pr := range prior {
		for _, dep := range pr.DependsOn {
			if j, ok := pidx[dep]; ok && j != i {
				dependents[j] = append(dependents[j], i)
			}
		}
	}
	// The sources: resources that come back with a new physical id, or may
	// (a custom resource's handler may answer a new one).
	affected := make([]bool, len(prior))
	var queue []int
	for i := range slots {
		if f := slots[i].first; slots[i].recreated || (f != nil && f.Custom && f.CallsHandler()) {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, d := range dependents[v] {
			// A resource that never completed is not updated, so its value
			// does not change: the cascade stops there.
			if !affected[d] && !slots[d].recreated && prior[d].completed() {
				affected[d] = true
				queue = append(queue, d)
			}
		}
	}
	for i := range slots {
		sl := &slots[i]
		pr := &prior[i]
		if affected[i] {
			update := Step{LogicalID: pr.LogicalID, ResourceType: pr.Type, Custom: IsCustom(pr.Type),
				Action: Update, PhysicalID: pr.PhysicalID, Scope: []string{ScopeProperties},
				DeletionPolicy: pr.DeletionPolicy, UpdateReplacePolicy: pr.UpdateReplacePolicy}
			switch {
			case sl.first == nil:
				sl.first = &update
			case sl.first.Action == Restore && !sl.first.Custom:
				update.Undoes, update.PhysicalID = sl.first.Undoes, sl.first.PhysicalID
				sl.second = &update
			case sl.first.Action == Update && !sl.first.CallsHandler():
				sl.first.Scope = append([]string{ScopeProperties}, sl.first.Scope...)
			}
		}
		for _, st := range []*Step{sl.first, sl.second} {
			if st == nil || !st.CallsHandler() {
				continue
			}
			if (affected[i] && st.Action == Update) || (st.Custom && (st.Action == Update || st.Action == Restore)) {
				sl.mayReplace = append(sl.mayReplace, st)
			}
		}
	}
}

// rollbackPhase orders the slots by the previous template's dependencies
// (through resources without a step), ties in deployed order.
func (r *rollback) rollbackPhase(prior []PriorResource, pidx map[string]int, slots []slot) []Step {
	g := graph.New(len(prior))
	keep := make([]bool, len(prior))
	for i, pr := range prior {
		keep[i] = slots[i].first != nil
		for _, dep := range pr.DependsOn {
			if j, ok := pidx[dep]; ok && j != i {
				g.AddEdge(j, i)
			}
		}
	}
	order, induced := orderKept(g, keep)
	n := 0
	for _, v := range order {
		n++
		if slots[v].second != nil {
			n++
		}
	}
	out := make([]Step, 0, n)
	lastID := make([]int, len(prior))
	for _, v := range order {
		sl := &slots[v]
		first := sl.first
		first.ID = len(out) + 1
		first.Phase = PhaseUpdateRollback
		first.PolicyAction = ""
		first.After = nil
		for _, u := range induced.Predecessors(v) {
			first.After = append(first.After, lastID[u])
		}
		sortInts(first.After)
		out = append(out, *first)
		lastID[v] = first.ID
		if second := sl.second; second != nil {
			second.ID = len(out) + 1
			second.Phase = PhaseUpdateRollback
			second.After = []int{first.ID}
			out = append(out, *second)
			lastID[v] = second.ID
		}
	}
	return out
}

// cleanupPhase orders the deletes of what the update made (by the desired
// template's dependencies, turned around) and of the old physical resources
// of what the rollback may replace (by the previous template's, turned
// around), numbered from after before.
func (r *rollback) cleanupPhase(prior []PriorResource, pidx map[string]int, slots []slot, remove []*Step, before int) []Step {
	nf := len(r.steps)
	g := graph.New(nf + len(prior))
	keep := make([]bool, nf+len(prior))
	planned := make([]*Step, nf+len(prior))
	for i, s := range r.steps {
		planned[i] = remove[i]
		for _, a := range s.After {
			if j, ok := r.pos[a]; ok {
				g.AddEdge(i, j)
			}
		}
	}
	for i, pr := range prior {
		for _, dep := range pr.DependsOn {
			if j, ok := pidx[dep]; ok && j != i {
				g.AddEdge(nf+i, nf+j)
			}
		}
		for _, st := range slots[i].mayReplace {
			a := replaceAction(pr.UpdateReplacePolicy)
			planned[nf+i] = &Step{LogicalID: pr.LogicalID, ResourceType: pr.Type, Custom: IsCustom(pr.Type),
				Action: a, PhysicalID: st.PhysicalID, Replaces: st.ID, IfReplaced: true, Undoes: st.Undoes,
				DeletionPolicy: pr.DeletionPolicy, UpdateReplacePolicy: pr.UpdateReplacePolicy}
		}
	}
	for i := range planned {
		keep[i] = planned[i] != nil
	}
	return orderSteps(planned, PhaseUpdateRollbackCleanup, g, before)
}

// orderKept orders the kept vertices of g by the edges between them, ties
// in vertex order; it returns the order and the graph restricted to them.
//
// The order that resources without a rollback step impose between those
// with one is not kept (graph.Induce would keep it, at a cost that grows
// with the product of both numbers): it does not matter here. A resource
// that has no rollback step did not change, so it refers to the same
// things before and after; two resources with steps that reach each other
// only through it do not refer to each other's changes. In the cleanup,
// what the update made is referred to only by what the update changed —
// and the rollback phase has changed that back already.
func orderKept(g *graph.Graph, keep []bool) ([]int, *graph.Graph) {
	induced := g.Restrict(keep)
	ord, err := induced.Order()
	if err != nil {
		ord = breakCycles(induced, err)
	}
	out := ord[:0:0]
	for _, v := range ord {
		if keep[v] {
			out = append(out, v)
		}
	}
	return out, induced
}

// orderSteps makes the steps of one phase from the steps planned for the
// vertices of g (nil where none), ordered by g through the vertices without
// a step, ties in vertex order, numbered from after before.
func orderSteps(planned []*Step, phase Phase, g *graph.Graph, before int) []Step {
	keep := make([]bool, len(planned))
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
	ord, induced := orderKept(g, keep)
	ids := make([]int, len(planned))
	out := make([]Step, 0, n)
	for _, v := range ord {
		s := *planned[v]
		s.ID = before + len(out) + 1
		s.Phase = phase
		s.PolicyAction = policyAction(s.Action)
		s.After = nil
		ids[v] = s.ID
		for _, u := range induced.Predecessors(v) {
			s.After = append(s.After, ids[u])
		}
		sortInts(s.After)
		out = append(out, s)
	}
	return out
}
