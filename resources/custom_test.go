package resources

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

func customReq(a Action, logical string, props map[string]any) *Request {
	r := newReq(a, logical, "tok-"+string(a), props)
	r.ResourceType = "Custom::Thing"
	return r
}

func customOf(t *testing.T, reg *Registry) Provider {
	t.Helper()
	p, err := reg.Provider("Custom::Thing")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCustomResourceGoFunc(t *testing.T) {
	var got []*CustomRequest
	var mu sync.Mutex
	fn := CustomFunc(func(_ context.Context, r *CustomRequest) (*CustomResponse, error) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
		id := r.PhysicalResourceID
		if r.RequestType == CustomCreate {
			id = "thing-1"
		}
		return &CustomResponse{Status: "SUCCESS", PhysicalResourceID: id, Data: map[string]any{"Url": "https://x", "Port": "8080"}, NoEcho: true}, nil
	})
	reg := NewRegistry(RegistryOptions{ServiceTokens: map[string]CustomTarget{"arn:fn": fn}})
	defer reg.Close()
	p := customOf(t, reg)

	props := map[string]any{"ServiceToken": "arn:fn", "Count": 8, "Enabled": true, "Nested": map[string]any{"N": 1}}
	ev, err := Invoke(context.Background(), p, customReq(ActionCreate, "Thing", props))
	if err != nil || ev.Status != StatusSuccess {
		t.Fatalf("create: %v %v", ev, err)
	}
	c := got[0]
	if c.RequestType != "Create" || c.LogicalResourceID != "Thing" || c.StackID != testStack || c.RequestID == "" || c.PhysicalResourceID != "" ||
		c.ResourceType != "Custom::Thing" || !strings.HasPrefix(c.ResponseURL, "http://127.0.0.1:") || c.ServiceToken != "arn:fn" {
		t.Fatalf("request: %+v", c)
	}
	// Scalars arrive as strings, ServiceToken included.
	if c.ResourceProperties["Count"] != "8" || c.ResourceProperties["Enabled"] != "true" || c.ResourceProperties["Nested"].(map[string]any)["N"] != "1" || c.ResourceProperties["ServiceToken"] != "arn:fn" {
		t.Fatalf("properties: %v", c.ResourceProperties)
	}
	if id, _ := p.PhysicalID(ev.ResourceModel); id != "thing-1" {
		t.Fatalf("physical id %q", id)
	}
	if v, err := p.GetAtt(ev.ResourceModel, "Url"); err != nil || v != "https://x" {
		t.Fatalf("GetAtt Url: %v %v", v, err)
	}
	if _, err := p.GetAtt(ev.ResourceModel, "Missing"); err == nil || !strings.Contains(err.Error(), "Vendor response doesn't contain Missing key") {
		t.Fatalf("GetAtt Missing: %v", err)
	}
	if !IsNoEcho(p, ev.ResourceModel) {
		t.Fatal("NoEcho lost")
	}
	// Update: OldResourceProperties and the physical id.
	up := customReq(ActionUpdate, "Thing", map[string]any{"ServiceToken": "arn:fn", "Count": 9})
	up.PreviousResourceState, up.PhysicalResourceID = props, "thing-1"
	if ev, _ := Invoke(context.Background(), p, up); ev.Status != StatusSuccess {
		t.Fatalf("update: %v", ev)
	}
	c = got[1]
	if c.RequestType != "Update" || c.PhysicalResourceID != "thing-1" || c.OldResourceProperties["Count"] != "8" || c.ResourceProperties["Count"] != "9" {
		t.Fatalf("update request: %+v", c)
	}
	// Delete with the model the engine kept (its Properties carry the token).
	del := customReq(ActionDelete, "Thing", ev.ResourceModel)
	del.PhysicalResourceID = "thing-1"
	if ev, _ := Invoke(context.Background(), p, del); ev.Status != StatusSuccess || ev.ResourceModel != nil {
		t.Fatalf("delete: %v", ev)
	}
	if got[2].RequestType != "Delete" || got[2].ResourceProperties["ServiceToken"] != "arn:fn" {
		t.Fatalf("delete request: %+v", got[2])
	}
	// Changing the service token is refused.
	bad := customReq(ActionUpdate, "Thing", map[string]any{"ServiceToken": "arn:other"})
	bad.PreviousResourceState, bad.PhysicalResourceID = props, "thing-1"
	if ev, _ := Invoke(context.Background(), p, bad); ev.ErrorCode != ErrInvalidRequest || ev.Message != "Modifying service token is not allowed." {
		t.Fatalf("token change: %v", ev)
	}
	if d := p.Timeout(ActionCreate, props); d != time.Hour {
		t.Fatalf("default ServiceTimeout %v", d)
	}
	if d := p.Timeout(ActionCreate, map[string]any{"ServiceToken": "x", "ServiceTimeout": "90"}); d != 90*time.Second {
		t.Fatalf("ServiceTimeout %v", d)
	}
}

func TestCustomResourceResponses(t *testing.T) {
	cases := []struct {
		name string
		resp func(r *CustomRequest) any
		want string
	}{
		{"failed with reason", func(r *CustomRequest) any {
			return CustomResponse{Status: "FAILED", Reason: "quota exceeded", PhysicalResourceID: "x"}
		}, "Received response status [FAILED] from custom resource. Message returned: quota exceeded"},
		{"failed without reason", func(r *CustomRequest) any { return CustomResponse{Status: "FAILED", PhysicalResourceID: "x"} }, "a FAILED response needs a Reason"},
		{"bad status", func(r *CustomRequest) any { return CustomResponse{Status: "OK", PhysicalResourceID: "x"} }, `Status is "OK"`},
		{"no physical id", func(r *CustomRequest) any { return CustomResponse{Status: "SUCCESS"} }, "Invalid PhysicalResourceId"},
		{"physical id too long", func(r *CustomRequest) any {
			return CustomResponse{Status: "SUCCESS", PhysicalResourceID: strings.Repeat("x", 1025)}
		}, "1025 bytes; the limit is 1024"},
		{"too long", func(r *CustomRequest) any {
			return CustomResponse{Status: "SUCCESS", PhysicalResourceID: "x", Data: map[string]any{"Blob": strings.Repeat("y", 5000)}}
		}, "Response object is too long"},
		{"wrong request id", func(r *CustomRequest) any {
			return CustomResponse{Status: "SUCCESS", PhysicalResourceID: "x", RequestID: "other"}
		}, `RequestId is "other"`},
		{"not JSON", func(r *CustomRequest) any { return "<html>" }, "Invalid response object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The target PUTs its response to the ResponseURL, as a Lambda does.
			fn := CustomFunc(func(ctx context.Context, r *CustomRequest) (*CustomResponse, error) {
				var body []byte
				if s, ok := tc.resp(r).(string); ok {
					body = []byte(s)
				} else {
					body, _ = json.Marshal(tc.resp(r))
				}
				return nil, put(ctx, r.ResponseURL, body)
			})
			reg := NewRegistry(RegistryOptions{ServiceTokens: map[string]CustomTarget{"tok": fn}})
			defer reg.Close()
			ev, err := Invoke(context.Background(), customOf(t, reg), customReq(ActionCreate, "Thing", map[string]any{"ServiceToken": "tok"}))
			if err != nil || ev.Status != StatusFailed || !strings.Contains(ev.Message, tc.want) {
				t.Fatalf("got %v %v, want FAILED %q", ev, err, tc.want)
			}
		})
	}
}

func put(ctx context.Context, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

func TestCustomResourceHTTPTarget(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var cr CustomRequest
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&cr) != nil {
			http.Error(w, "bad", 400)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		go func() { // answer later, as an asynchronous function does
			body, _ := json.Marshal(CustomResponse{Status: "SUCCESS", PhysicalResourceID: "http-1", RequestID: cr.RequestID, Data: map[string]any{"From": "http"}})
			put(context.Background(), cr.ResponseURL, body) //nolint:errcheck
		}()
	}))
	defer srv.Close()
	target, err := ParseTarget(srv.URL + "/hook")
	if err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry(RegistryOptions{ServiceTokens: map[string]CustomTarget{"arn:http": target}, CustomResponseWait: 10 * time.Second})
	defer reg.Close()
	p := customOf(t, reg)
	ev, err := Invoke(context.Background(), p, customReq(ActionCreate, "Thing", map[string]any{"ServiceToken": "arn:http"}))
	if err != nil || ev.Status != StatusSuccess {
		t.Fatalf("%v %v", ev, err)
	}
	if v, _ := p.GetAtt(ev.ResourceModel, "From"); v != "http" {
		t.Fatalf("Data: %v", ev.ResourceModel)
	}
	// A refused POST is a delivery failure.
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "nope", 500) }))
	defer bad.Close()
	reg.RegisterServiceToken("arn:bad", URLTarget{URL: bad.URL})
	ev, _ = Invoke(context.Background(), p, customReq(ActionCreate, "Thing", map[string]any{"ServiceToken": "arn:bad"}))
	if ev.Status != StatusFailed || !strings.Contains(ev.Message, "500 Internal Server Error: nope") {
		t.Fatalf("refused POST: %v", ev)
	}
}

func TestResponseURLServer(t *testing.T) {
	reg := NewRegistry(RegistryOptions{})
	defer reg.Close()
	url, ch, done, err := reg.hub.server.expect("req-1")
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	resp, err := http.Post(url, "application/json", strings.NewReader("{}"))
	if err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %v %v", resp.Status, err)
	}
	if err := put(context.Background(), url, []byte(`{"Status":"SUCCESS"}`)); err != nil {
		t.Fatal(err)
	}
	if got := <-ch; string(got) != `{"Status":"SUCCESS"}` {
		t.Fatalf("body %s", got)
	}
	// A second response to the same URL is refused.
	req, _ := http.NewRequest(http.MethodPut, url, strings.NewReader("{}"))
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, r2.Body) //nolint:errcheck
	r2.Body.Close()
	if r2.StatusCode != http.StatusForbidden {
		t.Fatalf("second PUT: %s", r2.Status)
	}
}

func TestCustomResourceCommandTarget(t *testing.T) {
	cases := []struct {
		mode string
		want func(t *testing.T, ev *ProgressEvent, p Provider)
	}{
		{"custom-stdout", func(t *testing.T, ev *ProgressEvent, p Provider) {
			if id, _ := p.PhysicalID(ev.ResourceModel); id != "exec-widget" {
				t.Fatalf("%v", ev)
			}
			if v, _ := p.GetAtt(ev.ResourceModel, "Echo"); v != "widget" {
				t.Fatalf("%v", ev.ResourceModel)
			}
		}},
		{"custom-put", func(t *testing.T, ev *ProgressEvent, p Provider) {
			if v, _ := p.GetAtt(ev.ResourceModel, "Via"); v != "put" {
				t.Fatalf("%v", ev)
			}
		}},
		{"custom-fail-exit", func(t *testing.T, ev *ProgressEvent, p Provider) {
			if ev.Status != StatusFailed || !strings.Contains(ev.Message, "cannot reach the database") {
				t.Fatalf("%v", ev)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			target := CommandTarget{Argv: helperArgv(), Env: []string{helperEnv + "=" + tc.mode}}
			reg := NewRegistry(RegistryOptions{ServiceTokens: map[string]CustomTarget{"arn:exec": target}, CustomResponseWait: 20 * time.Second})
			defer reg.Close()
			p := customOf(t, reg)
			// A value a shell would expand stays a plain string in the JSON.
			ev, err := Invoke(context.Background(), p, customReq(ActionCreate, "Thing", map[string]any{"ServiceToken": "arn:exec", "Name": "widget", "Evil": "$(rm -rf /); `id`"}))
			if err != nil {
				t.Fatal(err)
			}
			tc.want(t, ev, p)
		})
	}
}

func TestCustomResourceNoResponse(t *testing.T) {
	target := CommandTarget{Argv: helperArgv(), Env: []string{helperEnv + "=hang"}}
	core, logs := observer.New(zap.InfoLevel)
	reg := NewRegistry(RegistryOptions{ServiceTokens: map[string]CustomTarget{"arn:hang": target}, CustomResponseWait: 300 * time.Millisecond, Logger: zap.New(core)})
	defer reg.Close()
	p := customOf(t, reg)
	_, err := Invoke(context.Background(), p, customReq(ActionCreate, "Thing", map[string]any{"ServiceToken": "arn:hang"}))
	if !errors.Is(err, ErrNoResponse) {
		t.Fatalf("err %v", err)
	}
	if logs.FilterMessageSnippet("real-time cap").Len() != 1 {
		t.Fatal("the cap was not logged")
	}
	if !strings.Contains(TimeoutMessage(p, ActionCreate), "did not receive a response from your Custom Resource") {
		t.Fatal(TimeoutMessage(p, ActionCreate))
	}
}

func TestCustomResourceUnmappedToken(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	reg := NewRegistry(RegistryOptions{Logger: zap.New(core), Seed: 4})
	defer reg.Close()
	p := customOf(t, reg)
	props := map[string]any{"ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:provider"}
	ev, _ := Invoke(context.Background(), p, customReq(ActionCreate, "Thing", props))
	id, err := p.PhysicalID(ev.ResourceModel)
	if ev.Status != StatusSuccess || err != nil || !strings.HasPrefix(id, "demo-Thing-") {
		t.Fatalf("%v %v", ev, err)
	}
	up := customReq(ActionUpdate, "Thing", props)
	up.PreviousResourceState, up.PhysicalResourceID = props, id
	ev2, _ := Invoke(context.Background(), p, up)
	if id2, _ := p.PhysicalID(ev2.ResourceModel); id2 != id {
		t.Fatalf("the simulated responder changed the physical id: %s → %s", id, id2)
	}
	if logs.FilterMessageSnippet("not mapped").Len() != 1 {
		t.Fatalf("logs: %v", logs.All())
	}
}

// An unmapped token's responder answers Data for the attributes the
// template reads (Request.Attributes), shaped by their names, the same on
// every update, and says so once per resource; GetAtt of any other key
// keeps AWS's failure.
func TestCustomResourceUnmappedTokenData(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	reg := NewRegistry(RegistryOptions{Logger: zap.New(core), Seed: 4})
	defer reg.Close()
	p := customOf(t, reg)
	props := map[string]any{"ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:provider"}
	req := customReq(ActionCreate, "Thing", props)
	req.Attributes = []string{"BucketArn", "Endpoint", "Password", "SubnetId"}
	ev, _ := Invoke(context.Background(), p, req)
	if ev.Status != StatusSuccess {
		t.Fatal(ev)
	}
	want := map[string]string{"BucketArn": "arn:aws:s3:::", "Endpoint": ".us-east-1.amazonaws.com", "SubnetId": "subnet-"}
	for a, shape := range want {
		v, err := p.GetAtt(ev.ResourceModel, a)
		if s, _ := v.(string); err != nil || !strings.Contains(s, shape) {
			t.Errorf("GetAtt %s = %v (%v), want something with %q", a, v, err, shape)
		}
	}
	if v, _ := p.GetAtt(ev.ResourceModel, "Password"); len(v.(string)) < 16 {
		t.Errorf("Password %v", v)
	}
	if _, err := p.GetAtt(ev.ResourceModel, "Other"); err == nil || !strings.Contains(err.Error(), "Vendor response doesn't contain Other key") {
		t.Errorf("GetAtt Other: %v", err)
	}
	id, _ := p.PhysicalID(ev.ResourceModel)
	up := customReq(ActionUpdate, "Thing", props)
	up.PreviousResourceState, up.PhysicalResourceID, up.Attributes = props, id, req.Attributes
	ev2, _ := Invoke(context.Background(), p, up)
	if !Equal(ev2.ResourceModel["Data"], ev.ResourceModel["Data"]) {
		t.Errorf("the Data changed on update: %v → %v", ev.ResourceModel["Data"], ev2.ResourceModel["Data"])
	}
	if n := logs.FilterMessageSnippet("simulated responder: its Data").Len(); n != 1 {
		t.Errorf("%d notes of generated Data, want one per resource", n)
	}
	// A mapped target's answer is kept as it is: no Data made up.
	reg.RegisterServiceToken("mapped", CustomFunc(func(_ context.Context, r *CustomRequest) (*CustomResponse, error) {
		return &CustomResponse{Status: "SUCCESS", PhysicalResourceID: "real"}, nil
	}))
	mreq := customReq(ActionCreate, "Mapped", map[string]any{"ServiceToken": "mapped"})
	mreq.Attributes = []string{"BucketArn"}
	mev, _ := Invoke(context.Background(), p, mreq)
	if _, err := p.GetAtt(mev.ResourceModel, "BucketArn"); err == nil || !strings.Contains(err.Error(), "Vendor response doesn't contain BucketArn key in object real") {
		t.Errorf("a mapped target without the key: %v", err)
	}
}

func TestParseTarget(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"exec:./handler --verbose", `resources.CommandTarget{Argv:[]string{"./handler", "--verbose"}, Env:[]string(nil), Dir:""}`, ""},
		{`exec:["my handler", "a b"]`, `resources.CommandTarget{Argv:[]string{"my handler", "a b"}, Env:[]string(nil), Dir:""}`, ""},
		{"https://example.com/hook", `resources.URLTarget{URL:"https://example.com/hook", Client:(*http.Client)(nil)}`, ""},
		{"exec:", "", "names no program"},
		{"ftp://x", "", "write exec:PROGRAM"},
	}
	for _, c := range cases {
		got, err := ParseTarget(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v", c.in, err)
			}
			continue
		}
		if s := strings.ReplaceAll(fmtGo(got), "\n", ""); err != nil || s != c.want {
			t.Errorf("%s: %s %v", c.in, s, err)
		}
	}
	tok, tgt, err := ParseServiceTokenMapping("arn:aws:lambda:us-east-1:123456789012:function:f=exec:./h")
	if err != nil || tok != "arn:aws:lambda:us-east-1:123456789012:function:f" || tgt.(CommandTarget).Argv[0] != "./h" {
		t.Fatalf("%q %v %v", tok, tgt, err)
	}
}

func fmtGo(v any) string { return fmt.Sprintf("%#v", v) }

// A FAILED answer to a Create still names a physical id (the response
// requires one): the event carries it, with the properties, so that the
// rollback's Delete can be sent to it (BEHAVIOUR.md §7). A Delete whose
// resource never got an id (its Create never answered) is sent with a
// generated one, as CloudFormation does, never dropped.
func TestCustomResourceFailedCreateKeepsItsID(t *testing.T) {
	var got []*CustomRequest
	fn := CustomFunc(func(_ context.Context, r *CustomRequest) (*CustomResponse, error) {
		got = append(got, r)
		if r.RequestType == CustomCreate {
			return &CustomResponse{Status: "FAILED", Reason: "no quota", PhysicalResourceID: "half-made"}, nil
		}
		return &CustomResponse{Status: "SUCCESS", PhysicalResourceID: r.PhysicalResourceID}, nil
	})
	reg := NewRegistry(RegistryOptions{ServiceTokens: map[string]CustomTarget{"arn:fn": fn}})
	defer reg.Close()
	p := customOf(t, reg)
	props := map[string]any{"ServiceToken": "arn:fn", "Size": 3}
	ev, err := Invoke(context.Background(), p, customReq(ActionCreate, "Thing", props))
	if err != nil || ev.Status != StatusFailed {
		t.Fatalf("create: %v %v", ev, err)
	}
	if id, _ := p.PhysicalID(ev.ResourceModel); id != "half-made" {
		t.Fatalf("FAILED create model %v: want physical id half-made", ev.ResourceModel)
	}
	// The rollback's Delete, with the model the failed create left.
	del := customReq(ActionDelete, "Thing", ev.ResourceModel)
	del.PhysicalResourceID = "half-made"
	if ev, _ := Invoke(context.Background(), p, del); ev.Status != StatusSuccess {
		t.Fatalf("delete: %v", ev)
	}
	if d := got[1]; d.RequestType != CustomDelete || d.PhysicalResourceID != "half-made" || d.ResourceProperties["ServiceToken"] != "arn:fn" || d.ResourceProperties["Size"] != "3" {
		t.Fatalf("delete request: %+v", d)
	}
	// A Delete of a resource that never got an id: a generated one, the
	// same for the same request.
	silent := customReq(ActionDelete, "Hook", props)
	if ev, _ := Invoke(context.Background(), p, silent); ev.Status != StatusSuccess {
		t.Fatalf("delete without an id: %v", ev)
	}
	id := got[2].PhysicalResourceID
	if !strings.HasPrefix(id, StackName(testStack)+"-Hook-") {
		t.Fatalf("generated physical id %q", id)
	}
	if ev, _ := Invoke(context.Background(), p, customReq(ActionDelete, "Hook", props)); ev.Status != StatusSuccess || got[3].PhysicalResourceID != id {
		t.Fatalf("generated id not deterministic: %q then %q", id, got[3].PhysicalResourceID)
	}
}

// Every request of one operation has its own RequestId: the forward Update
// and the rollback's Update of the same resource share the client request
// token and the attempt, and two cleanup Deletes of one logical resource
// (two physical ids) share the phase too. The same request gets the same
// id again (determinism).
func TestCustomResourceRequestIDsDiffer(t *testing.T) {
	var got []*CustomRequest
	fn := CustomFunc(func(_ context.Context, r *CustomRequest) (*CustomResponse, error) {
		got = append(got, r)
		return &CustomResponse{Status: "SUCCESS", PhysicalResourceID: r.PhysicalResourceID}, nil
	})
	reg := NewRegistry(RegistryOptions{ServiceTokens: map[string]CustomTarget{"arn:fn": fn}})
	defer reg.Close()
	p := customOf(t, reg)
	req := func(a Action, phase Phase, physical string) *Request {
		r := customReq(a, "Thing", map[string]any{"ServiceToken": "arn:fn"})
		r.ClientRequestToken, r.Phase, r.PhysicalResourceID = "tok", phase, physical
		r.PreviousResourceState = map[string]any{"ServiceToken": "arn:fn"}
		return r
	}
	reqs := []*Request{
		req(ActionUpdate, PhaseForward, "id-1"),
		req(ActionUpdate, PhaseRollback, "id-1"),
		req(ActionDelete, PhaseCleanup, "id-1"),
		req(ActionDelete, PhaseCleanup, "id-2"),
		req(ActionDelete, PhaseRollback, "id-1"),
	}
	seen := map[string]int{}
	for i, r := range reqs {
		if ev, err := Invoke(context.Background(), p, r); err != nil || ev.Status != StatusSuccess {
			t.Fatalf("request %d: %v %v", i, ev, err)
		}
		id := got[len(got)-1].RequestID
		if j, dup := seen[id]; dup {
			t.Fatalf("requests %d (%s %s %s) and %d (%s %s %s) share RequestId %s", j, reqs[j].Action, reqs[j].Phase, reqs[j].PhysicalResourceID, i, r.Action, r.Phase, r.PhysicalResourceID, id)
		}
		seen[id] = i
	}
	first := got[0].RequestID
	if _, err := Invoke(context.Background(), p, req(ActionUpdate, PhaseForward, "id-1")); err != nil || got[len(got)-1].RequestID != first {
		t.Fatalf("the same request got another RequestId: %s then %s", first, got[len(got)-1].RequestID)
	}
}
