package resources

import (
	"context"
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
	s, err := ParseSchema("widget.json", []byte(widgetSchema))
	if err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry(RegistryOptions{Logger: log})
	if err := reg.RegisterProcess("Acme::Widget::Thing", s, helperArgv(), ProcessOptions{Env: []string{helperEnv + "=" + mode}, Timeout: cap}); err != nil {
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
		{"handler-crash", "crashed: exited with exit status 2; last line on stderr: panic: runtime error: index out of range"},
		{"handler-garbage", `printed something that is not a ProgressEvent`},
		{"handler-status", `answered an unknown status "DONE"`},
		{"handler-two", "printed more than one JSON value"},
		{"silent", "printed nothing on standard output"},
		{"hang", "no answer within 1s (killed)"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			// A generous cap for the modes that answer (a race-enabled test
			// binary starts slowly on a busy machine); a short one for "hang".
			limit := 60 * time.Second
			if tc.mode == "hang" {
				limit = time.Second
			}
			p := startProcess(t, tc.mode, limit, nil)
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
