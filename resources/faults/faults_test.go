package faults_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
)

const stack = "arn:aws:cloudformation:us-east-1:123456789012:stack/f/0a1b2c3d-0000-4000-8000-000000000000"

func req(a resources.Action, logical string, attempt int, phase resources.Phase, desired map[string]any) *resources.Request {
	return &resources.Request{Action: a, LogicalResourceIdentifier: logical, Attempt: attempt, Phase: phase,
		DesiredResourceState: desired, ClientRequestToken: "tok", StackID: stack, Region: "us-east-1",
		AWSAccountID: "123456789012", AWSPartition: "aws"}
}

func load(t *testing.T, yml string) *faults.Injector {
	t.Helper()
	inj, err := faults.Load("faults.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return inj
}

func queue(t *testing.T, inj *faults.Injector) resources.Provider {
	t.Helper()
	reg := resources.NewRegistry(resources.RegistryOptions{Seed: 1})
	p, err := reg.Provider("AWS::SQS::Queue")
	if err != nil {
		t.Fatal(err)
	}
	return inj.Wrap(p)
}

func call(t *testing.T, p resources.Provider, r *resources.Request) (*resources.ProgressEvent, error) {
	t.Helper()
	return resources.Invoke(context.Background(), p, r)
}

func TestFaultEffects(t *testing.T) {
	cases := []struct {
		name  string
		yml   string
		check func(t *testing.T, p resources.Provider)
	}{
		{"fail once then pass", `
faults:
  - match: {logicalId: Q*, action: create}
    fail: {code: InternalFailure, message: "disk on fire"}
`, func(t *testing.T, p resources.Provider) {
			ev, _ := call(t, p, req(resources.ActionCreate, "Queue", 1, 0, nil))
			if ev.Status != resources.StatusFailed || ev.ErrorCode != resources.ErrInternalFailure || ev.Message != "disk on fire" {
				t.Fatalf("first: %v", ev)
			}
			ev, _ = call(t, p, req(resources.ActionCreate, "Queue", 1, 0, nil))
			if ev.Status == resources.StatusFailed {
				t.Fatalf("second: %v", ev)
			}
		}},
		{"fail always", `
faults:
  - match: {type: "AWS::SQS::*"}
    fail: NotStabilized
    times: always
`, func(t *testing.T, p resources.Provider) {
			for i := 0; i < 5; i++ {
				if ev, _ := call(t, p, req(resources.ActionCreate, "Queue", i+1, 0, nil)); ev.ErrorCode != resources.ErrNotStabilized {
					t.Fatalf("call %d: %v", i, ev)
				}
			}
		}},
		{"fail after: the resource exists but the create fails", `
faults:
  - match: {logicalId: Queue, action: create}
    fail: {code: GeneralServiceException, after: true}
`, func(t *testing.T, p resources.Provider) {
			res, err := resources.Drive(context.Background(), p, req(resources.ActionCreate, "Queue", 1, 0, nil), 0)
			if err != nil || res.Last().ErrorCode != resources.ErrGeneralServiceException {
				t.Fatalf("create: %v %v", res.Last(), err)
			}
			// The queue exists: list finds it although the create failed.
			ev, _ := call(t, p, req(resources.ActionList, "Queue", 1, 0, nil))
			if len(ev.ResourceModels) != 1 {
				t.Fatalf("list after a failed-after create: %v", ev.ResourceModels)
			}
		}},
		{"throttle N times then pass, counted per attempt", `
faults:
  - match: {logicalId: Queue}
    throttle: 2
`, func(t *testing.T, p resources.Provider) {
			for attempt := 1; attempt <= 2; attempt++ {
				ev, _ := call(t, p, req(resources.ActionCreate, "Queue", attempt, 0, nil))
				if ev.ErrorCode != resources.ErrThrottling || !ev.ErrorCode.Retriable() {
					t.Fatalf("attempt %d: %v", attempt, ev)
				}
			}
			if ev, _ := call(t, p, req(resources.ActionCreate, "Queue", 3, 0, nil)); ev.Status == resources.StatusFailed {
				t.Fatalf("attempt 3: %v", ev)
			}
		}},
		{"select by attempt and phase", `
faults:
  - match: {action: delete, phase: rollback, attempt: 1}
    fail: InternalFailure
`, func(t *testing.T, p resources.Provider) {
			if ev, _ := call(t, p, req(resources.ActionDelete, "Queue", 1, resources.PhaseForward, nil)); ev.ErrorCode == resources.ErrInternalFailure {
				t.Fatalf("forward phase matched: %v", ev)
			}
			if ev, _ := call(t, p, req(resources.ActionDelete, "Queue", 2, resources.PhaseRollback, nil)); ev.ErrorCode == resources.ErrInternalFailure {
				t.Fatalf("attempt 2 matched: %v", ev)
			}
			if ev, _ := call(t, p, req(resources.ActionDelete, "Queue", 1, resources.PhaseRollback, nil)); ev.ErrorCode != resources.ErrInternalFailure {
				t.Fatalf("rollback attempt 1 did not match: %v", ev)
			}
		}},
		{"stall: N callbacks of D seconds, then the held SUCCESS", `
faults:
  - match: {logicalId: Queue, action: create}
    stall: {callbacks: 4, delaySeconds: 300}
`, func(t *testing.T, p resources.Provider) {
			res, err := resources.Drive(context.Background(), p, req(resources.ActionCreate, "Queue", 1, 0, nil), 0)
			if err != nil || res.Last().Status != resources.StatusSuccess {
				t.Fatalf("create: %v %v", res.Last(), err)
			}
			// 3 s of the queue's own creation, then 4 × 300 s held back
			if want := 3 + 4*300; int(res.Elapsed.Seconds()) != want {
				t.Fatalf("elapsed %v, want %ds", res.Elapsed, want)
			}
			for _, ev := range res.Events[:len(res.Events)-1] {
				if ev.Status != resources.StatusInProgress {
					t.Fatalf("event %v", ev)
				}
				if _, err := p.PhysicalID(ev.ResourceModel); err != nil {
					t.Fatalf("IN_PROGRESS without the identifier: %v", ev.ResourceModel)
				}
			}
		}},
		{"eventual consistency: the first N reads after a create", `
faults:
  - match: {logicalId: Queue}
    eventualConsistency: {reads: 2}
`, func(t *testing.T, p resources.Provider) {
			res, err := resources.Drive(context.Background(), p, req(resources.ActionCreate, "Queue", 1, 0, nil), 0)
			if err != nil {
				t.Fatal(err)
			}
			model := res.Last().ResourceModel
			for i := 0; i < 2; i++ {
				if ev, _ := call(t, p, req(resources.ActionRead, "Queue", i+1, 0, model)); ev.ErrorCode != resources.ErrNotFound {
					t.Fatalf("read %d: %v", i, ev)
				}
			}
			if ev, _ := call(t, p, req(resources.ActionRead, "Queue", 3, 0, model)); ev.Status != resources.StatusSuccess {
				t.Fatalf("read 3: %v", ev)
			}
		}},
		{"no response", `
faults:
  - match: {logicalId: Queue, action: create}
    noResponse: true
`, func(t *testing.T, p resources.Provider) {
			if _, err := call(t, p, req(resources.ActionCreate, "Queue", 1, 0, nil)); !errors.Is(err, resources.ErrNoResponse) {
				t.Fatalf("err %v", err)
			}
		}},
		{"panic becomes an error at Invoke", `
faults:
  - match: {logicalId: Queue}
    panic: "nil map"
`, func(t *testing.T, p resources.Provider) {
			_, err := call(t, p, req(resources.ActionCreate, "Queue", 1, 0, nil))
			var pe *resources.PanicError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), "nil map") {
				t.Fatalf("err %v", err)
			}
		}},
		{"other logical ids untouched", `
faults:
  - match: {logicalId: Other}
    fail: InternalFailure
    times: always
`, func(t *testing.T, p resources.Provider) {
			if ev, _ := call(t, p, req(resources.ActionCreate, "Queue", 1, 0, nil)); ev.Status == resources.StatusFailed {
				t.Fatalf("%v", ev)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inj := load(t, tc.yml)
			tc.check(t, queue(t, inj))
		})
	}
}

func TestNewPhysicalIDOnCustomResourceUpdate(t *testing.T) {
	inj := load(t, `
faults:
  - match: {type: "Custom::*", action: update}
    newPhysicalId: true
`)
	reg := resources.NewRegistry(resources.RegistryOptions{Seed: 3})
	defer reg.Close()
	p, err := reg.Provider("Custom::Thing")
	if err != nil {
		t.Fatal(err)
	}
	w := inj.Wrap(p)
	props := map[string]any{"ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:f", "Size": 1}
	ev, err := call(t, w, req(resources.ActionCreate, "Thing", 1, 0, props))
	if err != nil || ev.Status != resources.StatusSuccess {
		t.Fatalf("create: %v %v", ev, err)
	}
	id, _ := w.PhysicalID(ev.ResourceModel)
	up := req(resources.ActionUpdate, "Thing", 1, 0, map[string]any{"ServiceToken": props["ServiceToken"], "Size": 2})
	up.PreviousResourceState, up.PhysicalResourceID = props, id
	ev, err = call(t, w, up)
	if err != nil || ev.Status != resources.StatusSuccess {
		t.Fatalf("update: %v %v", ev, err)
	}
	newID, _ := w.PhysicalID(ev.ResourceModel)
	if newID == id || !strings.Contains(newID, "[$LATEST]") {
		t.Fatalf("update kept %q (was %q)", newID, id)
	}
	if len(inj.Fired()) != 1 {
		t.Fatalf("fired: %v", inj.Fired())
	}
}

// The faults that make a handler misbehave (newPhysicalId) can act inside
// a wrapper (a contract checker) while the others act outside it:
// WrapCalls leaves them out, HandlerFaults applies them from the injector
// the context carries, and the two together do what Wrap does.
func TestHandlerFaultsLayer(t *testing.T) {
	inj := load(t, `
faults:
  - match: {logicalId: Q, action: update}
    newPhysicalId: true
    times: always
  - match: {logicalId: Q, action: update}
    throttle: 1
`)
	reg := resources.NewRegistry(resources.RegistryOptions{Seed: 1})
	base, err := reg.Provider("AWS::SQS::Queue")
	if err != nil {
		t.Fatal(err)
	}
	res, err := resources.Drive(context.Background(), base, req(resources.ActionCreate, "Q", 1, 0, map[string]any{"QueueName": "q"}), 0)
	ev := res.Last()
	if err != nil || ev.Status != resources.StatusSuccess {
		t.Fatalf("create: %v %v", ev, err)
	}
	id, _ := base.PhysicalID(ev.ResourceModel)
	update := func(p resources.Provider, ctx context.Context, attempt int) *resources.ProgressEvent {
		t.Helper()
		up := req(resources.ActionUpdate, "Q", attempt, 0, map[string]any{"QueueName": "q", "DelaySeconds": 5})
		up.PreviousResourceState, up.PhysicalResourceID = ev.ResourceModel, id
		up.DesiredResourceState["QueueUrl"] = id
		res, err := resources.Drive(ctx, p, up, 0)
		if err != nil {
			t.Fatal(err)
		}
		return res.Last()
	}
	idOf := func(ev *resources.ProgressEvent) string {
		got, _ := base.PhysicalID(ev.ResourceModel)
		return got
	}
	layered := inj.WrapCalls(faults.HandlerFaults(base))
	// The throttle acts outside, first.
	if got := update(layered, faults.WithInjector(context.Background(), inj), 1); got.ErrorCode != resources.ErrThrottling {
		t.Fatalf("first call: %v, want the throttle", got)
	}
	if got := update(layered, faults.WithInjector(context.Background(), inj), 2); got.Status != resources.StatusSuccess || idOf(got) == id {
		t.Fatalf("layered: %v, want SUCCESS with a new identifier", got)
	}
	// Without the injector in the context, the inner layer passes through,
	// and the outer one never applies newPhysicalId.
	if got := update(layered, context.Background(), 3); idOf(got) != id {
		t.Fatalf("without the context: identifier %q, want %q", idOf(got), id)
	}
	// Wrap applies both.
	if got := update(inj.Wrap(base), context.Background(), 4); idOf(got) == id {
		t.Fatal("Wrap did not apply newPhysicalId")
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct{ yml, want string }{
		{"", "faults.yaml: the file is empty"},
		{"faults:\n  - match: {logicalId: A}\n    thrTottle: 3\n", `faults.yaml:3:5: unknown key "thrTottle" in a fault; expected one of name, match, times, fail, throttle, stall, eventualConsistency, noResponse, panic, newPhysicalId (did you mean "throttle"?)`},
		{"faults:\n  - match: {logicalId: A}\n", "faults.yaml:2:5: this fault has no effect"},
		{"faults:\n  - fail: Oops\n", `faults.yaml:2:5: fail code "Oops" is not a handler error code`},
		{"faults:\n  - match: {action: crate}\n    noResponse: true\n", `faults.yaml:2:21: action "crate": expected create, read, update, delete or list`},
		{"faults:\n  - match: {phase: later}\n    noResponse: true\n", `faults.yaml:2:20: phase "later": expected forward, rollback or cleanup`},
		{"faults:\n  - throttle: 2\n    times: 3\n", `faults.yaml:3:12: "throttle: N" already says how many times`},
		{"faults:\n  - stall: {callbacks: 0}\n", "faults.yaml:2:24: callbacks must be a whole number ≥ 1"},
		{"faults:\n  - match: {action: read}\n    stall: {callbacks: 2, delaySeconds: 5}\n", "faults.yaml:3:5: stall applies to create, update and delete"},
		{"faults:\n  - panic: x\n    noResponse: true\n", `faults.yaml:3:5: a fault has one effect; this one has "panic" and "noResponse"`},
		{"falts: []\n", `faults.yaml:1:1: unknown top-level key "falts"`},
		{"faults:\n  - match: {logicalId: \"[\"}\n    panic: x\n", "faults.yaml:2:24: logicalId \"[\" is not a valid glob"},
		{"faults: [\n", "faults.yaml:2:1: not valid YAML: did not find expected node content"},
		{"faults:\n  - fail: {code: Throttling, mesage: x}\n", `unknown key "mesage" in fail; expected one of after, code, message, service (did you mean "message"?)`},
		{"faults:\n  - fail: Throttling\n    times: sometimes\n", `faults.yaml:3:12: times must be a whole number ≥ 1, "once" or "always"`},
		// A key written twice is refused, not last-wins.
		{"faults:\n  - fail: Throttling\nfaults: []\n", `faults.yaml:3:1: mapping key "faults" already defined at line 1, column 1; keep one (YAML would silently keep only the last)`},
		{"faults:\n  - match: {logicalId: A, logicalId: B}\n    fail: NotFound\n", `faults.yaml:2:27: mapping key "logicalId" already defined at line 2, column 13`},
		{"faults:\n  - fail: NotFound\n    times: 2\n    times: always\n", `faults.yaml:4:5: mapping key "times" already defined at line 3, column 5`},
		{`{"faults": [{"fail": "NotFound", "match": {"type": "A"}, "match": {"type": "B"}}]}`, `faults.yaml:1:58: mapping key "match" already defined at line 1, column 34`},
	}
	for _, tc := range cases {
		_, err := faults.Load("faults.yaml", []byte(tc.yml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.yml, err, tc.want)
		}
	}
}

func TestJSONFaultFile(t *testing.T) {
	inj, err := faults.Load("faults.json", []byte(`{"faults": [{"match": {"logicalId": "Queue", "action": ["create", "update"]}, "fail": {"code": "AccessDenied"}, "times": "always"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	f := inj.Faults()[0]
	if f.Kind != faults.Fail || f.Times != faults.Always || len(f.Match.Actions) != 2 {
		t.Fatalf("%+v", f)
	}
}

// fail.service needs the service's name and error code.
func TestLoadServiceNeedsNameAndCode(t *testing.T) {
	_, err := faults.Load("f.yaml", []byte("faults:\n  - match: {logicalId: Zone}\n    fail:\n      service: {name: AmazonRoute53}\n"))
	if err == nil || !strings.Contains(err.Error(), "fail.service needs name (AmazonRoute53) and errorCode") {
		t.Fatalf("got %v", err)
	}
	inj, err := faults.Load("f.yaml", []byte("faults:\n  - match: {logicalId: Zone}\n    fail:\n      service: {name: AmazonRoute53, errorCode: HostedZoneNotEmpty, status: 409}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := inj.Faults()[0]
	if f.Service != "AmazonRoute53" || f.ServiceCode != "HostedZoneNotEmpty" || f.StatusCode != 409 || f.Code != "GeneralServiceException" {
		t.Fatalf("%+v", f)
	}
}
