// Package engine runs CloudFormation stack operations in virtual time.
//
// It owns stacks and their operations (CreateStack, UpdateStack, DeleteStack,
// change sets, ContinueUpdateRollback, CancelUpdateStack, RollbackStack, ...),
// the go-memdb store, the virtual clock and the discrete-event loop, stack
// events, and the persistence of state.
//
// It must not know about the CLI or output formats: it returns
// CloudFormation's shapes (with the AWS CLI's JSON names) and typed errors
// (*APIError), and leaves printing to its callers.
//
// # Using it
//
// An Engine is one simulated account and region:
//
//	e, err := engine.New(engine.Options{Seed: 1})       // in memory
//	e, err := engine.Open("world.json", engine.Options{}) // from a state file, locked
//	defer e.Close()
//
// API calls (DescribeStacks, DescribeStackEvents, ...) take an input struct
// and return an output struct or an *APIError; a refused call changes
// nothing. Operations do not run by themselves: they queue tasks, and the
// event loop runs them in virtual time (Run, Step, RunUntil, Advance, Pace,
// or Drive for any combination). Subscribe sees every event as it is
// written. Save writes the state file atomically; a later process opens it
// and continues whatever was in motion.
//
// # Inside
//
// The store (store.go) is go-memdb under a transaction layer that buffers
// writes and journals them, so that reads see their own writes cheaply and a
// task can be rolled back alone; see docs/engine.md for its tables, the state
// file format, virtual time and the loop. The operations code builds on:
//
//   - Engine.update / Engine.view: run a function in a write (committed or
//     aborted as a whole) or read transaction, under the engine's lock;
//   - txn: typed access to the tables (stackByID, putStack, resource,
//     putResource, retire, exports, imports, operations, steps, objects);
//   - txn.stackEvent / txn.resourceEvent: the one way events are written;
//   - txn.schedule / scheduleAfter / cancelTasks and Engine.handle: tasks and
//     their handlers, by kind;
//   - Engine.invoke: the one way handlers are called (logged at debug);
//   - txn.newStackID / newChangeSetID / newToken: deterministic identifiers;
//   - apiError and the error constructors: AWS's codes and messages.
package engine
