package contract

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/stacksim/stacksim/resources"
)

// Mode says what the checker does with a violation.
type Mode int

const (
	// Report records violations and passes events through unchanged.
	Report Mode = iota
	// Strict records them too, and turns the event into FAILED with
	// HandlerInternalFailure and the violation in the message.
	Strict
)

// Violation is one breach of the handler contract.
type Violation struct {
	Rule    string
	Message string
	Request *resources.Request
	Event   *resources.ProgressEvent
}

func (v Violation) String() string {
	if v.Request == nil {
		return fmt.Sprintf("[%s] %s", v.Rule, v.Message)
	}
	return fmt.Sprintf("[%s] %s %s %s: %s", v.Rule, v.Request.ResourceType, v.Request.Action, v.Request.LogicalResourceIdentifier, v.Message)
}

// Options configure a Checker.
type Options struct {
	Mode Mode
	// OnViolation, when set, is called with each violation as it is found
	// (from the goroutine that invoked the handler).
	OnViolation func(Violation)
}

// Checker wraps a Provider and checks every ProgressEvent it answers
// against the resource handler contract. It is itself a Provider.
type Checker struct {
	inner  resources.Provider
	opts   Options
	custom bool // a custom resource type: its input is not compared

	mu         sync.Mutex
	violations []Violation
	originals  map[actionKey]map[string]any // the input view of an action's first desired state
	life       map[string]lifeState         // the identifiers creates made and no delete removed
	deleted    deletedIDs                   // the identifiers deletes removed
	// valid is, by logical id, the last model the checker found valid
	// under the schema. A handler's next answer is often the very same map
	// (the generic provider answers its create's IN_PROGRESS, its SUCCESS
	// and the read after it with one), and a model is never changed once
	// handed over (resources/doc.go): that map is not walked again. Held,
	// so that its address cannot be another map's; forgotten when the
	// resource is deleted, replaced by the next valid model otherwise.
	valid map[string]map[string]any
}

// actionKey names one action of one resource: re-invocations share it.
type actionKey struct {
	logical, token string
	action         resources.Action
}

type lifeState struct {
	token   string
	logical string
}

// deletedWindow is how many identifiers a delete removed the checker
// remembers at least (a read, update or delete that finds one must answer
// FAILED NotFound). A long session — serve, driven by a test suite all day
// — deletes without end: the checker forgets the oldest beyond two windows
// rather than hold every identifier it ever saw deleted.
const deletedWindow = 1 << 16

// deletedIDs is a set of the identifiers deleted lately, in two
// generations: when the newer holds deletedWindow, it becomes the older
// and the older is forgotten.
type deletedIDs struct {
	newer, older map[string]struct{}
}

func (d *deletedIDs) has(id string) bool {
	_, n := d.newer[id]
	_, o := d.older[id]
	return n || o
}

func (d *deletedIDs) add(id string) {
	if d.newer == nil {
		d.newer = map[string]struct{}{}
	}
	d.newer[id] = struct{}{}
	if len(d.newer) >= deletedWindow {
		d.older, d.newer = d.newer, nil
	}
}

func (d *deletedIDs) remove(id string) {
	delete(d.newer, id)
	delete(d.older, id)
}

// Wrap returns a checker around p.
func Wrap(p resources.Provider, opts Options) *Checker {
	return &Checker{inner: p, opts: opts, custom: resources.IsCustomType(p.TypeName()), originals: map[actionKey]map[string]any{}, life: map[string]lifeState{}, valid: map[string]map[string]any{}}
}

// Unwrap is the provider the checker wraps.
func (c *Checker) Unwrap() resources.Provider { return c.inner }

// Violations returns what the checker has found so far, in order.
func (c *Checker) Violations() []Violation {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Violation(nil), c.violations...)
}

// Provider methods pass through.
func (c *Checker) TypeName() string          { return c.inner.TypeName() }
func (c *Checker) Schema() *resources.Schema { return c.inner.Schema() }
func (c *Checker) PhysicalID(m map[string]any) (string, error) {
	return c.inner.PhysicalID(m)
}
func (c *Checker) Ref(m map[string]any) (any, error) { return c.inner.Ref(m) }
func (c *Checker) GetAtt(m map[string]any, a string) (any, error) {
	return c.inner.GetAtt(m, a)
}
func (c *Checker) Timeout(a resources.Action, props map[string]any) time.Duration {
	return c.inner.Timeout(a, props)
}

// TimeoutMessage passes through to a provider that words its own.
func (c *Checker) TimeoutMessage(a resources.Action) string {
	if tm, ok := c.inner.(resources.TimeoutMessager); ok {
		return tm.TimeoutMessage(a)
	}
	return ""
}

func (c *Checker) Create(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return c.call(ctx, r, c.inner.Create)
}
func (c *Checker) Read(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return c.call(ctx, r, c.inner.Read)
}
func (c *Checker) Update(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return c.call(ctx, r, c.inner.Update)
}
func (c *Checker) Delete(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return c.call(ctx, r, c.inner.Delete)
}
func (c *Checker) List(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return c.call(ctx, r, c.inner.List)
}

type handlerFunc func(context.Context, *resources.Request) (*resources.ProgressEvent, error)

func (c *Checker) call(ctx context.Context, req *resources.Request, f handlerFunc) (*resources.ProgressEvent, error) {
	original := c.remember(req)
	ev, err := safeCall(ctx, req, f)
	if err != nil {
		if errors.Is(err, resources.ErrNoResponse) || ctx.Err() != nil {
			return nil, err
		}
		c.record([]Violation{{Rule: RuleHandlerError, Message: err.Error(), Request: req}})
		return nil, err
	}
	found := c.check(req, original, ev) // and follows the lifecycle
	if ev == nil || ev.Status != resources.StatusInProgress {
		c.forget(req)
	}
	if len(found) == 0 {
		return ev, nil
	}
	c.record(found)
	if c.opts.Mode == Strict {
		msgs := make([]string, len(found))
		for i, v := range found {
			msgs[i] = fmt.Sprintf("[%s] %s", v.Rule, v.Message)
		}
		return resources.Failed(resources.ErrHandlerInternalFailure, "contract violation: %s", strings.Join(msgs, "; ")), nil
	}
	return ev, nil
}

// safeCall calls f, turning a panic into an error as resources.Invoke does.
func safeCall(ctx context.Context, req *resources.Request, f handlerFunc) (ev *resources.ProgressEvent, err error) {
	defer func() {
		if r := recover(); r != nil {
			ev, err = nil, &resources.PanicError{Value: r}
		}
	}()
	return f(ctx, req)
}

func (c *Checker) record(vs []Violation) {
	c.mu.Lock()
	c.violations = append(c.violations, vs...)
	c.mu.Unlock()
	if c.opts.OnViolation != nil {
		for _, v := range vs {
			c.opts.OnViolation(v)
		}
	}
}

// remember keeps what the SUCCESS model of a create or update is compared
// with: the input view (Schema.InputView) of the desired state of the
// action's first call, taken then (re-invocations carry the handler's own
// model back, and a handler could change the request's maps). InputView
// copies, so the snapshot is the checker's own. Other actions, and custom
// types (whose input is not compared), need none: nil.
func (c *Checker) remember(req *resources.Request) map[string]any {
	if req.Action != resources.ActionCreate && req.Action != resources.ActionUpdate || c.custom {
		return nil
	}
	key := actionKey{req.LogicalResourceIdentifier, req.ClientRequestToken, req.Action}
	c.mu.Lock()
	if m, ok := c.originals[key]; ok && req.CallbackContext != nil {
		c.mu.Unlock()
		return m
	}
	c.mu.Unlock()
	m := c.inner.Schema().InputView(req.DesiredResourceState)
	c.mu.Lock()
	c.originals[key] = m
	c.mu.Unlock()
	return m
}

// forget drops the remembered input of an action that ended.
func (c *Checker) forget(req *resources.Request) {
	if req.Action != resources.ActionCreate && req.Action != resources.ActionUpdate || c.custom {
		return
	}
	c.mu.Lock()
	delete(c.originals, actionKey{req.LogicalResourceIdentifier, req.ClientRequestToken, req.Action})
	c.mu.Unlock()
}

// requestID is the identifier a read, update or delete names.
func (c *Checker) requestID(req *resources.Request) string {
	if id, ok := resources.PrimaryIdentifierOf(c.inner.Schema(), req.DesiredResourceState); ok {
		return id
	}
	return req.PhysicalResourceID
}

// knownValid tells whether m is the model the checker last found valid for
// the logical resource (the same map, not an equal one).
func (c *Checker) knownValid(logical string, m map[string]any) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.valid[logical]
	return ok && resources.SameModel(v, m)
}

// modelValid remembers m as the logical resource's last valid model.
func (c *Checker) modelValid(logical string, m map[string]any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.valid[logical] = m
}
