// Package timeline makes the timeline of a stack's operation: its resource
// actions in virtual time (from the first *_IN_PROGRESS event of each to
// the status that ended it), by phase, and its critical path — the chain
// of actions, each waiting for the one before it, that decided how long
// the operation took. It writes a timeline as a Mermaid gantt chart, as
// text and as JSON (stacksim timeline, and the web view of stacksim
// serve).
//
// It reads what it needs through the engine's API (DescribeStackOperation,
// DescribeStackEvents, GetTemplate) and the template's references, and
// must not know about the CLI, the wire API or how anything is drawn on a
// page.
package timeline
