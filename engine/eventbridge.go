package engine

import "github.com/stacksim/stacksim/engine/store"

// EventBridge: CloudFormation sends each event of every stack to the
// account's default event bus as a "CloudFormation Stack Status Change"
// (the stack's own events) or a "CloudFormation Resource Status Change"
// (its resources'), whatever the stack's NotificationARNs: the events
// EventBridge rules of source aws.cloudformation match. The engine makes
// them; where they go is its subscribers' (--eventbridge FILE), published
// as notifications are (notifications.go: after the commit in memory,
// after the Save that made the event durable with a state file). A drift
// detection of a stack sends a "CloudFormation Drift Detection Status
// Change" when it ends (stacksim's detection ends within its call: it has
// no in-progress moment to tell of). Stack set and hook events are not
// made.

// The detail types of the events, and their source.
const (
	EventBridgeSource         = "aws.cloudformation"
	DetailTypeStackStatus     = "CloudFormation Stack Status Change"
	DetailTypeResourceStatus  = "CloudFormation Resource Status Change"
	DetailTypeDriftDetection  = "CloudFormation Drift Detection Status Change"
	eventBridgeTimeLayout     = "2006-01-02T15:04:05Z" // EventBridge's time: seconds, UTC
	eventBridgeEnvelopeFormat = "0"
)

// EventBridgeEvent is one event on the default bus, in EventBridge's JSON
// (the shape AWS documents, with the status-details member detailed-status
// seen in events recorded from AWS).
type EventBridgeEvent struct {
	Version    string   `json:"version"`
	ID         string   `json:"id"`
	DetailType string   `json:"detail-type"`
	Source     string   `json:"source"`
	Account    string   `json:"account"`
	Time       string   `json:"time"`
	Region     string   `json:"region"`
	Resources  []string `json:"resources"`
	// Detail is a *StackStatusDetail, a *ResourceStatusDetail or a
	// *DriftDetectionDetail, as DetailType says.
	Detail any `json:"detail"`
	// Event is the stack event it tells of.
	Event StackEvent `json:"-"`
}

// StatusDetails is a stack status change's status-details.
type StatusDetails struct {
	Status       string `json:"status"`
	StatusReason string `json:"status-reason"`
}

// ResourceStatusDetails is a resource status change's status-details:
// its detailed-status is the event's DetailedStatus (VALIDATION_FAILED, or
// empty).
type ResourceStatusDetails struct {
	Status         string `json:"status"`
	DetailedStatus string `json:"detailed-status"`
	StatusReason   string `json:"status-reason"`
}

// StackStatusDetail is the detail of a CloudFormation Stack Status Change.
type StackStatusDetail struct {
	StackID            string        `json:"stack-id"`
	StatusDetails      StatusDetails `json:"status-details"`
	ClientRequestToken string        `json:"client-request-token"`
}

// ResourceStatusDetail is the detail of a CloudFormation Resource Status
// Change.
type ResourceStatusDetail struct {
	StackID            string                `json:"stack-id"`
	LogicalResourceID  string                `json:"logical-resource-id"`
	PhysicalResourceID string                `json:"physical-resource-id"`
	StatusDetails      ResourceStatusDetails `json:"status-details"`
	ResourceType       string                `json:"resource-type"`
	ClientRequestToken string                `json:"client-request-token"`
}

// eventBridgeEventOf is the bus event of a stack event (seq is its
// sequence number in the stack: the event's id is derived from it).
func eventBridgeEventOf(s *store.Store, st *store.StackRecord, seq uint64, ev StackEvent) EventBridgeEvent {
	out := EventBridgeEvent{Version: eventBridgeEnvelopeFormat, ID: deriveUUID(s.ID.Seed, seq, "eventbridge", st.StackId),
		Source: EventBridgeSource, Account: s.ID.AccountID, Time: ev.Timestamp.UTC().Format(eventBridgeTimeLayout),
		Region: s.ID.Region, Resources: []string{ev.StackId}, Event: ev}
	if ev.IsStackEvent() {
		out.DetailType = DetailTypeStackStatus
		out.Detail = &StackStatusDetail{StackID: ev.StackId, StatusDetails: StatusDetails{Status: ev.ResourceStatus, StatusReason: ev.ResourceStatusReason},
			ClientRequestToken: ev.ClientRequestToken}
	} else {
		out.DetailType = DetailTypeResourceStatus
		out.Detail = &ResourceStatusDetail{StackID: ev.StackId, LogicalResourceID: ev.LogicalResourceId, PhysicalResourceID: ev.PhysicalResourceId,
			StatusDetails: ResourceStatusDetails{Status: ev.ResourceStatus, DetailedStatus: ev.DetailedStatus, StatusReason: ev.ResourceStatusReason},
			ResourceType:  ev.ResourceType, ClientRequestToken: ev.ClientRequestToken}
	}
	return out
}

// DriftDetectionDetail is the detail of a CloudFormation Drift Detection
// Status Change.
type DriftDetectionDetail struct {
	StackID               string                `json:"stack-id"`
	StackDriftDetectionID string                `json:"stack-drift-detection-id"`
	StatusDetails         DriftStatusDetails    `json:"status-details"`
	DriftDetectionDetails DriftDetectionDetails `json:"drift-detection-details"`
	ClientRequestToken    string                `json:"client-request-token"`
}

// DriftStatusDetails is a drift detection's status-details.
type DriftStatusDetails struct {
	StackDriftStatus string `json:"stack-drift-status"`
	DetectionStatus  string `json:"detection-status"`
}

// DriftDetectionDetails counts the resources a detection found drifted
// (-1 while it runs, AWS's documentation says).
type DriftDetectionDetails struct {
	DriftedStackResourceCount int `json:"drifted-stack-resource-count"`
}

// driftDetectionEvent is the bus event of a stack's drift detection that
// ended.
func driftDetectionEvent(s *store.Store, st *store.StackRecord, d *store.StackDrift) EventBridgeEvent {
	return EventBridgeEvent{Version: eventBridgeEnvelopeFormat, ID: deriveUUID(s.ID.Seed, 0, "eventbridge", d.DetectionId),
		DetailType: DetailTypeDriftDetection, Source: EventBridgeSource, Account: s.ID.AccountID,
		Time: d.Time.UTC().Format(eventBridgeTimeLayout), Region: s.ID.Region, Resources: []string{st.StackId},
		Detail: &DriftDetectionDetail{StackID: st.StackId, StackDriftDetectionID: d.DetectionId,
			StatusDetails:         DriftStatusDetails{StackDriftStatus: d.Status, DetectionStatus: d.DetectionStatus},
			DriftDetectionDetails: DriftDetectionDetails{DriftedStackResourceCount: d.DriftedCount}}}
}

// sendToBus publishes a bus event that no stack event carries (a drift
// detection's), when someone listens. The caller holds e.mu.
func (e *Engine) sendToBus(ev EventBridgeEvent) {
	e.obsMu.Lock()
	busing := len(e.busObservers) > 0
	e.obsMu.Unlock()
	if busing {
		e.send(outbox{bus: []EventBridgeEvent{ev}})
	}
}

// SubscribeEventBridge calls fn with every event sent to the account's
// default bus, in order: one per stack event and one per drift detection
// that ended, published as
// SubscribeNotifications publishes (after the commit for an engine
// without a state file, after the Save that made the event durable for
// one with a state file). fn runs while the engine is locked: it must not
// call the engine. The returned function unsubscribes.
func (e *Engine) SubscribeEventBridge(fn func(EventBridgeEvent)) (unsubscribe func()) {
	return subscribe(e, &e.busObservers, fn)
}
