package resources

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

const widgetSchema = `{"typeName": "Acme::Widget::Thing",
 "properties": {"Id": {"type": "string"}, "Colour": {"type": "string"}},
 "additionalProperties": false,
 "primaryIdentifier": ["/properties/Id"], "readOnlyProperties": ["/properties/Id"]}`

func startProcess(t *testing.T, mode string, cap time.Duration, log *zap.Logger) Provider {
	t.Helper()
	return startProcessWith(t, mode, ProcessOptions{Timeout: cap, Logger: log})
}

func startProcessWith(t *testing.T, mode string, opts ProcessOptions) Provider {
	t.Helper()
	s, err := ParseSchema("widget.json", []byte(widgetSchema))
	if err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry(RegistryOptions{Logger: opts.Logger})
	t.Cleanup(func() { reg.Close() })
	opts.Env = append(opts.Env, helperEnv+"="+mode)
	if err := reg.RegisterProcess("Acme::Widget::Thing", s, helperArgv(), opts); err != nil {
		t.Fatal(err)
	}
	p, err := reg.Provider("Acme::Widget::Thing")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProcessHandler(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	p := startProcess(t, "handler-ok", 20*time.Second, zap.New(core))
	req := newReq(ActionCreate, "W", "t", map[string]any{"Colour": "red"})
	req.Phase, req.Attempt = PhaseRollback, 2
	ev, err := Invoke(context.Background(), p, req)
	if err != nil || ev.Status != StatusSuccess || ev.ResourceModel["Id"] != "proc-1" || ev.ResourceModel["Colour"] != "red" {
		t.Fatalf("%v %v", ev, err)
	}
	if got := logs.FilterMessageSnippet("handling CREATE Acme::Widget::Thing rollback 2").Len(); got != 1 {
		t.Fatalf("stderr not logged with the environment: %v", logs.All())
	}
}

func TestProcessHandlerFailures(t *testing.T) {
	cases := []struct{ mode, want string }{
		{"handler-crash", "crashed: exited with exit status 2; stderr ended with: panic: runtime error: index out of range"},
		{"handler-garbage", `printed something that is not a ProgressEvent`},
		{"handler-status", `answered an unknown status "DONE"`},
		{"handler-two", "printed more than one JSON value"},
		{"silent", "printed nothing on standard output"},
		{"hang", "no answer within 300ms (killed)"},
		{"handler-big", "printed more than 1 KiB on standard output"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			// A generous cap for the modes that answer (a race-enabled test
			// binary starts slowly on a busy machine); a short one for "hang".
			limit := 60 * time.Second
			if tc.mode == "hang" {
				limit = 300 * time.Millisecond
			}
			p := startProcessWith(t, tc.mode, ProcessOptions{Timeout: limit, MaxOutput: 1024})
			ev, err := Invoke(context.Background(), p, newReq(ActionCreate, "W", "t", nil))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Status != StatusFailed || ev.ErrorCode != ErrHandlerInternalFailure || !strings.Contains(ev.Message, tc.want) {
				t.Fatalf("got %v\nwant FAILED HandlerInternalFailure %q", ev, tc.want)
			}
		})
	}
	s, _ := ParseSchema("widget.json", []byte(widgetSchema))
	p, _ := NewProcessProvider(s, []string{"/nonexistent/handler"}, ProcessOptions{})
	if ev, _ := Invoke(context.Background(), p, newReq(ActionRead, "W", "t", nil)); !strings.Contains(ev.Message, "could not start") {
		t.Fatalf("%v", ev)
	}
}

// TestProcessPersistent: one process serves every request, a line each,
// until the registry closes.
func TestProcessPersistent(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	p := startProcessWith(t, "persistent-ok", ProcessOptions{Persistent: true, Timeout: 60 * time.Second, Logger: zap.New(core)})
	for i := 1; i <= 3; i++ {
		ev, err := Invoke(context.Background(), p, newReq(ActionCreate, "W", "t", map[string]any{"Colour": "red"}))
		if err != nil || ev.Status != StatusSuccess || ev.ResourceModel["Id"] != fmt.Sprintf("proc-%d", i) {
			t.Fatalf("request %d: %v %v", i, ev, err)
		}
	}
	if err := p.(io.Closer).Close(); err != nil {
		t.Fatal(err)
	}
	// Close waited for the process, so its stderr has been read.
	if got := logs.FilterMessageSnippet("request 3 CREATE persistent").Len(); got != 1 {
		t.Fatalf("stderr not logged: %v", logs.All())
	}
	// A request after Close starts the process again.
	ev, _ := Invoke(context.Background(), p, newReq(ActionRead, "W", "t", nil))
	if ev.ResourceModel["Id"] != "proc-1" {
		t.Fatalf("after close: %v", ev)
	}
}

// TestProcessPersistentFailures: every way a long-lived process can fail
// fails that request with HandlerInternalFailure, quoting its stderr; the
// next request gets a new process.
func TestProcessPersistentFailures(t *testing.T) {
	cases := []struct{ mode, want string }{
		{"persistent-crash-2nd", "request 2 CREATE persistent | Traceback (most recent call last): | KeyError: 'Colour'"},
		{"persistent-hang", "no answer within 300ms (killed); stderr ended with: "},
		{"persistent-garbage", `printed something that is not a ProgressEvent (invalid character 's' looking for beginning of value): "starting up..."`},
		{"persistent-big", "printed more than 1 KiB on one line of standard output"},
		{"persistent-exit", "crashed: exited with status 0 before answering"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			limit := 60 * time.Second
			if tc.mode == "persistent-hang" {
				limit = 300 * time.Millisecond
			}
			p := startProcessWith(t, tc.mode, ProcessOptions{Persistent: true, Timeout: limit, MaxOutput: 1024})
			if ev, err := Invoke(context.Background(), p, newReq(ActionCreate, "W", "t1", nil)); err != nil || ev.Status != StatusSuccess {
				t.Fatalf("first request: %v %v", ev, err)
			}
			ev, err := Invoke(context.Background(), p, newReq(ActionCreate, "W", "t2", nil))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Status != StatusFailed || ev.ErrorCode != ErrHandlerInternalFailure || !strings.Contains(ev.Message, tc.want) {
				t.Fatalf("got %v\nwant FAILED HandlerInternalFailure %q", ev, tc.want)
			}
			// The failed process is gone; a new one answers.
			ev, err = Invoke(context.Background(), p, newReq(ActionCreate, "W", "t3", nil))
			if err != nil || ev.Status != StatusSuccess || ev.ResourceModel["Id"] != "proc-1" {
				t.Fatalf("after the failure: %v %v", ev, err)
			}
		})
	}
}

// TestProcessRequestCap: the real-time cap is the contract's per action,
// --handler-timeout's when given, never past the schema's timeout.
func TestProcessRequestCap(t *testing.T) {
	s, _ := ParseSchema("w.json", []byte(`{"typeName": "Acme::Widget::Thing", "properties": {"Id": {"type": "string"}},
	 "primaryIdentifier": ["/properties/Id"], "handlers": {"create": {"permissions": [], "timeoutInMinutes": 2}}}`))
	p, _ := NewProcessProvider(s, []string{"x"}, ProcessOptions{})
	pp := p.(*processProvider)
	if pp.requestCap(ActionCreate) != 60*time.Second || pp.requestCap(ActionList) != 30*time.Second {
		t.Fatalf("defaults: %s %s", pp.requestCap(ActionCreate), pp.requestCap(ActionList))
	}
	p, _ = NewProcessProvider(s, []string{"x"}, ProcessOptions{Timeout: 10 * time.Minute})
	if got := p.(*processProvider).requestCap(ActionCreate); got != 2*time.Minute {
		t.Fatalf("capped by the schema: %s", got)
	}
	if got := p.(*processProvider).requestCap(ActionRead); got != 10*time.Minute {
		t.Fatalf("given: %s", got)
	}
}

// TestProcessProtocols: each protocol's request, as the handler reads it.
func TestProcessProtocols(t *testing.T) {
	req := newReq(ActionUpdate, "Widget", "tok-1", map[string]any{"Colour": "blue", "Size": "8"})
	req.PreviousResourceState = map[string]any{"Colour": "red"}
	req.DesiredResourceTags = map[string]string{"team": "a"}
	req.CallbackContext = map[string]any{"step": json.Number("2")}
	req.PhysicalResourceID, req.Phase, req.Attempt = "w-1", PhaseRollback, 2
	want := map[Protocol]string{
		ProtocolStacksim: `{"action":"UPDATE","clientRequestToken":"tok-1","desiredResourceState":{"Colour":"blue","Size":"8"},"previousResourceState":{"Colour":"red"},"desiredResourceTags":{"team":"a"},"awsAccountId":"123456789012","awsPartition":"aws","logicalResourceIdentifier":"Widget","region":"us-east-1","stackId":"` + testStack + `","callbackContext":{"step":2},"stacksim":{"typeName":"Acme::Widget::Thing","physicalResourceId":"w-1","phase":"rollback","attempt":2}}`,
		ProtocolRPDK:     `{"awsAccountId":"123456789012","bearerToken":"tok-1","region":"us-east-1","action":"UPDATE","resourceType":"Acme::Widget::Thing","resourceTypeVersion":"00000001","requestData":{"callerCredentials":{"accessKeyId":"ASIASTACKSIMOFFLINE0","secretAccessKey":"stacksim-offline-not-a-secret","sessionToken":"stacksim-offline-session"},"logicalResourceId":"Widget","resourceProperties":{"Colour":"blue","Size":"8"},"previousResourceProperties":{"Colour":"red"},"stackTags":{"team":"a"}},"stackId":"` + testStack + `","callbackContext":{"step":2}}`,
		ProtocolRPDKTest: `{"credentials":{"accessKeyId":"ASIASTACKSIMOFFLINE0","secretAccessKey":"stacksim-offline-not-a-secret","sessionToken":"stacksim-offline-session"},"action":"UPDATE","request":{"clientRequestToken":"tok-1","desiredResourceState":{"Colour":"blue","Size":"8"},"previousResourceState":{"Colour":"red"},"desiredResourceTags":{"team":"a"},"awsAccountId":"123456789012","logicalResourceIdentifier":"Widget","stackId":"` + testStack + `","region":"us-east-1"},"callbackContext":{"step":2},"region":"us-east-1"}`,
	}
	for proto, w := range want {
		t.Run(proto.String(), func(t *testing.T) {
			p := startProcessWith(t, "handler-echo", ProcessOptions{Protocol: proto, Timeout: 60 * time.Second})
			ev, err := Invoke(context.Background(), p, req)
			if err != nil || ev.Status != StatusSuccess {
				t.Fatalf("%v %v", ev, err)
			}
			if got := strings.TrimSpace(ev.Message); got != w {
				t.Fatalf("the handler read\n%s\nwant\n%s", got, w)
			}
		})
	}
	// stacksim's protocol decodes back to the request (ServeHandler's side).
	line, _ := EncodeRequest(ProtocolStacksim, "Acme::Widget::Thing", req)
	back, err := DecodeRequest(line)
	if err != nil || back.ResourceType != "Acme::Widget::Thing" || back.Phase != PhaseRollback || back.Attempt != 2 || back.PhysicalResourceID != "w-1" || back.DesiredResourceState["Size"] != "8" {
		t.Fatalf("%+v %v", back, err)
	}
}

// TestServeHandler: a Go handler served over stdin/stdout answers each
// request on a line; bad requests and panics are FAILED answers, not the
// end of the process.
func TestServeHandler(t *testing.T) {
	h := HandlerFuncs{
		CreateFunc: func(_ context.Context, r *Request) (*ProgressEvent, error) {
			m := CopyModel(r.DesiredResourceState)
			m["Id"] = "w-" + r.LogicalResourceIdentifier
			return Success(m), nil
		},
		ReadFunc: func(context.Context, *Request) (*ProgressEvent, error) { panic("boom") },
		ListFunc: func(context.Context, *Request) (*ProgressEvent, error) {
			return &ProgressEvent{Status: StatusSuccess, ResourceModels: []map[string]any{}}, nil
		},
	}
	create, _ := EncodeRequest(ProtocolStacksim, "Acme::Widget::Thing", newReq(ActionCreate, "A", "t", map[string]any{"Colour": "red"}))
	read, _ := EncodeRequest(ProtocolStacksim, "Acme::Widget::Thing", newReq(ActionRead, "A", "t", nil))
	list, _ := EncodeRequest(ProtocolStacksim, "Acme::Widget::Thing", newReq(ActionList, "", "t", nil))
	in := string(create) + "\n\n{not json\n" + string(read) + "\n" + `{"action": "DESTROY"}` + "\n" + string(list)
	var out bytes.Buffer
	if err := ServeHandler(context.Background(), h, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		`{"status":"SUCCESS","resourceModel":{"Colour":"red","Id":"w-A"}}`,
		`{"status":"FAILED","errorCode":"InvalidRequest","message":"the request is not JSON: invalid character 'n' looking for beginning of object key string"}`,
		`{"status":"FAILED","errorCode":"HandlerInternalFailure","message":"handler panicked: boom"}`,
		`{"status":"FAILED","errorCode":"InvalidRequest","message":"the request's action \"DESTROY\" is not CREATE, READ, UPDATE, DELETE or LIST"}`,
		`{"status":"SUCCESS","resourceModels":[]}`, // an empty list stays (the input ends without a newline)
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("answers:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
