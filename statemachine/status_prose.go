package statemachine

// prose is what a person needs to know of one status: what it means, what
// happens while the entity is in it, and what can be done next. How the
// entity gets there and where it can go are derived from the tables.
type prose struct {
	Summary string // one sentence
	During  string // what happens in the status; "" when nothing runs in it
	Next    string // what the user can do, or what follows by itself
}

var stackProse = map[StackStatus]prose{
	StackStatusReviewInProgress: {
		Summary: "The stack was made by CreateChangeSet (type CREATE or IMPORT) and waits for its change set to be executed.",
		During:  "Nothing runs. The stack has no resources; it exists so that change sets can be created, described and executed against it.",
		Next:    "ExecuteChangeSet runs the create (CREATE_IN_PROGRESS) or the import (IMPORT_IN_PROGRESS). CreateChangeSet may add more change sets. DeleteStack removes the stack.",
	},
	StackStatusCreateInProgress: {
		Summary: "The stack is being created (CreateStack, or ExecuteChangeSet of a CREATE change set).",
		During:  "Resources are created in dependency order, independent ones in parallel; each goes CREATE_IN_PROGRESS → CREATE_COMPLETE. When one fails, those still in flight are cancelled (CREATE_FAILED \"Resource creation cancelled\") and the stack rolls back, unless rollback was disabled.",
		Next:    "Wait. A create cannot be cancelled and DeleteStack is refused while it runs; it ends by itself: CREATE_COMPLETE, ROLLBACK_IN_PROGRESS, or CREATE_FAILED when rollback is disabled.",
	},
	StackStatusCreateComplete: {
		Summary: "The stack was created: every resource is CREATE_COMPLETE.",
		During:  "",
		Next:    "Update it (UpdateStack, or an UPDATE change set), import resources into it (an IMPORT change set), or delete it.",
	},
	StackStatusCreateFailed: {
		Summary: "The create failed with rollback disabled (DisableRollback, or OnFailure DO_NOTHING): the resources that were created are kept, the failed ones stay CREATE_FAILED.",
		During:  "Nothing is rolled back until someone asks.",
		Next:    "If the create disabled rollback, UpdateStack retries it (the failed resources are created again, with the same or a fixed template). RollbackStack deletes what was created (→ ROLLBACK_COMPLETE). DeleteStack deletes the stack. A stack created with OnFailure DO_NOTHING cannot be updated: roll it back or delete it.",
	},
	StackStatusRollbackInProgress: {
		Summary: "A failed create is being rolled back (or RollbackStack was called from CREATE_FAILED).",
		During:  "Deletes only, in reverse dependency order: every resource the create made is deleted; DeletionPolicy Retain keeps a resource (DELETE_SKIPPED), unless RetainExceptOnCreate applies.",
		Next:    "Wait: ROLLBACK_COMPLETE, or ROLLBACK_FAILED when a delete fails. Nothing can be called meanwhile.",
	},
	StackStatusRollbackComplete: {
		Summary: "The failed create was rolled back. The stack exists but holds no resources.",
		During:  "",
		Next:    "Only DeleteStack. The stack cannot be updated (\"... is in ROLLBACK_COMPLETE state and can not be updated.\"): delete it, fix the template, and create it again.",
	},
	StackStatusRollbackFailed: {
		Summary: "The rollback of a failed create could not delete every resource.",
		During:  "The stack reason names the resources: \"The following resource(s) failed to delete: [P]. \"",
		Next:    "Only DeleteStack, which tries the deletes again. If one keeps failing the stack ends DELETE_FAILED, and DeleteStack with RetainResources can then leave it behind.",
	},
	StackStatusUpdateInProgress: {
		Summary: "The stack is being updated (UpdateStack, or ExecuteChangeSet of an UPDATE change set).",
		During:  "Creates and updates, in dependency order: new resources are created, changed ones updated, replaced ones get a new physical resource (announced as UPDATE_IN_PROGRESS \"Requested update requires the creation of a new physical resource; hence creating one.\"). Nothing is deleted yet: removed resources and old physical resources wait for the cleanup.",
		Next:    "Wait, or CancelUpdateStack to stop the update and roll it back. DeleteStack is refused while it runs.",
	},
	StackStatusUpdateCompleteCleanupInProgress: {
		Summary: "The update succeeded; CloudFormation now deletes what it left behind.",
		During:  "Deletes only, in reverse dependency order: resources removed from the template, old physical resources of replacements (UpdateReplacePolicy Retain → DELETE_SKIPPED). Every update passes through this status, even with nothing to delete. A delete that fails here does not fail the update: the resource is DELETE_FAILED and the stack still reaches UPDATE_COMPLETE.",
		Next:    "Wait: UPDATE_COMPLETE follows. The update can no longer be cancelled or rolled back.",
	},
	StackStatusUpdateComplete: {
		Summary: "The last update succeeded.",
		During:  "",
		Next:    "Update it again, import resources, or delete it.",
	},
	StackStatusUpdateFailed: {
		Summary: "The update failed with DisableRollback: what succeeded keeps its new state; the failed resources are UPDATE_FAILED (or CREATE_FAILED).",
		During:  "Nothing runs (seeds/001 draws it as \"(no-rollback) UPDATE_FAILED\").",
		Next:    "UpdateStack retries (same template) or applies a fixed one; RollbackStack goes back to the last stable state (UPDATE_ROLLBACK_IN_PROGRESS); DeleteStack deletes the stack.",
	},
	StackStatusUpdateRollbackInProgress: {
		Summary: "A failed or cancelled update is being rolled back to the previous template.",
		During:  "Updates back to the previous properties, in dependency order. A replaced resource goes back to its old physical resource; a custom resource receives an Update with ResourceProperties = old and OldResourceProperties = new. What the update created is not deleted yet: that is the cleanup's job.",
		Next:    "Wait: UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS, or UPDATE_ROLLBACK_FAILED when a resource cannot be brought back.",
	},
	StackStatusUpdateRollbackFailed: {
		Summary: "The rollback of an update could not finish: at least one resource could not be brought back and stays UPDATE_FAILED.",
		During:  "Typically something was changed or deleted outside CloudFormation, so the update back cannot succeed.",
		Next:    "Fix the cause, then ContinueUpdateRollback. If a resource can never be rolled back, name it in ResourcesToSkip (aws cloudformation continue-update-rollback --stack-name NAME --resources-to-skip LOGICAL_ID; NestedStack.LogicalId inside a nested stack): it is marked UPDATE_COMPLETE without being rolled back, and its real state then differs from the template, so fix it by hand. Only resources whose rollback failed may be skipped. Or DeleteStack. UpdateStack is refused.",
	},
	StackStatusUpdateRollbackCompleteCleanupInProgress: {
		Summary: "The update rollback succeeded; CloudFormation now deletes what the failed update created.",
		During:  "Deletes only, in reverse dependency order: resources the update added, and the new physical resources of replacements.",
		Next:    "Wait: UPDATE_ROLLBACK_COMPLETE follows.",
	},
	StackStatusUpdateRollbackComplete: {
		Summary: "The stack is back to the template it had before the failed update.",
		During:  "",
		Next:    "Update it again (once the cause of the failure is fixed), import resources, or delete it.",
	},
	StackStatusImportInProgress: {
		Summary: "Existing resources are being imported into the stack (ExecuteChangeSet of an IMPORT change set).",
		During:  "Each resource named by the change set is read and adopted: IMPORT_IN_PROGRESS → IMPORT_COMPLETE. Nothing is created, updated or deleted.",
		Next:    "Wait: IMPORT_COMPLETE, or IMPORT_ROLLBACK_IN_PROGRESS when a resource cannot be imported.",
	},
	StackStatusImportComplete: {
		Summary: "The import succeeded: the resources belong to the stack now.",
		During:  "",
		Next:    "Update it, import more, or delete it.",
	},
	StackStatusImportRollbackInProgress: {
		Summary: "A failed import is being rolled back to the previous template.",
		During:  "The resources this import adopted are released: they leave the stack, they are not deleted.",
		Next:    "Wait: IMPORT_ROLLBACK_COMPLETE, or IMPORT_ROLLBACK_FAILED.",
	},
	StackStatusImportRollbackFailed: {
		Summary: "The rollback of an import failed for at least one resource.",
		During:  "",
		Next:    "DeleteStack.",
	},
	StackStatusImportRollbackComplete: {
		Summary: "The failed import was rolled back: the stack is back to its template before the import.",
		During:  "",
		Next:    "Update it, import again, or delete it.",
	},
	StackStatusDeleteInProgress: {
		Summary: "The stack is being deleted (DeleteStack; or by itself after a create's rollback, with OnFailure DELETE).",
		During:  "Deletes, in reverse dependency order. DeletionPolicy Retain (and Snapshot, after the snapshot) keeps a resource: DELETE_SKIPPED. A failed delete is not rolled back.",
		Next:    "Wait: DELETE_COMPLETE, or DELETE_FAILED. Another DeleteStack is accepted and does nothing.",
	},
	StackStatusDeleteFailed: {
		Summary: "At least one resource could not be deleted.",
		During:  "The resources that were deleted stay deleted.",
		Next:    "Fix the cause and call DeleteStack again; or call DeleteStack with RetainResources naming the resources that keep failing (accepted only in DELETE_FAILED): they become DELETE_SKIPPED and stay in the account.",
	},
	StackStatusDeleteComplete: {
		Summary: "The stack is deleted.",
		During:  "Final. It stays visible for 90 days (DescribeStacks by stack ID, ListStacks) with its events.",
		Next:    "Nothing: DELETE_COMPLETE is final. The name is free again; CreateStack with it makes a new stack with a new stack ID.",
	},
}

var resourceProse = map[ResourceStatus]prose{
	ResourceStatusCreateInProgress: {
		Summary: "The handler is creating the resource.",
		During:  "AWS reports this status twice: once when the create starts (no physical ID yet), and once with \"Resource creation Initiated\" when the physical ID is known: a second event, not a new status. The handler is called again after each callbackDelaySeconds until it answers SUCCESS or FAILED.",
		Next:    "CREATE_COMPLETE, or CREATE_FAILED when the handler fails or times out, or when a sibling fails first (\"Resource creation cancelled\").",
	},
	ResourceStatusCreateComplete: {
		Summary: "The resource exists and matches the template.",
		During:  "",
		Next:    "An update changes it (UPDATE_IN_PROGRESS); a delete, a create rollback or a cleanup deletes it (DELETE_IN_PROGRESS), or retains it (DELETE_SKIPPED) when its policy says Retain.",
	},
	ResourceStatusCreateFailed: {
		Summary: "The create failed, timed out, or was cancelled because a sibling failed.",
		During:  "At rest while the stack decides: during a rollback it does not stay long.",
		Next:    "A rollback or DeleteStack deletes what was made (DELETE_IN_PROGRESS), or reports DELETE_COMPLETE at once when nothing was. With rollback disabled it stays CREATE_FAILED until the next update creates it again.",
	},
	ResourceStatusUpdateInProgress: {
		Summary: "The handler is updating the resource: forward, back during an update rollback, or again on a retry. A new physical resource of a replacement starts here too.",
		During:  "For a replacement AWS reports \"Requested update requires the creation of a new physical resource; hence creating one.\" with the old physical ID, then \"Resource creation Initiated\" with the new one. The old physical resource is deleted in the cleanup.",
		Next:    "UPDATE_COMPLETE, or UPDATE_FAILED when the handler fails or times out, or when the update is cancelled (\"Resource update cancelled\").",
	},
	ResourceStatusUpdateComplete: {
		Summary: "The update (or the update back) succeeded.",
		During:  "",
		Next:    "Another update, an update rollback that brings it back, a delete, or retain.",
	},
	ResourceStatusUpdateFailed: {
		Summary: "The update failed, was cancelled, or its rollback failed.",
		During:  "At rest while the stack decides.",
		Next:    "The update rollback updates it back (UPDATE_IN_PROGRESS). If that fails too the stack is UPDATE_ROLLBACK_FAILED: ContinueUpdateRollback retries it, or with ResourcesToSkip marks it UPDATE_COMPLETE without rolling it back. With DisableRollback it stays UPDATE_FAILED until the next update or RollbackStack.",
	},
	ResourceStatusDeleteInProgress: {
		Summary: "The handler is deleting the resource.",
		During:  "The handler is called until it answers SUCCESS (a resource already gone counts as deleted) or FAILED.",
		Next:    "DELETE_COMPLETE, or DELETE_FAILED.",
	},
	ResourceStatusDeleteComplete: {
		Summary: "The physical resource is gone.",
		During:  "Final for this physical resource.",
		Next:    "Nothing. A later create of the same logical resource makes a new physical resource.",
	},
	ResourceStatusDeleteFailed: {
		Summary: "The delete failed.",
		During:  "Failed in a cleanup, it no longer blocks anything: the update completes and the physical resource is left in the account.",
		Next:    "DeleteStack again retries the delete; DeleteStack with RetainResources leaves it behind (DELETE_SKIPPED).",
	},
	ResourceStatusDeleteSkipped: {
		Summary: "The resource was retained: it stays in the account and leaves the stack.",
		During:  "Final for the stack: DeletionPolicy Retain or Snapshot, UpdateReplacePolicy Retain, or DeleteStack's RetainResources.",
		Next:    "Nothing within the stack. It can be imported into a stack later.",
	},
	ResourceStatusImportInProgress: {
		Summary: "The existing resource is being imported.",
		During:  "The handler reads it by the identifier the change set gives; nothing is changed.",
		Next:    "IMPORT_COMPLETE, or IMPORT_FAILED.",
	},
	ResourceStatusImportComplete: {
		Summary: "The resource was imported: the stack manages it now.",
		During:  "",
		Next:    "Updates and deletes as for any resource; released again if the rest of the import fails.",
	},
	ResourceStatusImportFailed: {
		Summary: "The resource could not be imported.",
		During:  "At rest while the import rolls back.",
		Next:    "IMPORT_ROLLBACK_IN_PROGRESS.",
	},
	ResourceStatusImportRollbackInProgress: {
		Summary: "The import is being rolled back: the resource is being released.",
		During:  "Nothing is deleted: the resource existed before the import and stays.",
		Next:    "IMPORT_ROLLBACK_COMPLETE, or IMPORT_ROLLBACK_FAILED.",
	},
	ResourceStatusImportRollbackComplete: {
		Summary: "The resource was released: it is no longer part of the stack.",
		During:  "Final for the stack.",
		Next:    "Nothing within the stack.",
	},
	ResourceStatusImportRollbackFailed: {
		Summary: "The resource could not be released.",
		During:  "",
		Next:    "Deleting the stack deletes or retains it, by its DeletionPolicy.",
	},
}
