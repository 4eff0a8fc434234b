// Package plan works out how to get a stack from here to there.
//
// It owns the dependency graph (through the domain-free plan/graph), the
// ordered actions of an operation — creates and updates in dependency
// order, then deletes in reverse order — the replacement decisions, the
// rollback of a journal of what ran, and the change-set view of a plan.
//
// Everything here is a pure function of its inputs: no store, no clock, no
// handlers, no package-level mutable state. It must not know how actions are
// executed: the engine runs plans.
//
// # Plans are data
//
// A Plan is an Operation and its Steps; a Step is one Action on one
// resource in one Phase (named after the stack status it runs in), with the
// IDs of the steps of its phase that must be done first (After). Plans are
// JSON-serializable (Action and Outcome marshal as their names) so the
// engine can store one in its state file mid-operation; Validate checks one
// read back. Steps lie phase by phase, each phase in a topological order
// with ties in template order; Levels groups a phase by how early its steps
// may run; String prints a plan for people and golden files.
//
// # Making plans
//
//   - ForCreate(bound): a Create step per resource (CREATE_IN_PROGRESS).
//   - ForUpdate(UpdateInput{Deployed, Desired, Live, Schemas}): a step per
//     desired resource in UPDATE_IN_PROGRESS (NoOp, Create, Update,
//     CreateThenDelete, DeleteThenCreate), then the cleanup in
//     UPDATE_COMPLETE_CLEANUP_IN_PROGRESS (Delete, Retain, Snapshot, Forget
//     of removed resources and of the old physical resources of
//     replacements).
//   - ForDelete(deployed, retainResources): DELETE_IN_PROGRESS.
//   - Rollback(forward, journal, opts): ROLLBACK_IN_PROGRESS for a create;
//     UPDATE_ROLLBACK_IN_PROGRESS then
//     UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS for an update.
//   - ContinueRollback(rollback, journal, skip): what is left of an update's
//     rollback, with ResourcesToSkip turned into Skip steps.
//   - ForImport(plan, targets): an IMPORT change set's plan, from the create
//     or update plan of its template, which must add exactly the targets
//     (IMPORT_IN_PROGRESS: Import steps); ImportRollback(forward, journal)
//     releases what it imported (IMPORT_ROLLBACK_IN_PROGRESS: Release).
//   - Changes(plan): DescribeChangeSet's Changes.
//
// The desired template is read through the Bound interface, which
// *template.Bound satisfies; schemas through Schema, which *resources.Schema
// satisfies.
//
// # What the engine does with a plan
//
// It runs the phases of Operation.Phases() one after the other, and within a
// phase starts every step whose After steps are done, in plan order. It
// resolves a step's properties when the step starts (forward steps against
// the desired template, rollback steps against the template the stack had
// before the operation) and, for every Update step that calls a handler,
// calls Decide again with the values then known: the planner decided with
// values that could still be Unknown, and Decide is the one implementation
// both use. NoOp steps are final (nothing they depend on can change their
// properties): the engine marks them done without an event. Step.CallsHandler
// says whether a step reaches the resource's handler at all.
//
// It records a Journal entry for every step that starts — its Outcome (Done,
// Failed, Cancelled, InFlight), the physical ids before and after, whether a
// new physical resource exists, whether a DeleteThenCreate deleted the old
// one, whether a custom resource answered a new physical id, and the action
// Decide turned the step into if it differs. Rollback and ContinueRollback
// need nothing else; NeedsCleanup uses the entry of a replacing step to say
// whether its guarded cleanup step runs.
package plan
