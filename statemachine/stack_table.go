package statemachine

import "strings"

// stackTable is the stack machine: every event with every (from → to) it
// allows. The looplab/fsm events, the renderings, docs/states.md and the
// tests are all derived from it. Sources: the diagrams of seeds/001, the
// prose of seeds/003, BEHAVIOUR.md §1-3 and AWS's API reference; where the
// seeds and AWS disagree it follows AWS (see seedNotes).
func stackTable() []eventDef[StackStatus, StackEvent] {
	table := []eventDef[StackStatus, StackEvent]{
		{
			Name:    StackReview,
			Summary: "CreateChangeSet of type CREATE or IMPORT names a stack that does not exist: the stack is made, empty, to hold the change set.",
			Edges: []edge[StackStatus]{
				{NotExist, StackStatusReviewInProgress, "CreateChangeSet (ChangeSetType CREATE or IMPORT) on a new stack name; the stack event reads \"User Initiated\""},
			},
		},
		{
			Name:    StackCreate,
			Summary: "The create begins: CreateStack, or ExecuteChangeSet of a CREATE change set.",
			Edges: []edge[StackStatus]{
				{NotExist, StackStatusCreateInProgress, "CreateStack"},
				{StackStatusReviewInProgress, StackStatusCreateInProgress, "ExecuteChangeSet of the stack's CREATE change set"},
			},
		},
		{
			Name:    StackCreateSucceeded,
			Summary: "Every resource was created.",
			Edges: []edge[StackStatus]{
				{StackStatusCreateInProgress, StackStatusCreateComplete, "every resource reached CREATE_COMPLETE"},
			},
		},
		{
			Name:    StackCreateFailed,
			Summary: "The create failed and rollback is disabled: what was created stays.",
			Edges: []edge[StackStatus]{
				{StackStatusCreateInProgress, StackStatusCreateFailed, "a resource failed to create (or the create timed out) and the stack was created with DisableRollback or OnFailure DO_NOTHING"},
			},
		},
		{
			Name:    StackRollbackBegun,
			Summary: "The operation failed (or timed out) with rollback enabled: CloudFormation starts rolling it back by itself.",
			Edges: []edge[StackStatus]{
				{StackStatusCreateInProgress, StackStatusRollbackInProgress, "a resource failed to create, the create timed out, or a template error surfaced while it ran; rollback is enabled (OnFailure ROLLBACK, the default, or DELETE)"},
				{StackStatusUpdateInProgress, StackStatusUpdateRollbackInProgress, "a resource failed to update or create and the update did not disable rollback"},
				{StackStatusImportInProgress, StackStatusImportRollbackInProgress, "a resource failed to import"},
			},
		},
		{
			Name:    StackRollback,
			Summary: "RollbackStack: a stack whose failed operation disabled rollback is rolled back now.",
			Edges: []edge[StackStatus]{
				{StackStatusCreateFailed, StackStatusRollbackInProgress, "RollbackStack after a create that failed with rollback disabled: there is no stable state to go back to, so what was created is deleted"},
				{StackStatusUpdateFailed, StackStatusUpdateRollbackInProgress, "RollbackStack after an update that failed with DisableRollback: back to the last stable state"},
			},
		},
		{
			Name:    StackRollbackSucceeded,
			Summary: "The rollback undid everything it had to.",
			Edges: []edge[StackStatus]{
				{StackStatusRollbackInProgress, StackStatusRollbackComplete, "every resource the create made is deleted (or retained)"},
				{StackStatusUpdateRollbackInProgress, StackStatusUpdateRollbackCompleteCleanupInProgress, "every resource is back to its previous properties; what the update created is deleted next, in cleanup"},
				{StackStatusImportRollbackInProgress, StackStatusImportRollbackComplete, "every imported resource is released"},
			},
		},
		{
			Name:    StackRollbackFailed,
			Summary: "The rollback could not undo something: a delete or an update back failed.",
			Edges: []edge[StackStatus]{
				{StackStatusRollbackInProgress, StackStatusRollbackFailed, "a resource could not be deleted; the stack reason reads \"The following resource(s) failed to delete: [P]. \""},
				{StackStatusUpdateRollbackInProgress, StackStatusUpdateRollbackFailed, "a resource could not be updated back (for example, it was changed or deleted outside CloudFormation)"},
				{StackStatusImportRollbackInProgress, StackStatusImportRollbackFailed, "a resource could not be released"},
			},
		},
		{
			Name:    StackUpdate,
			Summary: "The update begins: UpdateStack, or ExecuteChangeSet of an UPDATE change set.",
			Edges: []edge[StackStatus]{
				{StackStatusCreateComplete, StackStatusUpdateInProgress, "UpdateStack or ExecuteChangeSet"},
				{StackStatusCreateFailed, StackStatusUpdateInProgress, "UpdateStack after a create that failed with DisableRollback: the failed resources are created again (refused after OnFailure DO_NOTHING)"},
				{StackStatusUpdateComplete, StackStatusUpdateInProgress, "UpdateStack or ExecuteChangeSet"},
				{StackStatusUpdateFailed, StackStatusUpdateInProgress, "UpdateStack after an update that failed with DisableRollback: retry, or a fixed template"},
				{StackStatusUpdateRollbackComplete, StackStatusUpdateInProgress, "UpdateStack or ExecuteChangeSet, after a rolled-back update"},
				{StackStatusImportComplete, StackStatusUpdateInProgress, "UpdateStack or ExecuteChangeSet"},
				{StackStatusImportRollbackComplete, StackStatusUpdateInProgress, "UpdateStack or ExecuteChangeSet"},
			},
		},
		{
			Name:    StackUpdateSucceeded,
			Summary: "Every create and update of the update succeeded: the cleanup begins.",
			Edges: []edge[StackStatus]{
				{StackStatusUpdateInProgress, StackStatusUpdateCompleteCleanupInProgress, "every create and update succeeded; every update passes through cleanup, even with nothing to delete"},
			},
		},
		{
			Name:    StackUpdateFailed,
			Summary: "The update failed and rollback is disabled: what was done stays.",
			Edges: []edge[StackStatus]{
				{StackStatusUpdateInProgress, StackStatusUpdateFailed, "a resource failed and the update was called with DisableRollback (seeds/001: \"(no-rollback) UPDATE_FAILED\")"},
			},
		},
		{
			Name:    StackCancelUpdate,
			Summary: "CancelUpdateStack: the running update is stopped and rolled back.",
			Edges: []edge[StackStatus]{
				{StackStatusUpdateInProgress, StackStatusUpdateRollbackInProgress, "CancelUpdateStack; resources in flight end UPDATE_FAILED \"Resource update cancelled\" (or CREATE_FAILED \"Resource creation cancelled\")"},
			},
		},
		{
			Name:    StackParentRollback,
			Summary: "A nested stack whose update succeeded, its cleanup paused until its parent's cleanup, rolls back because its parent's update failed.",
			Edges: []edge[StackStatus]{
				{StackStatusUpdateCompleteCleanupInProgress, StackStatusUpdateRollbackInProgress, "the parent's update failed after this nested stack's own update succeeded; CloudFormation pauses a nested stack's cleanup while a sibling may still fail (AWS Knowledge Center, cloudformation-stack-cleanup-stuck)"},
			},
		},
		{
			Name:    StackCleanupSucceeded,
			Summary: "The cleanup finished. It never fails the stack: a delete that fails in cleanup leaves that resource DELETE_FAILED and the stack still completes.",
			Edges: []edge[StackStatus]{
				{StackStatusUpdateCompleteCleanupInProgress, StackStatusUpdateComplete, "the removed resources and the old physical resources of replacements were deleted (or retained, or failed to delete)"},
				{StackStatusUpdateRollbackCompleteCleanupInProgress, StackStatusUpdateRollbackComplete, "what the failed update created was deleted"},
			},
		},
		{
			Name:    StackContinueUpdateRollback,
			Summary: "ContinueUpdateRollback: the failed update rollback is tried again, skipping the resources named in ResourcesToSkip.",
			Edges: []edge[StackStatus]{
				{StackStatusUpdateRollbackFailed, StackStatusUpdateRollbackInProgress, "ContinueUpdateRollback, with or without ResourcesToSkip"},
			},
		},
		{
			Name:    StackImport,
			Summary: "The import begins: ExecuteChangeSet of an IMPORT change set.",
			Edges: []edge[StackStatus]{
				{StackStatusReviewInProgress, StackStatusImportInProgress, "ExecuteChangeSet of the IMPORT change set that made the stack"},
				{StackStatusCreateComplete, StackStatusImportInProgress, "ExecuteChangeSet of an IMPORT change set"},
				{StackStatusUpdateComplete, StackStatusImportInProgress, "ExecuteChangeSet of an IMPORT change set"},
				{StackStatusUpdateRollbackComplete, StackStatusImportInProgress, "ExecuteChangeSet of an IMPORT change set"},
				{StackStatusImportComplete, StackStatusImportInProgress, "ExecuteChangeSet of an IMPORT change set"},
				{StackStatusImportRollbackComplete, StackStatusImportInProgress, "ExecuteChangeSet of an IMPORT change set"},
			},
		},
		{
			Name:    StackImportSucceeded,
			Summary: "Every resource was imported.",
			Edges: []edge[StackStatus]{
				{StackStatusImportInProgress, StackStatusImportComplete, "every resource reached IMPORT_COMPLETE"},
			},
		},
		{
			Name:    StackDelete,
			Summary: "DeleteStack: the deletion begins. (OnFailure DELETE fires it by itself after a create's rollback.)",
			Edges: []edge[StackStatus]{
				{StackStatusReviewInProgress, StackStatusDeleteInProgress, "DeleteStack of a stack that was never created"},
				{StackStatusCreateComplete, StackStatusDeleteInProgress, "DeleteStack"},
				{StackStatusCreateFailed, StackStatusDeleteInProgress, "DeleteStack"},
				{StackStatusRollbackComplete, StackStatusDeleteInProgress, "DeleteStack, the only way out of ROLLBACK_COMPLETE; OnFailure DELETE calls it by itself"},
				{StackStatusRollbackFailed, StackStatusDeleteInProgress, "DeleteStack, the only way out of ROLLBACK_FAILED; OnFailure DELETE calls it by itself"},
				{StackStatusUpdateComplete, StackStatusDeleteInProgress, "DeleteStack"},
				{StackStatusUpdateFailed, StackStatusDeleteInProgress, "DeleteStack"},
				{StackStatusUpdateRollbackFailed, StackStatusDeleteInProgress, "DeleteStack, instead of ContinueUpdateRollback"},
				{StackStatusUpdateRollbackComplete, StackStatusDeleteInProgress, "DeleteStack"},
				{StackStatusImportComplete, StackStatusDeleteInProgress, "DeleteStack"},
				{StackStatusImportRollbackFailed, StackStatusDeleteInProgress, "DeleteStack"},
				{StackStatusImportRollbackComplete, StackStatusDeleteInProgress, "DeleteStack"},
				{StackStatusDeleteFailed, StackStatusDeleteInProgress, "DeleteStack again, with RetainResources naming the resources to leave behind if need be"},
			},
		},
		{
			Name:    StackDeleteSucceeded,
			Summary: "Every resource was deleted or retained: the stack is gone.",
			Edges: []edge[StackStatus]{
				{StackStatusDeleteInProgress, StackStatusDeleteComplete, "every resource is DELETE_COMPLETE or DELETE_SKIPPED"},
			},
		},
		{
			Name:    StackDeleteFailed,
			Summary: "A resource could not be deleted. There is no rollback of a delete.",
			Edges: []edge[StackStatus]{
				{StackStatusDeleteInProgress, StackStatusDeleteFailed, "a resource is DELETE_FAILED"},
			},
		},
	}
	return append(table, deleteRefusedEvents()...)
}

// deleteRefusedStatuses are the statuses a DeleteStack may start from while
// the stack still has exports (its outputs exist): the statuses a refused
// deletion returns to.
var deleteRefusedStatuses = []StackStatus{
	StackStatusCreateComplete,
	StackStatusUpdateComplete,
	StackStatusUpdateFailed,
	StackStatusUpdateRollbackFailed,
	StackStatusUpdateRollbackComplete,
	StackStatusImportComplete,
	StackStatusImportRollbackFailed,
	StackStatusImportRollbackComplete,
	StackStatusDeleteFailed,
}

// StackDeleteRefused is the event that takes a stack back from
// DELETE_IN_PROGRESS to the status it had before DeleteStack, when
// CloudFormation refuses the deletion before touching any resource: an
// export of the stack is imported by another stack ("Export NAME cannot be
// deleted as it is in use by STACK", aws/aws-cdk#604, rlister/stax#40).
// The machine needs one event per status returned to, since an event and
// the status it fires from decide where it leads; ok is false for a status
// a deletion cannot return to.
func StackDeleteRefused(to StackStatus) (ev StackEvent, ok bool) {
	for _, s := range deleteRefusedStatuses {
		if s == to {
			return StackEvent("delete_refused_to_" + strings.ToLower(string(s))), true
		}
	}
	return "", false
}

func deleteRefusedEvents() []eventDef[StackStatus, StackEvent] {
	out := make([]eventDef[StackStatus, StackEvent], 0, len(deleteRefusedStatuses))
	for _, s := range deleteRefusedStatuses {
		ev, _ := StackDeleteRefused(s)
		out = append(out, eventDef[StackStatus, StackEvent]{
			Name:    ev,
			Summary: "The deletion is refused before any resource is touched (an export of the stack is imported by another stack): back to " + string(s) + ".",
			Edges: []edge[StackStatus]{
				{StackStatusDeleteInProgress, s, "an export of the stack is imported by another stack; the stack event reads \"Export NAME cannot be deleted as it is in use by STACK\""},
			},
		})
	}
	return out
}
