package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
)

// Outcome is a test's result.
type Outcome string

// The outcomes of a test.
const (
	Pass Outcome = "PASS"
	Fail Outcome = "FAIL"
	Skip Outcome = "SKIP"
)

// Problem is one reason a test failed: a rule of the contract checker
// (Rule set, from resources/contract) or an assertion of the test
// (Assertion set: status, error-code, read-model, list-missing,
// list-deleted, handler-timeout), with the request and the answer.
type Problem struct {
	Rule      string
	Assertion string
	Message   string
	Request   *resources.Request
	Event     *resources.ProgressEvent
}

// ID is the rule's or the assertion's name.
func (p Problem) ID() string {
	if p.Rule != "" {
		return p.Rule
	}
	return p.Assertion
}

// Result is one test's run on one input set.
type Result struct {
	Test    string
	Markers []string
	Set     int
	Outcome Outcome
	// Reason says why a test was skipped.
	Reason   string
	Problems []Problem
	// Virtual is the virtual time the handler's callbacks asked for;
	// Real is the wall-clock time spent in the handler.
	Virtual time.Duration
	Real    time.Duration
	Calls   int
}

// Options configure a run.
type Options struct {
	// Select picks the tests to run (nil: every test).
	Select func(name string, markers []string) bool
	// Region and AccountID of the requests (us-east-1, 123456789012).
	Region, AccountID string
	// MaxCalls bounds the calls of one action (IN_PROGRESS callbacks).
	MaxCalls int
}

// Run runs the contract test suite against a provider, for each input set
// of the project, with the contract checker on (report mode: each
// violation fails the test it happened in). Calls run in order; callbacks
// are delivered at once, their delays counted as virtual time.
func Run(ctx context.Context, p resources.Provider, proj *Project, opts Options) []Result {
	if opts.Region == "" {
		opts.Region = "us-east-1"
	}
	if opts.AccountID == "" {
		opts.AccountID = "123456789012"
	}
	if opts.MaxCalls <= 0 {
		opts.MaxCalls = 1000
	}
	var out []Result
	for _, set := range proj.Inputs {
		r := &runner{ctx: ctx, opts: opts, set: set, s: p.Schema()}
		r.checker = contract.Wrap(p, contract.Options{Mode: contract.Report, OnViolation: func(v contract.Violation) {
			if r.cur != nil {
				r.cur.Problems = append(r.cur.Problems, Problem{Rule: v.Rule, Message: v.Message, Request: v.Request, Event: v.Event})
			}
		}})
		r.p = r.checker
		out = append(out, r.runAll()...)
	}
	return out
}

// runner runs the tests of one input set.
type runner struct {
	ctx     context.Context
	opts    Options
	set     InputSet
	s       *resources.Schema
	p       resources.Provider
	checker *contract.Checker
	cur     *Result
	token   int
}

// failure ends a test (or a fixture) at a failed assertion.
type failure struct{ Problem }

// call is one action driven to its end: its events, the last request.
type call struct {
	req *resources.Request
	ev  *resources.ProgressEvent
}

func (r *runner) newToken() string {
	r.token++
	return fmt.Sprintf("00000000-5eed-4000-8000-%012d", r.set.N*1000000+r.token)
}

// request makes a request as CloudFormation sends it: properties with
// their scalars as strings.
func (r *runner) request(a resources.Action, desired, previous map[string]any) *resources.Request {
	req := &resources.Request{
		Action: a, ClientRequestToken: r.newToken(),
		DesiredResourceState: resources.StringifyModel(resources.CopyModel(desired)),
		AWSAccountID:         r.opts.AccountID, AWSPartition: "aws", Region: r.opts.Region,
		LogicalResourceIdentifier: "ContractTestResource",
		StackID:                   fmt.Sprintf("arn:aws:cloudformation:%s:%s:stack/stacksim-test-handler/00000000-5eed-4000-8000-000000000000", r.opts.Region, r.opts.AccountID),
		ResourceType:              r.s.TypeName, Attempt: 1,
	}
	if previous != nil {
		req.PreviousResourceState = resources.StringifyModel(resources.CopyModel(previous))
	}
	if a != resources.ActionCreate {
		if id, ok := resources.PrimaryIdentifierOf(r.s, desired); ok {
			req.PhysicalResourceID = id
		}
	}
	return req
}

// drive calls the handler until it stops answering IN_PROGRESS (read and
// list: once), adding up virtual and real time.
func (r *runner) drive(req *resources.Request) call {
	var virtual time.Duration
	for i := 0; ; i++ {
		start := time.Now()
		ev, err := resources.Invoke(r.ctx, r.p, req)
		r.cur.Real += time.Since(start)
		r.cur.Calls++
		if err != nil {
			ev = resources.ErrorEvent(err)
			if ev == nil {
				ev = resources.Failed(resources.ErrHandlerInternalFailure, "the handler never answered")
			}
		}
		if ev.Status != resources.StatusInProgress || req.Action == resources.ActionRead || req.Action == resources.ActionList {
			r.cur.Virtual += virtual
			if limit := r.s.Timeout(req.Action); req.Action.Mutating() && virtual > limit {
				r.assertFail(req, ev, "handler-timeout", "%s took %s of callbacks; the schema's handler timeout is %s (handlers.%s.timeoutInMinutes)",
					req.Action, virtual, limit, strings.ToLower(string(req.Action)))
			}
			return call{req, ev}
		}
		if i+1 >= r.opts.MaxCalls {
			r.cur.Virtual += virtual
			r.assertFail(req, ev, "handler-timeout", "%s still IN_PROGRESS after %d calls", req.Action, r.opts.MaxCalls)
		}
		virtual += time.Duration(ev.CallbackDelaySeconds) * time.Second
		next := *req
		next.CallbackContext = ev.CallbackContext
		if ev.ResourceModel != nil {
			next.DesiredResourceState = ev.ResourceModel
		}
		req = &next
	}
}

func (r *runner) assertFail(req *resources.Request, ev *resources.ProgressEvent, id, format string, args ...any) {
	panic(failure{Problem{Assertion: id, Message: fmt.Sprintf(format, args...), Request: req, Event: ev}})
}

// expect drives an action and asserts its status (and, for FAILED, that
// its error code is one of codes).
func (r *runner) expect(a resources.Action, status resources.OperationStatus, desired, previous map[string]any, codes ...resources.HandlerErrorCode) call {
	c := r.drive(r.request(a, desired, previous))
	want := string(status)
	if len(codes) > 0 {
		names := make([]string, len(codes))
		for i, code := range codes {
			names[i] = string(code)
		}
		want += " " + strings.Join(names, " or ")
	}
	if c.ev.Status != status {
		r.assertFail(c.req, c.ev, "status", "%s answered %s; want %s", a, describe(c.ev), want)
	}
	if len(codes) > 0 {
		for _, code := range codes {
			if c.ev.ErrorCode == code {
				return c
			}
		}
		r.assertFail(c.req, c.ev, "error-code", "%s answered %s; want %s", a, describe(c.ev), want)
	}
	return c
}

func describe(ev *resources.ProgressEvent) string {
	s := string(ev.Status)
	if ev.ErrorCode != "" {
		s += " " + string(ev.ErrorCode)
	}
	if ev.Message != "" {
		m := ev.Message
		if len(m) > 160 {
			m = m[:157] + "..."
		}
		s += fmt.Sprintf(" (%q)", m)
	}
	return s
}

// primaryID is a model's identifier ("" when it has none).
func (r *runner) primaryID(m map[string]any) string {
	id, _ := resources.PrimaryIdentifierOf(r.s, m)
	return id
}

// listIDs follows list's nextToken and returns the identifiers listed.
func (r *runner) listIDs(model map[string]any) []string {
	var ids []string
	next := ""
	for i := 0; i < 100; i++ {
		req := r.request(resources.ActionList, model, nil)
		req.NextToken = next
		c := r.drive(req)
		if c.ev.Status != resources.StatusSuccess {
			r.assertFail(c.req, c.ev, "status", "LIST answered %s; want SUCCESS", describe(c.ev))
		}
		for _, m := range c.ev.ResourceModels {
			ids = append(ids, r.primaryID(m))
		}
		if c.ev.NextToken == "" {
			return ids
		}
		next = c.ev.NextToken
	}
	r.assertFail(nil, nil, "list-missing", "LIST still answers a nextToken after 100 pages")
	return nil
}

// inputHeld asserts that a model holds the input (readOnly and writeOnly
// properties aside, createOnly ones the input does not set aside), as cfn
// test's test_input_equals_output.
func (r *runner) inputHeld(c call, input map[string]any, what string) {
	if c.ev.ResourceModel == nil {
		r.assertFail(c.req, c.ev, "read-model", "%s answered no model", what)
	}
	in := r.s.InputView(resources.StringifyModel(input))
	out := resources.StringifyModel(c.ev.ResourceModel)
	for _, k := range sortedKeys(in) {
		if v, ok := out[k]; !ok || !resources.LooseEqual(in[k], v) {
			got := "nothing"
			if ok {
				got = short(v)
			}
			r.assertFail(c.req, c.ev, "read-model", "%s model does not hold the input's %s: input %s, model %s", what, k, short(in[k]), got)
		}
	}
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

// guard runs f, turning a failed assertion into a problem of the current
// test (true when f ran to its end).
func (r *runner) guard(f func()) (ok bool) {
	defer func() {
		if x := recover(); x != nil {
			fl, isFailure := x.(failure)
			if !isFailure {
				fl = failure{Problem{Assertion: "handler-error", Message: fmt.Sprintf("the test itself failed: %v", x)}}
			}
			r.cur.Problems = append(r.cur.Problems, fl.Problem)
			ok = false
		}
	}()
	f()
	return true
}

// runAll runs every group's selected tests on the runner's input set.
func (r *runner) runAll() []Result {
	var out []Result
	for _, g := range groups() {
		var selected []Test
		for _, t := range g.tests {
			if r.opts.Select == nil || r.opts.Select(t.Name, t.Markers) {
				selected = append(selected, t)
			}
		}
		if len(selected) == 0 {
			continue
		}
		f := &fixture{}
		setUp := false
		for i, t := range selected {
			res := Result{Test: t.Name, Markers: t.Markers, Set: r.set.N}
			r.cur = &res
			if t.skip != nil {
				if why := t.skip(r); why != "" {
					res.Outcome, res.Reason = Skip, why
					out = append(out, res)
					continue
				}
			}
			if g.setup != nil && !setUp {
				setUp = true
				if !r.guard(func() { g.setup(r, f) }) {
					f.problems = append(f.problems, res.Problems...)
					res.Problems = nil
				}
			}
			if len(f.problems) > 0 {
				res.Problems = append(res.Problems, f.problems...)
				res.Reason = "the fixture " + g.fixture + " failed"
			} else {
				r.guard(func() { t.body(r, f) })
			}
			if g.teardown != nil && setUp && lastRunnable(r, selected[i+1:]) {
				r.guard(func() { g.teardown(r, f) })
				setUp = false
				f = &fixture{problems: f.problems}
			}
			res.Outcome = Pass
			if len(res.Problems) > 0 {
				res.Outcome = Fail
			}
			out = append(out, res)
		}
	}
	r.cur = nil
	return out
}

// lastRunnable reports whether none of the rest of a group's tests will
// run (all skipped): the fixture can be torn down.
func lastRunnable(r *runner, rest []Test) bool {
	for _, t := range rest {
		if t.skip == nil || t.skip(r) == "" {
			return false
		}
	}
	return true
}
