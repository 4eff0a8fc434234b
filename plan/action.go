package plan

import "fmt"

// Action is what a step does to one resource. The zero value is not an
// action: a Journal entry leaves it zero to mean "as planned".
type Action uint8

// The actions. Create, Update, the two replacements and Delete call the
// resource's handler; the others do not (but see Step.CallsHandler).
const (
	// NoOp: the resource does not change. The engine marks the step done at
	// once, without an event.
	NoOp Action = iota + 1
	// Create: a new physical resource (CREATE_IN_PROGRESS → CREATE_COMPLETE;
	// in an update, the resource is added).
	Create
	// Update: the physical resource is updated in place (UPDATE_IN_PROGRESS →
	// UPDATE_COMPLETE). A step whose Scope does not hold Properties changes
	// only what CloudFormation keeps (Metadata, policies): no handler call.
	Update
	// CreateThenDelete: replacement, the new physical resource first; the
	// old one is deleted in the cleanup phase (schema replacementStrategy
	// create_then_delete, the default).
	CreateThenDelete
	// DeleteThenCreate: replacement, the old physical resource deleted first,
	// then the new one created, both in the step (replacementStrategy
	// delete_then_create).
	DeleteThenCreate
	// Delete: the physical resource is deleted (DELETE_IN_PROGRESS →
	// DELETE_COMPLETE).
	Delete
	// Retain: the physical resource is left alone and leaves the stack's
	// scope (DELETE_SKIPPED). No handler call.
	Retain
	// Snapshot: a snapshot is taken, then the resource leaves the stack as
	// for Retain (DELETE_SKIPPED, BEHAVIOUR.md §3). No handler call: the
	// engine records the snapshot of the resource's model.
	Snapshot
	// Restore (rollback of a replacement): the logical resource points back
	// at its old physical resource, PhysicalID. For a registry type there is
	// no handler call; the engine emits UPDATE_IN_PROGRESS/UPDATE_COMPLETE
	// with the old physical id. For a custom resource (Step.Custom) the
	// handler gets an Update with ResourceProperties = the old properties
	// and OldResourceProperties = the new ones, addressed to PhysicalID.
	Restore
	// Forget (rollback or deletion of a resource that never got a physical
	// resource): the engine shows DELETE_COMPLETE without a handler call.
	Forget
	// Skip (continue-update-rollback, ResourcesToSkip): the resource whose
	// rollback failed is marked UPDATE_COMPLETE without a handler call, as
	// if its rollback step had succeeded: for a skipped Restore the logical
	// resource points at PhysicalID, for a skipped Create it has none.
	Skip
	// Import (an IMPORT change set): an existing physical resource,
	// PhysicalID, comes into the stack (IMPORT_IN_PROGRESS →
	// IMPORT_COMPLETE). The handler's Read is called: it must exist.
	Import
	// Release (the rollback of an import): the resource leaves the stack
	// and stays in the account (IMPORT_ROLLBACK_IN_PROGRESS →
	// IMPORT_ROLLBACK_COMPLETE). No handler call.
	Release
)

var actionNames = [...]string{
	NoOp: "NoOp", Create: "Create", Update: "Update",
	CreateThenDelete: "CreateThenDelete", DeleteThenCreate: "DeleteThenCreate",
	Delete: "Delete", Retain: "Retain", Snapshot: "Snapshot",
	Restore: "Restore", Forget: "Forget", Skip: "Skip",
	Import: "Import", Release: "Release",
}

func (a Action) String() string {
	if a.valid() {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

func (a Action) valid() bool { return a >= NoOp && int(a) < len(actionNames) }

// IsReplace tells whether the action replaces the physical resource.
func (a Action) IsReplace() bool { return a == CreateThenDelete || a == DeleteThenCreate }

// IsDelete tells whether the action takes a physical resource out of the
// stack (Delete, Retain, Snapshot, Forget): what the delete, cleanup and
// create-rollback phases run.
func (a Action) IsDelete() bool { return a == Delete || a == Retain || a == Snapshot || a == Forget }

// MarshalText renders the action's name; the zero value renders as "".
func (a Action) MarshalText() ([]byte, error) {
	if a == 0 {
		return []byte{}, nil
	}
	if !a.valid() {
		return nil, fmt.Errorf("plan: invalid action %d", uint8(a))
	}
	return []byte(actionNames[a]), nil
}

// UnmarshalText reads an action's name; "" is the zero value.
func (a *Action) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*a = 0
		return nil
	}
	for i, n := range actionNames {
		if n != "" && n == string(text) {
			*a = Action(i)
			return nil
		}
	}
	return fmt.Errorf("plan: unknown action %q", text)
}

// Replacement says whether a change replaces the physical resource, in
// DescribeChangeSet's words.
type Replacement string

// The replacements.
const (
	ReplacementTrue        Replacement = "True"
	ReplacementFalse       Replacement = "False"
	ReplacementConditional Replacement = "Conditional"
)

// Recreation is a property's RequiresRecreation: what a change of it does.
type Recreation string

// The recreations, weakest first.
const (
	Never         Recreation = "Never"
	Conditionally Recreation = "Conditionally"
	Always        Recreation = "Always"
)

func (r Recreation) rank() int {
	switch r {
	case Always:
		return 2
	case Conditionally:
		return 1
	}
	return 0
}

// max returns the stronger of two recreations.
func (r Recreation) max(o Recreation) Recreation {
	if o.rank() > r.rank() {
		return o
	}
	if r == "" {
		return Never
	}
	return r
}
