package resources

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestMacroTargets(t *testing.T) {
	req := &MacroRequest{Region: "us-east-1", AccountID: "123456789012", Fragment: json.RawMessage(`{"Resources":{}}`),
		TransformID: "123456789012::M", Params: map[string]any{"A": "1"}, RequestID: "r-1", TemplateParameterValues: map[string]any{}}
	check := func(what string, out []byte, err error) {
		t.Helper()
		var a struct {
			RequestID string          `json:"requestId"`
			Fragment  json.RawMessage `json:"fragment"`
		}
		if err != nil || json.Unmarshal(out, &a) != nil || a.RequestID != "r-1" || string(a.Fragment) != `{"Resources":{}}` {
			t.Errorf("%s: %s %v", what, out, err)
		}
	}
	cmd := CommandTarget{Argv: helperArgv(), Env: []string{helperEnv + "=macro-echo"}}
	out, err := cmd.InvokeMacro(context.Background(), req)
	check("command", out, err)

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m MacroRequest
		if err := json.Unmarshal(body, &m); err != nil || r.Method != http.MethodPost {
			http.Error(w, "bad", 400)
			return
		}
		if m.Params["A"] == "fail" {
			http.Error(w, "the function failed", 500)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"requestId": m.RequestID, "status": "success", "fragment": m.Fragment})
	}))
	defer srv.Close()
	out, err = URLTarget{URL: srv.URL}.InvokeMacro(context.Background(), req)
	check("URL", out, err)
	failing := *req
	failing.Params = map[string]any{"A": "fail"}
	if _, err := (URLTarget{URL: srv.URL}).InvokeMacro(context.Background(), &failing); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("a failing URL: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if _, err := cmd.InvokeMacro(ctx, req); err == nil || !strings.Contains(err.Error(), "did not answer in time") {
		t.Errorf("a command out of time: %v", err)
	}
	if _, err := (CommandTarget{}).InvokeMacro(context.Background(), req); err == nil {
		t.Error("a command without a program: no error")
	}
}
