package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The handler examples of examples/handlers, driven through the command
// line as their authors would: a stack's lifecycle (a create whose handler
// stabilises with a callback, an update that replaces, an update whose
// handler fails and rolls back, a delete) with the contract checker
// strict, and test-handler over the project; then broken copies of each,
// which must fail the right contract test with the right rule.

const examplesDir = "../../examples/handlers"

// handlerExample is one example: its type, its project directory, and
// how to run its handler from a source directory (the example's own, or
// a broken copy's).
type handlerExample struct {
	lang, typeName string
	// target returns the --handler target for the handler built from
	// src (persistent or one process per request).
	target func(t *testing.T, src string, persistent bool) string
	// source is the file a breakage patches, relative to the source dir.
	source string
	// copySource makes a copy of the handler's source to patch.
	copySource func(t *testing.T) string
	// patches are the breakages, in this example's code.
	patches map[string][2]string
}

func (ex handlerExample) dir() string { return filepath.Join(examplesDir, ex.lang) }

func (ex handlerExample) schema() string {
	return filepath.Join(ex.dir(), "example-"+ex.lang+"-box.json")
}

// breakage is a deliberate bug and what test-handler must say of it.
type breakage struct {
	name, test, rule string
}

var breakages = []breakage{
	{"create answers SUCCESS without the primary identifier", "contract_create_delete", "primary-identifier-missing"},
	{"read after delete answers SUCCESS", "contract_delete_read", "deleted-resource-found"},
	{"update changes a createOnly property in place", "contract_update_create_only_property", "create-only-changed"},
}

func pythonExample(t *testing.T) handlerExample {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the Python handler example is not run")
	}
	return handlerExample{
		lang: "python", typeName: "Example::Python::Box", source: "handler.py",
		target: func(t *testing.T, src string, persistent bool) string {
			mode := "exec:"
			if persistent {
				mode = "exec+persistent:"
			}
			return mode + "python3 " + abs(t, filepath.Join(src, "handler.py"))
		},
		copySource: func(t *testing.T) string { return copyFiles(t, filepath.Join(examplesDir, "python"), "handler.py") },
		patches: map[string][2]string{
			"contract_create_delete": {`        return success(model_of(box))
    for p in READ_ONLY:`, `        return success({k: v for k, v in model_of(box).items() if k != "Id"})
    for p in READ_ONLY:`},
			"contract_delete_read": {`def read(req):
    desired = req.get("desiredResourceState") or {}
    box = load(desired.get("Id"))
    if box is None:
        return failed("NotFound", "box %s not found" % desired.get("Id"))`, `def read(req):
    desired = req.get("desiredResourceState") or {}
    box = load(desired.get("Id"))
    if box is None:
        return success(desired)`},
			"contract_update_create_only_property": {`    for p in CREATE_ONLY:`, `    for p in ():`},
		},
	}
}

func goExample(t *testing.T) handlerExample {
	return handlerExample{
		lang: "go", typeName: "Example::Go::Box", source: "box.go",
		target: func(t *testing.T, src string, persistent bool) string {
			bin := filepath.Join(t.TempDir(), "go-box")
			args := []string{"build", "-o", bin}
			if abs(t, src) != abs(t, filepath.Join(examplesDir, "go")) { // a broken copy: its box.go replaces the example's in the build
				overlay := filepath.Join(t.TempDir(), "overlay.json")
				b, _ := json.Marshal(map[string]any{"Replace": map[string]string{abs(t, filepath.Join(examplesDir, "go", "box.go")): filepath.Join(src, "box.go")}})
				if err := os.WriteFile(overlay, b, 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-overlay", overlay)
			}
			cmd := exec.Command("go", append(args, "./"+filepath.ToSlash(filepath.Join(examplesDir, "go")))...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			mode := "exec:"
			if persistent {
				mode = "exec+persistent:"
			}
			return mode + bin
		},
		copySource: func(t *testing.T) string { return copyFiles(t, filepath.Join(examplesDir, "go"), "box.go") },
		patches: map[string][2]string{
			"contract_create_delete": {`		m["State"] = "ready"
		return resources.Success(model(m)), b.save(m)`, `		m["State"] = "ready"
		broken := model(m)
		delete(broken, "Id")
		return resources.Success(broken), b.save(m)`},
			"contract_delete_read": {`func (b box) Read(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
	m, err := b.load(idOf(req))
	if err != nil || m == nil {
		return resources.Failed(resources.ErrNotFound, "box %s not found", idOf(req)), err
	}`, `func (b box) Read(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
	m, err := b.load(idOf(req))
	if err != nil || m == nil {
		return resources.Success(req.DesiredResourceState), err
	}`},
			"contract_update_create_only_property": {`	for _, p := range createOnly {`, `	for _, p := range []string{} {`},
		},
	}
}

// copyFiles copies files of a directory into a new temporary one.
func copyFiles(t *testing.T, from string, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(from, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// patch replaces old with new in a file; old must be there exactly once
// (an example whose code moved on fails here, loudly).
func patch(t *testing.T, path string, p [2]string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), p[0]); n != 1 {
		t.Fatalf("%s holds the code to break %d times, want once; update the patch in examples_test.go:\n%s", path, n, p[0])
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), p[0], p[1], 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cloudFiles lists the boxes in the example's cloud directory.
func cloudFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func readBox(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// lifecycle drives a stack of the example's boxes through create, an
// update that replaces, an update that fails and rolls back, and delete,
// checking the cloud after each.
func lifecycle(t *testing.T, ex handlerExample, target string) {
	cloud := filepath.Join(t.TempDir(), "cloud")
	t.Setenv("EXAMPLE_CLOUD_DIR", cloud)
	c := newCLI(t)
	flags := []string{"--contract", "strict", "--quiet", "--handler", ex.typeName + "=" + target, "--schema", ex.typeName + "=" + ex.schema()}
	tmpl := func(name string) string { return "file://" + abs(t, filepath.Join(ex.dir(), name+".yaml")) }
	describe := func() (status string, outputs map[string]string) {
		out, _ := c.must(0, "describe-stacks", "--stack-name", "boxes")
		var d struct {
			Stacks []struct {
				StackStatus string
				Outputs     []struct{ OutputKey, OutputValue string }
			}
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Stacks) != 1 {
			t.Fatalf("describe-stacks: %v\n%s", err, out)
		}
		outputs = map[string]string{}
		for _, o := range d.Stacks[0].Outputs {
			outputs[o.OutputKey] = o.OutputValue
		}
		return d.Stacks[0].StackStatus, outputs
	}
	status := func() string { st, _ := describe(); return st }

	c.must(0, append(flags, "create-stack", "--stack-name", "boxes", "--template-body", tmpl("template"))...)
	first := cloudFiles(t, cloud)
	if st := status(); st != "CREATE_COMPLETE" || len(first) != 1 {
		t.Fatalf("after create: %s, cloud %v", st, first)
	}
	if b := readBox(t, filepath.Join(cloud, first[0])); b["Name"] != "alpha-box" || b["State"] != "ready" || b["Secret"] != "keep-it-quiet" {
		t.Fatalf("the box made: %v", b)
	}
	if _, outputs := describe(); outputs["BoxId"]+".json" != first[0] || !strings.HasSuffix(outputs["BoxArn"], outputs["BoxId"]) {
		t.Fatalf("Ref and Fn::GetAtt answer %v; the cloud holds %v", outputs, first)
	}

	// Renaming replaces: a new box, the old one deleted in cleanup.
	c.must(0, append(flags, "update-stack", "--stack-name", "boxes", "--template-body", tmpl("template-rename"))...)
	second := cloudFiles(t, cloud)
	if st := status(); st != "UPDATE_COMPLETE" || len(second) != 1 || second[0] == first[0] {
		t.Fatalf("after the replacing update: %s, cloud %v (was %v)", st, second, first)
	}
	events, _ := c.must(0, "describe-stack-events", "--stack-name", "boxes", "--output", "text")
	if !strings.Contains(events, "Requested update requires the creation of a new physical resource") {
		t.Fatalf("no replacement in the events:\n%s", events)
	}

	// A twin with the same name fails (AlreadyExists); the update rolls
	// back, the box's Size with it.
	_, errOut := c.must(1, append(flags, "update-stack", "--stack-name", "boxes", "--template-body", tmpl("template-clash"))...)
	if st := status(); st != "UPDATE_ROLLBACK_COMPLETE" {
		t.Fatalf("after the failed update: %s\n%s", st, errOut)
	}
	events, _ = c.must(0, "describe-stack-events", "--stack-name", "boxes", "--output", "text")
	if !strings.Contains(events, "HandlerErrorCode: AlreadyExists") {
		t.Fatalf("the twin's failure is not in the events:\n%s", events)
	}
	if b := readBox(t, filepath.Join(cloud, second[0])); b["Size"] != float64(2) || len(cloudFiles(t, cloud)) != 1 {
		t.Fatalf("after the rollback: %v, cloud %v", b, cloudFiles(t, cloud))
	}

	c.must(0, append(flags, "delete-stack", "--stack-name", "boxes")...)
	if left := cloudFiles(t, cloud); len(left) != 0 {
		t.Fatalf("after delete the cloud still holds %v", left)
	}
}

// testHandler runs test-handler over the example's project.
func testHandler(t *testing.T, ex handlerExample, target string, extra ...string) (string, string, int) {
	t.Setenv("EXAMPLE_CLOUD_DIR", filepath.Join(t.TempDir(), "cloud"))
	args := append([]string{"test-handler", ex.dir(), "--no-handler-time", "--handler", ex.typeName + "=" + target}, extra...)
	return runCLI(t, args...)
}

// failedWith reports whether test-handler's output fails test with rule.
func failedWith(out, test, rule string) bool {
	re := regexp.MustCompile(`(?m)^FAIL  ` + regexp.QuoteMeta(test) + ` .*\n((?:      .*\n)*)`)
	m := re.FindStringSubmatch(out)
	return m != nil && strings.Contains(m[1], "rule "+rule+":")
}

func runExample(t *testing.T, ex handlerExample) { runExampleWith(t, ex, nil) }

// runExampleWith runs an example; build, when given, builds a broken copy
// once its patch is in.
func runExampleWith(t *testing.T, ex handlerExample, build func(t *testing.T, src string)) {
	t.Run("lifecycle", func(t *testing.T) { lifecycle(t, ex, ex.target(t, ex.dir(), true)) })
	t.Run("test-handler", func(t *testing.T) {
		out, errOut, code := testHandler(t, ex, ex.target(t, ex.dir(), true), "--junit", filepath.Join(t.TempDir(), "junit.xml"))
		if code != 0 || !strings.Contains(out, "13 passed, 0 failed, 2 skipped") {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
		golden(t, "test-handler/"+ex.lang, []byte(out))
	})
	for _, b := range breakages {
		t.Run("broken/"+b.test, func(t *testing.T) {
			src := ex.copySource(t)
			patch(t, filepath.Join(src, ex.source), ex.patches[b.test])
			if build != nil {
				build(t, src)
			}
			out, errOut, code := testHandler(t, ex, ex.target(t, src, true))
			if code != 1 || !failedWith(out, b.test, b.rule) {
				t.Fatalf("%s: want %s to FAIL with rule %s (exit 1); exit %d\n%s%s", b.name, b.test, b.rule, code, out, errOut)
			}
		})
	}
}

func TestHandlerExamplePython(t *testing.T) {
	ex := pythonExample(t)
	runExample(t, ex)
	// One process per request works the same.
	t.Run("lifecycle-per-request", func(t *testing.T) { lifecycle(t, ex, ex.target(t, ex.dir(), false)) })
}

func TestHandlerExampleGo(t *testing.T) { runExample(t, goExample(t)) }

// TestHandlerFlagsBadInput: every mistake with --handler, --schema and
// test-handler is bad input (exit 2) that says what to do.
func TestHandlerFlagsBadInput(t *testing.T) {
	schema := filepath.Join(examplesDir, "python", "example-python-box.json")
	tmpl := "file://" + abs(t, filepath.Join(examplesDir, "python", "template.yaml"))
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--handler", "exec:python3 h.py", "create-stack", "--stack-name", "s", "--template-body", tmpl}, "write TYPE=exec:COMMAND ARGS..."},
		{[]string{"--handler", "Example::Python::Box=exec:python3 h.py", "create-stack", "--stack-name", "s", "--template-body", tmpl}, "no schema for the type; give it with --schema Example::Python::Box=FILE"},
		{[]string{"--schema", "Example::Python::Box=" + schema, "create-stack", "--stack-name", "s", "--template-body", tmpl}, "--schema Example::Python::Box: no --handler serves the type"},
		{[]string{"--handler", "Example::Go::Box=exec:h", "--schema", "Example::Go::Box=" + schema, "create-stack", "--stack-name", "s", "--template-body", tmpl}, "is the schema of Example::Python::Box"},
		{[]string{"--handler", "Example::Python::Box=exec:h", "--handler-timeout", "-1s", "create-stack", "--stack-name", "s", "--template-body", tmpl}, "--handler-timeout -1s: want a positive duration"},
		{[]string{"test-handler", filepath.Join(examplesDir, "python")}, "test-handler needs the handler: give --handler Example::Python::Box=exec:COMMAND ARGS..."},
		{[]string{"test-handler", filepath.Join(examplesDir, "python"), "--handler", "Example::Python::Box=exec:h", "-k", "create or"}, `-k "create or": the expression ends where a word was expected`},
		{[]string{"test-handler", filepath.Join(examplesDir, "python"), "--handler", "Example::Python::Box=exec:h", "-k", "nosuchtest"}, `-k "nosuchtest" selects no test`},
		{[]string{"test-handler", t.TempDir(), "--handler", "Example::Python::Box=exec:h"}, "no resource schema (a *.json file with typeName and properties) at its top"},
	}
	for _, tc := range cases {
		c := newCLI(t)
		_, errOut, code := c.run(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("stacksim %s: exit %d\n%s\nwant exit 2 and %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
}
