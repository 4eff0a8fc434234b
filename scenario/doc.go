// Package scenario replays scripted sequences of stack operations — calls
// with their templates, parameters, faults and custom resource targets —
// against an engine, checks the expectations written after each step, and
// writes the event log that golden files hold. The file format is
// documented in docs/scenarios.md; fixtures/ holds a scenario for every
// lifecycle.
//
// It also holds what the command line shares with scenarios: the built-in
// custom resource responders (echo, fail, log-stream), service token
// targets, LOGICAL_ID:STATUS stop conditions and Drive, which runs the
// engine's loop until a stack comes to rest or stops as asked.
//
// It must not know about cobra or the command line.
package scenario
