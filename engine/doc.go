// Package engine runs CloudFormation stack operations in virtual time.
//
// It owns stacks and their operations (CreateStack, UpdateStack, DeleteStack,
// change sets, ContinueUpdateRollback, CancelUpdateStack, RollbackStack, ...),
// the go-memdb store, the virtual clock and the discrete-event loop, stack
// events, and the persistence of state.
//
// It must not know about the CLI or output formats.
package engine
