package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/stacksim/stacksim/engine"
)

// display shows a stack's events as they happen, as a console would: the
// virtual time of day, logical id, type, status and reason, one line an
// event, coloured on a terminal (plain when piped or NO_COLOR is set).
// Columns widen as longer names come; seed them with the names the
// operation will show.
type display struct {
	w      io.Writer
	color  bool
	stack  string // the command's stack: others' events carry their name
	mu     sync.Mutex
	widths [3]int
	count  int
}

func newDisplay(w io.Writer, color bool, stack string) *display {
	return &display{w: w, color: color, stack: stack, widths: [3]int{12, 26, 18}}
}

// seed widens the columns for these logical ids and types.
func (d *display) seed(logicalIDs, types []string) {
	for _, id := range logicalIDs {
		d.widths[0] = max(d.widths[0], len(id))
	}
	for _, t := range types {
		d.widths[1] = max(d.widths[1], len(t))
	}
}

// event writes one event.
func (d *display) event(ev engine.StackEvent) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.count++
	logical := ev.LogicalResourceId
	if ev.StackName != d.stack && !ev.IsStackEvent() {
		logical = ev.StackName + "/" + logical
	}
	d.widths[0] = max(d.widths[0], len(logical))
	d.widths[1] = max(d.widths[1], len(ev.ResourceType))
	if !ev.IsStackEvent() {
		// Resource lines stay aligned; the stack's longer statuses (up to
		// UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS) do not widen them.
		d.widths[2] = max(d.widths[2], len(ev.ResourceStatus))
	}
	clock := ev.Timestamp.UTC().Format("15:04:05")
	status := ev.ResourceStatus
	pad := strings.Repeat(" ", max(d.widths[2]-len(status), 0))
	if d.color {
		clock = ansiDim + clock + ansiReset
		status = statusColor(status) + status + ansiReset
		if ev.IsStackEvent() {
			logical = ansiBold + logical + ansiReset + strings.Repeat(" ", d.widths[0]-len(ev.LogicalResourceId))
		}
	}
	if !d.color || !ev.IsStackEvent() {
		logical = fmt.Sprintf("%-*s", d.widths[0], logical)
	}
	line := fmt.Sprintf("%s  %s  %-*s  %s%s  %s", clock, logical, d.widths[1], ev.ResourceType, status, pad, ev.ResourceStatusReason)
	fmt.Fprintln(d.w, strings.TrimRight(line, " "))
}

// ANSI colours.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiBlue   = "\x1b[34m"
	ansiCyan   = "\x1b[36m"
)

// statusColor: failures red, rollbacks yellow, completions green, work in
// progress blue, skipped resources cyan.
func statusColor(status string) string {
	switch {
	case strings.Contains(status, "FAILED"):
		return ansiRed
	case strings.Contains(status, "ROLLBACK"):
		return ansiYellow
	case strings.HasSuffix(status, "_IN_PROGRESS"):
		return ansiBlue
	case strings.HasSuffix(status, "SKIPPED"):
		return ansiCyan
	case strings.HasSuffix(status, "_COMPLETE"):
		return ansiGreen
	}
	return ""
}

// colorFor says whether to colour what goes to w: a terminal, NO_COLOR
// unset, TERM not dumb.
func (a *app) colorFor(w io.Writer) bool {
	if a.getenv("NO_COLOR") != "" || a.getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// stackNames returns the logical ids and types of a stack's resources (to
// size the display's columns).
func stackNames(ctx context.Context, e *engine.Engine, stack string) (ids, types []string) {
	out, err := e.ListStackResources(ctx, engine.ListStackResourcesInput{StackName: stack})
	if err != nil {
		return nil, nil
	}
	for _, r := range out.StackResourceSummaries {
		ids, types = append(ids, r.LogicalResourceId), append(types, r.ResourceType)
	}
	return ids, types
}
