package engine

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources/faults"
)

// Events as AWS writes them: the caller's ClientRequestToken only, and no
// ResourceProperties on a cleanup's deletes.

// eventsOf returns a stack's events, oldest first.
func eventsOf(t *testing.T, e *Engine, stack string) []StackEvent {
	t.Helper()
	out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: stack})
	if err != nil {
		t.Fatal(err)
	}
	evs := out.StackEvents
	for i, j := 0, len(evs)-1; i < j; i, j = i+1, j-1 {
		evs[i], evs[j] = evs[j], evs[i]
	}
	return evs
}

func mustRun(t *testing.T, e *Engine) {
	t.Helper()
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
}

// StackEvent.ClientRequestToken is "the token passed to the operation that
// generated this event" (the API reference, StackEvent): an operation the
// caller gave no token writes events without one; the handler requests of
// such an operation still have their own RequestToken.
func TestEventTokenOnlyWhenGiven(t *testing.T) {
	e := newTestEngine(t, Options{})
	v1 := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	v2 := v1 + "  Two:\n    Type: AWS::SNS::Topic\n"
	v3 := v2 + "  Three:\n    Type: AWS::SNS::Topic\n"
	inj, err := faults.Load("f.yaml", []byte("faults:\n  - match: {logicalId: Three, action: create}\n    fail: {code: AccessDenied, message: no}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "web", TemplateBody: v1}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	n := len(eventsOf(t, e, "web"))
	if _, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "web", TemplateBody: v2, ClientRequestToken: "up-1"}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	m := len(eventsOf(t, e, "web"))
	up := UpdateStackInput{StackName: "web", TemplateBody: v3}
	up.Faults = inj.Faults()
	if _, err := e.UpdateStack(ctx(), up); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	evs := eventsOf(t, e, "web")
	for i, ev := range evs {
		want := ""
		if i >= n && i < m {
			want = "up-1"
		}
		if ev.ClientRequestToken != want {
			t.Errorf("event %d (%s %s): token %q, want %q", i, ev.LogicalResourceId, ev.ResourceStatus, ev.ClientRequestToken, want)
		}
	}
	// The failed create of Three, in the update without a token: the
	// handler's RequestToken is there all the same.
	var reason string
	for _, ev := range evs[m:] {
		if ev.LogicalResourceId == "Three" && ev.ResourceStatus == "CREATE_FAILED" {
			reason = ev.ResourceStatusReason
		}
	}
	if !regexp.MustCompile(`\(RequestToken: [0-9a-f-]{36}, HandlerErrorCode: AccessDenied\)$`).MatchString(reason) {
		t.Errorf("CREATE_FAILED reason %q has no RequestToken", reason)
	}

	// A change set executed with a token, then deleted without one.
	made, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "cs", ChangeSetName: "one", ChangeSetType: ChangeSetTypeCreate, TemplateBody: v1})
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	if _, err := e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "cs", ChangeSetName: "one", ClientRequestToken: "exec-1"}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "cs"}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	id := made.StackId
	for _, ev := range eventsOf(t, e, id) {
		want := "exec-1"
		switch {
		case ev.ResourceStatus == "REVIEW_IN_PROGRESS":
			want = "" // CreateChangeSet was given no ClientToken
		case strings.HasPrefix(ev.ResourceStatus, "DELETE_"):
			want = ""
		}
		if ev.ClientRequestToken != want {
			t.Errorf("stack cs, event %s %s: token %q, want %q", ev.LogicalResourceId, ev.ResourceStatus, ev.ClientRequestToken, want)
		}
	}
}

// The old physical resource of a replacement is deleted in the cleanup
// without ResourceProperties on its events; the forward events of the
// replacement and a stack delete's events keep theirs.
func TestCleanupDeleteEventsHaveNoProperties(t *testing.T) {
	e := newTestEngine(t, Options{})
	v1 := "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: one\n"
	v2 := "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: two\n"
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: v1}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	n := len(eventsOf(t, e, "app"))
	if _, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "app", TemplateBody: v2}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "app"}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	out, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "app"})
	if err == nil && len(out.Stacks) > 0 {
		t.Fatalf("app still there: %s", out.Stacks[0].StackStatus)
	}
	list, err := e.ListStacks(ctx(), ListStacksInput{})
	if err != nil || len(list.StackSummaries) == 0 {
		t.Fatal(err)
	}
	cleanup := false
	var seen []string
	for _, ev := range eventsOf(t, e, list.StackSummaries[0].StackId)[n:] {
		if ev.IsStackEvent() {
			cleanup = ev.ResourceStatus == "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS"
			continue
		}
		seen = append(seen, ev.ResourceStatus)
		switch {
		case cleanup && ev.ResourceProperties != "":
			t.Errorf("cleanup event %s %s (%s) has ResourceProperties %s", ev.LogicalResourceId, ev.ResourceStatus, ev.PhysicalResourceId, ev.ResourceProperties)
		case !cleanup && (ev.ResourceStatus == "UPDATE_IN_PROGRESS" || ev.ResourceStatus == "DELETE_IN_PROGRESS") && !strings.Contains(ev.ResourceProperties, `"QueueName":"two"`):
			t.Errorf("event %s %s: ResourceProperties %q", ev.LogicalResourceId, ev.ResourceStatus, ev.ResourceProperties)
		}
	}
	if got := strings.Join(seen, " "); got != "UPDATE_IN_PROGRESS UPDATE_IN_PROGRESS UPDATE_COMPLETE DELETE_IN_PROGRESS DELETE_COMPLETE DELETE_IN_PROGRESS DELETE_COMPLETE" {
		t.Errorf("resource events %s", got)
	}
}
