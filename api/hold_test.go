package api

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
)

// Paced and held, nothing moves however far the wall clock goes; Step
// moves the stack by its events; Release lets virtual time go on from
// where it stands.
func TestHoldPacedStepRelease(t *testing.T) {
	clock := newFakeClock()
	ts := newTestServer(t, nil, Options{Pace: Pace{Speed: 10}, Clock: clock, Faults: loadFaults(t, stallFaults)})
	ctx := context.Background()
	if err := ts.srv.Hold(ctx); err != nil {
		t.Fatal(err)
	}
	if !ts.srv.Held() {
		t.Fatal("not held after Hold")
	}
	must(ts.cfn.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("slow"), TemplateBody: aws.String(slowTemplate)}))
	before := ts.e.Now()
	clock.Advance(time.Hour)
	if got := status(t, ts.cfn, "slow"); got != types.StackStatusCreateInProgress {
		t.Fatalf("held, an hour later: %s", got)
	}
	if !ts.e.Now().Equal(before) {
		t.Fatalf("virtual time moved while held: %v → %v", before, ts.e.Now())
	}
	res, err := ts.srv.Step(ctx, "slow", 1)
	if err != nil || res.Events != 1 || res.Stack.StackStatus != "CREATE_IN_PROGRESS" {
		t.Fatalf("Step 1: %+v, %v", res, err)
	}
	res, err = ts.srv.Step(ctx, "slow", 0)
	if err != nil || res.Stack.StackStatus != "CREATE_COMPLETE" {
		t.Fatalf("Step to rest: %+v, %v", res, err)
	}
	if _, err := ts.srv.Step(ctx, "slow", 1); err == nil || !strings.Contains(err.Error(), "at rest: nothing to step") {
		t.Fatalf("Step at rest: %v", err)
	}
	stepped := ts.e.Now()
	if err := ts.srv.Release(ctx); err != nil {
		t.Fatal(err)
	}
	// The hour held is not caught up with: the next call sees the time
	// the steps reached.
	must(ts.cfn.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("slow"), TemplateBody: aws.String(strings.Replace(slowTemplate, "v1", "v2", 1))}))
	if got := ts.e.Now(); got.Sub(stepped) > time.Second {
		t.Fatalf("after Release virtual time jumped from %v to %v", stepped, got)
	}
	if _, err := ts.srv.Step(ctx, "slow", 1); err == nil || !strings.Contains(err.Error(), "hold it first") {
		t.Fatalf("Step of a running paced loop: %v", err)
	}
	clock.Advance(time.Minute)
	if got := status(t, ts.cfn, "slow"); got != types.StackStatusUpdateComplete {
		t.Fatalf("released, a minute (10 virtual) later: %s", got)
	}
}

// Instant and held (serve --hold): a call that starts an operation answers
// with the stack in motion; Step walks it; Release runs it to rest.
func TestHoldInstant(t *testing.T) {
	ts := newTestServer(t, nil, Options{Hold: true})
	ctx := context.Background()
	must(ts.cfn.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("s"), TemplateBody: aws.String(slowTemplate)}))
	if got := status(t, ts.cfn, "s"); got != types.StackStatusCreateInProgress {
		t.Fatalf("held: %s", got)
	}
	res, err := ts.srv.Step(ctx, "s", 2)
	if err != nil || res.Events < 2 {
		t.Fatalf("Step 2: %+v, %v", res, err)
	}
	ev := must(ts.cfn.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("s")}))
	// CreateStack itself wrote the first (CREATE_IN_PROGRESS, User
	// Initiated).
	if len(ev.StackEvents) != 1+res.Events {
		t.Fatalf("%d events written, Step says %d after the call's", len(ev.StackEvents), res.Events)
	}
	if err := ts.srv.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if got := status(t, ts.cfn, "s"); got != types.StackStatusCreateComplete {
		t.Fatalf("released: %s", got)
	}
	if _, err := ts.srv.Step(ctx, "nope", 1); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("Step of a missing stack: %v", err)
	}
	if _, err := ts.srv.Step(ctx, "s", -1); err == nil {
		t.Fatal("Step -1 accepted")
	}
}
