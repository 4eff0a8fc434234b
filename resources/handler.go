package resources

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"
)

// Handler is the resource handler contract: one method per action, each
// answering a ProgressEvent. A returned error is a failure of the handler
// itself (a crash, a transport failure); the engine records it as FAILED with
// HandlerInternalFailure.
type Handler interface {
	Create(ctx context.Context, req *Request) (*ProgressEvent, error)
	Read(ctx context.Context, req *Request) (*ProgressEvent, error)
	Update(ctx context.Context, req *Request) (*ProgressEvent, error)
	Delete(ctx context.Context, req *Request) (*ProgressEvent, error)
	List(ctx context.Context, req *Request) (*ProgressEvent, error)
}

// Provider is a Handler bound to one resource type, with what the engine and
// the planner need to know of that type.
type Provider interface {
	Handler
	// TypeName is the type the provider serves.
	TypeName() string
	// Schema is the type's schema (never nil).
	Schema() *Schema
	// PhysicalID is the physical id of a model: the primary identifier's
	// value, composite identifiers joined with "|".
	PhysicalID(model map[string]any) (string, error)
	// Ref is the value of {"Ref": logicalId} for a resource with this model.
	Ref(model map[string]any) (any, error)
	// GetAtt is the value of Fn::GetAtt for an attribute ("Arn",
	// "Endpoint.Address"). An unknown attribute is an error worded as AWS
	// words it: Resource type T does not support attribute {X}.
	GetAtt(model map[string]any, attribute string) (any, error)
	// Timeout is how long, in virtual time, the engine lets an action run
	// before it fails it. properties are the resource's template properties.
	Timeout(action Action, properties map[string]any) time.Duration
}

// ErrNoResponse is returned by a provider (or a fault) whose handler never
// answers. The engine does not fail the action at once: it waits, in virtual
// time, for the action's Timeout and fails it then, as CloudFormation does
// when a handler or a custom resource never responds.
var ErrNoResponse = errors.New("the handler did not respond")

// TimeoutMessager is implemented by providers that word their own timeout
// failure (custom resources do: "CloudFormation did not receive a response
// from your Custom Resource...").
type TimeoutMessager interface {
	TimeoutMessage(action Action) string
}

// DefaultTimeout is the handler timeout when a schema declares none
// (handlers.ACTION.timeoutInMinutes, 120 minutes by default).
const DefaultTimeout = 120 * time.Minute

// PanicError is the error Invoke returns when a handler panics.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("handler panicked: %v", e.Value) }

// Invoke calls the handler method for req.Action. A panic becomes a
// *PanicError, so that no panic crosses a package boundary; a handler that
// answers neither an event nor an error gets an error saying so.
func Invoke(ctx context.Context, h Handler, req *Request) (ev *ProgressEvent, err error) {
	if req == nil {
		return nil, errors.New("invoke: nil request")
	}
	defer func() {
		if r := recover(); r != nil {
			ev, err = nil, &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	switch req.Action {
	case ActionCreate:
		ev, err = h.Create(ctx, req)
	case ActionRead:
		ev, err = h.Read(ctx, req)
	case ActionUpdate:
		ev, err = h.Update(ctx, req)
	case ActionDelete:
		ev, err = h.Delete(ctx, req)
	case ActionList:
		ev, err = h.List(ctx, req)
	default:
		return nil, fmt.Errorf("invoke: unknown action %q", req.Action)
	}
	if ev == nil && err == nil {
		err = errors.New("handler returned neither a progress event nor an error")
	}
	return ev, err
}

// ErrorEvent turns a handler error into the event the engine records:
// FAILED with HandlerInternalFailure and the error as message. ErrNoResponse
// is not an event (the engine waits for the timeout) and gives nil.
func ErrorEvent(err error) *ProgressEvent {
	if err == nil || errors.Is(err, ErrNoResponse) {
		return nil
	}
	return Failed(ErrHandlerInternalFailure, "%s", err.Error())
}

// HandlerFuncs adapts functions to a Handler; a nil function answers FAILED
// InvalidRequest ("the handler does not support ACTION"), as the registry does
// for a type without that handler.
type HandlerFuncs struct {
	CreateFunc, ReadFunc, UpdateFunc, DeleteFunc, ListFunc func(ctx context.Context, req *Request) (*ProgressEvent, error)
}

func (h HandlerFuncs) call(f func(context.Context, *Request) (*ProgressEvent, error), ctx context.Context, req *Request) (*ProgressEvent, error) {
	if f == nil {
		return Failed(ErrInvalidRequest, "Resource type %s does not support %s", req.ResourceType, req.Action), nil
	}
	return f(ctx, req)
}

func (h HandlerFuncs) Create(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return h.call(h.CreateFunc, ctx, req)
}

func (h HandlerFuncs) Read(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return h.call(h.ReadFunc, ctx, req)
}

func (h HandlerFuncs) Update(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return h.call(h.UpdateFunc, ctx, req)
}

func (h HandlerFuncs) Delete(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return h.call(h.DeleteFunc, ctx, req)
}

func (h HandlerFuncs) List(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return h.call(h.ListFunc, ctx, req)
}

// DriveResult is what Drive saw: every event in order and the virtual time
// the callbacks asked for.
type DriveResult struct {
	Events  []*ProgressEvent
	Elapsed time.Duration
}

// Last is the final event.
func (r DriveResult) Last() *ProgressEvent {
	if len(r.Events) == 0 {
		return nil
	}
	return r.Events[len(r.Events)-1]
}

// Drive calls a provider until it stops answering IN_PROGRESS, handing back
// each callbackContext and adding up callbackDelaySeconds as virtual time
// (no real time passes). It is for tests and tools: the engine runs its own
// event loop. maxCalls bounds the loop (0: 1000).
func Drive(ctx context.Context, h Handler, req *Request, maxCalls int) (DriveResult, error) {
	if maxCalls <= 0 {
		maxCalls = 1000
	}
	res := DriveResult{Events: make([]*ProgressEvent, 0, 4)}
	cp := *req // Drive replaces the request's maps, never changes them
	r := &cp
	if r.Attempt == 0 {
		r.Attempt = 1
	}
	for i := 0; i < maxCalls; i++ {
		ev, err := Invoke(ctx, h, r)
		if err != nil {
			return res, err
		}
		res.Events = append(res.Events, ev)
		if ev.Status != StatusInProgress {
			return res, nil
		}
		res.Elapsed += time.Duration(ev.CallbackDelaySeconds) * time.Second
		r.CallbackContext = ev.CallbackContext
		if ev.ResourceModel != nil && r.Action != ActionDelete {
			// CloudFormation hands the last model back with the callback.
			r.DesiredResourceState = mergeModels(r.DesiredResourceState, ev.ResourceModel)
		}
	}
	return res, fmt.Errorf("drive: still IN_PROGRESS after %d calls", maxCalls)
}

// mergeModels returns base's top-level keys with over's laid on top
// (values are shared, not copied): a new map, or over itself when it has
// every key of base (models are never changed in place, so sharing is
// safe).
func mergeModels(base, over map[string]any) map[string]any {
	covered := true
	for k := range base {
		if _, ok := over[k]; !ok {
			covered = false
			break
		}
	}
	if covered {
		return over
	}
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}
