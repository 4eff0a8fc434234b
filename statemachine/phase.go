package statemachine

import "strings"

// Actions is a set of kinds of resource action: what runs while a stack is in
// an in-progress status (the [C], [U], [D] of seeds/001, plus imports).
//
// Actions count what happens to logical resources. A replacement is an update
// of its logical resource, even though it creates a new physical resource
// (and, with a delete-then-create replacement strategy, deletes the old one
// first): so UPDATE_IN_PROGRESS is Creates|Updates and
// UPDATE_ROLLBACK_IN_PROGRESS is Updates, as in seeds/001, although the
// physical resources of replacements are created (and, rarely, deleted)
// inside those updates.
type Actions uint8

// The kinds of resource action.
const (
	Creates Actions = 1 << iota // resources are created
	Updates                     // resources are updated, replaced, or updated back
	Deletes                     // resources are deleted (or retained: DELETE_SKIPPED)
	Imports                     // existing resources are imported, or released by an import rollback
)

// Has reports whether every action of q is in a.
func (a Actions) Has(q Actions) bool { return a&q == q }

// String returns the letters of the set, as seeds/001 writes them: "C,U",
// "D", "I"; "-" for none.
func (a Actions) String() string {
	var parts []string
	for _, x := range [...]struct {
		a Actions
		s string
	}{{Creates, "C"}, {Updates, "U"}, {Deletes, "D"}, {Imports, "I"}} {
		if a.Has(x.a) {
			parts = append(parts, x.s)
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ",")
}

// Words spells the set out: "creates, updates".
func (a Actions) Words() string {
	var parts []string
	for _, x := range [...]struct {
		a Actions
		s string
	}{{Creates, "creates"}, {Updates, "updates"}, {Deletes, "deletes"}, {Imports, "imports"}} {
		if a.Has(x.a) {
			parts = append(parts, x.s)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Phase returns the resource actions that run while a stack is in s
// (BEHAVIOUR.md §2). It is empty for statuses at rest and for
// REVIEW_IN_PROGRESS, where nothing runs.
func (s StackStatus) Phase() Actions {
	switch s {
	case StackStatusCreateInProgress:
		return Creates
	case StackStatusUpdateInProgress:
		return Creates | Updates
	case StackStatusUpdateRollbackInProgress:
		return Updates
	case StackStatusRollbackInProgress,
		StackStatusUpdateCompleteCleanupInProgress,
		StackStatusUpdateRollbackCompleteCleanupInProgress,
		StackStatusDeleteInProgress:
		return Deletes
	case StackStatusImportInProgress, StackStatusImportRollbackInProgress:
		return Imports
	}
	return 0
}
