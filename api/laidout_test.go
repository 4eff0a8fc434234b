package api

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/stacksim/stacksim/engine"
)

// serve's first save of a state file of version 2 lays it out anew and
// logs it once, as the CLI says it (the file: the CLI's fixture of a state
// written by the stacksim of 2026-12-01).
func TestServeLogsTheNewLayout(t *testing.T) {
	gz, err := os.ReadFile("../cmd/stacksim/testdata/state-v2/account.db.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "state.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(path, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	core, logs := observer.New(zap.WarnLevel)
	srv := New(e, Options{Logger: zap.New(core)})
	for _, name := range []string{"fourth", "fifth"} {
		v := url.Values{"Version": {"2010-05-15"}, "Action": {"CreateStack"}, "StackName": {name},
			"TemplateBody": {"Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v}\n"}}
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != 200 {
			t.Fatalf("CreateStack %s: %d %s", name, w.Code, w.Body.String())
		}
	}
	got := logs.FilterMessageSnippet("laid the state file out anew").All()
	if len(got) != 1 {
		t.Fatalf("%d warnings of the new layout over two saves, want 1: %v", len(got), logs.All())
	}
	if f := got[0].ContextMap(); f["state"] != path || f["from"] != int64(2) || f["to"] != int64(4) {
		t.Errorf("the warning's fields: %v", f)
	}
}
