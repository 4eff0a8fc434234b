package timeline

import (
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine"
)

// Action is one resource action: from its first *_IN_PROGRESS event to
// the status that ended it.
type Action struct {
	// ID numbers the actions of a timeline from 1, in the order they
	// began.
	ID        int
	LogicalID string
	Type      string
	// Verb is create, update, replace, delete or retain.
	Verb string
	// Phase is the stack status the action ran in.
	Phase      string
	Start, End time.Time
	// Result is the status that ended the action ("" while it runs), and
	// Reason that event's reason.
	Result string
	Reason string
	// Open: the action has not ended yet.
	Open bool
}

// Duration is how long the action took (so far, when it is open).
func (x *Action) Duration() time.Duration { return x.End.Sub(x.Start) }

// Label names the action for people: "Queue update", "Config update
// FAILED".
func (x *Action) Label() string {
	l := x.LogicalID + " " + x.Verb
	if strings.HasSuffix(x.Result, "FAILED") {
		l += " FAILED"
	}
	return l
}

// Timeline is the resource actions of one operation, by phase, and its
// critical path.
type Timeline struct {
	Stack     string
	Operation string
	// OperationID is the operation's id when the timeline was made by Of.
	OperationID string
	Start, End  time.Time
	// Phases are the stack statuses the actions ran in, in order.
	Phases  []string
	Actions []*Action
	// Critical is the critical path, first action first.
	Critical []*Action
}

// Build makes the timeline of events (oldest first, one operation's).
// related says whether two resources refer to each other in the template
// (either way): it picks, among the actions that ended when another
// started, the one it waited for.
func Build(stack, operation string, events []engine.StackEvent, related func(a, b string) bool) *Timeline {
	tl := &Timeline{Stack: stack, Operation: operation}
	open := map[string]*Action{}
	phase := ""
	seenPhase := map[string]bool{}
	addPhase := func(p string) {
		if !seenPhase[p] {
			seenPhase[p] = true
			tl.Phases = append(tl.Phases, p)
		}
	}
	for i, ev := range events {
		if i == 0 {
			tl.Start = ev.Timestamp
		}
		tl.End = ev.Timestamp
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
				x = &Action{ID: len(tl.Actions) + 1, LogicalID: ev.LogicalResourceId, Type: ev.ResourceType, Verb: verb, Phase: phase, Start: ev.Timestamp, End: ev.Timestamp, Open: true}
				open[ev.LogicalResourceId] = x
				tl.Actions = append(tl.Actions, x)
				addPhase(phase)
			}
			if strings.Contains(ev.ResourceStatusReason, "requires the creation of a new physical resource") {
				x.Verb = "replace"
			}
			x.End = ev.Timestamp
			continue
		}
		if x == nil {
			// A status with no work before it (DELETE_SKIPPED, a resource
			// that never existed): an instant.
			x = &Action{ID: len(tl.Actions) + 1, LogicalID: ev.LogicalResourceId, Type: ev.ResourceType, Verb: verb, Phase: phase, Start: ev.Timestamp}
			if strings.HasSuffix(status, "SKIPPED") {
				x.Verb = "retain"
			}
			tl.Actions = append(tl.Actions, x)
			addPhase(phase)
		}
		x.End, x.Result, x.Reason, x.Open = ev.Timestamp, status, ev.ResourceStatusReason, false
		delete(open, ev.LogicalResourceId)
	}
	tl.Critical = criticalPath(tl.Actions, related)
	return tl
}

// criticalPath walks back from the action that ended last: each step to an
// action that ended when the current one started (in the discrete-event
// loop, a waiting action starts at the instant its last dependency ends),
// preferring one the template relates it to.
func criticalPath(actions []*Action, related func(a, b string) bool) []*Action {
	if len(actions) == 0 {
		return nil
	}
	last := actions[0]
	for _, x := range actions[1:] {
		if !x.End.Before(last.End) {
			last = x
		}
	}
	path := []*Action{last}
	cur := last
	for {
		var pick *Action
		for _, x := range actions {
			if x == cur || x.ID > cur.ID || !x.End.Equal(cur.Start) || x.Open {
				continue
			}
			if x.Duration() == 0 && cur.Duration() == 0 && x.Start.Equal(cur.Start) {
				continue // two instants at once are not a chain
			}
			if pick == nil || (related != nil && related(cur.LogicalID, x.LogicalID) && !related(cur.LogicalID, pick.LogicalID)) {
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

// OnCritical reports whether x is on the critical path.
func (tl *Timeline) OnCritical(x *Action) bool {
	for _, c := range tl.Critical {
		if c == x {
			return true
		}
	}
	return false
}
