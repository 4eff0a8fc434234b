package webview

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/timeline"
)

// The JSON endpoints (docs/webview.md). Each answers with the engine's
// own shapes — those the CLI prints with --output json — and adds only
// what the page derives from them (paths, the loop).

func (v *View) getStatuses(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, allStatuses())
}

// loopJSON is the state of the server's event loop.
type loopJSON struct {
	Pace string `json:"Pace"`
	// Instant: calls run their operations to rest; otherwise virtual time
	// follows the wall clock.
	Instant bool `json:"Instant"`
	Held    bool `json:"Held"`
	// Now is the virtual time.
	Now time.Time `json:"Now"`
	// Streams counts the pages reading the event stream now.
	Streams int `json:"Streams"`
}

func (v *View) loop() loopJSON {
	p := v.srv.Pace()
	return loopJSON{Pace: p.String(), Instant: p.Instant(), Held: v.srv.Held(), Now: v.e.Now(), Streams: v.hub.count()}
}

func (v *View) getLoop(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, v.loop())
}

// stacksJSON is ListStacks (every page) and the loop.
type stacksJSON struct {
	StackSummaries []engine.StackSummary `json:"StackSummaries"`
	Loop           loopJSON              `json:"Loop"`
}

func (v *View) getStacks(w http.ResponseWriter, r *http.Request) {
	out := stacksJSON{StackSummaries: []engine.StackSummary{}, Loop: v.loop()}
	in := engine.ListStacksInput{}
	for {
		page, err := v.e.ListStacks(r.Context(), in)
		if err != nil {
			v.writeEngineError(w, err)
			return
		}
		out.StackSummaries = append(out.StackSummaries, page.StackSummaries...)
		if page.NextToken == "" {
			break
		}
		in.NextToken = page.NextToken
	}
	writeJSON(w, http.StatusOK, out)
}

// stackJSON is a stack (DescribeStacks), the statuses it passed through,
// the operations it accepts now, and the loop.
type stackJSON struct {
	Stack engine.Stack `json:"Stack"`
	// Path is the stack's own events, oldest first: the statuses it passed
	// through, in order (the last is its status now).
	Path       []pathStep              `json:"Path"`
	Operations []engine.OperationCheck `json:"Operations"`
	Loop       loopJSON                `json:"Loop"`
}

// pathStep is one status of a stack's path.
type pathStep struct {
	ResourceStatus       string    `json:"ResourceStatus"`
	ResourceStatusReason string    `json:"ResourceStatusReason,omitempty"`
	Timestamp            time.Time `json:"Timestamp"`
	EventId              string    `json:"EventId"`
}

// describe finds a stack by name or ARN.
func (v *View) describe(ctx context.Context, name string) (engine.Stack, error) {
	out, err := v.e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: name})
	if err != nil {
		return engine.Stack{}, err
	}
	return out.Stacks[0], nil
}

// allEvents reads a stack's events, newest first.
func (v *View) allEvents(ctx context.Context, stackID string) ([]engine.StackEvent, error) {
	var all []engine.StackEvent
	in := engine.DescribeStackEventsInput{StackName: stackID}
	for {
		page, err := v.e.DescribeStackEvents(ctx, in)
		if err != nil {
			return nil, err
		}
		all = append(all, page.StackEvents...)
		if page.NextToken == "" {
			return all, nil
		}
		in.NextToken = page.NextToken
	}
}

// stackPath is the stack's own statuses from its events (newest first),
// oldest first.
func stackPath(events []engine.StackEvent) []pathStep {
	path := []pathStep{}
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		if !ev.IsStackEvent() {
			continue
		}
		if n := len(path); n > 0 && path[n-1].ResourceStatus == ev.ResourceStatus {
			continue
		}
		path = append(path, pathStep{ResourceStatus: ev.ResourceStatus, ResourceStatusReason: ev.ResourceStatusReason, Timestamp: ev.Timestamp, EventId: ev.EventId})
	}
	return path
}

func (v *View) stack(ctx context.Context, name string) (*stackJSON, error) {
	st, err := v.describe(ctx, name)
	if err != nil {
		return nil, err
	}
	events, err := v.allEvents(ctx, st.StackId)
	if err != nil {
		return nil, err
	}
	ops, err := v.e.CheckOperations(ctx, engine.CheckOperationsInput{StackName: st.StackId})
	if err != nil {
		return nil, err
	}
	return &stackJSON{Stack: st, Path: stackPath(events), Operations: ops.Operations, Loop: v.loop()}, nil
}

func (v *View) getStack(w http.ResponseWriter, r *http.Request) {
	name, ok := stackName(w, r)
	if !ok {
		return
	}
	out, err := v.stack(r.Context(), name)
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// resourcesJSON is ListStackResources (every page), each resource with the
// statuses it passed through.
type resourcesJSON struct {
	StackId                string         `json:"StackId"`
	StackResourceSummaries []resourceJSON `json:"StackResourceSummaries"`
}

// MaxResourcePath is how many of a resource's last statuses its path
// keeps.
const MaxResourcePath = 24

type resourceJSON struct {
	engine.StackResourceSummary
	// Path is the resource's last statuses (up to MaxResourcePath), oldest
	// first, from the stack's events; PathLength counts them all.
	Path       []string `json:"Path"`
	PathLength int      `json:"PathLength"`
}

func (v *View) getResources(w http.ResponseWriter, r *http.Request) {
	name, ok := stackName(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	st, err := v.describe(ctx, name)
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	events, err := v.allEvents(ctx, st.StackId)
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	paths := resourcePaths(events)
	out := resourcesJSON{StackId: st.StackId, StackResourceSummaries: []resourceJSON{}}
	in := engine.ListStackResourcesInput{StackName: st.StackId}
	for {
		page, err := v.e.ListStackResources(ctx, in)
		if err != nil {
			v.writeEngineError(w, err)
			return
		}
		for _, s := range page.StackResourceSummaries {
			p := paths[s.LogicalResourceId]
			rj := resourceJSON{StackResourceSummary: s, Path: p, PathLength: len(p)}
			if len(p) > MaxResourcePath {
				rj.Path = p[len(p)-MaxResourcePath:]
			}
			if rj.Path == nil {
				rj.Path = []string{}
			}
			out.StackResourceSummaries = append(out.StackResourceSummaries, rj)
		}
		if page.NextToken == "" {
			break
		}
		in.NextToken = page.NextToken
	}
	writeJSON(w, http.StatusOK, out)
}

// resourcePaths gives each logical resource the statuses it passed
// through, oldest first, from the stack's events (newest first). A
// status repeated by the next event (CREATE_IN_PROGRESS, then "Resource
// creation Initiated") counts once.
func resourcePaths(events []engine.StackEvent) map[string][]string {
	paths := map[string][]string{}
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		if ev.IsStackEvent() {
			continue
		}
		p := paths[ev.LogicalResourceId]
		if n := len(p); n > 0 && p[n-1] == ev.ResourceStatus {
			continue
		}
		paths[ev.LogicalResourceId] = append(p, ev.ResourceStatus)
	}
	return paths
}

// getEvents is DescribeStackEvents: one page, newest first (NextToken
// for the next).
func (v *View) getEvents(w http.ResponseWriter, r *http.Request) {
	name, ok := stackName(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	st, err := v.describe(ctx, name)
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	in := engine.DescribeStackEventsInput{StackName: st.StackId, NextToken: r.URL.Query().Get("NextToken")}
	pages := 1
	if s := r.URL.Query().Get("pages"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 100 {
			writeError(w, http.StatusBadRequest, "ValidationError", "pages="+s+": give a number of pages from 1 to 100")
			return
		}
		pages = n
	}
	out := &engine.DescribeStackEventsOutput{StackEvents: []engine.StackEvent{}}
	for i := 0; i < pages; i++ {
		page, err := v.e.DescribeStackEvents(ctx, in)
		if err != nil {
			v.writeEngineError(w, err)
			return
		}
		out.StackEvents = append(out.StackEvents, page.StackEvents...)
		out.NextToken = page.NextToken
		if page.NextToken == "" {
			break
		}
		in.NextToken = page.NextToken
	}
	writeJSON(w, http.StatusOK, out)
}

func (v *View) getTimeline(w http.ResponseWriter, r *http.Request) {
	name, ok := stackName(w, r)
	if !ok {
		return
	}
	tl, err := timeline.Of(r.Context(), v.e, name)
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, tl.JSON())
}

// getOperation is DescribeStackOperation: the contract violations and the
// faults fired.
func (v *View) getOperation(w http.ResponseWriter, r *http.Request) {
	name, ok := stackName(w, r)
	if !ok {
		return
	}
	out, err := v.e.DescribeStackOperation(r.Context(), engine.DescribeStackOperationInput{StackName: name})
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (v *View) getPlan(w http.ResponseWriter, r *http.Request) {
	name, ok := stackName(w, r)
	if !ok {
		return
	}
	out, err := v.e.DescribeOperationPlan(r.Context(), engine.DescribeStackOperationInput{StackName: name})
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
