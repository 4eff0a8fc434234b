package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/statefile"
	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

// richWorld seeds every table: two stacks (one deleted, its name reused),
// resources with nested properties and exact numbers, a retired resource,
// events with duplicate ids and across a chunk boundary, exports, imports,
// cloud objects, an operation with steps, and queued tasks.
func richWorld(t testing.TB, e *Engine) {
	t.Helper()
	s := seed(t, e)
	old := s.stack("app", func(st *store.StackRecord) {
		st.Description = "the first"
		st.Parameters = []store.ParamValue{{Key: "Password", Value: "hunter2", NoEcho: true}, {Key: "Env", Value: "dev"}}
		st.Tags = []Tag{{Key: "team", Value: "a"}}
	})
	s.resource(old, "Bucket", "AWS::S3::Bucket", "app-bucket-1", statemachine.ResourceStatusCreateComplete, "")
	s.advance(time.Minute)
	s.setStatus(old, statemachine.StackStatusDeleteComplete, "")

	st := s.stack("app", func(st *store.StackRecord) {
		st.Capabilities = []string{"CAPABILITY_IAM"}
		st.TimeoutInMinutes = 30
		st.Outputs = []Output{{OutputKey: "Url", OutputValue: "https://x", Description: "d", ExportName: "app-url"}}
		st.PreviousTemplateBody = `{"Resources":{"T":{"Type":"AWS::SNS::Topic"}}}`
	})
	for i := 0; i < store.EventChunkSize; i++ {
		s.resource(st, fmt.Sprintf("Topic%03d", i), "AWS::SNS::Topic", fmt.Sprintf("arn:aws:sns:us-east-1:123456789012:t%d", i),
			statemachine.ResourceStatusCreateComplete, "")
	}
	other := s.stack("consumer")
	s.do(func(tx *txn) error {
		r := tx.Resource(st.Num, "Topic000").Clone()
		r.Properties = map[string]any{
			"Exact":  json.Number("12345678901234567890.123456789"),
			"Nested": map[string]any{"List": []any{json.Number("1"), "two", true, map[string]any{"k": "v"}}},
		}
		r.Model = map[string]any{"TopicArn": r.PhysicalResourceId}
		r.DependsOn = []string{"Topic001"}
		r.DeletionPolicy = "Retain"
		tx.PutResource(r)
		replaced := tx.Retire(tx.Resource(st.Num, "Topic001"), "Replaced")
		_ = replaced
		tx.PutResource(&store.ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: "Topic001",
			PhysicalResourceId: "new", ResourceType: "AWS::SNS::Topic", ResourceStatus: statemachine.ResourceStatusUpdateComplete,
			LastUpdatedTimestamp: tx.now()})
		if err := tx.PutExport(&store.ExportRecord{Name: "app-url", Value: "https://x", StackId: st.StackId}); err != nil {
			return err
		}
		tx.SetImports(other.StackId, []string{"app-url"})
		tx.PutObject(&resources.Object{Type: "AWS::SNS::Topic", ID: "t0", StackID: st.StackId, LogicalID: "Topic000",
			RequestToken: "tok", Model: map[string]any{"TopicName": "t0", "Size": json.Number("3.0")}})
		tx.PutObject(&resources.Object{Type: "AWS::SNS::Topic", ID: "orphan"})
		if err := tx.PutOperation(&store.OperationRecord{Id: "op-1", StackId: st.StackId, Kind: "UpdateStack",
			ClientRequestToken: "tok", StartTime: tx.now()}); err != nil {
			return err
		}
		tx.PutStep(&store.StepRecord{OperationId: "op-1", Index: 0, LogicalId: "Topic000"})
		tx.PutStep(&store.StepRecord{OperationId: "op-1", Index: 1, LogicalId: "Topic001"})
		tx.ScheduleAfter(30*time.Second, &Task{Kind: "poll", StackId: st.StackId, OperationId: "op-1", Step: "0",
			Attempt: 2, CallbackContext: json.RawMessage(`{"n":1}`)})
		tx.Schedule(&Task{Kind: "start", StackId: st.StackId, OperationId: "op-1"})
		return nil
	})
}

// apiStack creates a stack through the API and runs it to rest: a world
// the load-time checks accept.
func apiStack(t testing.TB, e *Engine, name string) {
	t.Helper()
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: name,
		TemplateBody: "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
}

// loadUnchecked loads a state without the load-time checks: for the tests
// of the format and of the loop, whose worlds are rows written directly
// (richWorld, seed), which no operation could have made. The checks
// themselves are tested by TestStateMutations and the lifecycle tests
// (every lifecycle is saved and loaded between any two tasks).
func loadUnchecked(t testing.TB, data []byte, opts Options) *Engine {
	t.Helper()
	st, err := statefile.Decode("(in memory)", data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := newEngine(opts.withDefaults(), st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func TestStateRoundTrip(t *testing.T) {
	e := newTestEngine(t, Options{Seed: 5})
	richWorld(t, e)
	data := state(t, e)
	again := loadUnchecked(t, data, Options{Seed: 99, Region: "ignored"})
	if again.Seed() != 5 || again.Region() != "us-east-1" {
		t.Fatalf("the state's identity did not win: seed %d region %s", again.Seed(), again.Region())
	}
	if data2 := state(t, again); string(data2) != string(data) {
		t.Fatalf("round trip changed the state:\n%s", lineDiff(string(data), string(data2)))
	}
	// What the API reads is the same too, event ids included.
	for _, eng := range []*Engine{e, again} {
		out, err := eng.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "app"})
		if err != nil {
			t.Fatal(err)
		}
		if eng == e {
			golden(t, "roundtrip-events.json", mustJSON(t, out))
		} else if got := mustJSON(t, out); string(got) != string(mustJSON(t, mustEvents(t, e))) {
			t.Fatal("events differ after the round trip")
		}
	}
	// Numbers come back exactly.
	again.mu.Lock()
	tx := again.st.Read()
	st := tx.StackByName("app")
	got := tx.Resource(st.Num, "Topic000").Properties["Exact"]
	again.mu.Unlock()
	if got != json.Number("12345678901234567890.123456789") {
		t.Fatalf("Exact = %#v", got)
	}
	// Event-id bookkeeping continues after a load: a third
	// CREATE_IN_PROGRESS of Topic127 at the same instant gets "-3".
	seed(t, again).do(func(tx *txn) error {
		st := tx.StackByName("app")
		tx.resourceEvent(st, resourceEvent{LogicalID: "Topic127", Type: "AWS::SNS::Topic", Status: statemachine.ResourceStatusCreateInProgress})
		return nil
	})
	out, _ := again.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "app"})
	if id := out.StackEvents[0].EventId; !strings.HasSuffix(id, "-3") {
		t.Fatalf("event id after load = %s", id)
	}
}

func mustEvents(t *testing.T, e *Engine) *DescribeStackEventsOutput {
	out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "app"})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStateFileGolden(t *testing.T) {
	e := newTestEngine(t, Options{})
	s := seed(t, e)
	st := s.stack("demo", func(st *store.StackRecord) { st.Description = "a small world" })
	s.resource(st, "Queue", "AWS::SQS::Queue", "https://sqs.us-east-1.amazonaws.com/123456789012/demo-Queue-1", statemachine.ResourceStatusCreateComplete, "")
	s.setStatus(st, statemachine.StackStatusCreateComplete, "")
	golden(t, "state-small.json", state(t, e))
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStateOpenSaveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "world.json")
	e, err := Open(path, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("Open wrote the file before Save")
	}
	motleyWorld(t, e)
	if err := e.Save(); err != nil {
		t.Fatal(err)
	}
	if err := e.Save(); err != nil { // saving twice is fine
		t.Fatal(err)
	}
	want := state(t, e)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v: the state may hold NoEcho values", info.Mode().Perm())
	}
	if head := readFile(t, path); len(head) < 20 || head[16:20] != "\xed\xda\x0c\xed" {
		t.Fatal("the file is not a state database (format 2)")
	}
	e2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if got := state(t, e2); string(got) != string(want) {
		t.Fatalf("reopened state differs:\n%s", lineDiff(string(want), string(got)))
	}
	if e2.StatePath() != path {
		t.Fatal(e2.StatePath())
	}
	mem := newTestEngine(t, Options{})
	if err := mem.Save(); err == nil {
		t.Fatal("an engine without a state file saved")
	}
}

func TestStateRefusesBadFiles(t *testing.T) {
	valid := string(state(t, func() *Engine { e := newTestEngine(t, Options{}); apiStack(t, e, "s"); return e }()))
	cases := []struct {
		name     string
		data     string
		contains []string
		line     int
	}{
		{"syntax", "{\"format\":\"stacksim-state\",\n\"version\":1,\n\"region\" \"x\"}", []string{"JSON syntax error", "invalid character"}, 3},
		{"truncated", valid[:len(valid)/2], []string{"truncated"}, 0},
		{"empty", "", []string{"truncated"}, 1},
		{"type", strings.Replace(valid, `"seed":0`, `"seed":"zero"`, 1), []string{"seed", "string"}, 2},
		{"version", strings.Replace(valid, `"version":1`, `"version":2`, 1), []string{"version is 2", "reads version 1", "different version"}, 0},
		{"format", `{"format":"terraform","version":4}`, []string{`"terraform"`, "not a stacksim state file"}, 0},
		{"no format", `{"version":1}`, []string{`no "format"`}, 0},
		{"not json object", `[1,2]`, []string{"JSON"}, 1},
		{"trailing", valid + "{}", []string{"after the end of the state"}, strings.Count(valid, "\n") + 1},
		{"inconsistent", strings.Replace(valid, `"stacks":[`, `"resources_":[`, 1), []string{"inconsistent"}, 0},
		{"dangling", strings.Replace(valid, `"resources":[`, `"resources":[{"StackId":"arn:nope","LogicalResourceId":"X","ResourceType":"T"},`, 1),
			[]string{"inconsistent", "arn:nope"}, 0},
		{"status not its last event's", strings.Replace(valid, `"StackStatus":"CREATE_COMPLETE"`, `"StackStatus":"UPDATE_COMPLETE"`, 1),
			[]string{"inconsistent (1 problem(s))", "stacks/s: its last event says CREATE_COMPLETE, its record UPDATE_COMPLETE"}, 0},
		{"a resource in motion at rest", strings.Replace(valid, `"ResourceStatus":"CREATE_COMPLETE"`, `"ResourceStatus":"CREATE_IN_PROGRESS"`, 1),
			[]string{"resources/s/Topic: it is CREATE_IN_PROGRESS, but its last event says CREATE_COMPLETE",
				"resources/s/Topic: it is CREATE_IN_PROGRESS, but its stack is at rest (CREATE_COMPLETE)"}, 0},
		{"a leak", strings.Replace(valid, `"objects":[`, `"objects":[{"Type":"AWS::SNS::Topic","ID":"stray","StackID":"x","LogicalID":"Stray"},`, 1),
			[]string{"objects/AWS::SNS::Topic/stray: it leaks"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			writeFile(t, path, c.data)
			_, err := Open(path, Options{})
			var se *StateError
			if !errors.As(err, &se) {
				t.Fatalf("Open accepted the file or failed otherwise: %v", err)
			}
			for _, s := range c.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "left as it is") {
				t.Errorf("error %q does not name the file and what to do", err)
			}
			if c.line > 0 && se.Line != c.line {
				t.Errorf("line %d, want %d (%v)", se.Line, c.line, err)
			}
			if got := readFile(t, path); got != c.data {
				t.Fatal("a refused file was changed")
			}
			// The lock was released: another Open gets as far as the file.
			if _, err := Open(path, Options{}); !errors.As(err, &se) {
				t.Fatalf("second Open: %v", err)
			}
		})
	}
}

func TestStateSecondWriterRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, Options{})
	var le *StateLockedError
	if !errors.As(err, &le) {
		t.Fatalf("a second writer was let in: %v", err)
	}
	if le.PID != os.Getpid() || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Fatalf("error %q", err)
	}
	// A reader is not refused.
	ro, err := OpenReadOnly(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ro.Save(); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("read-only save: %v", err)
	}
	_ = ro.Close()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	_ = second.Close()
}

// A first save writes the whole file beside it and renames it over the
// path: when the rename fails, nothing is left behind; when it fails during
// the upgrade of a file of format 1, that file is as it was.
func TestStateFailedRenameKeepsPreviousState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	e, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	apiStack(t, e, "one")
	e.file.FS.Rename = func(string, string) error { return errors.New("disk on fire") }
	err = e.Save()
	if err == nil || !strings.Contains(err.Error(), "previous state is intact") || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("save: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a failed first save left a state file")
	}
	if temps, _ := filepath.Glob(filepath.Join(dir, ".state.json.tmp-*")); len(temps) != 0 {
		t.Fatalf("temporary files left: %v", temps)
	}
	_ = e.Close()

	// A file of format 1, upgraded by a save whose rename fails.
	writeFile(t, path, string(state(t, e)))
	before := readFile(t, path)
	e, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	apiStack(t, e, "two")
	e.file.FS.Rename = func(string, string) error { return errors.New("disk on fire") }
	if err := e.Save(); err == nil {
		t.Fatal("the save did not fail")
	}
	if readFile(t, path) != before {
		t.Fatal("a failed upgrade changed the file of format 1")
	}
	if temps, _ := filepath.Glob(filepath.Join(dir, ".state.json.tmp-*")); len(temps) != 0 {
		t.Fatalf("temporary files left: %v", temps)
	}
}

// The child of TestStateSaveKilled: it opens the state, changes it, and
// saves with a rename that says "ready" and never returns, until killed.
func TestHelperSaveChild(t *testing.T) {
	path := os.Getenv("STACKSIM_SAVE_CHILD")
	if path == "" {
		t.Skip("helper process of TestStateSaveKilled")
	}
	fsys := statefile.OSFS()
	fsys.Rename = func(string, string) error {
		fmt.Fprintln(os.Stdout, "ready")
		select {}
	}
	e, err := openState(path, Options{}, false, fsys)
	if err != nil {
		fmt.Fprintln(os.Stdout, "open:", err)
		os.Exit(3)
	}
	motleyWorld(t, e)
	_ = e.Save()
}

func TestStateSaveKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	// A file of format 1: the child's save upgrades it, writing the whole
	// database beside it and renaming it over the file — where the child
	// is killed.
	e := newTestEngine(t, Options{})
	apiStack(t, e, "before")
	writeFile(t, path, string(state(t, e)))
	before := readFile(t, path)

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSaveChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "STACKSIM_SAVE_CHILD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	ready := false
	deadline := time.AfterFunc(60*time.Second, func() { _ = cmd.Process.Kill() })
	for lines.Scan() {
		if lines.Text() == "ready" {
			ready = true
			break
		}
	}
	deadline.Stop()
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if !ready {
		t.Fatal("the child never reached the rename")
	}
	if readFile(t, path) != before {
		t.Fatal("a save killed before its rename changed the state file")
	}
	temps, _ := filepath.Glob(filepath.Join(dir, ".state.json.tmp-*"))
	if len(temps) != 1 {
		t.Fatalf("expected the killed save's temporary file, found %v", temps)
	}
	// The kernel released the child's lock; the next writer cleans up.
	e, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if got := state(t, e); string(got) != before {
		t.Fatal("the state read back is not the one saved before the kill")
	}
	if temps, _ := filepath.Glob(filepath.Join(dir, ".state.json.tmp-*")); len(temps) != 0 {
		t.Fatalf("stale temporary files were not removed: %v", temps)
	}
}

// A nested stack resource's events (type AWS::CloudFormation::Stack, the
// nested stack's ARN) stay resource events through a save and a load.
func TestStateNestedStackEventsStayResourceEvents(t *testing.T) {
	e := newTestEngine(t, Options{})
	s := seed(t, e)
	st := s.stack("parent")
	s.resource(st, "parent", StackResourceType, "arn:aws:cloudformation:us-east-1:123456789012:stack/parent-child/x",
		statemachine.ResourceStatusCreateComplete, "")
	again := loadUnchecked(t, state(t, e), Options{})
	for _, eng := range []*Engine{e, again} {
		out, _ := eng.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "parent"})
		var kinds []bool
		for _, ev := range out.StackEvents {
			kinds = append(kinds, ev.IsStackEvent())
		}
		if fmt.Sprint(kinds) != "[false false false true]" {
			t.Fatalf("stack events: %v", kinds)
		}
	}
}

func FuzzDecodeState(f *testing.F) {
	e, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	richWorld(f, e)
	data, _ := e.MarshalState()
	f.Add(data)
	f.Add([]byte(`{"format":"stacksim-state","version":1}`))
	f.Add([]byte(`{"version":1,"format":"stacksim-state","region":"r"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := statefile.Decode("fuzz.json", data)
		if err != nil {
			var se *StateError
			if !errors.As(err, &se) {
				t.Fatalf("not a *StateError: %T %v", err, err)
			}
			return
		}
		// What loads saves, and saves the same again.
		out, err := statefile.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := statefile.Decode("again.json", out)
		if err != nil {
			t.Fatalf("a state that loaded does not load after a save: %v", err)
		}
		out2, _ := statefile.Encode(s2)
		if !bytes.Equal(out, out2) {
			t.Fatal("save, load, save is not stable")
		}
	})
}
