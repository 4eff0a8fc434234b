package statemachine

// seedNote records one place where a seed document differs from AWS, or
// from the other seed, and what the machines encode instead.
type seedNote struct {
	Source  string // the seed and the part of it
	Seed    string // what it says or draws
	Encoded string // what AWS does, and so the machines
}

var seedNotes = []seedNote{
	{
		Source:  "seeds/001, stack diagram",
		Seed:    "ROLLBACK_IN_PROGRESS → CREATE_FAILED, and no ROLLBACK_COMPLETE at all.",
		Encoded: "A create's rollback ends ROLLBACK_COMPLETE (`rollback_succeeded`) or ROLLBACK_FAILED. CREATE_FAILED is reached straight from CREATE_IN_PROGRESS (`create_failed`), and only when rollback is disabled (DisableRollback or OnFailure DO_NOTHING). seeds/003 lists ROLLBACK_COMPLETE too.",
	},
	{
		Source:  "seeds/001, stack diagram",
		Seed:    "An arrow from UPDATE_ROLLBACK_FAILED up to UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS: continuing the rollback would go straight to the cleanup.",
		Encoded: "ContinueUpdateRollback returns the stack to UPDATE_ROLLBACK_IN_PROGRESS (`continue_update_rollback`), as seeds/003 says (\"re-attempt rollback (UPDATE_ROLLBACK_IN_PROGRESS)\"); the cleanup follows the rollback as usual.",
	},
	{
		Source:  "seeds/001, stack diagram",
		Seed:    "DeleteStack only from CREATE_COMPLETE, UPDATE_COMPLETE, UPDATE_ROLLBACK_COMPLETE and UPDATE_ROLLBACK_FAILED; DELETE_FAILED is a dead end.",
		Encoded: "DeleteStack is accepted in every status at rest and in REVIEW_IN_PROGRESS: ROLLBACK_COMPLETE and ROLLBACK_FAILED can only be deleted; DELETE_FAILED → DELETE_IN_PROGRESS retries (with RetainResources if need be), as seeds/003 says.",
	},
	{
		Source:  "seeds/001, stack diagram",
		Seed:    "No REVIEW_IN_PROGRESS → DELETE_IN_PROGRESS, no import family, no CancelUpdateStack, no RollbackStack from CREATE_FAILED, no update from CREATE_FAILED.",
		Encoded: "All of them are AWS behaviour and are encoded: `delete` from REVIEW_IN_PROGRESS, the IMPORT_* statuses, `cancel_update`, `rollback` from CREATE_FAILED and UPDATE_FAILED, `update` from CREATE_FAILED after DisableRollback.",
	},
	{
		Source:  "seeds/001, resource diagram",
		Seed:    "UPDATE_FAILED → UPDATE_COMPLETE labelled \"no-op rollback\".",
		Encoded: "A failed resource update is rolled back by a second update (UPDATE_FAILED → UPDATE_IN_PROGRESS → UPDATE_COMPLETE; the seed's own text says so). UPDATE_FAILED → UPDATE_COMPLETE directly happens when ContinueUpdateRollback skips the resource (ResourcesToSkip): the event `skip_rollback`.",
	},
	{
		Source:  "seeds/001, resource diagram",
		Seed:    "UPDATE_FAILED → UPDATE_IN_PROGRESS labelled \"custom resource rollback\".",
		Encoded: "Every resource type is updated back this way during an update rollback, not only custom resources (`update` from UPDATE_FAILED).",
	},
	{
		Source:  "seeds/001, resource diagram",
		Seed:    "DELETE_SKIPPED is reached from DELETE_IN_PROGRESS.",
		Encoded: "AWS reports DELETE_SKIPPED without a DELETE_IN_PROGRESS before it (BEHAVIOUR.md §4 B, D, E): `retain` goes straight from CREATE_COMPLETE, UPDATE_COMPLETE, DELETE_FAILED (RetainResources) and the other statuses a retained resource can be in.",
	},
	{
		Source:  "seeds/001, resource text",
		Seed:    "\"CREATE_FAILED and UPDATE_FAILED are not stable states. They will be immediately followed by delete and an update back to the original state.\"",
		Encoded: "True with rollback enabled. With DisableRollback they are at rest until the next operation: `create` from CREATE_FAILED and `update` from UPDATE_FAILED retry them.",
	},
	{
		Source:  "seeds/001, resource text",
		Seed:    "\"We have yet to research what happens when a rollback update fails.\"",
		Encoded: "The resource stays UPDATE_FAILED and the stack goes UPDATE_ROLLBACK_FAILED; ContinueUpdateRollback updates it back again, or skips it (`skip_rollback`).",
	},
	{
		Source:  "seeds/001, resource diagram",
		Seed:    "One box per logical resource: a replacement is not drawn.",
		Encoded: "The resource machine follows one physical resource. A replacement's new physical resource starts at UPDATE_IN_PROGRESS (`replace`); the old one is deleted (or retained) by the cleanup from its last status.",
	},
	{
		Source:  "seeds/003",
		Seed:    "17 stack statuses.",
		Encoded: "AWS has 23: the seventeen, REVIEW_IN_PROGRESS included, plus IMPORT_IN_PROGRESS, IMPORT_COMPLETE, IMPORT_ROLLBACK_IN_PROGRESS, IMPORT_ROLLBACK_FAILED and IMPORT_ROLLBACK_COMPLETE.",
	},
	{
		Source:  "seeds/003",
		Seed:    "Pseudo-states such as \"the stack is updatable\", and states \"always passed through, even if the stack might spend zero time\".",
		Encoded: "The only pseudo-status is NotExist. Whether an operation is allowed is CheckOperation's answer, not a state. Every update does pass through UPDATE_COMPLETE_CLEANUP_IN_PROGRESS, and every update rollback through UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS.",
	},
}
