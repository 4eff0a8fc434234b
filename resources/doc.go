// Package resources is everything that provisions.
//
// It owns the resource handler contract (Request, ProgressEvent,
// OperationStatus, HandlerErrorCode, Handler), resource schemas in the
// registry format, the registry of types, the built-in schema-driven simulated
// AWS types, custom resources, external handler processes, fault injection
// and the contract checker. Faults (package faults) and the checker (package
// contract) are wrappers around a provider, never code inside one.
//
// It must not know about stacks, plans or the store layout: the simulated
// cloud is reached through the Cloud interface, which the engine implements.
//
// # What the engine and the planner use
//
//   - Registry.Provider(typeName) gives a Provider: a Handler (create, read,
//     update, delete, list) bound to a type, with its Schema, the physical id
//     of a model, Ref, Fn::GetAtt and per-action timeouts. Invoke calls the
//     handler for a request's action and turns a panic into an error.
//     ErrNoResponse means the handler never answers: the engine waits for
//     Timeout in virtual time, then fails the action with TimeoutMessage.
//   - Schema answers the planner: IsCreateOnly, IsConditionalCreateOnly,
//     ChangedCreateOnly, ReplacementStrategy, Attributes, and validates
//     template properties (ValidateInput) and handler models (ValidateModel,
//     the contract's subset). Validators compile on first use, so loading
//     every registry schema is cheap.
//   - Models follow the project's value representation (map[string]any,
//     []any, string, json.Number, bool). CloudFormation sends properties with
//     scalars stringified: Stringify makes that form, Schema.Coerce undoes it.
//   - Get, Set, Delete, Has and GetAll address a model with the schemas'
//     JSON pointers ("/properties/A/*/B").
//
// # Models are values: who may change a map
//
// A model (and a callback context) is never changed in place once it has
// been handed over: once it is in a Request, in a ProgressEvent, given to
// Cloud.Put or returned by Cloud.Get or Cloud.List, nobody (engine,
// wrapper, handler, cloud) writes to it or to the maps and slices inside
// it. Whoever wants a different model builds a new one: CopyModel, or a
// copy of the containers on the path it changes (the rest shared). The
// maps may therefore be shared freely, and they are: the generic
// provider's answers share maps with the Cloud's objects and with each
// other (an object's answer and its last callback context are made once),
// MemCloud keeps and returns what it is given, Drive hands an event's model
// back as the next request's when it holds every key of the last one, and
// faults clone an event before they change it. The only maps a party may
// change are those it has just made and not yet handed over (the generic
// provider builds a new model from the coerced request, then stores it).
// An implementation of Cloud that copies (the engine's store does) stays
// correct, only slower.
//
// # Providers
//
// A type is served by, in order: a registered Go handler or handler process;
// the custom resource provider (AWS::CloudFormation::CustomResource,
// Custom::*); an embedded simulated type (schemas/*.json, stacksim's own
// hand-tuned schemas with an x-stacksim section that says how to name and
// fill the type); a registry schema from RegistryOptions.SchemaDir; a type
// of the AWS registry (registry/us-east-1.pack, stacksim's compact form of
// the registry's 1,503 schemas, made by `make registry` with
// internal/registrygen and package internal/schemapack; decompressed and
// parsed per type on first use, shared by the process), with its overlay
// when it has one (overlays/*.json: x-stacksim sections laid on the
// registry's facts); these three by the same generic provider, with the
// rules an overlay does not give inferred from the schema. Any other type
// is an *UnrecognizedTypeError (Registry.Recognized is the engine's check),
// unless RegistryOptions.PermissiveTypes gives it the permissive provider.
//
// Values follow the schema (valueGen, gen_*.go): the read-only properties of
// a new model, and a primary identifier the template leaves out, are
// generated from their schemas — types, enums, formats, patterns (regexgen.go
// generates a string a pattern matches, deterministically), lengths —
// strings first in AWS's shapes (id prefixes, ARNs, addresses, times) when
// those fit. ExampleModel makes a type's minimal model the same way.
//
// Simulated providers are deterministic: every generated name and id is
// derived from (seed, stack id, logical id, client request token) by a hash,
// never from a shared sequence, so the order in which independent resources
// run does not change them. Their durations are delivered as IN_PROGRESS
// callbacks in virtual time.
//
// Custom resources are delivered to a Go function, a local command (JSON on
// standard input, never a shell) or an HTTP URL, and answered by an HTTP PUT
// to a ResponseURL that the registry serves on 127.0.0.1 (Close stops it).
//
// docs/handlers.md and docs/faults.md are the user's guides.
package resources
