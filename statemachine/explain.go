package statemachine

import "fmt"

// Edge is a transition of either machine, as strings: From is "" for
// NotExist.
type Edge struct {
	Event string `json:"event"`
	From  string `json:"from"`
	To    string `json:"to"`
	Why   string `json:"why"`
}

// Explanation is everything known of one status: what it means, how an
// entity gets there, what happens in it, and what can follow.
type Explanation struct {
	Machine  string // "stack" or "resource"
	Status   string
	InMotion bool
	Final    bool
	Phase    Actions // stack statuses only: what runs in it

	Summary string // what the status means
	During  string // what happens in it
	Next    string // what the user can do, or what follows by itself

	Arrivals   []Edge // the transitions that lead here
	Departures []Edge // the transitions that leave

	// Stack statuses only: the operations accepted, and what AWS answers to
	// the others (for a stack named NAME with ID STACK_ID, and a change set
	// CHANGE_SET).
	Permissions []Permission
	Refusals    []Refusal
}

// Refusal is what AWS answers to an operation in a status, and when.
type Refusal struct {
	When string // "" always; else the condition, e.g. "OnFailure DO_NOTHING"
	Err  *OperationError
}

// ExplainStack explains a stack status.
func ExplainStack(s StackStatus) (Explanation, error) {
	if !s.Valid() {
		return Explanation{}, fmt.Errorf("statemachine: unknown stack status %q", string(s))
	}
	x := explainStack(s)
	x.Permissions, x.Refusals = Permissions(s), refusals(s)
	return x, nil
}

// ExplainStackOf explains the status of one stack, as info describes it:
// the operations it accepts and AWS's answers to the others are this
// stack's — its name and ARN in the messages, and of the operations a
// status accepts only when rollback was disabled, the case the stack is in.
func ExplainStackOf(info StackInfo) (Explanation, error) {
	s := info.Status
	if !s.Valid() {
		return Explanation{}, fmt.Errorf("statemachine: unknown stack status %q", string(s))
	}
	x := explainStack(s)
	accepted := map[Operation]bool{}
	for _, p := range Permissions(s) {
		if p.IfRollbackDisabled {
			if p = acceptedFor(p, info); p.Operation == "" {
				continue
			}
		}
		accepted[p.Operation] = true
		x.Permissions = append(x.Permissions, p)
	}
	for _, op := range operations {
		if accepted[op] {
			continue
		}
		if oe, ok := CheckOperation(op, info).(*OperationError); ok {
			x.Refusals = append(x.Refusals, Refusal{Err: oe})
		}
	}
	return x, nil
}

// acceptedFor narrows a permission granted only when rollback was disabled
// to what the stack info describes accepts: the permission without its
// condition, with the change set types the stack accepts, or the zero
// Permission when it accepts none.
func acceptedFor(p Permission, info StackInfo) Permission {
	types := p.ChangeSetTypes
	if len(types) == 0 {
		types = []ChangeSetType{""}
	}
	var kept Permission
	for _, t := range types {
		info.ChangeSetType = t
		if CheckOperation(p.Operation, info) == nil {
			kept.add(p.Operation, t)
		}
	}
	return kept
}

// explainStack is what a stack status's explanation says whatever the
// stack: its prose and its transitions.
func explainStack(s StackStatus) Explanation {
	p := stackProse[s]
	return Explanation{
		Machine: "stack", Status: string(s), InMotion: s.InMotion(), Final: s.Final(), Phase: s.Phase(),
		Summary: p.Summary, During: p.During, Next: p.Next,
		Arrivals:   edgesOf(StackTransitions(), func(t StackTransition) bool { return t.To == s }),
		Departures: edgesOf(StackTransitions(), func(t StackTransition) bool { return t.From == s }),
	}
}

// ExplainResource explains a resource status.
func ExplainResource(s ResourceStatus) (Explanation, error) {
	if !s.Valid() {
		return Explanation{}, fmt.Errorf("statemachine: unknown resource status %q", string(s))
	}
	p := resourceProse[s]
	x := Explanation{
		Machine: "resource", Status: string(s), InMotion: s.InMotion(), Final: s.Final(),
		Summary: p.Summary, During: p.During, Next: p.Next,
		Arrivals:   edgesOf(ResourceTransitions(), func(t ResourceTransition) bool { return t.To == s }),
		Departures: edgesOf(ResourceTransitions(), func(t ResourceTransition) bool { return t.From == s }),
	}
	return x, nil
}

func edgesOf[S ~string, E ~string](ts []Transition[S, E], keep func(Transition[S, E]) bool) []Edge {
	var out []Edge
	for _, t := range ts {
		if keep(t) {
			out = append(out, Edge{Event: string(t.Event), From: string(t.From), To: string(t.To), Why: t.Why})
		}
	}
	return out
}

// exampleStack is the stack the examples of refusals are about.
func exampleStack(s StackStatus) StackInfo {
	return StackInfo{StackName: "NAME", StackID: "STACK_ID", Status: s, ChangeSetName: "CHANGE_SET"}
}

// refusals returns what AWS answers, in status s, to each operation that is
// not accepted there, or accepted only when rollback was disabled (for the
// change set operations, of the default type UPDATE).
func refusals(s StackStatus) []Refusal {
	always, conditional := map[Operation]bool{}, map[Operation]bool{}
	for _, p := range Permissions(s) {
		if p.IfRollbackDisabled {
			conditional[p.Operation] = true
		} else {
			always[p.Operation] = true
		}
	}
	var out []Refusal
	for _, op := range operations {
		switch {
		case always[op]:
		case conditional[op]:
			if oe, ok := CheckOperation(op, exampleStack(s)).(*OperationError); ok {
				out = append(out, Refusal{When: "rollback not disabled", Err: oe})
			}
			info := exampleStack(s)
			info.OnFailureDoNothing = true
			if oe, ok := CheckOperation(op, info).(*OperationError); ok {
				out = append(out, Refusal{When: "OnFailure DO_NOTHING", Err: oe})
			}
		default:
			if oe, ok := CheckOperation(op, exampleStack(s)).(*OperationError); ok {
				out = append(out, Refusal{Err: oe})
			}
		}
	}
	return out
}
