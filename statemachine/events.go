package statemachine

// StackEvent names what happens to a stack: it is the input of the stack
// machine. (It is not a record of DescribeStackEvents; the engine writes
// those when a status changes.)
//
// Events are named after what happens. A bare verb (create, update, delete,
// import, review, rollback, cancel_update, continue_update_rollback) is a
// request: an API call starts it. A past participle (create_succeeded,
// update_failed, rollback_begun, cleanup_succeeded...) is CloudFormation
// reporting how a phase ended or what it started by itself. One event may
// apply from several statuses: the pair (event, from) determines the
// destination.
type StackEvent string

// The stack events. See stackTable for where each leads.
const (
	StackReview                 StackEvent = "review"
	StackCreate                 StackEvent = "create"
	StackCreateSucceeded        StackEvent = "create_succeeded"
	StackCreateFailed           StackEvent = "create_failed"
	StackRollbackBegun          StackEvent = "rollback_begun"
	StackRollback               StackEvent = "rollback"
	StackRollbackSucceeded      StackEvent = "rollback_succeeded"
	StackRollbackFailed         StackEvent = "rollback_failed"
	StackUpdate                 StackEvent = "update"
	StackUpdateSucceeded        StackEvent = "update_succeeded"
	StackUpdateFailed           StackEvent = "update_failed"
	StackCancelUpdate           StackEvent = "cancel_update"
	StackParentRollback         StackEvent = "parent_rollback"
	StackCleanupSucceeded       StackEvent = "cleanup_succeeded"
	StackContinueUpdateRollback StackEvent = "continue_update_rollback"
	StackImport                 StackEvent = "import"
	StackImportSucceeded        StackEvent = "import_succeeded"
	StackDelete                 StackEvent = "delete"
	StackDeleteSucceeded        StackEvent = "delete_succeeded"
	StackDeleteFailed           StackEvent = "delete_failed"
)

// ResourceEvent names what happens to one physical resource: it is the input
// of the resource machine. A bare verb (create, update, replace, delete,
// retain, discard, cancel, skip_rollback, deny, keep, import, rollback) is an
// action the
// engine takes; a past participle (create_succeeded, delete_failed...) is the
// handler's answer.
type ResourceEvent string

// The resource events. See resourceTable for where each leads.
const (
	ResourceCreate            ResourceEvent = "create"
	ResourceCreateSucceeded   ResourceEvent = "create_succeeded"
	ResourceCreateFailed      ResourceEvent = "create_failed"
	ResourceReplace           ResourceEvent = "replace"
	ResourceUpdate            ResourceEvent = "update"
	ResourceUpdateSucceeded   ResourceEvent = "update_succeeded"
	ResourceUpdateFailed      ResourceEvent = "update_failed"
	ResourceCancel            ResourceEvent = "cancel"
	ResourceSkipRollback      ResourceEvent = "skip_rollback"
	ResourceDeny              ResourceEvent = "deny"
	ResourceKeep              ResourceEvent = "keep"
	ResourceDelete            ResourceEvent = "delete"
	ResourceDeleteSucceeded   ResourceEvent = "delete_succeeded"
	ResourceDeleteFailed      ResourceEvent = "delete_failed"
	ResourceRetain            ResourceEvent = "retain"
	ResourceDiscard           ResourceEvent = "discard"
	ResourceImport            ResourceEvent = "import"
	ResourceImportSucceeded   ResourceEvent = "import_succeeded"
	ResourceImportFailed      ResourceEvent = "import_failed"
	ResourceRollback          ResourceEvent = "rollback"
	ResourceRollbackSucceeded ResourceEvent = "rollback_succeeded"
	ResourceRollbackFailed    ResourceEvent = "rollback_failed"
)

// Transition is one edge of a machine: Event moves an entity From one status
// To another. Why says when it happens.
type Transition[S ~string, E ~string] struct {
	Event E
	From  S
	To    S
	Why   string
}

// StackTransition is an edge of the stack machine.
type StackTransition = Transition[StackStatus, StackEvent]

// ResourceTransition is an edge of the resource machine.
type ResourceTransition = Transition[ResourceStatus, ResourceEvent]

// StackEvents returns every stack event, in table order.
func StackEvents() []StackEvent { return stackMachine().eventNames() }

// ResourceEvents returns every resource event, in table order.
func ResourceEvents() []ResourceEvent { return resourceMachine().eventNames() }

// StackTransitions returns every legal stack transition, in table order.
func StackTransitions() []StackTransition { return stackMachine().transitions() }

// ResourceTransitions returns every legal resource transition, in table
// order.
func ResourceTransitions() []ResourceTransition { return resourceMachine().transitions() }

// Summary says in a sentence what the event is.
func (e StackEvent) Summary() string { return stackMachine().summary(e) }

// Summary says in a sentence what the event is.
func (e ResourceEvent) Summary() string { return resourceMachine().summary(e) }
