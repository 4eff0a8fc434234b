// Package contract checks resource handlers against the resource handler
// contract (seeds/000-resource-handler-contract.txt and the assertions of
// the public contract test suite, BEHAVIOUR.md §6).
//
// A Checker wraps any resources.Provider and is one. Every ProgressEvent is
// checked as it passes: statuses, error codes, callback delays, models
// against the schema (JSON Schema without required, dependencies and
// propertyNames), primary identifiers, writeOnly properties, the request's
// properties applied, and the lifecycle (a deleted resource is NotFound, a
// create of an existing one is AlreadyExists). Each violation has a stable
// rule ID (Rules lists them). In Report mode violations are recorded; in
// Strict mode the event also becomes FAILED with HandlerInternalFailure.
//
// It must not know about stacks, plans or the engine's store.
package contract
