package plan

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/stacksim/stacksim/template"
)

// world is a tiny simulated cloud and engine for the tests: physical
// resources with their properties, which physical resource each logical one
// is, and an executor that applies a plan's steps the way the engine will
// (phase by phase, level by level, re-deciding updates at run time), with
// failures injected, writing a Journal.
type world struct {
	schemas  Schemas
	current  map[string]string    // logical id → physical id
	phys     map[string]*physical // physical id → resource
	retained map[string]*physical // physical resources let go of
	gen      map[string]int
}

type physical struct {
	id, logical, typ string
	props            map[string]any
}

func newWorld(schemas Schemas) *world {
	return &world{schemas: schemas, current: map[string]string{}, phys: map[string]*physical{},
		retained: map[string]*physical{}, gen: map[string]int{}}
}

// Ref answers a resource's physical id; GetAtt "PHYSICAL/ATTR".
func (w *world) Ref(id string) (any, error) {
	if p, ok := w.current[id]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("world: %s has no physical resource", id)
}

func (w *world) GetAtt(id, attr string) (any, error) {
	if p, ok := w.current[id]; ok {
		return p + "/" + attr, nil
	}
	return nil, fmt.Errorf("world: %s has no physical resource", id)
}

func (w *world) ImportValue(name string) (any, error) { return "import:" + name, nil }

func (w *world) create(logical, typ string, props map[string]any) string {
	w.gen[logical]++
	id := fmt.Sprintf("%s-%d", logical, w.gen[logical])
	w.phys[id] = &physical{id: id, logical: logical, typ: typ, props: props}
	return id
}

// deploy creates a bound template in the world and returns the deployed
// stack, as the engine would record it after CreateStack.
func (w *world) deploy(t testing.TB, b Bound, params map[string]string) Deployed {
	t.Helper()
	p, err := ForCreate(b)
	if err != nil {
		t.Fatalf("ForCreate: %v", err)
	}
	for _, s := range p.Steps {
		props, err := b.Properties(s.LogicalID, w)
		if err != nil {
			t.Fatalf("deploy %s: %v", s.LogicalID, err)
		}
		w.current[s.LogicalID] = w.create(s.LogicalID, s.ResourceType, props)
	}
	d := Deployed{Parameters: map[string]string{}}
	for _, bp := range b.Parameters() {
		d.Parameters[bp.Key] = bp.Value
	}
	for _, r := range b.Resources() {
		id := r.LogicalID
		dr := DeployedResource{
			LogicalID: id, Type: r.Type, PhysicalID: w.current[id], Status: "CREATE_COMPLETE",
			Properties:          maps.Clone(w.phys[w.current[id]].props),
			DeletionPolicy:      b.DeletionPolicy(id),
			UpdateReplacePolicy: b.UpdateReplacePolicy(id),
			DependsOn:           b.DependsOn(id),
		}
		dr.Metadata, _ = b.ResourceAttribute(id, "Metadata", w)
		dr.CreationPolicy, _ = b.ResourceAttribute(id, "CreationPolicy", w)
		dr.UpdatePolicy, _ = b.ResourceAttribute(id, "UpdatePolicy", w)
		d.Resources = append(d.Resources, dr)
	}
	return d
}

// failure says what happens to a step: nothing (it succeeds), or it fails,
// having made its new physical resource (partial) or not.
type failure struct {
	step    int  // the step that fails (0: none)
	partial bool // the failing and cancelled steps got as far as a physical resource
}

// exec runs a plan in the world. desired is the template forward steps
// resolve against, previous the one rollback steps resolve against. When a
// step of a forward phase fails, the steps of its level after it are
// cancelled, and nothing else runs. It returns the journal and whether the
// operation failed.
func (w *world) exec(t testing.TB, p *Plan, desired, previous *template.Bound, f failure, r *rand.Rand) (Journal, bool) {
	t.Helper()
	var j Journal
	for _, ph := range p.Phases() {
		failed := false
		for _, level := range p.Levels(ph) {
			for _, id := range level {
				s := p.Step(id)
				switch {
				case failed && !ph.IsCleanup() && ph != PhaseDelete:
					j = append(j, w.run(t, p, s, desired, previous, j, true, f.partial && r.IntN(2) == 0, Cancelled)...)
				case s.ID == f.step:
					j = append(j, w.run(t, p, s, desired, previous, j, true, f.partial, Failed)...)
					failed = true
				default:
					j = append(j, w.run(t, p, s, desired, previous, j, false, false, Done)...)
				}
			}
			if failed {
				break
			}
		}
		if failed && !ph.IsCleanup() {
			return j, true
		}
	}
	return j, false
}

// run applies one step; stop says it fails or is cancelled with outcome,
// partial that it got as far as making its physical resource.
func (w *world) run(t testing.TB, p *Plan, s *Step, desired, previous *template.Bound, j Journal, stop, partial bool, outcome Outcome) []Entry {
	t.Helper()
	e := Entry{Step: s.ID, LogicalID: s.LogicalID, Outcome: outcome, OldPhysicalID: w.current[s.LogicalID]}
	props := func(b *template.Bound) map[string]any {
		m, err := b.Properties(s.LogicalID, w)
		if err != nil {
			t.Fatalf("step %d (%s %s): %v\n%s", s.ID, s.Action, s.LogicalID, err, p)
		}
		if !template.IsKnown(m) {
			t.Fatalf("step %d (%s): properties not known when it runs: %v\n%s", s.ID, s.LogicalID, m, p)
		}
		return m
	}
	create := func(m map[string]any) {
		e.NewPhysicalID = w.create(s.LogicalID, s.ResourceType, m)
		w.current[s.LogicalID] = e.NewPhysicalID
	}
	forward := s.Phase == PhaseCreate || s.Phase == PhaseUpdate
	tpl := desired
	if !forward {
		tpl = previous
	}
	action := s.Action
	if (action == Update || action == Restore) && s.PhysicalID != "" && !s.Action.IsDelete() {
		if action == Update && s.PhysicalID != w.current[s.LogicalID] {
			t.Fatalf("step %d updates %s at %s, but it is %s\n%s", s.ID, s.LogicalID, s.PhysicalID, w.current[s.LogicalID], p)
		}
	}
	if forward && action == NoOp && s.Phase == PhaseUpdate {
		// What the plan found unchanged stays unchanged once the values are
		// known: the engine does not look again.
		dec := Decide(w.schemas.of(s.ResourceType), s.Custom, w.phys[w.current[s.LogicalID]].props, props(tpl))
		if dec.Action != NoOp {
			t.Fatalf("step %d (%s) was planned NoOp, but with the values known it is %s %v\n%s", s.ID, s.LogicalID, dec.Action, dec.Changes, p)
		}
	}
	if action == Update && s.CallsHandler() {
		// The engine decides again with the values now known.
		want := props(tpl)
		old := w.phys[w.current[s.LogicalID]].props
		dec := Decide(w.schemas.of(s.ResourceType), s.Custom, old, want)
		if forward && dec.Action.IsReplace() && s.Replacement != ReplacementConditional {
			t.Fatalf("step %d (%s) was planned Replacement %q, but with the values known it is %s\n%s", s.ID, s.LogicalID, s.Replacement, dec.Action, p)
		}
		if dec.Action != Update {
			e.Action = dec.Action
		}
		action = dec.Action
	}
	switch action {
	case NoOp, Skip:
		return []Entry{e}
	case Create:
		m := props(tpl)
		if !stop || partial {
			create(m)
		}
	case Update:
		if !s.CallsHandler() {
			break
		}
		m := props(tpl)
		cur := w.current[s.LogicalID]
		if s.Custom && !stop && w.gen[s.LogicalID]%2 == 1 {
			// The custom handler answers a new physical id.
			create(m)
			e.ReplacedAtRunTime = true
			break
		}
		if !stop || partial {
			w.phys[cur].props = m
		}
	case CreateThenDelete:
		m := props(tpl)
		if !stop || partial {
			e.NewPhysicalID = w.create(s.LogicalID, s.ResourceType, m)
			if !stop {
				w.current[s.LogicalID] = e.NewPhysicalID
			}
		}
	case DeleteThenCreate:
		m := props(tpl)
		if victim := w.current[s.LogicalID]; victim != "" {
			delete(w.phys, victim)
			e.OldDeleted = true
		}
		delete(w.current, s.LogicalID)
		if !stop || partial {
			create(m)
		}
	case Restore:
		if _, ok := w.phys[s.PhysicalID]; !ok {
			t.Fatalf("step %d restores %s to %s, which does not exist\n%s", s.ID, s.LogicalID, s.PhysicalID, p)
		}
		w.current[s.LogicalID] = s.PhysicalID
		if s.Custom {
			w.phys[s.PhysicalID].props = props(previous)
		}
	case Delete, Retain, Snapshot, Forget:
		if s.Replaces != 0 {
			fwd := p.Step(s.Replaces)
			fe, ok := j.Last()[s.Replaces]
			if !ok || !NeedsCleanup(s, fwd, fe) {
				return []Entry{e}
			}
		}
		if action != Forget && s.PhysicalID != "" {
			if _, ok := w.phys[s.PhysicalID]; !ok {
				t.Fatalf("step %d (%s %s) acts on %s, which does not exist\n%s", s.ID, action, s.LogicalID, s.PhysicalID, p)
			}
			if action != Delete {
				w.retained[s.PhysicalID] = w.phys[s.PhysicalID]
			}
			delete(w.phys, s.PhysicalID)
		}
		if w.current[s.LogicalID] == s.PhysicalID {
			delete(w.current, s.LogicalID)
		}
	default:
		t.Fatalf("step %d: the world cannot run %s", s.ID, action)
	}
	if e.Action == 0 && action != s.Action {
		e.Action = action
	}
	return []Entry{e}
}

// snapshot is what a world holds, to compare before and after.
type snapshot struct {
	current map[string]string
	props   map[string]map[string]any // logical id → properties of its current physical resource
	phys    map[string]bool
}

func (w *world) snapshot() snapshot {
	s := snapshot{current: maps.Clone(w.current), props: map[string]map[string]any{}, phys: map[string]bool{}}
	for l, p := range w.current {
		s.props[l] = w.phys[p].props
	}
	for id := range w.phys {
		s.phys[id] = true
	}
	return s
}
