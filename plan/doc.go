// Package plan works out how to get a stack from here to there.
//
// It owns the dependency graph, the ordered actions of an operation (creates
// and updates in dependency order, then deletes in reverse order),
// replacement decisions, the rollback of a journal of done actions, and the
// change-set view of a plan.
//
// Everything here is a pure function of its inputs: no store, no clock, no
// handlers. It must not know how actions are executed.
package plan
