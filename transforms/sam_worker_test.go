package transforms

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stacksim/stacksim/template"
)

func needSAM(t *testing.T) {
	t.Helper()
	if err := exec.Command("python3", "-c", "import samtranslator").Run(); err != nil {
		t.Skipf("python3 cannot import samtranslator (python3 -m pip install aws-sam-translator): %v", err)
	}
}

// samTemplates are the SAM templates the worker is held to: the
// project's own, and every fourth SAM template of the shared corpus when
// it is beside the repository.
func samTemplates(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	add := func(paths []string, every int) {
		n := 0
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil || !strings.Contains(string(b), "AWS::Serverless-2016-10-31") {
				continue
			}
			if n++; (n-1)%every == 0 {
				out[p] = b
			}
		}
	}
	out["inline function"] = []byte(samBody)
	out["api, table and events"] = []byte(`Transform: AWS::Serverless-2016-10-31
Globals: {Function: {Runtime: nodejs20.x, Timeout: 10}}
Resources:
  Table: {Type: AWS::Serverless::SimpleTable}
  Api: {Type: AWS::Serverless::Api, Properties: {StageName: prod, Cors: "'*'"}}
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Handler: index.handler
      CodeUri: s3://code/fn.zip
      AutoPublishAlias: live
      Policies: [{DynamoDBCrudPolicy: {TableName: !Ref Table}}]
      Events:
        Get: {Type: Api, Properties: {RestApiId: !Ref Api, Path: /items, Method: get}}
        Tick: {Type: Schedule, Properties: {Schedule: rate(5 minutes)}}
`)
	out["state machine and http api"] = []byte(`Transform: AWS::Serverless-2016-10-31
Resources:
  Http: {Type: AWS::Serverless::HttpApi}
  Machine:
    Type: AWS::Serverless::StateMachine
    Properties:
      Definition: {StartAt: A, States: {A: {Type: Pass, End: true}}}
      Policies: [AWSLambdaRole]
      Events:
        Start: {Type: Schedule, Properties: {Schedule: rate(1 hour)}}
`)
	own, _ := filepath.Glob("../fixtures/serverless/*.yaml")
	add(own, 1)
	before := len(out)
	var corpus []string
	_ = filepath.WalkDir("../../shared/corpus/templates", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && slices.Contains([]string{".yaml", ".yml", ".json", ".template"}, filepath.Ext(p)) {
			corpus = append(corpus, p)
		}
		return nil
	})
	add(corpus, 4) // WalkDir's order is lexical: the same templates each run
	if len(out) == before {
		t.Logf("../../shared/corpus/templates is not here: held to the project's own %d SAM templates only", before)
	}
	return out
}

// translateAll runs every template through tr, in the order given, and
// answers each one's output or error.
func translateAll(t *testing.T, tr *Translator, names []string, bodies map[string][]byte) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, name := range names {
		n, err := template.ParseTree(name, bodies[name])
		if err != nil {
			got[name] = "parse: " + err.Error()
			continue
		}
		out, err := tr.Translate(context.Background(), n.JSON(), map[string]any{"AWS::Region": "us-east-1", "AWS::AccountId": "123456789012"}, "us-east-1")
		if err != nil {
			got[name] = "error: " + err.Error()
			continue
		}
		got[name] = string(out)
	}
	return got
}

// The worker answers byte for byte what a translator process of its own
// answers, template after template, in either order: nothing of one
// translation stays behind in the next.
func TestSAMWorkerMatchesOneShot(t *testing.T) {
	needSAM(t)
	bodies := samTemplates(t)
	names := make([]string, 0, len(bodies))
	for name := range bodies {
		names = append(names, name)
	}
	slices.Sort(names)
	want := translateAll(t, &Translator{}, names, bodies)
	worker := &Translator{Persistent: true}
	defer worker.Close()
	forward := translateAll(t, worker, names, bodies)
	reversed := slices.Clone(names)
	slices.Reverse(reversed)
	backward := translateAll(t, worker, reversed, bodies)
	expanded := 0
	for _, name := range names {
		if !strings.HasPrefix(want[name], "error: ") {
			expanded++
		}
		if forward[name] != want[name] {
			t.Errorf("%s: the worker answered\n%.400s\nwhere a process of its own answered\n%.400s", name, forward[name], want[name])
		}
		if backward[name] != want[name] {
			t.Errorf("%s, in the reverse order: the worker answered\n%.400s\nwhere a process of its own answered\n%.400s", name, backward[name], want[name])
		}
	}
	if expanded < 3 {
		t.Errorf("only %d of %d templates expanded: the comparison holds nothing", expanded, len(names))
	}
	t.Logf("%d templates (%d expanded) answered alike", len(names), expanded)
}

const samBody = `{"Transform": "AWS::Serverless-2016-10-31", "Resources": {"Fn": {"Type": "AWS::Serverless::Function",
 "Properties": {"Runtime": "python3.12", "Handler": "index.handler", "InlineCode": "x"}}}}`

func translateOne(tr *Translator) (string, error) {
	out, err := tr.Translate(context.Background(), []byte(samBody), map[string]any{}, "us-east-1")
	return string(out), err
}

// exitedNow tells whether a worker's process has been waited for.
func exitedNow(w *samWorker) bool {
	select {
	case <-w.exited:
		return true
	default:
		return false
	}
}

// A worker killed behind the Translator's back is started again; Close
// ends the one running.
func TestSAMWorkerLifecycle(t *testing.T) {
	needSAM(t)
	tr := &Translator{Persistent: true}
	want, err := translateOne(tr)
	if err != nil || !strings.Contains(want, "AWS::Lambda::Function") {
		t.Fatalf("first translation: %v\n%s", err, want)
	}
	first := tr.worker
	if first == nil {
		t.Fatal("no worker after a persistent translation")
	}
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	got, err := translateOne(tr)
	if err != nil || got != want {
		t.Fatalf("after the worker was killed: %v\n%s", err, got)
	}
	second := tr.worker
	if second == nil || second == first || tr.oneOff {
		t.Fatalf("the worker was not started again (worker %p, first %p, one-shot %v)", second, first, tr.oneOff)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if !exitedNow(second) || tr.worker != nil {
		t.Error("Close left the worker running")
	}
	if got, err := translateOne(tr); err != nil || got != want || tr.worker == nil {
		t.Errorf("a translation after Close: %v (worker %p)", err, tr.worker)
	}
	_ = tr.Close()
}

// A worker that does not answer in time is killed, and the translation
// says it did not answer.
func TestSAMWorkerTimeout(t *testing.T) {
	silent := filepath.Join(t.TempDir(), "python3")
	if err := os.WriteFile(silent, []byte("#!/bin/sh\nwhile read -r line; do :; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tr := &Translator{Python: silent, Persistent: true, Timeout: 200 * time.Millisecond}
	_, err := tr.Translate(context.Background(), []byte(samBody), nil, "us-east-1")
	if err == nil || !strings.Contains(err.Error(), "the translator did not answer in 200ms") {
		t.Errorf("a silent worker: %v", err)
	}
	if tr.worker != nil || tr.oneOff {
		t.Errorf("the silent worker was kept (worker %p, one-shot %v)", tr.worker, tr.oneOff)
	}
}

// Without a translator, a persistent Translator answers what a one-shot
// one answers, and stops trying workers.
func TestSAMWorkerWithoutTranslator(t *testing.T) {
	for _, python := range []string{"/nonexistent/python3", "sh"} {
		_, want := translateOne(&Translator{Python: python})
		tr := &Translator{Python: python, Persistent: true}
		_, got := translateOne(tr)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: persistent %v, one-shot %v", python, got, want)
		}
		if !tr.oneOff || tr.worker != nil {
			t.Errorf("%s: still trying workers (one-shot %v, worker %p)", python, tr.oneOff, tr.worker)
		}
	}
}

// BenchmarkSAMTranslate times one translation of a small SAM template by
// a process of its own and by the worker (started before the timer).
func BenchmarkSAMTranslate(b *testing.B) {
	if err := exec.Command("python3", "-c", "import samtranslator").Run(); err != nil {
		b.Skipf("python3 cannot import samtranslator: %v", err)
	}
	for _, persistent := range []bool{false, true} {
		b.Run(map[bool]string{false: "one-shot", true: "worker"}[persistent], func(b *testing.B) {
			tr := &Translator{Persistent: persistent}
			defer tr.Close()
			if _, err := translateOne(tr); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := translateOne(tr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
