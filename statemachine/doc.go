// Package statemachine is the single source of truth for the statuses of
// CloudFormation stacks and resources and for what may follow what.
//
// It owns every stack and resource status, every legal transition (built on
// github.com/looplab/fsm), which API operation is allowed in which stack
// status (with AWS's error message when it is not), the [C/U/D] phase of each
// in-progress status, and the rendering of both machines to Mermaid, DOT,
// tables and the generated docs/states.md.
//
// It must not know about templates, handlers or storage.
package statemachine
