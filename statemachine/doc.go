// Package statemachine is the single source of truth for the statuses of
// CloudFormation stacks and resources and for what may follow what.
//
// It owns every stack and resource status, every legal transition (built on
// github.com/looplab/fsm), which API operation is allowed in which stack
// status (with AWS's error message when it is not), the [C/U/D] phase of each
// in-progress status, and the rendering of both machines to Mermaid, DOT,
// tables, JSON and the generated docs/states.md.
//
// It must not know about templates, handlers or storage.
//
// # Two machines, two tables
//
// The stack machine moves a stack through its 23 statuses; the resource
// machine moves one physical resource through its 16. Both start from the
// pseudo-status NotExist (""), which AWS never reports. Each machine is a
// table of events, each event with the (from → to) edges it allows and when
// each happens (stack_table.go, resource_table.go). The looplab/fsm machines,
// the renderings, docs/states.md and the tests all derive from these tables.
//
// Events are named after what happens. A bare verb (create, update, delete,
// rollback, cancel_update...) is a request: an API call for a stack, an
// action of the engine for a resource. A past participle (create_succeeded,
// rollback_failed, rollback_begun...) reports how a phase ended or what
// CloudFormation started by itself. The pair (event, from) determines the
// destination, so the engine fires what happened and gets the next status:
//
//	to, err := statemachine.FireStack(name, from, statemachine.StackRollbackBegun)
//
// An event that the table does not allow from `from` is refused with a
// *TransitionError naming the entity, the status and the event. For the
// engine that is always a bug.
//
// The resource machine follows one physical resource. A replacement's new
// physical resource starts from NotExist with ResourceReplace
// (UPDATE_IN_PROGRESS, "Requested update requires the creation of a new
// physical resource; hence creating one."); the old one keeps its status
// until a cleanup deletes or retains it. AWS's second CREATE_IN_PROGRESS
// event ("Resource creation Initiated") changes no status and is no
// transition.
//
// # looplab/fsm
//
// FireStack and FireResource take an *fsm.FSM from a sync.Pool, set its
// state (SetState runs no callbacks) and fire the event: about half a
// microsecond, five small allocations, safe for concurrent use. The machines
// have no callbacks, so nothing can call Event from a callback (which
// deadlocks), and no table has a self-transition (which fsm reports as
// NoTransitionError; a test enforces it, and Fire would refuse one like any
// other illegal event). Without callbacks fsm answers a (status, event) pair
// the same way every time, so the answers it gave are remembered: the first
// transition of each pair goes through fsm, later ones cost a map lookup
// (about 35 ns, no allocation). An illegal event always goes through fsm.
//
// # Queries and operations
//
// StackStatus and ResourceStatus answer InMotion, AtRest and Final;
// StackStatus.Phase gives the resource actions that run in a status.
// CheckOperation says whether an API call is accepted in a stack's status,
// returning AWS's code and message in an *OperationError when it is not, and
// ErrAlreadyDeleting or ErrAlreadyDeleted for a DeleteStack that AWS accepts
// and that does nothing. OperationEvent says which event an accepted call
// fires, and from which status. Permissions lists what each status accepts.
//
// ExplainStack and ExplainResource gather what is known of one status;
// ParseStackStatus and ParseResourceStatus read a status name leniently and
// suggest the closest names; Render draws a machine.
package statemachine
