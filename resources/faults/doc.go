// Package faults makes providers fail on purpose, as remote APIs do:
// throttling, transient and terminal failures, eventual consistency, slow
// stabilisation, handlers that never answer or panic, and the custom
// resource whose physical id changes on update (seed 004).
//
// Faults are data: a YAML or JSON file (docs/faults.md) that selects
// invocations by logical id, type (globs), action, phase and attempt, and
// gives each one effect. An Injector wraps any resources.Provider and is
// one; it keeps its counts per (fault, stack, logical id, action, phase),
// never by wall time, so the same file gives the same run.
//
// It must not know about stacks, plans or the engine's store.
package faults
