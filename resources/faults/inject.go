package faults

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stacksim/stacksim/resources"
)

// Injector holds a list of faults and what they have done so far. One
// injector wraps the providers of every type, so that counts are shared.
// Counts are keyed by (fault, stack, logical id, action, phase): the same
// file gives the same run, whatever the order of independent resources.
type Injector struct {
	faults []*Fault

	mu      sync.Mutex
	counts  map[countKey]int
	pending map[pendingKey]int // eventual consistency: reads still to refuse
	fired   []Firing
	version uint64 // bumped on every change (Version)
}

type pendingKey struct {
	fault          int
	stack, logical string
}

type countKey struct {
	fault                  int
	stack, logical, action string
	phase                  resources.Phase
}

// Firing records one fault taking effect.
type Firing struct {
	Fault     string
	Kind      Kind
	Type      string
	LogicalID string
	Action    resources.Action
	Phase     resources.Phase
	Attempt   int
}

func (f Firing) String() string {
	return fmt.Sprintf("%s (%s) on %s %s %s, %s phase, attempt %d", f.Fault, f.Kind, f.Type, f.LogicalID, f.Action, f.Phase, f.Attempt)
}

// New returns an injector of faults built in Go.
func New(fs ...Fault) (*Injector, error) {
	inj := &Injector{counts: map[countKey]int{}, pending: map[pendingKey]int{}}
	for i := range fs {
		f := fs[i]
		if f.Times == 0 {
			f.Times = 1
		}
		if f.Pos == "" {
			f.Pos = fmt.Sprintf("#%d", i+1)
		}
		if err := f.check(); err != nil {
			return nil, err
		}
		inj.faults = append(inj.faults, &f)
	}
	return inj, nil
}

// Faults lists the injector's faults.
func (inj *Injector) Faults() []Fault {
	out := make([]Fault, len(inj.faults))
	for i, f := range inj.faults {
		out[i] = *f
	}
	return out
}

// Fired lists the faults that took effect, in order.
func (inj *Injector) Fired() []Firing {
	inj.mu.Lock()
	defer inj.mu.Unlock()
	return append([]Firing(nil), inj.fired...)
}

// Wrap returns p with the injector's faults applied to it.
func (inj *Injector) Wrap(p resources.Provider) resources.Provider {
	return &wrapped{Provider: p, inj: inj, layer: layerAll}
}

// WrapCalls returns p with the faults that act on the call — fail,
// throttle, stall, eventualConsistency, noResponse, panic: what a
// handler's caller sees, and a contract checker must not judge — and not
// those that make the handler itself misbehave (newPhysicalId), which
// HandlerFaults applies. With a checker in between,
// inj.WrapCalls(checker(HandlerFaults(p))) and a context carrying inj
// (WithInjector) give what inj.Wrap(p) gives, with the handler's
// misbehaviour judged.
func (inj *Injector) WrapCalls(p resources.Provider) resources.Provider {
	return &wrapped{Provider: p, inj: inj, layer: layerCalls}
}

// HandlerFaults returns p with the faults that make the handler itself
// misbehave (newPhysicalId: a changed primary identifier, which breaks the
// contract for a registry type), taken from the injector the call's
// context carries (WithInjector); without one, calls pass through. One
// wrapper serves every operation, so that what wraps it (a contract
// checker, whose memory spans operations) can live as long.
func HandlerFaults(p resources.Provider) resources.Provider {
	return &wrapped{Provider: p, layer: layerHandler}
}

type injectorKey struct{}

// WithInjector returns ctx carrying inj, for HandlerFaults.
func WithInjector(ctx context.Context, inj *Injector) context.Context {
	return context.WithValue(ctx, injectorKey{}, inj)
}

func injectorOf(ctx context.Context) *Injector {
	inj, _ := ctx.Value(injectorKey{}).(*Injector)
	return inj
}

// Where a wrapper applies the faults (Wrap, WrapCalls, HandlerFaults).
type layer uint8

const (
	layerAll layer = iota
	layerCalls
	layerHandler
)

// handlerKind tells the kinds that make the handler itself misbehave.
func handlerKind(k Kind) bool { return k == NewPhysicalID }

// take reports whether fault i may fire once more for req, and counts it.
func (inj *Injector) take(i int, typeName string, req *resources.Request) bool {
	f := inj.faults[i]
	k := countKey{fault: i, stack: req.StackID, logical: req.LogicalResourceIdentifier, action: string(req.Action), phase: req.Phase}
	inj.mu.Lock()
	defer inj.mu.Unlock()
	if f.Times != Always && inj.counts[k] >= f.Times {
		return false
	}
	inj.counts[k]++
	inj.version++
	inj.fired = append(inj.fired, Firing{Fault: f.label(), Kind: f.Kind, Type: typeName, LogicalID: req.LogicalResourceIdentifier,
		Action: req.Action, Phase: req.Phase, Attempt: req.Attempt})
	return true
}

// stallKey marks the callback context of a held-back SUCCESS.
const stallKey = "stacksimFaultStall"

type wrapped struct {
	resources.Provider
	inj   *Injector // nil for layerHandler: the call's context has it
	layer layer
}

func (w *wrapped) Unwrap() resources.Provider { return w.Provider }

func (w *wrapped) Create(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return w.call(ctx, r, w.Provider.Create)
}
func (w *wrapped) Read(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return w.call(ctx, r, w.Provider.Read)
}
func (w *wrapped) Update(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return w.call(ctx, r, w.Provider.Update)
}
func (w *wrapped) Delete(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return w.call(ctx, r, w.Provider.Delete)
}
func (w *wrapped) List(ctx context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
	return w.call(ctx, r, w.Provider.List)
}

// TimeoutMessage passes through to a provider that words its own.
func (w *wrapped) TimeoutMessage(a resources.Action) string {
	return resources.TimeoutMessage(w.Provider, a)
}

type handlerFunc func(context.Context, *resources.Request) (*resources.ProgressEvent, error)

func (w *wrapped) call(ctx context.Context, req *resources.Request, next handlerFunc) (*resources.ProgressEvent, error) {
	if w.layer == layerHandler {
		return w.callHandler(ctx, req, next)
	}
	// A held-back SUCCESS being released, callback by callback.
	if st, ok := req.CallbackContext[stallKey].(map[string]any); ok {
		return w.release(st)
	}
	typeName := w.TypeName()
	inj := w.inj
	// Effects that replace the call.
	for i, f := range inj.faults {
		if f.Kind == EventualConsistency {
			if req.Action == resources.ActionRead && f.matchesIgnoringAction(typeName, req) && inj.refuseRead(i, req) {
				inj.record(f, typeName, req)
				id, _ := w.PhysicalID(req.DesiredResourceState)
				if id == "" {
					id = req.PhysicalResourceID
				}
				return resources.Failed(resources.ErrNotFound, "Resource of type '%s' with identifier '%s' was not found.", typeName, id), nil
			}
			continue
		}
		if !f.matches(typeName, req) {
			continue
		}
		switch f.Kind {
		case Fail:
			if !f.After && inj.take(i, typeName, req) {
				return f.failure(typeName, req), nil
			}
		case Throttle:
			if inj.take(i, typeName, req) {
				return resources.Failed(resources.ErrThrottling, "Rate exceeded (stacksim %s)", f.label()), nil
			}
		case NoResponse:
			if inj.take(i, typeName, req) {
				return nil, resources.ErrNoResponse
			}
		case Panic:
			if inj.take(i, typeName, req) {
				panic(fmt.Sprintf("stacksim %s: %s", f.label(), f.Message))
			}
		}
	}
	ev, err := next(ctx, req)
	if err != nil || ev == nil || ev.Status != resources.StatusSuccess {
		return ev, err
	}
	// Effects on a SUCCESS.
	for i, f := range inj.faults {
		if f.Kind == EventualConsistency {
			if req.Action == resources.ActionCreate && f.matchesIgnoringAction(typeName, req) {
				inj.armReads(i, req, f.Reads)
			}
			continue
		}
		if !f.matches(typeName, req) || (w.layer == layerCalls && handlerKind(f.Kind)) {
			continue
		}
		switch f.Kind {
		case Fail:
			if f.After && inj.take(i, typeName, req) {
				return f.failure(typeName, req), nil
			}
		case NewPhysicalID:
			var err error
			if ev, err = w.newPhysicalID(inj, i, typeName, req, ev); err != nil {
				return nil, err
			}
		case Stall:
			if req.Action.Mutating() && inj.take(i, typeName, req) {
				return hold(ev, f), nil
			}
		}
	}
	return ev, nil
}

// callHandler applies the handler's own misbehaviour (HandlerFaults).
func (w *wrapped) callHandler(ctx context.Context, req *resources.Request, next handlerFunc) (*resources.ProgressEvent, error) {
	inj := injectorOf(ctx)
	ev, err := next(ctx, req)
	if inj == nil || err != nil || ev == nil || ev.Status != resources.StatusSuccess {
		return ev, err
	}
	typeName := w.TypeName()
	for i, f := range inj.faults {
		if !handlerKind(f.Kind) || !f.matches(typeName, req) {
			continue
		}
		if ev, err = w.newPhysicalID(inj, i, typeName, req, ev); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// newPhysicalID applies fault i (newPhysicalId) to an update's SUCCESS.
func (w *wrapped) newPhysicalID(inj *Injector, i int, typeName string, req *resources.Request, ev *resources.ProgressEvent) (*resources.ProgressEvent, error) {
	if req.Action != resources.ActionUpdate || ev.ResourceModel == nil || !inj.take(i, typeName, req) {
		return ev, nil
	}
	ev = ev.Clone()
	if err := resources.Set(ev.ResourceModel, w.Schema().PrimaryIdentifier[0], newPhysicalID(typeName, req)); err != nil {
		return nil, err
	}
	return ev, nil
}

func (f *Fault) matchesIgnoringAction(typeName string, req *resources.Request) bool {
	g := *f
	g.Match.Actions = nil
	return g.matches(typeName, req)
}

// failure is a Fail's answer: FAILED with its code and message, or, with
// fail.service, the raw service error CloudFormation reports for the
// resource types its handlers do not wrap, worded as the AWS SDK for Java
// words a service exception: "The specified hosted zone contains
// non-required resource record sets and so cannot be deleted. (Service:
// AmazonRoute53; Status Code: 400; Error Code: HostedZoneNotEmpty; Request
// ID: ...; Proxy: null)" (issue 15, from AWS's events). The request id is
// derived from the request, so a run is reproducible.
func (f *Fault) failure(typeName string, req *resources.Request) *resources.ProgressEvent {
	if f.Service == "" {
		return resources.Failed(f.Code, "%s", f.message(typeName))
	}
	status := f.StatusCode
	if status == 0 {
		status = 400
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{f.label(), req.StackID, req.LogicalResourceIdentifier, string(req.Action),
		req.EntropyToken(), strconv.Itoa(req.Attempt)}, "\x00")))
	id := hex.EncodeToString(sum[:16])
	id = id[:8] + "-" + id[8:12] + "-" + id[12:16] + "-" + id[16:20] + "-" + id[20:32]
	ev := resources.Failed(f.Code, "%s (Service: %s; Status Code: %d; Error Code: %s; Request ID: %s; Proxy: null)",
		f.message(typeName), f.Service, status, f.ServiceCode, id)
	ev.Raw = true
	return ev
}

func (f *Fault) message(typeName string) string {
	if f.Message != "" {
		return f.Message
	}
	return fmt.Sprintf("Fault injected by stacksim (%s) into %s", f.label(), typeName)
}

func (inj *Injector) record(f *Fault, typeName string, req *resources.Request) {
	inj.mu.Lock()
	defer inj.mu.Unlock()
	inj.version++
	inj.fired = append(inj.fired, Firing{Fault: f.label(), Kind: f.Kind, Type: typeName, LogicalID: req.LogicalResourceIdentifier,
		Action: req.Action, Phase: req.Phase, Attempt: req.Attempt})
}

func ecKey(i int, req *resources.Request) pendingKey {
	return pendingKey{fault: i, stack: req.StackID, logical: req.LogicalResourceIdentifier}
}

func (inj *Injector) armReads(i int, req *resources.Request, n int) {
	inj.mu.Lock()
	defer inj.mu.Unlock()
	inj.version++
	inj.pending[ecKey(i, req)] = n
}

func (inj *Injector) refuseRead(i int, req *resources.Request) bool {
	inj.mu.Lock()
	defer inj.mu.Unlock()
	k := ecKey(i, req)
	if inj.pending[k] <= 0 {
		return false
	}
	inj.version++
	inj.pending[k]--
	if inj.pending[k] == 0 {
		delete(inj.pending, k)
	}
	return true
}

// hold turns a SUCCESS into the first of f.Callbacks IN_PROGRESS events;
// the SUCCESS travels in the callback context and comes back at the end.
func hold(ev *resources.ProgressEvent, f *Fault) *resources.ProgressEvent {
	st := map[string]any{
		"remaining": json64(int64(f.Callbacks - 1)),
		"delay":     json64(f.DelaySeconds),
		"model":     resources.CopyModel(ev.ResourceModel),
	}
	return resources.InProgress(resources.CopyModel(ev.ResourceModel), map[string]any{stallKey: st}, f.DelaySeconds)
}

func (w *wrapped) release(st map[string]any) (*resources.ProgressEvent, error) {
	remaining := int64Of(st["remaining"])
	model, _ := st["model"].(map[string]any)
	if remaining <= 0 {
		return resources.Success(resources.CopyModel(model)), nil
	}
	next := map[string]any{"remaining": json64(remaining - 1), "delay": st["delay"], "model": model}
	return resources.InProgress(resources.CopyModel(model), map[string]any{stallKey: next}, int64Of(st["delay"])), nil
}

// newPhysicalID makes the id a misbehaving custom resource answers: a
// Lambda log stream name, which changes between invocations (seed 004).
func newPhysicalID(typeName string, req *resources.Request) string {
	// The phase is in the hash: a rollback's Update made with the same
	// client request token as the update it undoes runs later, in another
	// log stream.
	sum := sha256.Sum256([]byte(typeName + "|" + req.StackID + "|" + req.LogicalResourceIdentifier + "|" + req.EntropyToken() + "|" + req.Phase.String()))
	day := resources.Epoch.Format("2006/01/02")
	return day + "/[$LATEST]" + hex.EncodeToString(sum[:16])
}

// Timeout passes through (the embedded Provider has it); declared to keep
// the method set explicit for readers.
func (w *wrapped) Timeout(a resources.Action, props map[string]any) time.Duration {
	return w.Provider.Timeout(a, props)
}

func json64(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

// int64Of reads a number the engine may have handed back as json.Number,
// float64 (a plain JSON decode) or string.
func int64Of(v any) int64 {
	switch t := v.(type) {
	case json.Number:
		n, _ := t.Int64()
		return n
	case float64:
		return int64(t)
	case int64:
		return t
	case int:
		return int64(t)
	case string:
		n, _ := strconv.ParseInt(t, 10, 64)
		return n
	}
	return 0
}
