package plan

import "fmt"

// Journal is what the engine records of a running plan: one entry per step
// that started, appended as the step moves on; the last entry of a step is
// what counts. It is data, stored beside the plan, and all Rollback and
// ContinueRollback need to know of what happened.
type Journal []Entry

// Entry is the record of one step.
type Entry struct {
	Step      int    `json:"step"`
	LogicalID string `json:"logicalId"`
	// Action is the action that ran when it differs from the planned one:
	// what Decide made of a Conditional or Dynamic Update once its values
	// were known (NoOp, Update, CreateThenDelete, DeleteThenCreate). Zero
	// means as planned.
	Action  Action  `json:"action,omitempty"`
	Outcome Outcome `json:"outcome"`
	// OldPhysicalID is the physical resource the step started from ("" for
	// a create).
	OldPhysicalID string `json:"oldPhysicalId,omitempty"`
	// NewPhysicalID is a physical resource the step brought into being: the
	// created resource, the new one of a replacement, the new id a custom
	// resource answered. It may be set on a failed or cancelled step whose
	// handler named a resource before it stopped.
	NewPhysicalID string `json:"newPhysicalId,omitempty"`
	// Created says a physical resource may exist although NewPhysicalID is
	// empty (a custom resource's Create that failed without naming one):
	// the rollback still deletes it.
	Created bool `json:"created,omitempty"`
	// OldDeleted says a DeleteThenCreate deleted the old physical resource.
	OldDeleted bool `json:"oldDeleted,omitempty"`
	// ReplacedAtRunTime says a custom resource's Update answered a new
	// physical id (NewPhysicalID): a replacement, whose old resource the
	// cleanup deletes (or a rollback goes back to).
	ReplacedAtRunTime bool `json:"replacedAtRunTime,omitempty"`
}

// Outcome is where a step got to.
type Outcome uint8

// The outcomes.
const (
	// Done: the step succeeded.
	Done Outcome = iota + 1
	// Failed: the handler failed (or the step timed out).
	Failed
	// Cancelled: the step was running when a sibling failed; it was
	// stopped ("Resource creation cancelled").
	Cancelled
	// InFlight: the step was running when the operation stopped, and its end
	// is unknown.
	InFlight
)

var outcomeNames = [...]string{Done: "Done", Failed: "Failed", Cancelled: "Cancelled", InFlight: "InFlight"}

func (o Outcome) String() string {
	if o >= Done && int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// MarshalText renders the outcome's name.
func (o Outcome) MarshalText() ([]byte, error) {
	if o < Done || int(o) >= len(outcomeNames) {
		return nil, fmt.Errorf("plan: invalid outcome %d", uint8(o))
	}
	return []byte(outcomeNames[o]), nil
}

// UnmarshalText reads an outcome's name.
func (o *Outcome) UnmarshalText(text []byte) error {
	for i, n := range outcomeNames {
		if n != "" && n == string(text) {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("plan: unknown outcome %q", text)
}

// Last returns the last entry of each step, by step ID.
func (j Journal) Last() map[int]Entry {
	out := make(map[int]Entry, len(j))
	for _, e := range j {
		out[e.Step] = e
	}
	return out
}

// ran is the action the entry's step ran.
func (e Entry) ran(planned Action) Action {
	if e.Action != 0 {
		return e.Action
	}
	return planned
}

// created tells whether the step left a new physical resource (or may have).
func (e Entry) created() bool { return e.NewPhysicalID != "" || e.Created }

// leftOld tells whether the step replaced its resource and left the old
// physical resource standing: a CreateThenDelete that made its new resource,
// a DeleteThenCreate that did not delete the old one, or a custom resource
// whose handler (Update, or the Update of a rollback's Restore) answered a
// new physical id.
func (e Entry) leftOld(s *Step) bool {
	switch e.ran(s.Action) {
	case CreateThenDelete:
		return e.created()
	case DeleteThenCreate:
		return !e.OldDeleted && e.created()
	case Update, Restore:
		old := s.PhysicalID
		if e.OldPhysicalID != "" && s.Action != Restore {
			old = e.OldPhysicalID
		}
		return e.ReplacedAtRunTime && e.NewPhysicalID != "" && e.NewPhysicalID != old
	}
	return false
}

// NeedsCleanup tells whether a cleanup step that removes the old physical
// resource of a replacement (Step.Replaces != 0) must run, given the
// replacing step and its journal entry: that step is done and replaced
// while leaving the old resource in place. When it did not (a Conditional
// replacement that turned out an update in place, a custom resource that
// kept its id), the engine marks the cleanup step done without running it
// and without an event. Other cleanup steps always run.
func NeedsCleanup(cleanup *Step, replacing *Step, e Entry) bool {
	if cleanup.Replaces == 0 {
		return true
	}
	return e.Outcome == Done && e.leftOld(replacing)
}
