package engine

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine/statefile"
)

const (
	topicOps   = "arn:aws:sns:us-east-1:123456789012:ops"
	topicAudit = "arn:aws:sns:us-east-1:123456789012:audit"
)

// The notifications of a stack's NotificationARNs: one message per stack
// event and topic, in the order of the events, to the topics the stack has
// when the event is written (an update that changes them notifies the new
// ones; its rollback the old ones again). A stack without topics publishes
// nothing.
func TestLifecycleNotifications(t *testing.T) {
	h := newHarness(t, "notifications", Options{})
	var got []Notification
	h.e.SubscribeNotifications(func(n Notification) {
		got = append(got, n)
		h.out.WriteString("   sns " + strings.TrimPrefix(n.TopicArn, "arn:aws:sns:us-east-1:123456789012:") + " " +
			n.Event.LogicalResourceId + " " + n.Event.ResourceStatus + "\n")
	})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"), NotificationARNs: []string{topicOps, topicAudit},
			ClientRequestToken: "create-1"})
	})
	h.wait("app")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"), NotificationARNs: []string{topicAudit},
			Parameters: []Parameter{{ParameterKey: "Fail", ParameterValue: "true"}}})
	})
	h.wait("app")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "quiet", TemplateBody: h.fixture("app.yaml")})
	})
	h.wait("quiet")

	// Bodies: the stack's first event and a resource event with
	// properties, whole.
	h.note("== the message of app's first event")
	h.out.WriteString(got[0].Message)
	for _, n := range got {
		if n.Event.LogicalResourceId == "Hook" && n.Event.ResourceProperties != "" {
			h.note("== the message of Hook's first event")
			h.out.WriteString(n.Message)
			break
		}
	}
	env, err := json.Marshal(got[0].Envelope())
	if err != nil {
		t.Fatal(err)
	}
	h.note("== as SNS delivers it")
	h.out.Write(append(env, '\n'))
	h.done()

	ids := map[string]bool{}
	for _, n := range got {
		if n.Event.StackName != "app" {
			t.Fatalf("a notification of stack %s, which has no topics", n.Event.StackName)
		}
		if ids[n.MessageId] {
			t.Fatalf("message id %s given twice", n.MessageId)
		}
		ids[n.MessageId] = true
		if n.Subject != NotificationSubject || !strings.HasSuffix(n.Message, "\n") || !strings.Contains(n.Message, "EventId='"+n.Event.EventId+"'\n") {
			t.Fatalf("a notification: %+v", n)
		}
	}
	evs := stackEventsOf(t, h.e, "app")
	if len(got) < len(evs) {
		t.Fatalf("%d notifications for %d events to one or two topics", len(got), len(evs))
	}
}

// stackEventsOf returns a stack's events, oldest first.
func stackEventsOf(t *testing.T, e *Engine, stack string) []StackEvent {
	t.Helper()
	var all []StackEvent
	in := DescribeStackEventsInput{StackName: stack}
	for {
		out, err := e.DescribeStackEvents(ctx(), in)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, out.StackEvents...)
		if out.NextToken == "" {
			break
		}
		in.NextToken = out.NextToken
	}
	for i, j := 0, len(all)-1; i < j; i, j = i+1, j-1 {
		all[i], all[j] = all[j], all[i]
	}
	return all
}

// An engine with a state file publishes an event's messages (and its bus
// event) when a Save has made the event durable: none before, none when
// the save fails, and those of a failed save with the next one that
// succeeds.
func TestNotificationsAfterSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	fsys, fail := statefile.OSFS(), false
	fsys.Rename = func(from, to string) error {
		if fail {
			return errors.New("disk full")
		}
		return os.Rename(from, to)
	}
	e, err := openState(path, Options{}, false, fsys)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var got []Notification
	var bus []EventBridgeEvent
	e.SubscribeNotifications(func(n Notification) { got = append(got, n) })
	e.SubscribeEventBridge(func(ev EventBridgeEvent) { bus = append(bus, ev) })
	body := "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v}\n"
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: body, NotificationARNs: []string{topicOps}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 || len(bus) != 0 {
		t.Fatalf("%d notifications and %d bus events before the save", len(got), len(bus))
	}
	fail = true
	if err := e.Save(); err == nil {
		t.Fatal("the save did not fail")
	}
	if len(got) != 0 || len(bus) != 0 {
		t.Fatalf("%d notifications and %d bus events after a failed save", len(got), len(bus))
	}
	fail = false
	if err := e.Save(); err != nil {
		t.Fatal(err)
	}
	if n := len(stackEventsOf(t, e, "app")); len(got) != n || len(bus) != n {
		t.Fatalf("%d notifications and %d bus events after the save, for %d events", len(got), len(bus), n)
	}
	if err := e.Save(); err != nil {
		t.Fatal(err)
	}
	if n := len(stackEventsOf(t, e, "app")); len(got) != n {
		t.Fatalf("a second save published again: %d notifications for %d events", len(got), n)
	}
}

// More than five topics are refused, as the API refuses them.
func TestNotificationARNsLimit(t *testing.T) {
	e := newTestEngine(t, Options{})
	six := []string{"a", "b", "c", "d", "e", "f"}
	body := "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v}\n"
	want := "1 validation error detected: Value at 'notificationARNs' failed to satisfy constraint: Member must have length less than or equal to 5"
	_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: body, NotificationARNs: six})
	wantAPIError(t, err, CodeValidationError, want)
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: body, NotificationARNs: six[:5]}); err != nil {
		t.Fatal(err)
	}
	_, err = e.UpdateStack(ctx(), UpdateStackInput{StackName: "app", TemplateBody: body, NotificationARNs: six})
	wantAPIError(t, err, CodeValidationError, want)
	_, err = e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "cs", TemplateBody: body, NotificationARNs: six})
	wantAPIError(t, err, CodeValidationError, want)
}
