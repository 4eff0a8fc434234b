package plan

// Operation is the kind of stack operation a plan is for.
type Operation string

// The operations.
const (
	OpCreate Operation = "CREATE"
	OpUpdate Operation = "UPDATE"
	OpDelete Operation = "DELETE"
	// OpRollback is the rollback of a create.
	OpRollback Operation = "ROLLBACK"
	// OpUpdateRollback is the rollback of an update (also what
	// ContinueUpdateRollback continues).
	OpUpdateRollback Operation = "UPDATE_ROLLBACK"
	// OpImport is the import of existing resources (an IMPORT change
	// set); OpImportRollback its rollback.
	OpImport         Operation = "IMPORT"
	OpImportRollback Operation = "IMPORT_ROLLBACK"
)

// Phase is a part of an operation, named after the stack status it runs
// in. The phases of an operation run one after the other; the steps of a
// phase run when their After steps are done.
type Phase string

// The phases.
const (
	// PhaseCreate: creates, in dependency order.
	PhaseCreate Phase = "CREATE_IN_PROGRESS"
	// PhaseRollback: the rollback of a create: deletes, in reverse order.
	PhaseRollback Phase = "ROLLBACK_IN_PROGRESS"
	// PhaseUpdate: creates, updates and replacements, in dependency order.
	PhaseUpdate Phase = "UPDATE_IN_PROGRESS"
	// PhaseUpdateCleanup: deletes of removed resources and of the old
	// physical resources of replacements, in reverse dependency order (of
	// the deployed template). Failures here do not fail the update.
	PhaseUpdateCleanup Phase = "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS"
	// PhaseUpdateRollback: updates back to the previous template, restored
	// physical resources, re-creations, in the previous template's
	// dependency order.
	PhaseUpdateRollback Phase = "UPDATE_ROLLBACK_IN_PROGRESS"
	// PhaseUpdateRollbackCleanup: deletes of what the failed update created,
	// in reverse dependency order (of the template the update was to).
	PhaseUpdateRollbackCleanup Phase = "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS"
	// PhaseDelete: deletes, in reverse dependency order.
	PhaseDelete Phase = "DELETE_IN_PROGRESS"
	// PhaseImport: the imports, in dependency order.
	PhaseImport Phase = "IMPORT_IN_PROGRESS"
	// PhaseImportRollback: the release of what the import brought in.
	PhaseImportRollback Phase = "IMPORT_ROLLBACK_IN_PROGRESS"
)

// Phases returns the phases of an operation, in the order they run. Every
// update passes through its cleanup phase, even with nothing to delete.
func (o Operation) Phases() []Phase {
	switch o {
	case OpCreate:
		return []Phase{PhaseCreate}
	case OpUpdate:
		return []Phase{PhaseUpdate, PhaseUpdateCleanup}
	case OpDelete:
		return []Phase{PhaseDelete}
	case OpRollback:
		return []Phase{PhaseRollback}
	case OpUpdateRollback:
		return []Phase{PhaseUpdateRollback, PhaseUpdateRollbackCleanup}
	case OpImport:
		return []Phase{PhaseImport}
	case OpImportRollback:
		return []Phase{PhaseImportRollback}
	}
	return nil
}

// IsCleanup tells whether failures in the phase leave the operation's
// outcome alone (the update, or its rollback, has already succeeded).
func (p Phase) IsCleanup() bool {
	return p == PhaseUpdateCleanup || p == PhaseUpdateRollbackCleanup
}
