package scenario

import (
	"context"
	"testing"

	"github.com/stacksim/stacksim/engine"
)

// The stack's first event of an operation is written by the call that
// starts it, before the loop runs: a stop on it (stopAt, --until
// STACK:DELETE_IN_PROGRESS) stops there, with nothing run.
func TestDriveAfterStopsOnTheCallsEvent(t *testing.T) {
	ctx := context.Background()
	e, err := engine.New(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	body := "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n"
	out, err := e.CreateStack(ctx, engine.CreateStackInput{StackName: "app", TemplateBody: body})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := Drive(ctx, e, out.StackId, nil, 0); err != nil || res.Stack.StackStatus != "CREATE_COMPLETE" {
		t.Fatalf("create: %v %s", err, res.Stack.StackStatus)
	}
	var written []engine.StackEvent
	unsubscribe := e.Subscribe(func(ev engine.StackEvent) { written = append(written, ev) })
	if _, err := e.DeleteStack(ctx, engine.DeleteStackInput{StackName: "app"}); err != nil {
		t.Fatal(err)
	}
	unsubscribe()
	u, err := ParseUntil("app:DELETE_IN_PROGRESS", "app")
	if err != nil {
		t.Fatal(err)
	}
	res, err := DriveAfter(ctx, e, out.StackId, u.Matches, 0, written)
	if err != nil {
		t.Fatal(err)
	}
	if res.Matched == nil || !res.Matched.IsStackEvent() || res.Stack.StackStatus != "DELETE_IN_PROGRESS" {
		t.Fatalf("not stopped at the stack's DELETE_IN_PROGRESS: matched %+v, stack %s", res.Matched, res.Stack.StackStatus)
	}
	// Nothing ran: the queue is still there, and a drive without a stop
	// takes the delete to its end.
	rs, err := e.DescribeStackResources(ctx, engine.DescribeStackResourcesInput{StackName: out.StackId})
	if err != nil || len(rs.StackResources) != 1 || rs.StackResources[0].ResourceStatus != "CREATE_COMPLETE" {
		t.Fatalf("resources after the stop: %v %+v", err, rs)
	}
	// Without the call's events, the stop is never met (what --until did
	// before): the drive runs to rest.
	res, err = DriveAfter(ctx, e, out.StackId, u.Matches, 0, nil)
	if err != nil || res.Matched != nil || res.Stack.StackStatus != "DELETE_COMPLETE" {
		t.Fatalf("drive to rest: %v %+v %s", err, res.Matched, res.Stack.StackStatus)
	}
}
