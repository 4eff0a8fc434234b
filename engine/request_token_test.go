package engine

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"testing"

	"github.com/stacksim/stacksim/resources"
)

// tokenCall is one handler request as a handler saw it.
type tokenCall struct {
	logical  string
	action   resources.Action
	phase    resources.Phase
	attempt  int
	again    bool // a re-invocation (it carries a callback context)
	token    string
	opToken  string
	physical string
}

func (c tokenCall) String() string {
	return fmt.Sprintf("%s %s %s attempt %d again %v: %s", c.logical, c.action, c.phase, c.attempt, c.again, c.token)
}

// tokenEngine is an engine whose Test::Echo::Thing handler records every
// request: Slow's create answers IN_PROGRESS once, Bad's create is
// throttled twice and then refused.
func tokenEngine(t *testing.T) (*Engine, func() []tokenCall) {
	var mu sync.Mutex
	var calls []tokenCall
	record := func(req *resources.Request) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, tokenCall{logical: req.LogicalResourceIdentifier, action: req.Action, phase: req.Phase, attempt: req.Attempt,
			again: req.CallbackContext != nil, token: req.ClientRequestToken, opToken: req.OperationToken, physical: req.PhysicalResourceID})
	}
	ok := func(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
		record(req)
		return resources.Success(req.DesiredResourceState), nil
	}
	h := resources.HandlerFuncs{
		CreateFunc: func(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
			record(req)
			switch req.LogicalResourceIdentifier {
			case "Slow":
				if req.CallbackContext == nil {
					return resources.InProgress(req.DesiredResourceState, map[string]any{"again": "yes"}, 5), nil
				}
			case "Bad":
				if req.Attempt < 3 {
					return resources.Failed(resources.ErrThrottling, "slow down"), nil
				}
				return resources.Failed(resources.ErrInvalidRequest, "no such size"), nil
			}
			return resources.Success(req.DesiredResourceState), nil
		},
		ReadFunc: ok, UpdateFunc: ok, ListFunc: ok,
		DeleteFunc: func(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
			record(req)
			return resources.Success(nil), nil
		},
	}
	e := newTestEngine(t, Options{Handlers: []TypeHandler{{TypeName: "Test::Echo::Thing", Schema: testSchema(t), Handler: h}}})
	return e, func() []tokenCall {
		mu.Lock()
		defer mu.Unlock()
		return append([]tokenCall(nil), calls...)
	}
}

const tokenTemplate = `Resources:
  Slow:
    Type: Test::Echo::Thing
    Properties: {Name: slow}
  Fast:
    Type: Test::Echo::Thing
    Properties: {Name: fast}
  Bad:
    Type: Test::Echo::Thing
    DependsOn: [Slow, Fast]
    Properties: {Name: bad}
`

// A handler request's clientRequestToken is one resource action's, as the
// providers of AWS use it (the idempotency token of the calls they make,
// which two resources of one operation cannot share): the same in the
// action's IN_PROGRESS re-invocations and retries, another for another
// resource, for the read after a create and for the rollback; never the
// operation's token, which the events carry. A failure's reason quotes the
// failed action's token.
func TestRequestTokenPerResourceAction(t *testing.T) {
	run := func() ([]tokenCall, []StackEvent) {
		e, calls := tokenEngine(t)
		if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "s", TemplateBody: tokenTemplate, ClientRequestToken: "caller-1"}); err != nil {
			t.Fatal(err)
		}
		mustRun(t, e)
		return calls(), eventsOf(t, e, "s")
	}
	calls, evs := run()

	// The token of each (resource, action, phase).
	tokens := map[string]string{}
	owner := map[string]string{}
	for _, c := range calls {
		if c.opToken != "caller-1" {
			t.Errorf("%v: OperationToken %q, want the operation's caller-1", c, c.opToken)
		}
		if c.token == "" || c.token == "caller-1" {
			t.Errorf("%v: the request has the operation's token (or none)", c)
		}
		key := fmt.Sprintf("%s %s %s", c.logical, c.action, c.phase)
		if prev, ok := tokens[key]; ok && prev != c.token {
			t.Errorf("%v: the action's token changed from %s (a re-invocation or a retry keeps it)", c, prev)
		}
		tokens[key] = c.token
		if o, ok := owner[c.token]; ok && o != key {
			t.Errorf("%v: token shared with %s", c, o)
		}
		owner[c.token] = key
	}
	want := []string{"Slow CREATE forward", "Slow READ forward", "Fast CREATE forward", "Fast READ forward", "Bad CREATE forward",
		"Slow DELETE rollback", "Fast DELETE rollback"}
	for _, k := range want {
		if tokens[k] == "" {
			t.Errorf("no request for %s; calls:\n%v", k, calls)
		}
	}
	var again, retried bool
	for _, c := range calls {
		again = again || c.logical == "Slow" && c.action == resources.ActionCreate && c.again
		retried = retried || c.logical == "Bad" && c.attempt == 3
	}
	if !again || !retried {
		t.Fatalf("the handler was not re-invoked (%v) or not retried (%v): %v", again, retried, calls)
	}

	// The events carry the caller's token; Bad's failure quotes its own.
	var reason string
	for _, ev := range evs {
		if ev.ClientRequestToken != "caller-1" {
			t.Errorf("event %s %s: ClientRequestToken %q", ev.LogicalResourceId, ev.ResourceStatus, ev.ClientRequestToken)
		}
		if ev.LogicalResourceId == "Bad" && ev.ResourceStatus == "CREATE_FAILED" {
			reason = ev.ResourceStatusReason
		}
	}
	if wantReason := `Resource handler returned message: "no such size" (RequestToken: ` + tokens["Bad CREATE forward"] + `, HandlerErrorCode: InvalidRequest)`; reason != wantReason {
		t.Fatalf("Bad's reason:\n%s\nwant\n%s", reason, wantReason)
	}

	// Derived, not drawn: the same run gives the same tokens.
	again2, _ := run()
	if len(again2) != len(calls) {
		t.Fatalf("%d calls, then %d", len(calls), len(again2))
	}
	for i := range calls {
		if calls[i] != again2[i] {
			t.Fatalf("call %d: %v, then %v", i, calls[i], again2[i])
		}
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(tokens["Bad CREATE forward"]) {
		t.Fatalf("token %q is not shaped as a version 4 UUID", tokens["Bad CREATE forward"])
	}
}

// An update's rollback updates a resource back with a token of its own:
// the forward update's is not reused, though both are the step's update.
func TestRequestTokenOfRollbackUpdate(t *testing.T) {
	e, calls := tokenEngine(t)
	v1 := "Resources:\n  Fast:\n    Type: Test::Echo::Thing\n    Properties: {Name: fast}\n"
	v2 := "Resources:\n  Fast:\n    Type: Test::Echo::Thing\n    Properties: {Name: fast2}\n  Bad:\n    Type: Test::Echo::Thing\n    DependsOn: Fast\n    Properties: {Name: bad}\n"
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "s", TemplateBody: v1}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	if _, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "s", TemplateBody: v2}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	var forward, back string
	for _, c := range calls() {
		if c.logical == "Fast" && c.action == resources.ActionUpdate {
			switch c.phase {
			case resources.PhaseForward:
				forward = c.token
			case resources.PhaseRollback:
				back = c.token
			}
		}
	}
	if forward == "" || back == "" || forward == back {
		t.Fatalf("the forward update's token %q, the rollback's %q: want two tokens; calls:\n%v", forward, back, calls())
	}
}
