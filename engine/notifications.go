package engine

import (
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine/store"
)

// Notifications: CloudFormation publishes every event of a stack to each
// SNS topic of the stack's NotificationARNs, as one message whose subject
// is "AWS CloudFormation Notification" and whose body is the event as
// lines of Key='Value' (the shape of messages recorded from AWS, below).
// The engine makes the messages; where they go is its subscribers' (the
// CLI's and serve's --notifications FILE, a Go test's callback): stacksim
// has no SNS topics of its own to deliver them to. The outbox below holds
// them, and the events of the default EventBridge bus (eventbridge.go),
// until they may be published.

// NotificationSubject is the subject of every message CloudFormation
// publishes to a stack's topics.
const NotificationSubject = "AWS CloudFormation Notification"

// Notification is one message published to one topic for one stack event.
type Notification struct {
	TopicArn  string
	MessageId string
	Subject   string
	// Message is the body, as AWS writes it:
	//
	//	StackId='arn:aws:cloudformation:us-east-1:123456789012:stack/app/...'
	//	Timestamp='2024-01-01T00:00:05.000Z'
	//	EventId='...'
	//	LogicalResourceId='app'
	//	Namespace='123456789012'
	//	PhysicalResourceId='arn:aws:cloudformation:...'
	//	PrincipalId='123456789012'
	//	ResourceProperties='null'
	//	ResourceStatus='CREATE_IN_PROGRESS'
	//	ResourceStatusReason='User Initiated'
	//	ResourceType='AWS::CloudFormation::Stack'
	//	StackName='app'
	//	ClientRequestToken='null'
	//
	// each line ended by a newline.
	Message string
	// Timestamp is when it was published: the event's time (virtual).
	Timestamp time.Time
	// Event is the stack event the message tells of.
	Event StackEvent
}

// SNSEnvelope is a notification as SNS hands it to a subscriber (an SQS
// queue's message body, an HTTP endpoint's request body): the JSON a
// consumer of CloudFormation's notifications parses. stacksim signs
// nothing, so Signature, SigningCertURL and UnsubscribeURL are left out.
type SNSEnvelope struct {
	Type      string `json:"Type"`
	MessageId string `json:"MessageId"`
	TopicArn  string `json:"TopicArn"`
	Subject   string `json:"Subject"`
	Message   string `json:"Message"`
	Timestamp string `json:"Timestamp"`
}

// Envelope returns the notification as SNS delivers it.
func (n Notification) Envelope() SNSEnvelope {
	return SNSEnvelope{Type: "Notification", MessageId: n.MessageId, TopicArn: n.TopicArn, Subject: n.Subject,
		Message: n.Message, Timestamp: n.Timestamp.UTC().Format(eventTimeLayout)}
}

// notificationMessage writes the body of the message of ev. A member the
// event does not have is written 'null' (ResourceProperties of a stack
// event, a ClientRequestToken the caller did not give), as AWS writes it;
// an empty reason is ”.
func notificationMessage(ev StackEvent, account string) string {
	var b strings.Builder
	b.Grow(512 + len(ev.ResourceProperties))
	line := func(k, v string) {
		b.WriteString(k)
		b.WriteString("='")
		b.WriteString(v)
		b.WriteString("'\n")
	}
	orNull := func(s string) string {
		if s == "" {
			return "null"
		}
		return s
	}
	line("StackId", ev.StackId)
	line("Timestamp", ev.Timestamp.UTC().Format(eventTimeLayout))
	line("EventId", ev.EventId)
	line("LogicalResourceId", ev.LogicalResourceId)
	line("Namespace", account)
	line("PhysicalResourceId", ev.PhysicalResourceId)
	// The caller: stacksim's is the account's root (STS GetCallerIdentity
	// answers the same), whose principal id is the account id.
	line("PrincipalId", account)
	line("ResourceProperties", orNull(ev.ResourceProperties))
	line("ResourceStatus", ev.ResourceStatus)
	line("ResourceStatusReason", ev.ResourceStatusReason)
	line("ResourceType", ev.ResourceType)
	line("StackName", ev.StackName)
	line("ClientRequestToken", orNull(ev.ClientRequestToken))
	return b.String()
}

// notificationsOf returns the messages of one event of st: one per topic of
// the stack's NotificationARNs as they were when the event was written, in
// their order. A message's id is derived from the event (the stack and its
// sequence number) and the topic.
func notificationsOf(s *store.Store, st *store.StackRecord, seq uint64, ev StackEvent) []Notification {
	if len(st.NotificationARNs) == 0 {
		return nil
	}
	msg := notificationMessage(ev, s.ID.AccountID)
	out := make([]Notification, 0, len(st.NotificationARNs))
	for _, topic := range st.NotificationARNs {
		out = append(out, Notification{TopicArn: topic, Subject: NotificationSubject, Message: msg, Timestamp: ev.Timestamp,
			MessageId: deriveUUID(s.ID.Seed, seq, "notification", st.StackId, topic), Event: ev})
	}
	return out
}

// SubscribeNotifications calls fn with every notification published, in
// order: the messages of each stack event, once per topic of the stack's
// NotificationARNs. An engine without a state file publishes an event's
// messages once the step (or the API call) that wrote it has completed; an
// engine with one publishes them when Save has made the event durable, so
// that a message is never sent for an event the state file lost (a
// command that fails before it saves sends nothing). fn runs while the
// engine is locked: it must not call the engine. The returned function
// unsubscribes.
func (e *Engine) SubscribeNotifications(fn func(Notification)) (unsubscribe func()) {
	return subscribe(e, &e.notifyObservers, fn)
}

// outbox holds what the engine publishes of events: notifications to
// SNS topics, events to the default EventBridge bus.
type outbox struct {
	notes []Notification
	bus   []EventBridgeEvent
}

// send publishes what events that were just committed make: at once
// without a state file, else once they are saved (publishSaved). The
// caller holds e.mu.
func (e *Engine) send(out outbox) {
	if len(out.notes) == 0 && len(out.bus) == 0 {
		return
	}
	if e.file != nil {
		e.unsaved.notes = append(e.unsaved.notes, out.notes...)
		e.unsaved.bus = append(e.unsaved.bus, out.bus...)
		return
	}
	e.publish(out)
}

// publishSaved publishes what the events the last Save made durable make.
// The caller holds e.mu.
func (e *Engine) publishSaved() {
	out := e.unsaved
	e.unsaved = outbox{}
	e.publish(out)
}

func (e *Engine) publish(out outbox) {
	e.obsMu.Lock()
	notes, bus := e.notifyObservers, e.busObservers
	e.obsMu.Unlock()
	for _, n := range out.notes {
		for _, o := range notes {
			o.fn(n)
		}
	}
	for _, b := range out.bus {
		for _, o := range bus {
			o.fn(b)
		}
	}
}
