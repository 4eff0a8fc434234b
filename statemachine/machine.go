package statemachine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"

	"github.com/looplab/fsm"
)

// eventDef is one row of a machine's table: an event and the edges it
// allows.
type eventDef[S ~string, E ~string] struct {
	Name    E
	Summary string
	Edges   []edge[S]
}

// edge is one (from → to) of an event, with when it happens.
type edge[S ~string] struct {
	From S
	To   S
	Why  string
}

// machine is one state machine built from its table. Everything in it is
// immutable once built, except the pool of *fsm.FSM, which is safe for
// concurrent use.
//
// Transitions go through looplab/fsm: Fire takes a machine from the pool,
// sets its state with SetState (no callbacks) and fires the event. The
// machines have no callbacks at all, so the library's pitfalls cannot bite:
// nothing calls Event from a callback (it would deadlock), and no edge of
// the tables is a self-transition (which fsm reports as NoTransitionError;
// the tests check that no table has one, and Fire refuses one like any
// illegal event).
//
// fsm.Event allocates on every call (a cancellable context, the Event, the
// transition's closures: five allocations, about half a microsecond). A
// machine without callbacks answers a (status, event) pair the same way
// every time, so fire remembers the answers fsm gave (fired): the first
// transition of each pair goes through fsm, later ones are answered from
// what it said. Refusals are never remembered: an illegal event always goes
// through fsm, which words the error.
type machine[S ~string, E ~string] struct {
	kind     string // "stack" or "resource"
	table    []eventDef[S, E]
	statuses []S // the real statuses, in lifecycle order (not NotExist)
	desc     fsm.Events
	pool     sync.Pool

	next map[key[S, E]]S // (from, event) → to: for queries, never for Fire
	out  map[S][]E       // the events allowed from each status, in table order

	// fired holds the transitions fsm has made, (from, event) → to: a map
	// never changed once published (a new answer publishes a copy).
	fired   atomic.Pointer[map[key[S, E]]S]
	firedMu sync.Mutex
}

type key[S ~string, E ~string] struct {
	from S
	ev   E
}

func newMachine[S ~string, E ~string](kind string, statuses []S, table []eventDef[S, E]) *machine[S, E] {
	m := &machine[S, E]{
		kind:     kind,
		table:    table,
		statuses: statuses,
		next:     make(map[key[S, E]]S),
		out:      make(map[S][]E),
	}
	for _, def := range table {
		for _, e := range def.Edges {
			k := key[S, E]{e.From, def.Name}
			if _, dup := m.next[k]; dup {
				panic(fmt.Sprintf("statemachine: %s table: event %q from %s is listed twice", kind, def.Name, label(string(e.From))))
			}
			if e.From == e.To {
				panic(fmt.Sprintf("statemachine: %s table: event %q from %s is a self-transition", kind, def.Name, label(string(e.From))))
			}
			m.next[k] = e.To
			m.out[e.From] = append(m.out[e.From], def.Name)
			// One fsm.EventDesc per edge: fsm keys its transitions by
			// (event, src), so one name may lead to different destinations.
			m.desc = append(m.desc, fsm.EventDesc{Name: string(def.Name), Src: []string{string(e.From)}, Dst: string(e.To)})
		}
	}
	m.pool.New = func() any { return fsm.NewFSM(NotExist, m.desc, nil) }
	return m
}

// fire moves entity from `from` by ev through a looplab/fsm machine (or
// as fsm moved it before: see fired).
func (m *machine[S, E]) fire(entity string, from S, ev E) (S, error) {
	k := key[S, E]{from, ev}
	if done := m.fired.Load(); done != nil {
		if to, ok := (*done)[k]; ok {
			return to, nil
		}
	}
	f := m.pool.Get().(*fsm.FSM)
	f.SetState(string(from))
	err := f.Event(context.Background(), string(ev))
	to := S(f.Current())
	m.pool.Put(f)
	if err != nil {
		return from, m.refuse(entity, from, ev, err)
	}
	m.remember(k, to)
	return to, nil
}

// remember publishes a transition fsm made.
func (m *machine[S, E]) remember(k key[S, E], to S) {
	m.firedMu.Lock()
	defer m.firedMu.Unlock()
	next := map[key[S, E]]S{}
	if done := m.fired.Load(); done != nil {
		if _, ok := (*done)[k]; ok {
			return
		}
		next = maps.Clone(*done)
	}
	next[k] = to
	m.fired.Store(&next)
}

// refuse builds the error of an illegal transition. fsm answers
// InvalidEventError (the event exists, not from this status),
// UnknownEventError (no such event) or NoTransitionError (a self-transition,
// which the tables do not have); all are refusals.
func (m *machine[S, E]) refuse(entity string, from S, ev E, cause error) error {
	var (
		invalid fsm.InvalidEventError
		unknown fsm.UnknownEventError
		none    fsm.NoTransitionError
	)
	if !errors.As(cause, &invalid) && !errors.As(cause, &unknown) && !errors.As(cause, &none) {
		// InTransitionError, InternalError, CanceledError, AsyncError:
		// impossible without callbacks. Keep the cause for whoever debugs.
		cause = fmt.Errorf("looplab/fsm: %w", cause)
	} else {
		cause = nil
	}
	allowed := make([]string, 0, len(m.out[from]))
	for _, e := range m.out[from] {
		allowed = append(allowed, string(e))
	}
	return &TransitionError{
		Machine: m.kind,
		Entity:  entity,
		Status:  string(from),
		Event:   string(ev),
		Allowed: allowed,
		cause:   cause,
	}
}

// lookup answers where ev leads from `from`, without fsm: for the queries and
// renderings, never for Fire.
func (m *machine[S, E]) lookup(from S, ev E) (S, bool) {
	to, ok := m.next[key[S, E]{from, ev}]
	return to, ok
}

func (m *machine[S, E]) eventNames() []E {
	names := make([]E, len(m.table))
	for i, def := range m.table {
		names[i] = def.Name
	}
	return names
}

func (m *machine[S, E]) transitions() []Transition[S, E] {
	var ts []Transition[S, E]
	for _, def := range m.table {
		for _, e := range def.Edges {
			ts = append(ts, Transition[S, E]{Event: def.Name, From: e.From, To: e.To, Why: e.Why})
		}
	}
	return ts
}

func (m *machine[S, E]) summary(ev E) string {
	for _, def := range m.table {
		if def.Name == ev {
			return def.Summary
		}
	}
	return ""
}

// stackMachine and resourceMachine are built once, on first use, and never
// change.
var (
	stackMachine = sync.OnceValue(func() *machine[StackStatus, StackEvent] {
		return newMachine("stack", stackStatuses[:], stackTable())
	})
	resourceMachine = sync.OnceValue(func() *machine[ResourceStatus, ResourceEvent] {
		return newMachine("resource", resourceStatuses[:], resourceTable())
	})
)

// FireStack returns the status that ev moves the stack named entity to from
// the status `from`, or a *TransitionError when the stack machine does not
// allow ev in `from`. entity names the stack in the error only. It is safe
// for concurrent use and costs well under a microsecond.
func FireStack(entity string, from StackStatus, ev StackEvent) (StackStatus, error) {
	return stackMachine().fire(entity, from, ev)
}

// FireResource returns the status that ev moves the physical resource named
// entity to from the status `from`, or a *TransitionError when the resource
// machine does not allow ev in `from`. entity names the resource in the error
// only (the engine passes "LogicalId" or "LogicalId (physical-id)"). It is
// safe for concurrent use.
func FireResource(entity string, from ResourceStatus, ev ResourceEvent) (ResourceStatus, error) {
	return resourceMachine().fire(entity, from, ev)
}

// NextStack answers where ev leads a stack from `from`, and whether it is
// allowed, without building an error: for planning, not for moving a stack
// (use FireStack).
func NextStack(from StackStatus, ev StackEvent) (StackStatus, bool) {
	return stackMachine().lookup(from, ev)
}

// NextResource answers where ev leads a resource from `from`, and whether it
// is allowed.
func NextResource(from ResourceStatus, ev ResourceEvent) (ResourceStatus, bool) {
	return resourceMachine().lookup(from, ev)
}
