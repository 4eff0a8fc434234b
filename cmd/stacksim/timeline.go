package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine"
)

// A timeline: the resource actions of one operation in virtual time, by
// phase, and its critical path — the chain of actions, each waiting for the
// one before it, that decided how long the operation took.

// action is one resource action: from its first *_IN_PROGRESS event to
// the status that ended it.
type action struct {
	id         int
	logical    string
	typ        string
	verb       string // create, update, replace, delete, retain
	phase      string // the stack status it ran in
	start, end time.Time
	result     string // the status that ended it ("" when still running)
	reason     string
	open       bool
}

func (x *action) duration() time.Duration { return x.end.Sub(x.start) }

func (x *action) label() string {
	l := x.logical + " " + x.verb
	if strings.HasSuffix(x.result, "FAILED") {
		l += " FAILED"
	}
	return l
}

type timeline struct {
	stack      string
	operation  string
	start, end time.Time
	phases     []string
	actions    []*action
	critical   []*action
}

// buildTimeline makes the timeline of events (oldest first, one
// operation's). related says whether two resources refer to each other in
// the template (either way): it picks, among the actions that ended when
// another started, the one it waited for.
func buildTimeline(stack, operation string, events []engine.StackEvent, related func(a, b string) bool) *timeline {
	tl := &timeline{stack: stack, operation: operation}
	open := map[string]*action{}
	phase := ""
	seenPhase := map[string]bool{}
	addPhase := func(p string) {
		if !seenPhase[p] {
			seenPhase[p] = true
			tl.phases = append(tl.phases, p)
		}
	}
	for i, ev := range events {
		if i == 0 {
			tl.start = ev.Timestamp
		}
		tl.end = ev.Timestamp
		if ev.IsStackEvent() {
			if strings.HasSuffix(ev.ResourceStatus, "_IN_PROGRESS") {
				phase = ev.ResourceStatus
			}
			continue
		}
		status := ev.ResourceStatus
		verb := strings.ToLower(strings.SplitN(status, "_", 2)[0])
		x := open[ev.LogicalResourceId]
		if strings.HasSuffix(status, "_IN_PROGRESS") {
			if x == nil {
				x = &action{id: len(tl.actions) + 1, logical: ev.LogicalResourceId, typ: ev.ResourceType, verb: verb, phase: phase, start: ev.Timestamp, end: ev.Timestamp, open: true}
				open[ev.LogicalResourceId] = x
				tl.actions = append(tl.actions, x)
				addPhase(phase)
			}
			if strings.Contains(ev.ResourceStatusReason, "requires the creation of a new physical resource") {
				x.verb = "replace"
			}
			x.end = ev.Timestamp
			continue
		}
		if x == nil {
			// A status with no work before it (DELETE_SKIPPED, a resource
			// that never existed): an instant.
			x = &action{id: len(tl.actions) + 1, logical: ev.LogicalResourceId, typ: ev.ResourceType, verb: verb, phase: phase, start: ev.Timestamp}
			if strings.HasSuffix(status, "SKIPPED") {
				x.verb = "retain"
			}
			tl.actions = append(tl.actions, x)
			addPhase(phase)
		}
		x.end, x.result, x.reason, x.open = ev.Timestamp, status, ev.ResourceStatusReason, false
		delete(open, ev.LogicalResourceId)
	}
	tl.critical = criticalPath(tl.actions, related)
	return tl
}

// criticalPath walks back from the action that ended last: each step to an
// action that ended when the current one started (in the discrete-event
// loop, a waiting action starts at the instant its last dependency ends),
// preferring one the template relates it to.
func criticalPath(actions []*action, related func(a, b string) bool) []*action {
	if len(actions) == 0 {
		return nil
	}
	last := actions[0]
	for _, x := range actions[1:] {
		if !x.end.Before(last.end) {
			last = x
		}
	}
	path := []*action{last}
	cur := last
	for {
		var pick *action
		for _, x := range actions {
			if x == cur || x.id > cur.id || !x.end.Equal(cur.start) || x.open {
				continue
			}
			if x.duration() == 0 && cur.duration() == 0 && x.start.Equal(cur.start) {
				continue // two instants at once are not a chain
			}
			if pick == nil || (related != nil && related(cur.logical, x.logical) && !related(cur.logical, pick.logical)) {
				pick = x
			}
		}
		if pick == nil {
			break
		}
		path = append(path, pick)
		cur = pick
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

func clock(t time.Time) string { return t.UTC().Format("15:04:05") }

func seconds(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return d.Round(time.Second).String()
}

// mermaid writes the timeline as a Mermaid gantt chart; the critical path
// is tagged crit, and written again in text as Mermaid comments.
func (tl *timeline) mermaid(w io.Writer) {
	crit := map[*action]bool{}
	for _, x := range tl.critical {
		crit[x] = true
	}
	fmt.Fprintln(w, "gantt")
	fmt.Fprintf(w, "    title %s: %s, %s to %s (virtual time)\n", tl.stack, tl.operation, clock(tl.start), clock(tl.end))
	fmt.Fprintln(w, "    dateFormat HH:mm:ss")
	fmt.Fprintln(w, "    axisFormat %H:%M:%S")
	for _, p := range tl.phases {
		fmt.Fprintf(w, "    section %s\n", p)
		for _, x := range tl.actions {
			if x.phase != p {
				continue
			}
			var tags []string
			if crit[x] {
				tags = append(tags, "crit")
			}
			if x.result != "" {
				tags = append(tags, "done")
			} else {
				tags = append(tags, "active")
			}
			if x.duration() == 0 {
				tags = append(tags, "milestone")
			}
			tags = append(tags, fmt.Sprintf("a%d", x.id))
			fmt.Fprintf(w, "    %s :%s, %s, %s\n", x.label(), strings.Join(tags, ", "), clock(x.start), seconds(x.duration()))
		}
	}
	var b strings.Builder
	tl.criticalText(&b)
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		fmt.Fprintf(w, "    %%%% %s\n", line)
	}
}

// text writes the actions, by phase, and the critical path.
func (tl *timeline) text(w io.Writer) {
	fmt.Fprintf(w, "%s: %s, %s to %s (%s of virtual time), %d resource action(s)\n", tl.stack, tl.operation, clock(tl.start), clock(tl.end), seconds(tl.end.Sub(tl.start)), len(tl.actions))
	width := 8
	for _, x := range tl.actions {
		width = max(width, len(x.logical))
	}
	for _, p := range tl.phases {
		fmt.Fprintf(w, "\n%s\n", p)
		for _, x := range tl.actions {
			if x.phase != p {
				continue
			}
			result := x.result
			if result == "" {
				result = "(in motion)"
			}
			fmt.Fprintf(w, "  %s  %s  %5s  %-*s  %-8s %s\n", clock(x.start), clock(x.end), seconds(x.duration()), width, x.logical, x.verb, result)
		}
	}
	fmt.Fprintln(w)
	tl.criticalText(w)
}

func (tl *timeline) criticalText(w io.Writer) {
	if len(tl.critical) == 0 {
		fmt.Fprintln(w, "Critical path: no resource actions")
		return
	}
	first, last := tl.critical[0], tl.critical[len(tl.critical)-1]
	fmt.Fprintf(w, "Critical path: %s, %s to %s\n", seconds(last.end.Sub(first.start)), clock(first.start), clock(last.end))
	for _, x := range tl.critical {
		fmt.Fprintf(w, "  %s → %s  %-5s %s (%s)\n", clock(x.start), clock(x.end), seconds(x.duration()), x.label(), x.phase)
	}
}
