package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine"
)

// The server's own cost per call (no client, no network): a request
// recorded in memory.

func benchTemplate(n int) string {
	var b strings.Builder
	b.WriteString("Parameters:\n  S: {Type: String}\nResources:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  P%d: {Type: AWS::SSM::Parameter,Properties: {Type: String,Value: v,Name: !Sub \"${S}-%d\"}}\n", i, i)
	}
	return b.String()
}

func serveForm(b *testing.B, srv *Server, kv ...string) {
	v := url.Values{"Version": {"2010-05-15"}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, req)
	if w.Code != 200 {
		b.Fatalf("%s: %d %s", v.Get("Action"), w.Code, w.Body.String())
	}
}

func benchServer(b *testing.B, file bool) *Server {
	opts := engine.Options{Seed: 1, Contract: engine.ContractReport}
	var e *engine.Engine
	var err error
	if file {
		e, err = engine.Open(filepath.Join(b.TempDir(), "state.json"), opts)
	} else {
		e, err = engine.New(opts)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	return New(e, Options{})
}

// mustBe fails the benchmark unless stack name is in status want: a
// benchmark must time the operation it names, not a rollback.
func mustBe(b testing.TB, srv *Server, name, want string) {
	b.Helper()
	out, err := srv.e.DescribeStacks(context.Background(), engine.DescribeStacksInput{StackName: name})
	if err != nil {
		b.Fatal(err)
	}
	if st := out.Stacks[0]; st.StackStatus != want {
		b.Fatalf("stack %s is %s (%s), not %s", name, st.StackStatus, st.StackStatusReason, want)
	}
}

// BenchmarkServeCreate500 creates and deletes a 500-resource stack through
// the API, in memory and with the state file saved after each call.
func BenchmarkServeCreate500(b *testing.B) {
	body := benchTemplate(500)
	for _, file := range []bool{false, true} {
		b.Run(map[bool]string{false: "memory", true: "statefile"}[file], func(b *testing.B) {
			srv := benchServer(b, file)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				name := fmt.Sprintf("s%d", i)
				serveForm(b, srv, "Action", "CreateStack", "StackName", name, "TemplateBody", body,
					"Parameters.member.1.ParameterKey", "S", "Parameters.member.1.ParameterValue", name)
				b.StopTimer()
				mustBe(b, srv, name, "CREATE_COMPLETE")
				b.StartTimer()
				serveForm(b, srv, "Action", "DeleteStack", "StackName", name)
			}
		})
	}
}

// BenchmarkServeDelete500 deletes a 500-resource stack through the API
// (its create outside the timer), with the state file saved after each
// call: the delete half of make bench-serve. heap-MB is the heap live
// after the b.N deletes (collected): with -benchtime 200x, what a long
// session holds for the stacks it deleted (their rows are shed from
// memory at each save, Store.ShedDeleted).
func BenchmarkServeDelete500(b *testing.B) {
	defer reportHeap(b)
	body := benchTemplate(500)
	srv := benchServer(b, true)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		name := fmt.Sprintf("s%d", i)
		b.StopTimer()
		serveForm(b, srv, "Action", "CreateStack", "StackName", name, "TemplateBody", body,
			"Parameters.member.1.ParameterKey", "S", "Parameters.member.1.ParameterValue", name)
		mustBe(b, srv, name, "CREATE_COMPLETE")
		b.StartTimer()
		serveForm(b, srv, "Action", "DeleteStack", "StackName", name)
	}
}

// reportHeap reports the heap live once b's loop ended, collected.
func reportHeap(b *testing.B) {
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/1e6, "heap-MB")
}

// BenchmarkServeReads500 reads a 500-resource stack.
func BenchmarkServeReads500(b *testing.B) {
	srv := benchServer(b, false)
	serveForm(b, srv, "Action", "CreateStack", "StackName", "s", "TemplateBody", benchTemplate(500),
		"Parameters.member.1.ParameterKey", "S", "Parameters.member.1.ParameterValue", "s")
	for _, action := range []string{"DescribeStacks", "DescribeStackEvents", "ListStackResources"} {
		b.Run(action, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				serveForm(b, srv, "Action", action, "StackName", "s")
			}
		})
	}
}
