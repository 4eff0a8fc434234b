package engine

import "github.com/stacksim/stacksim/engine/store"

// The engine's API shows some of what the store keeps as it keeps it: these
// types are the store's (engine/store), under the engine's names.
type (
	Tag                   = store.Tag
	Parameter             = store.Parameter
	Output                = store.Output
	RollbackTrigger       = store.RollbackTrigger
	RollbackConfiguration = store.RollbackConfiguration
	ContractViolation     = store.ContractViolation
	Task                  = store.Task
	TaskKind              = store.TaskKind
	OperationKind         = store.OperationKind
)

// txn is a transaction on the store, with what the engine does through it:
// events (events.go), identifiers (ids.go), the clock (clock.go).
type txn struct{ *store.Txn }
