package store

import (
	"encoding/binary"
	"time"

	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
	"github.com/stacksim/stacksim/statemachine"
)

// Rows of the store. Each is a plain struct: its exported fields are what the
// state file holds (under these names), and the read API converts it to
// CloudFormation's shape.
//
// The store never copies what it is given and what it returns: a row read
// from a transaction is shared with every snapshot that holds it. So:
//
//   - to change a row, copy it (rec := *old; or old.clone()), change the
//     copy, and put the copy;
//   - maps and slices inside a row are immutable once the row is stored:
//     to change one, build a new one and put it in the copy. A shallow copy
//     of a row is therefore a correct copy.

// Record is a row of one of the store's tables.
type Record interface {
	Table() TableID
	// Key is the row's primary key (keys.go).
	Key() string
}

// ParamValue is one parameter value of a stack, as given (or defaulted).
type ParamValue struct {
	Key   string
	Value string
	// NoEcho: the template declares the parameter NoEcho; DescribeStacks
	// shows "****".
	NoEcho bool `json:",omitempty"`
	// ResolvedValue is the value of an SSM parameter type.
	ResolvedValue string `json:",omitempty"`
}

// StackRecord is a stack. The first group of fields is what DescribeStacks
// shows; the second is what the engine keeps besides.
type StackRecord struct {
	// Num names the stack inside the store's keys (keys.go); given at
	// creation, never reused.
	Num uint32

	StackId                     string
	StackName                   string
	ChangeSetId                 string                   `json:",omitempty"`
	Description                 string                   `json:",omitempty"`
	Parameters                  []ParamValue             `json:",omitempty"`
	CreationTime                time.Time                `json:",omitzero"`
	LastUpdatedTime             time.Time                `json:",omitzero"`
	DeletionTime                time.Time                `json:",omitzero"`
	RollbackConfiguration       RollbackConfiguration    `json:",omitzero"`
	StackStatus                 statemachine.StackStatus `json:",omitempty"`
	StackStatusReason           string                   `json:",omitempty"`
	DisableRollback             bool                     `json:",omitempty"`
	NotificationARNs            []string                 `json:",omitempty"`
	TimeoutInMinutes            int                      `json:",omitempty"`
	Capabilities                []string                 `json:",omitempty"`
	Outputs                     []Output                 `json:",omitempty"`
	RoleARN                     string                   `json:",omitempty"`
	Tags                        []Tag                    `json:",omitempty"`
	EnableTerminationProtection bool                     `json:",omitempty"`
	ParentId                    string                   `json:",omitempty"`
	RootId                      string                   `json:",omitempty"`
	// ParentLogicalId is, for a nested stack, the logical id of its
	// AWS::CloudFormation::Stack resource in the parent (ParentId).
	ParentLogicalId      string `json:",omitempty"`
	RetainExceptOnCreate bool   `json:",omitempty"`
	// StackPolicyBody is the stack's policy as it was given (CreateStack,
	// SetStackPolicy, a successful UpdateStack); "" when none was set.
	StackPolicyBody string `json:",omitempty"`

	// TemplateBody is the template as submitted (GetTemplate, stage
	// Original); ProcessedTemplateBody the template after transforms (stage
	// Processed), "" when no transform changed it.
	TemplateBody          string `json:",omitempty"`
	ProcessedTemplateBody string `json:",omitempty"`
	// The template and parameter values before the update in progress (or
	// the last one): what an update rollback returns to.
	PreviousTemplateBody          string       `json:",omitempty"`
	PreviousProcessedTemplateBody string       `json:",omitempty"`
	PreviousParameters            []ParamValue `json:",omitempty"`
	// PreviousSettings are the stack's tags and notification ARNs before
	// the update in progress (or the last one), which an update rollback
	// returns to as well; nil in a record written before they were kept
	// (the rollback then keeps the update's).
	PreviousSettings *StackSettings `json:",omitempty"`
	// OnFailure as CreateStack was given it (ROLLBACK, DELETE, DO_NOTHING).
	OnFailure string `json:",omitempty"`
	// RollbackDisabledFailure: the stack's last failed operation ran with
	// rollback disabled (how it comes to rest in CREATE_FAILED or
	// UPDATE_FAILED and may be updated again).
	RollbackDisabledFailure bool `json:",omitempty"`
	// CreatedWithDoNothing: CreateStack was called with OnFailure DO_NOTHING.
	CreatedWithDoNothing bool `json:",omitempty"`
	// ClientRequestToken is the token the caller gave the operation in
	// progress (or the last one), "" when it gave none; every event the
	// operation writes carries it. (The operation's record keeps the token
	// of its handler requests, generated when the caller gave none.)
	ClientRequestToken string `json:",omitempty"`
	// OperationId is the operation in motion, or the last one when it
	// may be continued (a create or update that failed with rollback
	// disabled: RollbackStack; an update rollback that failed:
	// ContinueUpdateRollback); "" otherwise.
	OperationId string `json:",omitempty"`
	// LastOperations are the stack's most recent operations as AWS counts
	// them, newest first: the one that writes its events now (or wrote
	// them last), and the create or update an automatic rollback rolls
	// back. Operations counts the operations begun on the stack.
	LastOperations []OpTag `json:",omitempty"`
	Operations     uint32  `json:",omitempty"`

	// TemplateFile and PreviousTemplateFile name the templates in the
	// positions of errors (Extensions.TemplateFile).
	TemplateFile         string `json:",omitempty"`
	PreviousTemplateFile string `json:",omitempty"`
	// Unstable: the stack came to rest in CREATE_FAILED or UPDATE_FAILED
	// (rollback disabled) and no operation has completed since: its
	// resources may not match any template, and an update that starts
	// from there rolls back to where it started.
	Unstable bool `json:",omitempty"`
	// ResourceOrder lists the stack's logical ids in deployed order: the
	// template's order, then the resources it no longer has. Ties of the
	// delete and cleanup orders follow it.
	ResourceOrder []string `json:",omitempty"`
	// Drift is the stack's last drift detection (nil: never detected).
	Drift *StackDrift `json:",omitempty"`
}

// StackDrift is a stack's last drift detection: its id, its status
// (DETECTION_COMPLETE, DETECTION_FAILED) and why, the stack's drift status
// then (IN_SYNC, DRIFTED), how many resources had drifted, when.
type StackDrift struct {
	DetectionId     string
	DetectionStatus string
	Reason          string `json:",omitempty"`
	Status          string
	DriftedCount    int
	Time            time.Time
}

// AdoptRole makes role, when given, the stack's service role: a role given
// to any operation is used "for all future operations on the stack".
func (s *StackRecord) AdoptRole(role string) {
	if role != "" {
		s.RoleARN = role
	}
}

// StackSettings are the stack-level settings an update may change beside
// its template and parameters.
type StackSettings struct {
	Tags                  []Tag                 `json:",omitempty"`
	NotificationARNs      []string              `json:",omitempty"`
	RollbackConfiguration RollbackConfiguration `json:",omitzero"`
}

func (s *StackRecord) Table() TableID { return TStacks }
func (s *StackRecord) Key() string    { return s.StackId }

// Clone returns a shallow copy (see the note at the top of this file).
func (s *StackRecord) Clone() *StackRecord { c := *s; return &c }

// Live reports whether the stack holds its name: every stack that is not
// DELETE_COMPLETE.
func (s *StackRecord) Live() bool { return s.StackStatus != statemachine.StackStatusDeleteComplete }

// Info is what statemachine.CheckOperation needs to know of the stack.
func (s *StackRecord) Info() statemachine.StackInfo {
	return statemachine.StackInfo{
		StackName:          s.StackName,
		StackID:            s.StackId,
		Status:             s.StackStatus,
		DisableRollback:    s.RollbackDisabledFailure,
		OnFailureDoNothing: s.CreatedWithDoNothing,
	}
}

// ResourceRecord is one physical resource of a stack: in the resources
// table, the current physical resource of a logical resource; in the
// retired table, an old one (the old physical resource of a replacement, a
// resource removed by an update) awaiting its cleanup delete.
type ResourceRecord struct {
	// Num is the stack's Num (not in the state file, which names the stack
	// by StackId).
	Num     uint32 `json:"-"`
	StackId string

	LogicalResourceId    string
	PhysicalResourceId   string `json:",omitempty"`
	ResourceType         string
	ResourceStatus       statemachine.ResourceStatus `json:",omitempty"`
	ResourceStatusReason string                      `json:",omitempty"`
	LastUpdatedTimestamp time.Time                   `json:",omitzero"`
	Description          string                      `json:",omitempty"`
	// Metadata is the resource's template Metadata as JSON text, as
	// DescribeStackResource returns it.
	Metadata string `json:",omitempty"`

	// Properties are the resolved template properties as last applied.
	Properties map[string]any `json:",omitempty"`
	// Model is the provider's model of the resource (readOnly properties
	// included): what Fn::GetAtt reads.
	Model map[string]any `json:",omitempty"`
	// DependsOn are the logical ids the resource depends on (explicit and
	// through references), for delete ordering.
	DependsOn           []string `json:",omitempty"`
	DeletionPolicy      string   `json:",omitempty"`
	UpdateReplacePolicy string   `json:",omitempty"`
	// RollbackFailed: the resource is UPDATE_FAILED because its rollback
	// failed; ContinueUpdateRollback may skip it.
	RollbackFailed bool `json:",omitempty"`
	// Skipped: ContinueUpdateRollback skipped the resource's rollback: the
	// record holds the properties of the template rolled back to (AWS
	// counts the resource as rolled back), the real object what the failed
	// rollback left, until an update changes it (docs/planning.md).
	Skipped bool `json:",omitempty"`
	// CreationPolicy and UpdatePolicy as last applied, resolved.
	CreationPolicy any `json:",omitempty"`
	UpdatePolicy   any `json:",omitempty"`
	// Retired says why a retired physical resource left the stack
	// ("Replaced", "Removed"); "" in the resources table.
	Retired string `json:",omitempty"`
	// Drift is what the last drift detection found of the resource (nil:
	// never checked).
	Drift *ResourceDrift `json:",omitempty"`
	// Instances are an Auto Scaling group's instances as its last rolling
	// update left them (nil: never rolled; engine/ops_rolling.go).
	Instances []Instance `json:",omitempty"`
	// HandleSignals are the signals a wait condition handle's URL took
	// before a wait condition waited on it (AWS keeps them in S3 for the
	// condition to count when it starts; engine/api_wait_handle.go).
	HandleSignals []HandleSignal `json:",omitempty"`

	// pk is the record's key in the resources table, made once by
	// PutResource before the record is shared, and carried by its clones
	// (Key checks that it still is the key of Num and LogicalResourceId).
	pk string
}

// HandleSignal is a signal kept at a wait condition handle's URL.
type HandleSignal struct {
	UniqueId, Status string
	Data             string `json:",omitempty"`
}

// Instance is one instance of an Auto Scaling group: its id, and Launch,
// the fingerprint of the launch configuration (launch template, subnets,
// mixed instances policy) it was launched with.
type Instance struct {
	Id     string
	Launch string
}

// ResourceDrift is a resource's drift as a detection found it: its status
// (IN_SYNC, MODIFIED, DELETED, UNKNOWN), the expected and actual
// properties compared (JSON text), how they differ, when.
type ResourceDrift struct {
	Status      string
	Reason      string               `json:",omitempty"`
	Expected    string               `json:",omitempty"`
	Actual      string               `json:",omitempty"`
	Differences []PropertyDifference `json:",omitempty"`
	Time        time.Time
}

// PropertyDifference is one difference of a drifted resource: CloudFormation's
// shape.
type PropertyDifference struct {
	PropertyPath   string
	ExpectedValue  string
	ActualValue    string
	DifferenceType string
}

func (r *ResourceRecord) Table() TableID {
	if r.Retired != "" {
		return TRetired
	}
	return TResources
}

func (r *ResourceRecord) Key() string {
	if r.Retired != "" {
		return retiredKey(r.Num, r.LogicalResourceId, r.PhysicalResourceId)
	}
	if r.pkValid() {
		return r.pk
	}
	return ResourceKey(r.Num, r.LogicalResourceId)
}

// pkValid tells whether pk is ResourceKey(Num, LogicalResourceId).
func (r *ResourceRecord) pkValid() bool {
	return len(r.pk) == 4+len(r.LogicalResourceId) && binary.BigEndian.Uint32([]byte(r.pk[:4])) == r.Num && r.pk[4:] == r.LogicalResourceId
}

// Clone returns a shallow copy (see the note at the top of this file).
func (r *ResourceRecord) Clone() *ResourceRecord { c := *r; return &c }

// EventRecord is one stack event as stored: the parts of a StackEvent that
// the stack does not give (StackId, StackName) and that cannot be derived
// (EventId is made from these when read). 128 bytes.
type EventRecord struct {
	// Time is the virtual time, in nanoseconds since the Unix epoch.
	Time     int64
	Logical  string
	Physical string
	Type     string
	Status   string
	Reason   string
	// Properties is the event's ResourceProperties: nil (none), the
	// resolved properties as a map[string]any — shared with the resource's
	// record and the step, never changed: the JSON is made when the event
	// is read (DescribeStackEvents, an observer, the state file), not when
	// it is written — or, for an event loaded from a state file, the JSON
	// text (a string).
	Properties any
	Token      string
	// Dup counts earlier events of the stack with the same logical id,
	// status and timestamp: it keeps resource EventIds unique.
	Dup uint16
	// OfStack: an event of the stack itself.
	OfStack bool
	// Op is the operation that wrote the event (0: none recorded).
	Op OpTag
}

// eventChunkSize is how many events one row of the events table holds.
// Events are stored in chunks, not one row each, so that the cost of the
// store's index per event is small (a memdb index entry costs several
// hundred bytes).
const EventChunkSize = 128

// EventChunk holds the events of one stack with sequence numbers
// Chunk*eventChunkSize+1 ... (Chunk+1)*eventChunkSize, in order.
//
// Events is append-only, and its elements never change once written: a
// transaction that appends copies the chunk (not the events) and appends to
// the shared array past the length that every earlier copy sees. Readers of
// an earlier copy never look past their own length, so they never see the
// new elements.
type EventChunk struct {
	Num    uint32
	Chunk  uint32
	Events []EventRecord
}

func (c *EventChunk) Table() TableID { return TEvents }
func (c *EventChunk) Key() string    { return chunkKey(c.Num, c.Chunk) }

// ExportRecord is an exported output value.
type ExportRecord struct {
	Name    string
	Value   string
	StackId string
}

func (x *ExportRecord) Table() TableID { return TExports }
func (x *ExportRecord) Key() string    { return x.Name }

// ImportRecord says that a stack imports an export (Fn::ImportValue).
type ImportRecord struct {
	ExportName string
	StackId    string
}

func (x *ImportRecord) Table() TableID { return TImports }
func (x *ImportRecord) Key() string    { return importKey(x.ExportName, x.StackId) }

// ObjectRecord is an object of the simulated cloud.
type ObjectRecord struct {
	// Num is the Num of the stack that made the object (0 when no stack of
	// this store did).
	Num uint32
	Obj *resources.Object
	// pk is the primary key, computed once: an object row never changes.
	pk string
}

func NewObjectRecord(num uint32, obj *resources.Object) *ObjectRecord {
	return &ObjectRecord{Num: num, Obj: obj, pk: ObjectKey(obj.Type, obj.ID)}
}

func (o *ObjectRecord) Table() TableID { return TObjects }
func (o *ObjectRecord) Key() string    { return o.pk }

// OperationKind names the API call that started an operation
// (CreateStack, UpdateStack...).
type OperationKind string

// OperationRecord is a stack operation: the one in motion, the last one
// when it may be continued (Open), or a past one (kept, without its plan,
// for DescribeStackOperation and ListStackOperations). At most one
// operation of a stack is open. Fields follow the rules at the top of this
// file: a stored plan is never changed, only replaced.
type OperationRecord struct {
	Id                 string
	StackId            string
	Kind               OperationKind
	ClientRequestToken string    `json:",omitempty"`
	StartTime          time.Time `json:",omitzero"`
	EndTime            time.Time `json:",omitzero"`
	// Seq numbers the stack's operations, from 1.
	Seq uint32 `json:",omitempty"`
	// Open: in motion, or at rest and continuable (RollbackStack,
	// ContinueUpdateRollback). InMotion: tasks are running it.
	Open     bool `json:",omitempty"`
	InMotion bool `json:",omitempty"`

	// Plan is the plan being run (the forward plan, then its rollback's);
	// Phase the index of the running phase in Plan.Phases(). Forward is
	// the plan of the create or update that failed, kept while its
	// rollback may still be asked for (RollbackStack).
	Plan    *plan.Plan `json:",omitempty"`
	Phase   int        `json:",omitempty"`
	Forward *plan.Plan `json:",omitempty"`

	// What the call asked for.
	DisableRollback      bool   `json:",omitempty"`
	OnFailure            string `json:",omitempty"`
	RetainExceptOnCreate bool   `json:",omitempty"`
	// ImportExisting: the change set it runs was made with
	// ImportExistingResources; its nested stacks import what exists too.
	ImportExisting bool `json:",omitempty"`
	// Deadline is when the stack's TimeoutInMinutes passes (creates).
	Deadline time.Time `json:",omitzero"`
	// MonitorUntil is when the monitoring time of the stack's rollback
	// configuration ends, once the forward phase's resources are all done
	// (zero before, and when there is none).
	MonitorUntil time.Time `json:",omitzero"`

	// The running phase: how many steps are in flight, whether a failure
	// stopped new starts, the resources that failed (in order) and why the
	// stack fails when it is not a resource ("" otherwise).
	Running   int           `json:",omitempty"`
	Stopping  bool          `json:",omitempty"`
	Failures  []StepFailure `json:",omitempty"`
	StopCause string        `json:",omitempty"`
	// CleanupFailed: a delete failed in a cleanup phase.
	CleanupFailed bool `json:",omitempty"`
	// Outcome is the stack status the operation ended in.
	Outcome string `json:",omitempty"`
	// PhaseGen counts the phases begun: a phase-end task names the one it
	// ends. Cancelled: CancelUpdateStack stopped the update.
	PhaseGen  int  `json:",omitempty"`
	Cancelled bool `json:",omitempty"`
	// ChangeSetId is the change set the operation executes.
	ChangeSetId string `json:",omitempty"`
	// StackPolicyDuringUpdate is the policy an update runs under instead of
	// the stack's (UpdateStack's StackPolicyDuringUpdateBody);
	// NewStackPolicy the one the stack takes when the update succeeds
	// (UpdateStack's StackPolicyBody). PolicyDenied lists the resources
	// refused before their handler ran (by the stack policy, or because
	// their properties fail validation), which an update's rollback ends
	// (UPDATE_COMPLETE, or DELETE_COMPLETE for a new one).
	StackPolicyDuringUpdate string   `json:",omitempty"`
	NewStackPolicy          string   `json:",omitempty"`
	PolicyDenied            []string `json:",omitempty"`
	// ReturnTo is the status a DeleteStack refused before any resource
	// (an export in use) takes the stack back to.
	ReturnTo statemachine.StackStatus `json:",omitempty"`
	// FaultsGen counts the fault sets the operation was given (a call that
	// continues it gives its own).
	FaultsGen int `json:",omitempty"`
	// ForParent: the operation was started by the parent's step of a
	// nested stack, which waits on it. Held: such an operation has
	// reached its cleanup phase (Phase), which waits until the parent
	// releases it (its own cleanup, or rest). NestedSkips are the
	// ResourcesToSkip of a ContinueUpdateRollback that name resources of
	// nested stacks (NESTED.LOGICALID), handed down when the rollback of
	// each nested stack is continued.
	ForParent   bool     `json:",omitempty"`
	Held        bool     `json:",omitempty"`
	NestedSkips []string `json:",omitempty"`

	// Faults are the operation's injected faults and what they did.
	Faults     []faults.Fault `json:",omitempty"`
	FaultState *faults.State  `json:",omitempty"`
	// Violations are the contract checker's findings (the first
	// maxViolations), ViolationCount all of them.
	Violations     []ContractViolation `json:",omitempty"`
	ViolationCount int                 `json:",omitempty"`
}

// StepFailure is a resource that failed in a phase, and how (the verb of
// the stack's reason: "create", "update", "delete").
type StepFailure struct {
	LogicalId string
	Verb      string
}

func (o *OperationRecord) Table() TableID { return TOperations }
func (o *OperationRecord) Key() string    { return o.Id }

// Clone returns a shallow copy (see the note at the top of this file).
func (o *OperationRecord) Clone() *OperationRecord { c := *o; return &c }

// StepRecord is the runtime state of one step of an operation's plan,
// keyed by the step's ID (Index). A step that has not started has no row.
type StepRecord struct {
	OperationId string
	Index       uint32
	LogicalId   string `json:",omitempty"`

	State StepState `json:",omitempty"`
	// Action is what the step runs: the planned action, or what Decide
	// made of it when it started.
	Action plan.Action `json:",omitempty"`
	// Entry is the step's journal entry (plan.Journal: the last one counts).
	Entry plan.Entry `json:",omitzero"`
	// Gen counts the step's restarts and stops: a task for an older
	// generation finds the step moved on and does nothing.
	Gen uint32 `json:",omitempty"`
	// Part is the part of the action in flight: partCreate, partRead,
	// partUpdate, partDelete, partDeleteOld (the delete of a
	// delete-then-create replacement).
	Part    string `json:",omitempty"`
	Attempt int    `json:",omitempty"`
	// Deadline is when the action in flight times out; Reads counts the
	// post-create reads that answered NotFound.
	Deadline time.Time `json:",omitzero"`
	Reads    int       `json:",omitempty"`
	// Desired and Previous are the request's states (desiredResourceState
	// with the IN_PROGRESS models laid over it, previousResourceState);
	// Props the resolved template properties (the events'
	// ResourceProperties).
	Desired  map[string]any `json:",omitempty"`
	Previous map[string]any `json:",omitempty"`
	Props    map[string]any `json:",omitempty"`
	// PhysicalID is the physical resource the action works on or made;
	// Model the last model the handler answered.
	PhysicalID string         `json:",omitempty"`
	Model      map[string]any `json:",omitempty"`
	// Initiated: the "Resource creation Initiated" event is written.
	Initiated bool `json:",omitempty"`
	// ChildStarted: the step of a nested stack has started the child's
	// operation it waits on (engine/nested.go).
	ChildStarted bool `json:",omitempty"`
	// Signals are the SUCCESS signals a resource waiting for its creation
	// policy's (or its wait condition's) signals received, by UniqueId,
	// with their data (engine/ops_signals.go).
	Signals map[string]string `json:",omitempty"`
	// Failed counts the FAILURE signals among Signals that a creation
	// policy's MinSuccessfulInstancesPercent let pass.
	Failed int `json:",omitempty"`
	// Rolling is an Auto Scaling group's rolling update in progress
	// (engine/ops_rolling.go).
	Rolling *RollingState `json:",omitempty"`
	// Sys is the requests' systemTags, made by the first (not stored).
	Sys map[string]string `json:"-"`
	// PK is the row's key, made once when the step starts (not stored).
	PK string `json:"-"`
	// Token is the clientRequestToken of the requests of the part in
	// flight, made by the first of them for TokenPart in the operation's
	// phase TokenPhase (not stored: it is derived, so a reopened state
	// makes the same one).
	Token      string     `json:"-"`
	TokenPart  string     `json:"-"`
	TokenPhase plan.Phase `json:"-"`
	// Launched: the step waits on its handler (it counts in the
	// operation's Running).
	Launched bool `json:",omitempty"`
}

// StepState is where a step is.
type StepState string

const (
	StepRunning   StepState = "running"
	StepDone      StepState = "done"
	StepFailed    StepState = "failed"
	StepCancelled StepState = "cancelled"
)

func (s *StepRecord) Table() TableID { return TSteps }
func (s *StepRecord) Key() string {
	if s.PK != "" {
		return s.PK
	}
	return StepKey(s.OperationId, s.Index)
}

// Clone returns a shallow copy (see the note at the top of this file).
func (s *StepRecord) Clone() *StepRecord { c := *s; return &c }

// RollingState is where a rolling update of an Auto Scaling group stands
// (UpdatePolicy AutoScalingRollingUpdate): the instances it replaces, in
// batches, and the signals its new instances sent.
type RollingState struct {
	// Launch is the fingerprint of the launch the update rolls to.
	Launch string
	// Obsolete are the instances to replace, in order; Terminated of them
	// are gone; Kept are instances already of the new launch; Launched
	// are the instances the update started.
	Obsolete   []string
	Terminated int      `json:",omitempty"`
	Kept       []string `json:",omitempty"`
	Launched   []string `json:",omitempty"`
	// Batch is the batch size, Desired the group's capacity when the
	// update is over, Total the signals it expects in all (one per
	// instance it replaces).
	Batch, Desired, Total int
	// Next is the stage the update goes on with: "surge", "terminate",
	// "terminated". Terminating is the batch being terminated and
	// Replace how many instances replace it.
	Next        string
	Terminating []string `json:",omitempty"`
	Replace     int      `json:",omitempty"`
	// Awaiting is how many signals the current batch waits for (0: none),
	// Answered how many came; Success and Failure count the signals (and
	// timeouts) of the whole update. The step's Signals are the UniqueIds
	// received.
	Awaiting, Answered int `json:",omitempty"`
	Success, Failure   int `json:",omitempty"`
}

// Clone returns a deep copy.
func (s *RollingState) Clone() *RollingState {
	c := *s
	c.Obsolete = append([]string(nil), s.Obsolete...)
	c.Kept = append([]string(nil), s.Kept...)
	c.Launched = append([]string(nil), s.Launched...)
	c.Terminating = append([]string(nil), s.Terminating...)
	return &c
}

// ReleasedRecord is a physical resource that left its stack but stays in
// the account: retained (DELETE_SKIPPED: DeletionPolicy Retain or Snapshot,
// UpdateReplacePolicy Retain, RetainResources) or orphaned (a delete that
// failed in a cleanup phase, which AWS leaves behind too). The leak check
// counts a cloud object released when it has a record here. Keyed by type
// and physical id, as cloud objects are.
type ReleasedRecord struct {
	Type       string
	PhysicalId string
	StackId    string
	LogicalId  string
	// Why is "retained" or "orphaned".
	Why  string
	Time time.Time
}

func (x *ReleasedRecord) Table() TableID { return TReleased }
func (x *ReleasedRecord) Key() string    { return ObjectKey(x.Type, x.PhysicalId) }

// ChangeSetRecord is a change set.
type ChangeSetRecord struct {
	Id        string
	Name      string
	StackId   string
	StackName string
	// Seq orders the change sets of one store.
	Seq             uint64
	Type            string
	Status          string
	StatusReason    string `json:",omitempty"`
	ExecutionStatus string
	CreationTime    time.Time
	Description     string `json:",omitempty"`
	// The template and parameters the change set was made with (the
	// template after its transforms, when it has some).
	TemplateBody          string       `json:",omitempty"`
	ProcessedTemplateBody string       `json:",omitempty"`
	TemplateFile          string       `json:",omitempty"`
	Parameters            []ParamValue `json:",omitempty"`
	// Given are the parameters as the call gave them (UsePreviousValue
	// kept), to bind again when the change set runs.
	Given        []Parameter `json:",omitempty"`
	Capabilities []string    `json:",omitempty"`
	// Tags and NotificationARNs are the call's: nil when it gave none
	// (the stack keeps its own), empty when it gave an empty list (the
	// stack's are removed); omitzero keeps the two apart in the state file.
	Tags             []Tag    `json:",omitzero"`
	NotificationARNs []string `json:",omitzero"`
	// RoleARN is the service role the call gave, "" when none (the stack
	// keeps its own).
	RoleARN string `json:",omitempty"`
	// RollbackConfiguration is the call's, nil when it gave none
	// (merged into the stack's when the change set runs).
	RollbackConfiguration *RollbackConfiguration `json:",omitempty"`
	Changes               []plan.Change          `json:",omitempty"`
	OnStackFailure        string                 `json:",omitempty"`
	// IncludeNestedStacks: made with change sets of the nested stacks
	// (ParentChangeSetId names the parent's change set, RootChangeSetId
	// the root's, on those).
	IncludeNestedStacks bool   `json:",omitempty"`
	ParentChangeSetId   string `json:",omitempty"`
	RootChangeSetId     string `json:",omitempty"`
	// ClientToken is the CreateChangeSet call's ClientToken: a call with the
	// same name and token is a retry of that call.
	ClientToken string `json:",omitempty"`
	// Imports are an IMPORT change set's resources to import, each with
	// the physical id its ResourceIdentifier names.
	Imports []plan.ImportTarget `json:",omitempty"`
	// ImportExisting: made with ImportExistingResources (a CREATE or
	// UPDATE change set that imports the resources of its template that
	// exist already; its plan's Import steps are found again when it runs).
	ImportExisting bool `json:",omitempty"`
	// Operations are the stack's operations the change set began: its
	// creation of the stack (a CREATE change set), its execution.
	Operations []OpTag `json:",omitempty"`
}

func (c *ChangeSetRecord) Table() TableID { return TChangeSets }
func (c *ChangeSetRecord) Key() string    { return c.Id }

// Clone returns a shallow copy (see the note at the top of this file).
func (c *ChangeSetRecord) Clone() *ChangeSetRecord { x := *c; return &x }
