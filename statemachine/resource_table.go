package statemachine

// resourceTable is the resource machine, for one physical resource (see
// docs/architecture.md): every event with every (from → to) it allows.
//
// A replacement moves the logical resource to a new physical resource, which
// starts from NotExist with the replace event (AWS announces it as
// UPDATE_IN_PROGRESS "Requested update requires the creation of a new
// physical resource; hence creating one."); the old physical resource keeps
// its status until a cleanup deletes it. AWS's second CREATE_IN_PROGRESS
// ("Resource creation Initiated", once the physical ID is known) is a stack
// event without a status change: no transition here.
func resourceTable() []eventDef[ResourceStatus, ResourceEvent] {
	return []eventDef[ResourceStatus, ResourceEvent]{
		{
			Name:    ResourceCreate,
			Summary: "The handler is asked to create the resource.",
			Edges: []edge[ResourceStatus]{
				{NotExist, ResourceStatusCreateInProgress, "the stack's create, or an update that adds the resource, reaches it in dependency order"},
				{ResourceStatusCreateFailed, ResourceStatusCreateInProgress, "an update retries a resource whose create failed with rollback disabled"},
				{ResourceStatusImportFailed, ResourceStatusCreateInProgress, "an update creates a resource whose import (ImportExistingResources) failed with rollback disabled"},
			},
		},
		{
			Name:    ResourceCreateSucceeded,
			Summary: "The create handler answered SUCCESS.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusCreateInProgress, ResourceStatusCreateComplete, "the handler answered SUCCESS"},
			},
		},
		{
			Name:    ResourceCreateFailed,
			Summary: "The create handler answered FAILED (or timed out).",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusCreateInProgress, ResourceStatusCreateFailed, "the handler answered FAILED, or its timeout passed"},
			},
		},
		{
			Name:    ResourceReplace,
			Summary: "An update needs a new physical resource: the handler is asked to create it, under the same logical ID.",
			Edges: []edge[ResourceStatus]{
				{NotExist, ResourceStatusUpdateInProgress, "\"Requested update requires the creation of a new physical resource; hence creating one.\" (a replacement, or an update rollback that must re-create a resource replaced delete-then-create)"},
			},
		},
		{
			Name:    ResourceUpdate,
			Summary: "The handler is asked to update the resource: forward, back (rollback), or again (retry).",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusCreateComplete, ResourceStatusUpdateInProgress, "an update changes its properties, or a rollback brings an updated resource back"},
				{ResourceStatusUpdateComplete, ResourceStatusUpdateInProgress, "an update changes its properties, or an update rollback brings it back"},
				{ResourceStatusUpdateFailed, ResourceStatusUpdateInProgress, "the update rollback updates it back (seeds/001 \"custom resource rollback\"), ContinueUpdateRollback retries that, or an update after DisableRollback retries it"},
				{ResourceStatusImportComplete, ResourceStatusUpdateInProgress, "an update changes its properties"},
			},
		},
		{
			Name:    ResourceUpdateSucceeded,
			Summary: "The update handler answered SUCCESS.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusUpdateInProgress, ResourceStatusUpdateComplete, "the handler answered SUCCESS"},
			},
		},
		{
			Name:    ResourceUpdateFailed,
			Summary: "The update handler answered FAILED (or timed out).",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusUpdateInProgress, ResourceStatusUpdateFailed, "the handler answered FAILED, or its timeout passed"},
			},
		},
		{
			Name:    ResourceCancel,
			Summary: "A sibling failed (or CancelUpdateStack was called) while this resource was in flight.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusCreateInProgress, ResourceStatusCreateFailed, "\"Resource creation cancelled\""},
				{ResourceStatusUpdateInProgress, ResourceStatusUpdateFailed, "\"Resource update cancelled\""},
			},
		},
		{
			Name:    ResourceSkipRollback,
			Summary: "ContinueUpdateRollback with ResourcesToSkip: the resource is marked UPDATE_COMPLETE without being rolled back.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusUpdateFailed, ResourceStatusUpdateComplete, "named in ResourcesToSkip (only resources whose rollback failed); its real state no longer matches the template (seeds/001 draws this edge as \"no-op rollback\")"},
			},
		},
		{
			Name:    ResourceDeny,
			Summary: "CloudFormation refuses the resource's action before any handler runs: its properties fail its schema's validation (DetailedStatus VALIDATION_FAILED), or the stack policy denies the update (\"Action denied by stack policy: ...\").",
			Edges: []edge[ResourceStatus]{
				{NotExist, ResourceStatusCreateFailed, "its properties fail validation when the create or update starts: CREATE_FAILED with no CREATE_IN_PROGRESS (AWS's console, 2024: \"Properties validation failed for resource X with message: [...]\")"},
				{ResourceStatusCreateComplete, ResourceStatusUpdateFailed, "an update would modify, replace or remove it and the stack policy does not allow that (Update:Modify, Update:Replace, Update:Delete), or its new properties fail validation"},
				{ResourceStatusUpdateComplete, ResourceStatusUpdateFailed, "as from CREATE_COMPLETE"},
				{ResourceStatusImportComplete, ResourceStatusUpdateFailed, "as from CREATE_COMPLETE"},
			},
		},
		{
			Name:    ResourceKeep,
			Summary: "The update's rollback reaches a resource refused before its handler ran (deny): nothing changed, so UPDATE_COMPLETE without a handler call (AWS's log in the awscfncli README, 2017).",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusUpdateFailed, ResourceStatusUpdateComplete, "its update was refused (deny), which the update rollback now ends"},
			},
		},
		{
			Name:    ResourceDelete,
			Summary: "The handler is asked to delete the resource.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusCreateComplete, ResourceStatusDeleteInProgress, "DeleteStack, a create rollback, a cleanup (removed resource, old physical resource of a replacement), or a delete-then-create replacement"},
				{ResourceStatusCreateFailed, ResourceStatusDeleteInProgress, "a rollback or DeleteStack deletes what the failed create made (a failed custom resource is still sent a Delete)"},
				{ResourceStatusUpdateComplete, ResourceStatusDeleteInProgress, "DeleteStack, or a cleanup: removed resources, old physical resources, what a failed update created"},
				{ResourceStatusUpdateFailed, ResourceStatusDeleteInProgress, "DeleteStack (from UPDATE_ROLLBACK_FAILED, say), or the rollback cleanup deletes a new physical resource whose creation failed"},
				{ResourceStatusDeleteFailed, ResourceStatusDeleteInProgress, "DeleteStack again retries the delete"},
				{ResourceStatusImportComplete, ResourceStatusDeleteInProgress, "DeleteStack, or an update that removes the resource"},
				{ResourceStatusImportRollbackFailed, ResourceStatusDeleteInProgress, "DeleteStack"},
			},
		},
		{
			Name:    ResourceDeleteSucceeded,
			Summary: "The delete handler answered SUCCESS (or the resource was already gone).",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusDeleteInProgress, ResourceStatusDeleteComplete, "the handler answered SUCCESS, or NotFound"},
			},
		},
		{
			Name:    ResourceDeleteFailed,
			Summary: "The delete handler answered FAILED (or timed out).",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusDeleteInProgress, ResourceStatusDeleteFailed, "the handler answered FAILED, or its timeout passed"},
			},
		},
		{
			Name:    ResourceRetain,
			Summary: "The resource is left in the account and leaves the stack: DELETE_SKIPPED, without a DELETE_IN_PROGRESS.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusCreateComplete, ResourceStatusDeleteSkipped, "DeletionPolicy Retain (or Snapshot, after the snapshot) when the stack is deleted or a create is rolled back; UpdateReplacePolicy Retain for an old physical resource in cleanup"},
				{ResourceStatusCreateFailed, ResourceStatusDeleteSkipped, "DeletionPolicy Retain on a resource whose create failed"},
				{ResourceStatusUpdateComplete, ResourceStatusDeleteSkipped, "DeletionPolicy or UpdateReplacePolicy Retain"},
				{ResourceStatusUpdateFailed, ResourceStatusDeleteSkipped, "DeletionPolicy Retain when a stack in UPDATE_ROLLBACK_FAILED is deleted"},
				{ResourceStatusDeleteFailed, ResourceStatusDeleteSkipped, "named in DeleteStack's RetainResources (accepted only in DELETE_FAILED)"},
				{ResourceStatusImportComplete, ResourceStatusDeleteSkipped, "DeletionPolicy Retain"},
				{ResourceStatusImportFailed, ResourceStatusDeleteSkipped, "DeletionPolicy Retain when a stack is deleted whose create or update (ImportExistingResources) failed to import it with rollback disabled: it was never the stack's"},
				{ResourceStatusImportRollbackFailed, ResourceStatusDeleteSkipped, "DeletionPolicy Retain when the stack is deleted"},
			},
		},
		{
			Name:    ResourceDiscard,
			Summary: "Nothing was created, so there is nothing to delete: the rollback reports DELETE_COMPLETE at once.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusCreateFailed, ResourceStatusDeleteComplete, "the create failed before a physical resource existed"},
				{ResourceStatusUpdateFailed, ResourceStatusDeleteComplete, "the new physical resource of a replacement failed before it existed (stacksim's choice: AWS shows no event for it)"},
			},
		},
		{
			Name:    ResourceImport,
			Summary: "The handler is asked to read the existing resource and adopt it.",
			Edges: []edge[ResourceStatus]{
				{NotExist, ResourceStatusImportInProgress, "ExecuteChangeSet of an IMPORT change set names it"},
				{ResourceStatusImportFailed, ResourceStatusImportInProgress, "an update (ImportExistingResources) imports again a resource whose import failed with rollback disabled"},
			},
		},
		{
			Name:    ResourceImportSucceeded,
			Summary: "The resource was found and adopted.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusImportInProgress, ResourceStatusImportComplete, "the read answered SUCCESS and the resource matches the template"},
			},
		},
		{
			Name:    ResourceImportFailed,
			Summary: "The resource could not be imported.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusImportInProgress, ResourceStatusImportFailed, "the resource does not exist, or belongs to another stack"},
			},
		},
		{
			Name:    ResourceRollback,
			Summary: "The import is rolled back: the resource is released, not deleted.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusImportComplete, ResourceStatusImportRollbackInProgress, "another resource of the import failed"},
				{ResourceStatusImportFailed, ResourceStatusImportRollbackInProgress, "its own import failed"},
			},
		},
		{
			Name:    ResourceRollbackSucceeded,
			Summary: "The resource was released: it stays in the account, outside the stack.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusImportRollbackInProgress, ResourceStatusImportRollbackComplete, "released"},
			},
		},
		{
			Name:    ResourceRollbackFailed,
			Summary: "The resource could not be released.",
			Edges: []edge[ResourceStatus]{
				{ResourceStatusImportRollbackInProgress, ResourceStatusImportRollbackFailed, "the release failed"},
			},
		},
	}
}
