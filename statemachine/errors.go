package statemachine

import (
	"fmt"
	"strings"
)

// TransitionError says that a machine refused an event: the event is not
// allowed in the entity's status. For the engine it is always a bug (every
// status change it makes must be legal), never something to ignore.
type TransitionError struct {
	Machine string   // "stack" or "resource"
	Entity  string   // the stack name, or the resource's logical (and physical) id
	Status  string   // the status the entity was in; "" is NotExist
	Event   string   // the refused event
	Allowed []string // the events the status does allow, in table order

	cause error // set only for an unexpected looplab/fsm error
}

func (e *TransitionError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "statemachine: %s %q: event %q is not allowed in status %s", e.Machine, e.Entity, e.Event, label(e.Status))
	if len(e.Allowed) == 0 {
		b.WriteString(" (no event is: the status is final or unknown)")
	} else {
		fmt.Fprintf(&b, " (allowed: %s)", strings.Join(e.Allowed, ", "))
	}
	if e.cause != nil {
		fmt.Fprintf(&b, ": %v", e.cause)
	}
	return b.String()
}

// Unwrap returns the unexpected looplab/fsm error behind the refusal, if any.
func (e *TransitionError) Unwrap() error { return e.cause }
