package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The commands on a state file, in process: a story (create, an update
// whose rollback fails, continue-update-rollback, change sets, exports),
// with the output of every command checked against golden files in json,
// table and text.

const fixtures = "../../fixtures"

// cli runs commands on one state file.
type cli struct {
	t     *testing.T
	state string
}

func newCLI(t *testing.T) *cli {
	return &cli{t: t, state: filepath.Join(t.TempDir(), "state.db")}
}

// run runs a command with --state and returns what it wrote.
func (c *cli) run(args ...string) (string, string, int) {
	c.t.Helper()
	return runCLI(c.t, append([]string{"--state", c.state}, args...)...)
}

// must runs a command that must exit with want.
func (c *cli) must(want int, args ...string) (string, string) {
	c.t.Helper()
	out, errOut, code := c.run(args...)
	if code != want {
		c.t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out, errOut)
	}
	return out, errOut
}

// transcript is a command's whole effect, for a golden file.
func transcript(args []string, out, errOut string, code int) []byte {
	return []byte(fmt.Sprintf("$ stacksim %s\n--- stdout\n%s--- stderr\n%s--- exit %d\n", strings.Join(args, " "), out, errOut, code))
}

// golden runs a command and compares its transcript with
// testdata/commands/NAME.golden.
func (c *cli) golden(name string, want int, args ...string) {
	c.t.Helper()
	out, errOut, code := c.run(args...)
	if code != want {
		c.t.Errorf("%s: exit %d, want %d\n%s", name, code, want, errOut)
	}
	golden(c.t, "commands/"+name, transcript(args, out, errOut, code))
}

func TestCommandsStory(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.golden("create-stack", 0, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml",
		"--tags", "Key=team,Value=core", "Key=cost-centre,Value=42")
	c.golden("update-stack-rollback-failed", 1, "update-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v2.yaml", "--faults", dir+"faults.yaml")
	c.golden("continue-update-rollback-refused", 2, "continue-update-rollback", "--stack-name", "orders", "--resources-to-skip", "Queue")
	c.golden("continue-update-rollback", 0, "continue-update-rollback", "--stack-name", "orders")
	for _, format := range []string{"json", "table", "text"} {
		c.golden("describe-stacks."+format, 0, "describe-stacks", "--stack-name", "orders", "--output", format)
		c.golden("list-stacks."+format, 0, "list-stacks", "--output", format)
		c.golden("describe-stack-events."+format, 0, "describe-stack-events", "--stack-name", "orders", "--output", format)
		c.golden("describe-stack-resource."+format, 0, "describe-stack-resource", "--stack-name", "orders", "--logical-resource-id", "Queue", "--output", format)
		c.golden("describe-stack-resources."+format, 0, "describe-stack-resources", "--stack-name", "orders", "--output", format)
		c.golden("list-stack-resources."+format, 0, "list-stack-resources", "--stack-name", "orders", "--output", format)
		c.golden("get-template."+format, 0, "get-template", "--stack-name", "orders", "--output", format)
		c.golden("describe-stack-operation."+format, 0, "describe-stack-operation", "--stack-name", "orders", "--output", format)
	}
	c.golden("timeline.mermaid", 0, "timeline", "--stack-name", "orders")
	c.golden("timeline.text", 0, "timeline", "--stack-name", "orders", "--output", "text")
	c.golden("timeline.json", 0, "timeline", "--stack-name", "orders", "--output", "json")
	c.golden("list-stacks-filter", 0, "list-stacks", "--stack-status-filter", "UPDATE_ROLLBACK_COMPLETE", "CREATE_COMPLETE", "--output", "text")
	c.golden("delete-stack", 0, "delete-stack", "--stack-name", "orders")
}

func TestCommandsChangeSets(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-add-remove/"
	c.golden("create-change-set-create", 0, "create-change-set", "--stack-name", "settings", "--change-set-name", "first",
		"--change-set-type", "CREATE", "--template-body", "file://"+dir+"v1.yaml")
	c.golden("execute-change-set-create", 0, "execute-change-set", "--stack-name", "settings", "--change-set-name", "first")
	c.golden("create-change-set-no-changes", 1, "create-change-set", "--stack-name", "settings", "--change-set-name", "same",
		"--template-body", "file://"+dir+"v1.yaml")
	c.golden("delete-change-set", 0, "delete-change-set", "--stack-name", "settings", "--change-set-name", "same")
	c.must(0, "create-change-set", "--stack-name", "settings", "--change-set-name", "second", "--template-body", "file://"+dir+"v2.yaml")
	for _, format := range []string{"json", "table", "text"} {
		c.golden("describe-change-set."+format, 0, "describe-change-set", "--stack-name", "settings", "--change-set-name", "second", "--output", format)
		c.golden("list-change-sets."+format, 0, "list-change-sets", "--stack-name", "settings", "--output", format)
	}
	c.golden("execute-change-set-update", 0, "execute-change-set", "--stack-name", "settings", "--change-set-name", "second")
}

func TestCommandsExports(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/exports-imports/"
	c.must(0, "create-stack", "--stack-name", "producer", "--template-body", "file://"+dir+"producer.yaml")
	c.must(0, "create-stack", "--stack-name", "consumer", "--template-body", "file://"+dir+"consumer.yaml")
	for _, format := range []string{"json", "table", "text"} {
		c.golden("list-exports."+format, 0, "list-exports", "--output", format)
		c.golden("list-imports."+format, 0, "list-imports", "--export-name", "shared-queue-url", "--output", format)
	}
	c.golden("delete-stack-export-in-use", 1, "delete-stack", "--stack-name", "producer")
}

func TestCommandsUntilStepCancel(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.must(0, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml", "--quiet")
	c.golden("update-stack-until", 0, "update-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v2.yaml", "--until", "Queue:UPDATE_IN_PROGRESS")
	c.golden("describe-stacks-in-motion", 0, "describe-stacks", "--stack-name", "orders", "--output", "text")
	c.golden("step", 0, "step", "--stack-name", "orders")
	c.golden("step-events", 0, "step", "--stack-name", "orders", "--events", "2")
	c.golden("cancel-update-stack", 0, "cancel-update-stack", "--stack-name", "orders")
	c.golden("step-at-rest", 2, "step", "--stack-name", "orders")
	// --until on a stack status, then to rest.
	c.golden("update-stack-until-stack", 0, "update-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v2.yaml",
		"--until", "orders:update-complete-cleanup-in-progress", "--quiet")
	c.golden("step-to-rest", 0, "step", "--stack-name", "orders", "--to-rest")
	// The stack's own first event of an operation is written by the call,
	// before the loop runs: --until stops on it all the same.
	c.golden("delete-stack-until-stack", 0, "delete-stack", "--stack-name", "orders", "--until", "orders:DELETE_IN_PROGRESS")
	out, _ := c.must(0, "describe-stacks", "--stack-name", "orders", "--query", "Stacks[0].StackStatus", "--output", "text")
	if strings.TrimSpace(out) != "DELETE_IN_PROGRESS" {
		t.Errorf("after --until orders:DELETE_IN_PROGRESS the stack is %s", out)
	}
}

func TestCommandsCreateFailures(t *testing.T) {
	c := newCLI(t)
	faults := "testdata/faults/throttles-fail.yaml"
	tmpl := "file://" + fixtures + "/create-do-nothing/template.yaml"
	c.golden("create-stack-rollback", 1, "create-stack", "--stack-name", "a", "--template-body", tmpl, "--faults", faults)
	c.golden("create-stack-disable-rollback", 1, "create-stack", "--stack-name", "b", "--template-body", tmpl, "--faults", faults, "--disable-rollback")
	c.golden("rollback-stack", 0, "rollback-stack", "--stack-name", "b")
	c.golden("create-stack-on-failure-delete", 1, "create-stack", "--stack-name", "c", "--template-body", tmpl, "--faults", faults, "--on-failure", "DELETE")
	c.golden("update-stack-rollback-complete", 2, "update-stack", "--stack-name", "a", "--use-previous-template")
}

// --seed applies to a new state; a loaded state keeps its own and says so.
func TestSeedOfALoadedState(t *testing.T) {
	c := newCLI(t)
	tmpl := "file://" + fixtures + "/update-in-place/v1.yaml"
	out7, _ := c.must(0, "--seed", "7", "create-stack", "--stack-name", "a", "--template-body", tmpl, "--quiet")
	_, errOut := c.must(0, "--seed", "8", "create-stack", "--stack-name", "b", "--template-body", tmpl, "--quiet")
	if !strings.Contains(errOut, "--seed 8 ignored: the state file "+c.state+" was made with seed 7, which it keeps") {
		t.Errorf("no warning:\n%s", errOut)
	}
	d := newCLI(t)
	out0, _ := d.must(0, "create-stack", "--stack-name", "a", "--template-body", tmpl, "--quiet")
	if out0 == out7 {
		t.Errorf("--seed made no difference: %s", out0)
	}
}

// --parameters in its three spellings: shorthand, a JSON list, file://.
func TestParameterSpellings(t *testing.T) {
	c := newCLI(t)
	tmpl := "file://" + fixtures + "/create-success/template.yaml"
	c.must(0, "create-stack", "--stack-name", "a", "--template-body", tmpl, "--parameters", `[{"ParameterKey": "Env", "ParameterValue": "prod"}]`, "--quiet")
	params := filepath.Join(t.TempDir(), "params.json")
	if err := os.WriteFile(params, []byte(`[{"ParameterKey": "Env", "ParameterValue": "dev"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	c.must(0, "update-stack", "--stack-name", "a", "--use-previous-template", "--parameters", "file://"+params, "--quiet")
	c.must(0, "update-stack", "--stack-name", "a", "--use-previous-template", "--parameters", "ParameterKey=Env,ParameterValue=prod", "--quiet")
	_, errOut, code := c.run("update-stack", "--stack-name", "a", "--use-previous-template", "--parameters", "ParameterKey=Env,UsePreviousValue=true")
	if code != exitBadInput || !strings.Contains(errOut, "No updates are to be performed.") {
		t.Errorf("UsePreviousValue: exit %d\n%s", code, errOut)
	}
	out, _ := c.must(0, "describe-stacks", "--stack-name", "a", "--output", "text")
	if !strings.Contains(out, "PARAMETERS\tEnv\tprod") {
		t.Errorf("parameters:\n%s", out)
	}
}

// --until names a nested stack's resource by its path: the create stops in
// motion there, and step runs it to rest.
func TestCommandsUntilNested(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/nested-stacks/"
	c.golden("create-stack-until-nested", 0, "--s3-dir", dir+"s3", "create-stack", "--stack-name", "shop", "--template-body", "file://"+dir+"parent.yaml",
		"--until", "App.Leaf.Parameter:CREATE_COMPLETE", "--quiet")
	out, _ := c.must(0, "describe-stacks", "--stack-name", "shop", "--query", "Stacks[0].StackStatus", "--output", "text")
	if strings.TrimSpace(out) != "CREATE_IN_PROGRESS" {
		t.Fatalf("after --until App.Leaf.Parameter:CREATE_COMPLETE the stack is %s", out)
	}
	_, errOut := c.must(0, "--s3-dir", dir+"s3", "step", "--stack-name", "shop", "--to-rest", "--quiet")
	if !strings.Contains(errOut, "shop: CREATE_COMPLETE") {
		t.Fatalf("step --to-rest: %s", errOut)
	}
}
