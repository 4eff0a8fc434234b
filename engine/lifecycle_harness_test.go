package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
	"github.com/stacksim/stacksim/statemachine"
)

// The lifecycle harness: a test drives an engine through API calls; every
// event is recorded (through Subscribe, in the order written, all stacks
// together) with the call that led to it, and the record is compared with
// testdata/lifecycles/NAME.golden (-update rewrites it). Fixtures
// (templates, fault files) live in testdata/lifecycles/NAME/. After every
// call that starts an operation the harness runs the loop until the stack
// is at rest and checks the invariants.

type harness struct {
	t    *testing.T
	name string
	e    *Engine
	out  strings.Builder
	mu   sync.Mutex
	// custom records the requests the custom resource targets received.
	custom []string
	// noReload: the test registers types on the engine's registry, which
	// an engine loaded from its state would not know (see wait).
	noReload bool
	// dir is the fixture directory when it is not named after the test.
	dir string
	// drifted are the resources (STACK/LOGICAL_ID) a DriftResource
	// changed: the check of the cloud leaves them out.
	drifted map[string]bool
}

// newHarness makes the engine of a lifecycle test. Its service token
// "echo" answers SUCCESS with the physical id in the property
// PhysicalIdToReturn (or a fixed one), and FAILED when the property Fail
// is "true".
func newHarness(t *testing.T, name string, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, name: name}
	if opts.ServiceTokens == nil {
		opts.ServiceTokens = map[string]resources.CustomTarget{}
	}
	opts.ServiceTokens["echo"] = resources.CustomFunc(h.echo)
	if opts.Contract == ContractOff {
		opts.Contract = ContractReport
	}
	h.e = newTestEngine(t, opts)
	h.e.Subscribe(func(ev StackEvent) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.line(ev)
	})
	fmt.Fprintf(&h.out, "# %s\n", name)
	return h
}

func (h *harness) echo(_ context.Context, req *resources.CustomRequest) (*resources.CustomResponse, error) {
	h.mu.Lock()
	props, _ := json.Marshal(req.ResourceProperties)
	old, _ := json.Marshal(req.OldResourceProperties)
	line := fmt.Sprintf("   custom %s %s physical=%q properties=%s", req.RequestType, req.LogicalResourceID, req.PhysicalResourceID, props)
	if req.RequestType == resources.CustomUpdate {
		line += " old=" + string(old)
	}
	h.custom = append(h.custom, line)
	fmt.Fprintln(&h.out, line)
	h.mu.Unlock()
	if req.ResourceProperties["Fail"] == "true" && req.RequestType != resources.CustomDelete {
		return &resources.CustomResponse{Status: "FAILED", Reason: "asked to fail", PhysicalResourceID: orDefault(req.PhysicalResourceID, "failed-"+req.LogicalResourceID)}, nil
	}
	id := req.PhysicalResourceID
	if v, ok := req.ResourceProperties["PhysicalIdToReturn"].(string); ok && v != "" && req.RequestType != resources.CustomDelete {
		id = v
	}
	if id == "" {
		id = "custom-" + req.LogicalResourceID
	}
	return &resources.CustomResponse{Status: "SUCCESS", PhysicalResourceID: id, Data: map[string]any{"Echo": id}}, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// line writes one event.
func (h *harness) line(ev StackEvent) {
	at := ev.Timestamp.Sub(DefaultEpoch)
	phys := ev.PhysicalResourceId
	if ev.IsStackEvent() {
		phys = "(stack)"
	}
	if phys == "" {
		phys = "-"
	}
	reason := ""
	if ev.ResourceStatusReason != "" {
		reason = fmt.Sprintf(" %q", ev.ResourceStatusReason)
	}
	fmt.Fprintf(&h.out, "%6s %-8s %-10s %-44s %s%s\n", fmtDur(at), ev.StackName, ev.LogicalResourceId, ev.ResourceStatus, phys, reason)
}

func fmtDur(d time.Duration) string {
	s := int64(d / time.Second)
	return fmt.Sprintf("+%ds", s)
}

// fixture reads a file of the lifecycle's fixture directory.
func (h *harness) fixture(file string) string {
	h.t.Helper()
	dir := h.name
	if h.dir != "" {
		dir = h.dir
	}
	b, err := os.ReadFile(filepath.Join("testdata", "lifecycles", dir, file))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

// faults loads a fault file of the fixture directory.
func (h *harness) faults(file string) []faults.Fault {
	h.t.Helper()
	inj, err := faults.Load(file, []byte(h.fixture(file)))
	if err != nil {
		h.t.Fatal(err)
	}
	return inj.Faults()
}

// note writes a line of the call log.
func (h *harness) note(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprintf(&h.out, format+"\n", args...)
}

// call makes an API call: its name in the log, its error (if any) after.
func (h *harness) call(label string, fn func() error) error {
	h.note("== %s", label)
	err := fn()
	if err != nil {
		var api *APIError
		if errors.As(err, &api) {
			h.note("!! %s: %s", api.Code, api.Message)
		} else {
			h.t.Fatalf("%s: %v", label, err)
		}
	}
	return err
}

// must makes a call that must be accepted.
func (h *harness) must(label string, fn func() error) {
	h.t.Helper()
	if err := h.call(label, fn); err != nil {
		h.t.Fatalf("%s refused: %v", label, err)
	}
}

// wait runs the loop until the stack is at rest, checks the invariants,
// and logs the stack's status. It runs one task at a time, and checks
// between any two tasks that the state, saved and loaded, passes the
// load-time checks: a state file saved part way through any lifecycle is
// never refused.
func (h *harness) wait(stack string) *Stack {
	h.t.Helper()
	for {
		out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
		if err != nil || !statemachine.StackStatus(out.Stacks[0].StackStatus).InMotion() {
			break
		}
		res, err := h.e.Step(ctx(), 1)
		if err != nil {
			h.t.Fatal(err)
		}
		if !h.noReload {
			loaded, err := NewFromState(state(h.t, h.e), h.e.opts)
			if err != nil {
				h.t.Log(h.out.String())
				h.t.Fatalf("the state saved after a task of %s is refused: %v", stack, err)
			}
			_ = loaded.Close()
		}
		if res.Tasks == 0 {
			break
		}
	}
	st, err := h.e.WaitForStack(ctx(), stack)
	if err != nil {
		h.t.Fatal(err)
	}
	h.check()
	h.note("-- %s %s", st.StackName, st.StackStatus)
	if op, err := h.e.DescribeStackOperation(ctx(), DescribeStackOperationInput{StackName: st.StackId}); err == nil && op.Operation.ContractViolationCount > 0 {
		for _, v := range op.Operation.ContractViolations {
			h.note("   contract violation [%s] %s %s: %s", v.Rule, v.Action, v.LogicalResourceId, v.Message)
		}
	}
	return st
}

// check checks the invariants.
func (h *harness) check() {
	h.t.Helper()
	if err := h.e.CheckInvariants(ctx()); err != nil {
		h.t.Log(h.out.String())
		h.t.Fatal(err)
	}
	if d := cloudDrift(h.e, h.drifted); len(d) > 0 {
		h.t.Log(h.out.String())
		h.t.Fatalf("the simulated cloud does not hold what the stacks record:\n%s", strings.Join(d, "\n"))
	}
}

// resources logs the stack's resources as DescribeStackResources shows
// them.
func (h *harness) resources(stack string) {
	h.t.Helper()
	out, err := h.e.ListStackResources(ctx(), ListStackResourcesInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, r := range out.StackResourceSummaries {
		h.note("   resource %-10s %-20s %s", r.LogicalResourceId, r.ResourceStatus, orDefault(r.PhysicalResourceId, "-"))
	}
}

// objects logs the simulated cloud's objects, by type and id.
func (h *harness) objects() {
	h.t.Helper()
	var lines []string
	h.e.mu.Lock()
	_ = h.e.view(func(tx *txn) error {
		tx.Scan(store.TObjects, store.IxID, "", func(r store.Record) bool {
			o := r.(*store.ObjectRecord).Obj
			state := ""
			if x := tx.Released(o.Type, o.ID); x != nil {
				state = " (" + x.Why + ")"
			}
			lines = append(lines, fmt.Sprintf("   object %s %s%s", o.Type, o.ID, state))
			return true
		})
		return nil
	})
	h.e.mu.Unlock()
	sort.Strings(lines)
	for _, l := range lines {
		h.note("%s", l)
	}
}

// done compares the log with the golden file.
func (h *harness) done() {
	h.t.Helper()
	golden(h.t, filepath.Join("lifecycles", h.name+".golden"), []byte(h.out.String()))
}

// Calls, logged.

func (h *harness) create(in CreateStackInput) error {
	return h.call("CreateStack "+in.StackName+describeCreate(in), func() error {
		_, err := h.e.CreateStack(ctx(), in)
		return err
	})
}

func describeCreate(in CreateStackInput) string {
	var parts []string
	if in.OnFailure != "" {
		parts = append(parts, "OnFailure="+in.OnFailure)
	}
	if in.DisableRollback {
		parts = append(parts, "DisableRollback")
	}
	if in.TimeoutInMinutes > 0 {
		parts = append(parts, fmt.Sprintf("TimeoutInMinutes=%d", in.TimeoutInMinutes))
	}
	if len(in.Faults) > 0 {
		parts = append(parts, fmt.Sprintf("faults=%d", len(in.Faults)))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func (h *harness) updateStack(in UpdateStackInput) error {
	label := "UpdateStack " + in.StackName
	if in.DisableRollback {
		label += " (DisableRollback)"
	}
	if len(in.Faults) > 0 {
		label += fmt.Sprintf(" (faults=%d)", len(in.Faults))
	}
	return h.call(label, func() error {
		_, err := h.e.UpdateStack(ctx(), in)
		return err
	})
}

func (h *harness) deleteStack(in DeleteStackInput) error {
	label := "DeleteStack " + in.StackName
	if len(in.RetainResources) > 0 {
		label += " RetainResources=" + bracketed(in.RetainResources)
	}
	return h.call(label, func() error {
		_, err := h.e.DeleteStack(ctx(), in)
		return err
	})
}

// mustDo runs a logged call that must be accepted.
func (h *harness) mustDo(fn func() error) {
	h.t.Helper()
	if err := fn(); err != nil {
		h.t.Fatalf("refused: %v\n%s", err, h.out.String())
	}
}

// state logs what the stack records of each resource (its properties, and
// whether ContinueUpdateRollback skipped it) and the model of the
// simulated object behind it, which differ for a skipped resource.
func (h *harness) state(stack string, logicalIDs ...string) {
	h.t.Helper()
	var lines []string
	h.e.mu.Lock()
	_ = h.e.view(func(tx *txn) error {
		st := tx.StackByName(stack)
		if st == nil {
			lines = append(lines, "   no stack "+stack)
			return nil
		}
		objects := map[string]map[string]any{}
		for _, o := range tx.ObjectsOf(st) {
			objects[store.ObjectKey(o.Obj.Type, o.Obj.ID)] = o.Obj.Model
		}
		for _, id := range logicalIDs {
			rec := tx.Resource(st.Num, id)
			if rec == nil {
				lines = append(lines, "   state "+id+" absent")
				continue
			}
			props, _ := json.Marshal(rec.Properties)
			line := fmt.Sprintf("   state %s record=%s skipped=%v", id, props, rec.Skipped)
			if m, ok := objects[store.ObjectKey(rec.ResourceType, rec.PhysicalResourceId)]; ok {
				model, _ := json.Marshal(m)
				line += " object=" + string(model)
			}
			lines = append(lines, line)
		}
		return nil
	})
	h.e.mu.Unlock()
	for _, l := range lines {
		h.note("%s", l)
	}
}
