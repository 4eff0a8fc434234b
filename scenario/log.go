package scenario

import (
	"fmt"
	"strings"
	"sync"

	"github.com/stacksim/stacksim/engine"
)

// The event log of a run: what `stacksim run` prints and golden files
// hold. One line per event,
//
//	HH:MM:SS  STACK  LOGICAL_ID  STATUS  PHYSICAL_ID  "REASON"
//
// in virtual time (the stack's own events show "(stack)" as their physical
// id, a resource without one "-"), between the lines of the run itself:
//
//	# NAME                      the scenario
//	## text                     a note
//	== Operation stack (...)    a step begins
//	   custom ...               a request a built-in responder received
//	   change ...               a change of a change set
//	   sns TOPIC                the event above was published to the topic
//	                            (the last part of its ARN) of the stack's
//	                            NotificationARNs
//	!! Code: Message            the call was refused
//	-- stack STATUS             where the step left the stack
//
// Columns are as wide as their widest entry in the whole log (the status
// column as its widest resource status: the stack's own longer statuses
// push their line's physical id and reason to the right).
type eventLog struct {
	mu      sync.Mutex
	entries []logEntry
}

type logEntry struct {
	text string
	ev   *engine.StackEvent
}

func (l *eventLog) line(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, logEntry{text: fmt.Sprintf(format, args...)})
}

func (l *eventLog) event(ev engine.StackEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, logEntry{ev: &ev})
}

func (l *eventLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var w [3]int
	for _, e := range l.entries {
		if e.ev != nil {
			w[0] = max(w[0], len(e.ev.StackName))
			w[1] = max(w[1], len(e.ev.LogicalResourceId))
			if !e.ev.IsStackEvent() {
				// The stack's longer statuses do not widen the column.
				w[2] = max(w[2], len(e.ev.ResourceStatus))
			}
		}
	}
	var b strings.Builder
	for _, e := range l.entries {
		if e.ev == nil {
			b.WriteString(e.text)
			b.WriteByte('\n')
			continue
		}
		ev := e.ev
		phys := ev.PhysicalResourceId
		if ev.IsStackEvent() {
			phys = "(stack)"
		} else if phys == "" {
			phys = "-"
		}
		line := fmt.Sprintf("%s  %-*s  %-*s  %-*s  %s", ev.Timestamp.UTC().Format("15:04:05"), w[0], ev.StackName, w[1], ev.LogicalResourceId, w[2], ev.ResourceStatus, phys)
		if ev.ResourceStatusReason != "" {
			line += "  " + fmt.Sprintf("%q", ev.ResourceStatusReason)
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}
