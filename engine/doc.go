// Package engine runs CloudFormation stack operations in virtual time.
//
// It owns stacks and their operations (CreateStack, UpdateStack, DeleteStack,
// change sets, ContinueUpdateRollback, CancelUpdateStack, RollbackStack, ...),
// the discrete-event loop in virtual time, the writing of stack events, and
// when state is saved; the store (engine/store) and the state file
// (engine/statefile) are packages of their own below it.
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
// written; SubscribeNotifications the messages CloudFormation publishes
// of them to the SNS topics of their stack's NotificationARNs, and
// SubscribeEventBridge the events it sends to the default EventBridge bus.
// Save writes the state file atomically; a later process opens it
// and continues whatever was in motion.
//
// # Inside
//
// Two packages below it own what the engine keeps: engine/store (the
// go-memdb tables, their rows and keys, and the transaction layer that
// buffers writes and journals them, so that reads see their own writes
// cheaply and a task can be rolled back alone) and engine/statefile (the
// state file: format, load and its checks, atomic save, lock). See
// docs/engine.md for the tables, the state file format, virtual time and
// the loop. The operations code builds on:
//
//   - Engine.update / Engine.view: run a function in a write (committed or
//     aborted as a whole) or read transaction, under the engine's lock;
//   - txn: a store transaction (*store.Txn, with its typed access to the
//     tables: StackByID, PutStack, Resource, PutResource, Retire, Export,
//     SetImports, Operation, Step, PutObject...) and the engine's own
//     methods on it;
//   - txn.stackEvent / txn.resourceEvent: the one way events are written;
//   - txn.Schedule / ScheduleAfter / CancelTasks and Engine.handle: tasks and
//     their handlers, by kind;
//   - Engine.invoke: the one way handlers are called (logged at debug);
//   - txn.newStackID / newChangeSetID / newToken: deterministic identifiers;
//   - apiError and the error constructors: AWS's codes and messages.
package engine
