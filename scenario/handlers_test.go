package scenario

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
)

func TestParseHandlerTarget(t *testing.T) {
	good := []struct {
		spec       string
		argv       []string
		proto      resources.Protocol
		persistent bool
	}{
		{`exec:python3 handler.py`, []string{"python3", "handler.py"}, resources.ProtocolStacksim, false},
		{`exec+persistent:./h --flag "a b"`, []string{"./h", "--flag", "a b"}, resources.ProtocolStacksim, true},
		{`exec+rpdk-test+persistent:node launcher.js dist/handlers.js`, []string{"node", "launcher.js", "dist/handlers.js"}, resources.ProtocolRPDKTest, true},
		{`exec+persistent+rpdk:["my handler"]`, []string{"my handler"}, resources.ProtocolRPDK, true},
	}
	for _, g := range good {
		h, err := ParseHandlerTarget(g.spec)
		if err != nil || strings.Join(h.Argv, "|") != strings.Join(g.argv, "|") || h.Protocol != g.proto || h.Persistent != g.persistent {
			t.Errorf("%s: %+v %v", g.spec, h, err)
		}
	}
	bad := map[string]string{
		`python3 handler.py`:           "unknown handler target",
		`http://127.0.0.1:9/h`:         "unknown handler target",
		`exec+fast:./h`:                "unknown option +fast",
		`exec+rpdk+rpdk-test:./h`:      "names two protocols",
		`exec+persistent+persistent:h`: "+persistent twice",
		`exec:`:                        "names no program",
		`exec:"unclosed`:               "close every quote",
	}
	for spec, want := range bad {
		if _, err := ParseHandlerTarget(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
	if _, err := ParseHandler("exec:./h"); err == nil || !strings.Contains(err.Error(), "write TYPE=exec:COMMAND") {
		t.Errorf("no type: %v", err)
	}
}

func TestScenarioHandlers(t *testing.T) {
	bad := `name: x
handlers:
  Example::Python::Box: {target: "exec+fast:python3 h.py"}
  Example::Go::Box: {schema: s.json}
  Example::Other::Box: {target: "exec:h", timeot: 3s}
steps: []
`
	_, err := Load("sc.yaml", []byte(bad))
	for _, want := range []string{`sc.yaml:3:25: handler of Example::Python::Box: handler target "exec+fast": unknown option +fast`,
		"sc.yaml:4:21: handler of Example::Go::Box has no target", `sc.yaml:5:43: unknown key "timeot" of a handler`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant %s", err, want)
		}
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the scenario's handler is not run")
	}
	dir, _ := filepath.Abs("../examples/handlers/python")
	t.Setenv("EXAMPLE_CLOUD_DIR", filepath.Join(t.TempDir(), "cloud"))
	sc, err := Load(filepath.Join(dir, "scenario.yaml"), []byte(`name: boxes
handlers:
  Example::Python::Box: {target: "exec+persistent:python3 handler.py", schema: example-python-box.json}
steps:
  - CreateStack: {StackName: boxes, TemplateBody: file://template.yaml}
    expect: {status: CREATE_COMPLETE, contractViolations: 0}
  - UpdateStack: {StackName: boxes, TemplateBody: file://template-clash.yaml}
    expect: {status: UPDATE_ROLLBACK_COMPLETE}
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), sc, Options{})
	if err != nil || !res.OK() {
		t.Fatalf("%v %v\n%s", err, res.Failures, res.Log())
	}
}

// FuzzParseHandlerTarget: any target is parsed or refused, never a panic;
// a parsed one names a program.
func FuzzParseHandlerTarget(f *testing.F) {
	for _, s := range []string{"exec:python3 h.py", "exec+rpdk-test+persistent:node l.js d.js", `exec:["a b"]`, "exec+:x", "exec:'", "http://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		h, err := ParseHandlerTarget(spec)
		if err == nil && (len(h.Argv) == 0 || h.Argv[0] == "") {
			t.Fatalf("%q parsed without a program: %+v", spec, h)
		}
	})
}
