package engine

import (
	"time"

	"github.com/stacksim/stacksim/resources"
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

// record is a row of one of the store's tables.
type record interface {
	table() tableID
	// key is the row's primary key (store_keys.go).
	key() string
}

// paramValue is one parameter value of a stack, as given (or defaulted).
type paramValue struct {
	Key   string
	Value string
	// NoEcho: the template declares the parameter NoEcho; DescribeStacks
	// shows "****".
	NoEcho bool `json:",omitempty"`
	// ResolvedValue is the value of an SSM parameter type.
	ResolvedValue string `json:",omitempty"`
}

// stackRecord is a stack. The first group of fields is what DescribeStacks
// shows; the second is what the engine keeps besides.
type stackRecord struct {
	// Num names the stack inside the store's keys (store_keys.go); given at
	// creation, never reused.
	Num uint32

	StackId                     string
	StackName                   string
	ChangeSetId                 string                   `json:",omitempty"`
	Description                 string                   `json:",omitempty"`
	Parameters                  []paramValue             `json:",omitempty"`
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
	RetainExceptOnCreate        bool                     `json:",omitempty"`

	// TemplateBody is the template as submitted (GetTemplate, stage
	// Original); ProcessedTemplateBody the template after transforms (stage
	// Processed), "" when no transform changed it.
	TemplateBody          string `json:",omitempty"`
	ProcessedTemplateBody string `json:",omitempty"`
	// The template and parameter values before the update in progress (or
	// the last one): what an update rollback returns to.
	PreviousTemplateBody          string       `json:",omitempty"`
	PreviousProcessedTemplateBody string       `json:",omitempty"`
	PreviousParameters            []paramValue `json:",omitempty"`
	// OnFailure as CreateStack was given it (ROLLBACK, DELETE, DO_NOTHING).
	OnFailure string `json:",omitempty"`
	// RollbackDisabledFailure: the stack's last failed operation ran with
	// rollback disabled (how it comes to rest in CREATE_FAILED or
	// UPDATE_FAILED and may be updated again).
	RollbackDisabledFailure bool `json:",omitempty"`
	// CreatedWithDoNothing: CreateStack was called with OnFailure DO_NOTHING.
	CreatedWithDoNothing bool `json:",omitempty"`
	// ClientRequestToken is the token of the operation in progress (or the
	// last one); every event the operation writes carries it.
	ClientRequestToken string `json:",omitempty"`
	// OperationId is the operation in motion; "" at rest.
	OperationId string `json:",omitempty"`
}

func (s *stackRecord) table() tableID { return tStacks }
func (s *stackRecord) key() string    { return s.StackId }

// clone returns a shallow copy (see the note at the top of this file).
func (s *stackRecord) clone() *stackRecord { c := *s; return &c }

// live reports whether the stack holds its name: every stack that is not
// DELETE_COMPLETE.
func (s *stackRecord) live() bool { return s.StackStatus != statemachine.StackStatusDeleteComplete }

// info is what statemachine.CheckOperation needs to know of the stack.
func (s *stackRecord) info() statemachine.StackInfo {
	return statemachine.StackInfo{
		StackName:          s.StackName,
		StackID:            s.StackId,
		Status:             s.StackStatus,
		DisableRollback:    s.RollbackDisabledFailure,
		OnFailureDoNothing: s.CreatedWithDoNothing,
	}
}

// resourceRecord is one physical resource of a stack: in the resources
// table, the current physical resource of a logical resource; in the
// retired table, an old one (the old physical resource of a replacement, a
// resource removed by an update) awaiting its cleanup delete.
type resourceRecord struct {
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
	// Retired says why a retired physical resource left the stack
	// ("Replaced", "Removed"); "" in the resources table.
	Retired string `json:",omitempty"`
}

func (r *resourceRecord) table() tableID {
	if r.Retired != "" {
		return tRetired
	}
	return tResources
}

func (r *resourceRecord) key() string {
	if r.Retired != "" {
		return retiredKey(r.Num, r.LogicalResourceId, r.PhysicalResourceId)
	}
	return resourceKey(r.Num, r.LogicalResourceId)
}

// clone returns a shallow copy (see the note at the top of this file).
func (r *resourceRecord) clone() *resourceRecord { c := *r; return &c }

// eventRecord is one stack event as stored: the parts of a StackEvent that
// the stack does not give (StackId, StackName) and that cannot be derived
// (EventId is made from these when read). 128 bytes.
type eventRecord struct {
	// Time is the virtual time, in nanoseconds since the Unix epoch.
	Time       int64
	Logical    string
	Physical   string
	Type       string
	Status     string
	Reason     string
	Properties string
	Token      string
	// Dup counts earlier events of the stack with the same logical id,
	// status and timestamp: it keeps resource EventIds unique.
	Dup uint16
	// OfStack: an event of the stack itself.
	OfStack bool
}

// eventChunkSize is how many events one row of the events table holds.
// Events are stored in chunks, not one row each, so that the cost of the
// store's index per event is small (a memdb index entry costs several
// hundred bytes).
const eventChunkSize = 128

// eventChunk holds the events of one stack with sequence numbers
// Chunk*eventChunkSize+1 ... (Chunk+1)*eventChunkSize, in order.
//
// Events is append-only, and its elements never change once written: a
// transaction that appends copies the chunk (not the events) and appends to
// the shared array past the length that every earlier copy sees. Readers of
// an earlier copy never look past their own length, so they never see the
// new elements.
type eventChunk struct {
	Num    uint32
	Chunk  uint32
	Events []eventRecord
}

func (c *eventChunk) table() tableID { return tEvents }
func (c *eventChunk) key() string    { return chunkKey(c.Num, c.Chunk) }

// exportRecord is an exported output value.
type exportRecord struct {
	Name    string
	Value   string
	StackId string
}

func (x *exportRecord) table() tableID { return tExports }
func (x *exportRecord) key() string    { return x.Name }

// importRecord says that a stack imports an export (Fn::ImportValue).
type importRecord struct {
	ExportName string
	StackId    string
}

func (x *importRecord) table() tableID { return tImports }
func (x *importRecord) key() string    { return importKey(x.ExportName, x.StackId) }

// objectRecord is an object of the simulated cloud.
type objectRecord struct {
	// Num is the Num of the stack that made the object (0 when no stack of
	// this store did).
	Num uint32
	Obj *resources.Object
	// pk is the primary key, computed once: an object row never changes.
	pk string
}

func newObjectRecord(num uint32, obj *resources.Object) *objectRecord {
	return &objectRecord{Num: num, Obj: obj, pk: objectKey(obj.Type, obj.ID)}
}

func (o *objectRecord) table() tableID { return tObjects }
func (o *objectRecord) key() string    { return o.pk }

// OperationKind names what an operation does (CreateStack, UpdateStack...).
type OperationKind string

// operationRecord is a stack operation in motion: at most one per stack.
// The store knows its Id, StackId and Kind; the operations code adds the
// fields it needs (its plan, journal, phase...), following the rules at the
// top of this file, and they are saved with the state file.
type operationRecord struct {
	Id                 string
	StackId            string
	Kind               OperationKind
	ClientRequestToken string    `json:",omitempty"`
	StartTime          time.Time `json:",omitzero"`
}

func (o *operationRecord) table() tableID { return tOperations }
func (o *operationRecord) key() string    { return o.Id }

// clone returns a shallow copy (see the note at the top of this file).
func (o *operationRecord) clone() *operationRecord { c := *o; return &c }

// stepRecord is the runtime state of one step of an operation (a resource
// action), ordered by Index within the operation. The store knows the keys;
// the operations code adds its fields (status, attempt, dependencies left...)
// following the rules at the top of this file.
type stepRecord struct {
	OperationId string
	Index       uint32
	LogicalId   string `json:",omitempty"`
}

func (s *stepRecord) table() tableID { return tSteps }
func (s *stepRecord) key() string    { return stepKey(s.OperationId, s.Index) }

// clone returns a shallow copy (see the note at the top of this file).
func (s *stepRecord) clone() *stepRecord { c := *s; return &c }
