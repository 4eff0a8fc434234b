package resources

import (
	"fmt"
	"strings"
)

// Action is the handler an invocation calls, spelt as the contract spells it.
type Action string

// The five handler actions of the resource handler contract.
const (
	ActionCreate Action = "CREATE"
	ActionRead   Action = "READ"
	ActionUpdate Action = "UPDATE"
	ActionDelete Action = "DELETE"
	ActionList   Action = "LIST"
)

// Actions lists every action in the contract's order.
func Actions() []Action {
	return []Action{ActionCreate, ActionRead, ActionUpdate, ActionDelete, ActionList}
}

// ParseAction accepts an action in any case ("create", "CREATE").
func ParseAction(s string) (Action, error) {
	a := Action(strings.ToUpper(strings.TrimSpace(s)))
	for _, known := range Actions() {
		if a == known {
			return a, nil
		}
	}
	return "", fmt.Errorf("unknown action %q: expected one of create, read, update, delete, list", s)
}

// Mutating reports whether the action changes the resource (create, update, delete).
func (a Action) Mutating() bool {
	return a == ActionCreate || a == ActionUpdate || a == ActionDelete
}

// OperationStatus is the status of a ProgressEvent.
type OperationStatus string

// The three statuses a handler may return.
const (
	StatusInProgress OperationStatus = "IN_PROGRESS"
	StatusSuccess    OperationStatus = "SUCCESS"
	StatusFailed     OperationStatus = "FAILED"
)

// Valid reports whether s is one of the three statuses.
func (s OperationStatus) Valid() bool {
	return s == StatusInProgress || s == StatusSuccess || s == StatusFailed
}

// Phase is the part of a stack operation an invocation belongs to. It is not
// part of the contract's JSON: the engine sets it and wrappers (faults, the
// checker) select on it.
type Phase uint8

// The phases of a stack operation.
const (
	// PhaseForward: the operation's own creates, updates and deletes
	// (CREATE_IN_PROGRESS, UPDATE_IN_PROGRESS, DELETE_IN_PROGRESS).
	PhaseForward Phase = iota
	// PhaseRollback: undoing a failed operation (ROLLBACK_IN_PROGRESS,
	// UPDATE_ROLLBACK_IN_PROGRESS).
	PhaseRollback
	// PhaseCleanup: deleting what an operation left behind
	// (UPDATE_COMPLETE_CLEANUP_IN_PROGRESS,
	// UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS).
	PhaseCleanup
)

var phaseNames = [...]string{"forward", "rollback", "cleanup"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", p)
}

// ParsePhase accepts "forward", "rollback" or "cleanup" in any case.
func ParsePhase(s string) (Phase, error) {
	for i, n := range phaseNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Phase(i), nil
		}
	}
	return 0, fmt.Errorf("unknown phase %q: expected one of forward, rollback, cleanup", s)
}

// Request is what a handler receives. The JSON names are those of the public
// plugins; the fields tagged `json:"-"` are what the engine knows besides the
// contract, for wrappers to select on and providers to use. Its maps are
// read only for the handler (models are values: see the package doc).
type Request struct {
	Action                    Action            `json:"action"`
	ClientRequestToken        string            `json:"clientRequestToken"`
	DesiredResourceState      map[string]any    `json:"desiredResourceState,omitempty"`
	PreviousResourceState     map[string]any    `json:"previousResourceState,omitempty"`
	DesiredResourceTags       map[string]string `json:"desiredResourceTags,omitempty"`
	PreviousResourceTags      map[string]string `json:"previousResourceTags,omitempty"`
	SystemTags                map[string]string `json:"systemTags,omitempty"`
	AWSAccountID              string            `json:"awsAccountId"`
	AWSPartition              string            `json:"awsPartition"`
	LogicalResourceIdentifier string            `json:"logicalResourceIdentifier"`
	NextToken                 string            `json:"nextToken,omitempty"`
	Region                    string            `json:"region"`
	StackID                   string            `json:"stackId"`
	CallbackContext           map[string]any    `json:"callbackContext,omitempty"`

	// OperationToken is the client request token of the stack operation
	// the request belongs to (the caller's, or the one stacksim made for
	// it): the same in every request of the operation, where
	// ClientRequestToken is one resource action's. What the simulated
	// providers generate for a request is keyed on it (EntropyToken).
	OperationToken string `json:"-"`
	// ResourceType is the type name (AWS::S3::Bucket, Custom::Thing).
	ResourceType string `json:"-"`
	// PhysicalResourceID is the current physical id on update, delete and
	// read; empty on create.
	PhysicalResourceID string `json:"-"`
	// Phase is the part of the stack operation this call belongs to.
	Phase Phase `json:"-"`
	// Attempt is 1 for the first call of an action and grows by one on each
	// retry after a retriable failure. IN_PROGRESS re-invocations keep the
	// attempt and carry CallbackContext.
	Attempt int `json:"-"`
	// Attributes are the attributes the stack's template reads of the
	// resource (Fn::GetAtt R.X, ${R.X}), sorted; the engine fills them for
	// custom resources, whose simulated responder answers them as Data.
	Attributes []string `json:"-"`
}

// EntropyToken is the token what a simulation makes for the request is
// derived from (generated names and ids, a custom resource's RequestId, an
// injected fault's request id): the operation's token, so that they are the
// operation's, as they were before handler requests had tokens of their own;
// ClientRequestToken when OperationToken is empty (a provider called
// directly, as a test or the contract suite calls it).
func (r *Request) EntropyToken() string {
	if r.OperationToken != "" {
		return r.OperationToken
	}
	return r.ClientRequestToken
}

// Clone returns a copy of r whose maps can be changed without touching r.
func (r *Request) Clone() *Request {
	if r == nil {
		return nil
	}
	c := *r
	c.DesiredResourceState = CopyModel(r.DesiredResourceState)
	c.PreviousResourceState = CopyModel(r.PreviousResourceState)
	c.CallbackContext = CopyModel(r.CallbackContext)
	c.DesiredResourceTags = copyTags(r.DesiredResourceTags)
	c.PreviousResourceTags = copyTags(r.PreviousResourceTags)
	c.SystemTags = copyTags(r.SystemTags)
	return &c
}

func copyTags(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// ProgressEvent is what a handler answers, with the public plugins' JSON
// names. Its maps are read only for whoever receives it, and may be shared
// with the handler's own state (models are values: see the package doc);
// Clone before changing one.
type ProgressEvent struct {
	Status               OperationStatus  `json:"status"`
	ErrorCode            HandlerErrorCode `json:"errorCode,omitempty"`
	Message              string           `json:"message,omitempty"`
	CallbackContext      map[string]any   `json:"callbackContext,omitempty"`
	CallbackDelaySeconds int64            `json:"callbackDelaySeconds,omitempty"`
	ResourceModel        map[string]any   `json:"resourceModel,omitempty"`
	ResourceModels       []map[string]any `json:"resourceModels,omitempty"`
	NextToken            string           `json:"nextToken,omitempty"`
	// Raw marks a FAILED answer whose Message CloudFormation reports as it
	// is, without "Resource handler returned message: ..." around it: the
	// service error of a resource type not served by a registry handler
	// (a fault's fail.service). Not part of the contract's JSON.
	Raw bool `json:"-"`
}

// Success answers SUCCESS with a model (nil for delete).
func Success(model map[string]any) *ProgressEvent {
	return &ProgressEvent{Status: StatusSuccess, ResourceModel: model}
}

// InProgress answers IN_PROGRESS: call again after delay seconds with ctx.
func InProgress(model map[string]any, ctx map[string]any, delaySeconds int64) *ProgressEvent {
	return &ProgressEvent{Status: StatusInProgress, ResourceModel: model, CallbackContext: ctx, CallbackDelaySeconds: delaySeconds}
}

// Failed answers FAILED with an error code and a message.
func Failed(code HandlerErrorCode, format string, args ...any) *ProgressEvent {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &ProgressEvent{Status: StatusFailed, ErrorCode: code, Message: msg}
}

// Clone returns a deep copy of e.
func (e *ProgressEvent) Clone() *ProgressEvent {
	if e == nil {
		return nil
	}
	c := *e
	c.CallbackContext = CopyModel(e.CallbackContext)
	c.ResourceModel = CopyModel(e.ResourceModel)
	if e.ResourceModels != nil {
		c.ResourceModels = make([]map[string]any, len(e.ResourceModels))
		for i, m := range e.ResourceModels {
			c.ResourceModels[i] = CopyModel(m)
		}
	}
	return &c
}

func (e *ProgressEvent) String() string {
	if e == nil {
		return "<nil event>"
	}
	switch e.Status {
	case StatusFailed:
		return fmt.Sprintf("FAILED %s: %s", e.ErrorCode, e.Message)
	case StatusInProgress:
		return fmt.Sprintf("IN_PROGRESS (callback in %ds)", e.CallbackDelaySeconds)
	default:
		return string(e.Status)
	}
}
