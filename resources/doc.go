// Package resources is everything that provisions.
//
// It owns the resource handler contract (Request, ProgressEvent,
// OperationStatus, HandlerErrorCode, Handler), resource schemas in the
// registry format, the registry of types, the built-in schema-driven simulated
// AWS types, custom resources, external handler processes, fault injection
// and the contract checker. Faults and the checker are wrappers around a
// provider, never code inside one.
//
// It must not know about stacks, plans or the store layout: the simulated
// cloud is reached through the Cloud interface, which the engine implements.
package resources
