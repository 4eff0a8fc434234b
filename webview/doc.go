// Package webview is the web page of stacksim serve, on the same loopback
// address as the API: the account's stacks, and for a stack its path
// through the state machine (a diagram drawn from statemachine's tables),
// the operations it accepts now, its resources and their paths, its event
// log arriving live (server-sent events), the timeline and the plan of its
// operation, the contract violations and faults fired, and controls that
// hold the event loop and step a stack one event at a time.
//
// It owns the page's routes (/ and /view/...), its JSON endpoints (the
// engine's answers, as the CLI prints them: docs/webview.md), the event
// stream and its subscribers, and the SVG it draws: the stack state
// machine (laid out by Graphviz from the same tables, into layout.json,
// which a test keeps current), the plan's dependency graph (by the plan's
// own levels) and the gantt chart of a timeline. Everything the page needs
// is embedded in the binary; nothing is fetched from elsewhere.
//
// It uses the engine, statemachine, timeline and the API server (to hold
// and step its loop), and must not know about the CLI; nothing below it
// knows about it.
package webview
