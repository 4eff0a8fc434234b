package webview

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/api"
	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/resources/faults"
	"github.com/stacksim/stacksim/timeline"
)

const fixture = "../fixtures/update-rollback-failed/"

// world is an engine, the API server over it and the view, on a loopback
// port.
type world struct {
	t    *testing.T
	e    *engine.Engine
	srv  *api.Server
	view *View
	url  string
}

func newWorld(t *testing.T, opts api.Options, vopts Options) *world {
	t.Helper()
	e, err := engine.New(engine.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	srv := api.New(e, opts)
	view := New(e, srv, vopts)
	hs := httptest.NewServer(view.Handler(srv))
	t.Cleanup(func() { view.Close(); hs.Close() })
	return &world{t: t, e: e, srv: srv, view: view, url: hs.URL}
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rollbackFailed makes the README's story: orders created, its update
// fails and so does its rollback: UPDATE_ROLLBACK_FAILED.
func (w *world) rollbackFailed() {
	t := w.t
	ctx := context.Background()
	inj, err := faults.Load("faults.yaml", []byte(read(t, fixture+"faults.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.e.CreateStack(ctx, engine.CreateStackInput{StackName: "orders", TemplateBody: read(t, fixture+"template-v1.yaml")}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.e.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := w.e.UpdateStack(ctx, engine.UpdateStackInput{StackName: "orders", TemplateBody: read(t, fixture+"template-v2.yaml"),
		Extensions: engine.Extensions{Faults: inj.Faults()}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.e.Run(ctx); err != nil {
		t.Fatal(err)
	}
}

// call makes a call of the query API, as a client would.
func (w *world) call(action string, params ...string) string {
	w.t.Helper()
	form := url.Values{"Action": {action}, "Version": {"2010-05-15"}}
	for i := 0; i+1 < len(params); i += 2 {
		form.Set(params[i], params[i+1])
	}
	resp, err := http.PostForm(w.url+"/", form)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		w.t.Fatalf("%s: %d %s", action, resp.StatusCode, b)
	}
	return string(b)
}

func (w *world) get(path string, wantStatus int) []byte {
	w.t.Helper()
	resp, err := http.Get(w.url + path)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != wantStatus {
		w.t.Fatalf("GET %s: %d, want %d: %s", path, resp.StatusCode, wantStatus, b)
	}
	return b
}

func (w *world) getJSON(path string, v any) {
	w.t.Helper()
	if err := json.Unmarshal(w.get(path, http.StatusOK), v); err != nil {
		w.t.Fatalf("GET %s: %v", path, err)
	}
}

// sameJSON fails unless two values marshal alike.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("%s:\n got %s\nwant %s", what, g, w)
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run go test ./webview -update to create it", err)
	}
	if string(want) != got {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d (go test ./webview -update rewrites it):\n got %s\nwant %s", path, i+1, g, w)
			}
		}
	}
}

var wantPath = []string{"CREATE_IN_PROGRESS", "CREATE_COMPLETE", "UPDATE_IN_PROGRESS", "UPDATE_ROLLBACK_IN_PROGRESS", "UPDATE_ROLLBACK_FAILED"}

// The stack's JSON: DescribeStacks' stack, the statuses it passed
// through in order, and the operations it accepts (statemachine's
// CheckOperation, with AWS's messages for the others).
func TestStackJSON(t *testing.T) {
	w := newWorld(t, api.Options{}, Options{})
	w.rollbackFailed()
	var got stackJSON
	w.getJSON("/view/api/stack?name=orders", &got)
	ds, err := w.e.DescribeStacks(context.Background(), engine.DescribeStacksInput{StackName: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "Stack", got.Stack, ds.Stacks[0])
	var path []string
	for _, p := range got.Path {
		path = append(path, p.ResourceStatus)
	}
	if !reflect.DeepEqual(path, wantPath) {
		t.Fatalf("path %v, want %v", path, wantPath)
	}
	allowed := map[string]engine.OperationCheck{}
	for _, o := range got.Operations {
		if o.ChangeSetType == "" {
			allowed[o.Operation] = o
		}
	}
	if !allowed["ContinueUpdateRollback"].Allowed || !allowed["DeleteStack"].Allowed {
		t.Fatalf("ContinueUpdateRollback and DeleteStack should be allowed: %+v", got.Operations)
	}
	up := allowed["UpdateStack"]
	if up.Allowed || up.Code != "ValidationError" || !strings.Contains(up.Message, "UPDATE_ROLLBACK_FAILED state and can not be updated") {
		t.Fatalf("UpdateStack: %+v", up)
	}
	if got.Loop.Pace != "instant" || got.Loop.Held {
		t.Fatalf("loop %+v", got.Loop)
	}
	// A stack that is not there: the engine's error, as the API says it.
	var e struct{ Error apiErrorJSON }
	if err := json.Unmarshal(w.get("/view/api/stack?name=nope", http.StatusBadRequest), &e); err != nil || e.Error.Message != "Stack with id nope does not exist" {
		t.Fatalf("missing stack: %+v %v", e, err)
	}
	w.get("/view/api/stack", http.StatusBadRequest)
}

// The other endpoints are the engine's answers, as the CLI prints them.
func TestEndpointsAreTheEnginesAnswers(t *testing.T) {
	w := newWorld(t, api.Options{}, Options{})
	w.rollbackFailed()
	ctx := context.Background()
	var events engine.DescribeStackEventsOutput
	w.getJSON("/view/api/events?name=orders", &events)
	want, _ := w.e.DescribeStackEvents(ctx, engine.DescribeStackEventsInput{StackName: "orders"})
	sameJSON(t, "events", events, want)

	var tl timeline.JSON
	w.getJSON("/view/api/timeline?name=orders", &tl)
	wantTL, err := timeline.Of(ctx, w.e, "orders")
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "timeline", tl, wantTL.JSON())

	var op engine.DescribeStackOperationOutput
	w.getJSON("/view/api/operation?name=orders", &op)
	wantOp, _ := w.e.DescribeStackOperation(ctx, engine.DescribeStackOperationInput{StackName: "orders"})
	sameJSON(t, "operation", op, wantOp)
	if len(op.Operation.FaultsFired) != 2 {
		t.Fatalf("faults fired: %+v", op.Operation.FaultsFired)
	}

	var plan engine.DescribeOperationPlanOutput
	w.getJSON("/view/api/plan?name=orders", &plan)
	states := map[string]string{}
	for _, s := range plan.Steps {
		states[s.LogicalID] = s.State
	}
	if plan.Operation != "UpdateStack" || states["Config"] != "failed" || states["Queue"] != "done" || states["DeadLetters"] != "pending" {
		t.Fatalf("plan %+v", plan)
	}

	var res resourcesJSON
	w.getJSON("/view/api/resources?name=orders", &res)
	paths := map[string]string{}
	for _, r := range res.StackResourceSummaries {
		paths[r.LogicalResourceId] = r.ResourceStatus + ": " + strings.Join(r.Path, " ")
	}
	wantPaths := map[string]string{
		"Config":      "UPDATE_FAILED: CREATE_IN_PROGRESS CREATE_COMPLETE UPDATE_IN_PROGRESS UPDATE_COMPLETE UPDATE_IN_PROGRESS UPDATE_FAILED",
		"DeadLetters": "CREATE_FAILED: CREATE_IN_PROGRESS CREATE_FAILED",
		"Events":      "CREATE_COMPLETE: CREATE_IN_PROGRESS CREATE_COMPLETE",
		"Queue":       "UPDATE_COMPLETE: CREATE_IN_PROGRESS CREATE_COMPLETE UPDATE_IN_PROGRESS UPDATE_COMPLETE UPDATE_IN_PROGRESS UPDATE_COMPLETE",
	}
	if !reflect.DeepEqual(paths, wantPaths) {
		t.Fatalf("resource paths:\n%v\nwant\n%v", paths, wantPaths)
	}

	var stacks stacksJSON
	w.getJSON("/view/api/stacks", &stacks)
	wantStacks, _ := w.e.ListStacks(ctx, engine.ListStacksInput{})
	sameJSON(t, "stacks", stacks.StackSummaries, wantStacks.StackSummaries)

	var statuses statusesJSON
	w.getJSON("/view/api/statuses", &statuses)
	for status, want := range map[string]string{"UPDATE_ROLLBACK_FAILED": "failed", "CREATE_IN_PROGRESS": "progress", "UPDATE_COMPLETE": "complete", "UPDATE_ROLLBACK_COMPLETE": "failed"} {
		if statuses.Stack[status] != want {
			t.Errorf("stack %s is %q, want %q", status, statuses.Stack[status], want)
		}
	}
	if statuses.Resource["DELETE_SKIPPED"] != "skipped" || len(statuses.Resource) < 16 {
		t.Errorf("resource statuses %v", statuses.Resource)
	}
}

// The SVG the page shows: the state machine with the stack's path, the
// gantt chart and the plan, as golden files.
func TestSVG(t *testing.T) {
	w := newWorld(t, api.Options{}, Options{})
	w.rollbackFailed()
	machine := string(w.get("/view/svg/machine?name=orders", http.StatusOK))
	golden(t, "machine-update-rollback-failed.svg", machine)
	if !strings.Contains(machine, `<g class="node failed visited current" data-status="UPDATE_ROLLBACK_FAILED" data-order="5">`) {
		t.Fatal("UPDATE_ROLLBACK_FAILED is not marked current, fifth")
	}
	for i, s := range wantPath {
		if !strings.Contains(machine, `data-status="`+s+`" data-order="`+string(rune('1'+i))+`"`) {
			t.Errorf("%s is not marked %d", s, i+1)
		}
	}
	if n := strings.Count(machine, `class="arc taken"`); n != len(wantPath) {
		t.Errorf("%d arcs taken, want %d (from NotExist on)", n, len(wantPath))
	}
	plain := string(w.get("/view/svg/machine", http.StatusOK))
	if strings.Contains(plain, "visited") || strings.Count(plain, `class="node `) != 24 {
		t.Fatal("the machine without a stack marks something, or lacks a status")
	}
	golden(t, "gantt-update-rollback-failed.svg", string(w.get("/view/svg/gantt?name=orders", http.StatusOK)))
	golden(t, "plan-update-rollback-failed.svg", string(w.get("/view/svg/plan?name=orders", http.StatusOK)))
}

// Routing: the page where a browser goes, the API everywhere else.
func TestRouting(t *testing.T) {
	w := newWorld(t, api.Options{}, Options{})
	if b := string(w.get("/", http.StatusOK)); !strings.Contains(b, "<title>stacksim — stacks</title>") {
		t.Fatalf("GET /: %s", b)
	}
	if b := string(w.get("/view/stack?name=x", http.StatusOK)); !strings.Contains(b, "stack.js") {
		t.Fatalf("GET /view/stack: %s", b)
	}
	if b := string(w.get("/view/static/stack.js", http.StatusOK)); !strings.Contains(b, "EventSource") && !strings.Contains(b, "live(") {
		t.Fatalf("stack.js: %.200s", b)
	}
	if b := string(w.get("/?Action=DescribeStacks&Version=2010-05-15", http.StatusOK)); !strings.Contains(b, "<DescribeStacksResponse") {
		t.Fatalf("the API's GET: %s", b)
	}
	if b := w.call("ListStacks"); !strings.Contains(b, "<ListStacksResponse") {
		t.Fatalf("the API's POST: %s", b)
	}
	w.get("/view/nothing", http.StatusNotFound)
	resp, err := http.Get(w.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Fatalf("CSP %q", csp)
	}
}

// sse reads an event stream.
type sse struct {
	t      *testing.T
	resp   *http.Response
	sc     *bufio.Scanner
	cancel context.CancelFunc
}

func (w *world) live(query string) *sse {
	w.t.Helper()
	// The deadline is a guard against a hang, never a wait the test needs.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, w.url+"/view/api/live"+query, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		w.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		cancel()
		w.t.Fatalf("live: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &sse{t: w.t, resp: resp, sc: bufio.NewScanner(resp.Body), cancel: cancel}
	s.sc.Buffer(make([]byte, 1<<20), 1<<24)
	return s
}

// next returns the next message's event and data.
func (s *sse) next() (string, string) {
	s.t.Helper()
	var event, data string
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case line == "":
			if event != "" {
				return event, data
			}
		case strings.HasPrefix(line, "event: "):
			event = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = line[len("data: "):]
		}
	}
	s.t.Fatalf("the stream ended: %v", s.sc.Err())
	return "", ""
}

func (s *sse) close() { s.cancel(); s.resp.Body.Close() }

// The stream: hello once subscribed, then the stack's events as they are
// written (in the order DescribeStackEvents lists them, reversed), the
// loop's changes, nothing of other stacks.
func TestLiveStream(t *testing.T) {
	w := newWorld(t, api.Options{}, Options{})
	w.rollbackFailed()
	w.call("CreateStack", "StackName", "other", "TemplateBody", "Resources:\n  T:\n    Type: AWS::SNS::Topic\n")
	s := w.live("?name=orders")
	defer s.close()
	if ev, data := s.next(); ev != "hello" || !strings.Contains(data, `"Pace":"instant"`) {
		t.Fatalf("first message %s %s", ev, data)
	}
	before, _ := w.e.DescribeStackEvents(context.Background(), engine.DescribeStackEventsInput{StackName: "orders"})
	w.call("CreateStack", "StackName", "another", "TemplateBody", "Resources:\n  T:\n    Type: AWS::SNS::Topic\n")
	w.call("ContinueUpdateRollback", "StackName", "orders")
	var got []engine.StackEvent
	for len(got) == 0 || got[len(got)-1].ResourceStatus != "UPDATE_ROLLBACK_COMPLETE" || !got[len(got)-1].IsStackEvent() {
		ev, data := s.next()
		if ev != "events" {
			t.Fatalf("message %s %s", ev, data)
		}
		var batch []engine.StackEvent
		if err := json.Unmarshal([]byte(data), &batch); err != nil {
			t.Fatal(err)
		}
		got = append(got, batch...)
	}
	after, _ := w.e.DescribeStackEvents(context.Background(), engine.DescribeStackEventsInput{StackName: "orders"})
	var want []engine.StackEvent
	for i := len(after.StackEvents) - len(before.StackEvents) - 1; i >= 0; i-- {
		want = append(want, after.StackEvents[i])
	}
	sameJSON(t, "streamed events", got, want)

	// Hold and release reach the page.
	post(t, w.url+"/view/api/loop/hold", `{}`, http.StatusOK)
	if ev, data := s.next(); ev != "loop" || !strings.Contains(data, `"Held":true`) {
		t.Fatalf("after hold: %s %s", ev, data)
	}
	post(t, w.url+"/view/api/loop/release", `{}`, http.StatusOK)
	if ev, data := s.next(); ev != "loop" || !strings.Contains(data, `"Held":false`) {
		t.Fatalf("after release: %s %s", ev, data)
	}
}

func post(t *testing.T, url, body string, want int, header ...string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("POST %s: %d, want %d: %s", url, resp.StatusCode, want, b)
	}
	return string(b)
}

// The controls: hold, a call that starts an operation answers with the
// stack in motion, step by events, run to rest; refused when not JSON or
// from another site.
func TestControls(t *testing.T) {
	w := newWorld(t, api.Options{}, Options{})
	w.rollbackFailed()
	post(t, w.url+"/view/api/loop/hold", `{}`, http.StatusOK)
	w.call("ContinueUpdateRollback", "StackName", "orders")
	st, _ := w.describe("orders")
	if st != "UPDATE_ROLLBACK_IN_PROGRESS" {
		t.Fatalf("held, after ContinueUpdateRollback: %s", st)
	}
	var step stepJSON
	if err := json.Unmarshal([]byte(post(t, w.url+"/view/api/step?name=orders", `{"Events": 1}`, http.StatusOK)), &step); err != nil {
		t.Fatal(err)
	}
	if step.Events < 1 || step.Stack.StackStatus != "UPDATE_ROLLBACK_IN_PROGRESS" || !step.Loop.Held {
		t.Fatalf("step 1: %+v", step)
	}
	if err := json.Unmarshal([]byte(post(t, w.url+"/view/api/step?name=orders", `{"Events": 0}`, http.StatusOK)), &step); err != nil {
		t.Fatal(err)
	}
	if step.Stack.StackStatus != "UPDATE_ROLLBACK_COMPLETE" {
		t.Fatalf("to rest: %+v", step)
	}
	if b := post(t, w.url+"/view/api/step?name=orders", `{"Events": 1}`, http.StatusBadRequest); !strings.Contains(b, "at rest: nothing to step") {
		t.Fatalf("step at rest: %s", b)
	}
	post(t, w.url+"/view/api/step?name=orders", `{"Steps": 1}`, http.StatusBadRequest)
	post(t, w.url+"/view/api/step?name=orders", `{}`, http.StatusBadRequest)
	post(t, w.url+"/view/api/loop/release", `{}`, http.StatusForbidden, "Sec-Fetch-Site", "cross-site")
	post(t, w.url+"/view/api/loop/release", `{}`, http.StatusUnsupportedMediaType, "Content-Type", "text/plain")
	post(t, w.url+"/view/api/loop/release", `{}`, http.StatusOK, "Sec-Fetch-Site", "same-origin")
	if w.srv.Held() {
		t.Fatal("still held after release")
	}
}

func (w *world) describe(name string) (string, error) {
	out, err := w.e.DescribeStacks(context.Background(), engine.DescribeStacksInput{StackName: name})
	if err != nil {
		return "", err
	}
	return out.Stacks[0].StackStatus, nil
}
