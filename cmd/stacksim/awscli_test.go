package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// A script written for the AWS CLI — deploy, wait, describe-stacks with
// --query, delete, wait — runs unchanged with stacksim in the place of
// `aws cloudformation` (an `aws` on PATH that runs stacksim with the rest
// of its arguments), and prints what the golden file shows on stdout.
func TestAWSCLIScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on this machine: the script cannot run")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	shims := filepath.Join(dir, "bin")
	if err := os.MkdirAll(shims, 0o755); err != nil {
		t.Fatal(err)
	}
	shim := fmt.Sprintf("#!/bin/sh\n# stacksim in the place of aws cloudformation\n[ \"$1\" = cloudformation ] && shift\nexec %q \"$@\"\n", bin)
	if err := os.WriteFile(filepath.Join(shims, "aws"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"deploy.sh", "app.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", "awscli", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bash, "deploy.sh")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+shims+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("the script failed: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errOut.String())
	}
	golden(t, "awscli/deploy.stdout", out.Bytes())
}

// The AWS CLI's global options and waiters, as goldens.
func TestAWSCLIOptions(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.must(0, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml", "--quiet")
	c.golden("query-outputs", 0, "describe-stacks", "--query", "Stacks[0].Outputs")
	c.golden("query-hash.table", 0, "describe-stacks", "--query", "Stacks[].{Name: StackName, Status: StackStatus, Created: CreationTime}", "--output", "table")
	c.golden("describe-events-max-items", 0, "describe-events", "--stack-name", "orders", "--max-items", "2",
		"--query", "[OperationEvents[].[OperationType,EventType,ResourceStatus], NextToken]")
	c.golden("describe-events-bad-filter", 2, "describe-events", "--stack-name", "orders", "--filters", "Failed=true")
	c.golden("describe-events-nothing", 2, "describe-events")
	c.golden("query-list.text", 0, "describe-stack-events", "--stack-name", "orders", "--query", "StackEvents[].[LogicalResourceId,ResourceStatus]", "--output", "text")
	c.golden("query-scalar.text", 0, "describe-stacks", "--query", "Stacks[0].StackStatus", "--output", "text")
	c.golden("query-null", 0, "describe-stacks", "--query", "Stacks[0].{Name: StackName, Missing: NoSuchKey}")
	c.golden("describe-stacks.yaml", 0, "describe-stacks", "--output", "yaml")
	c.golden("describe-stacks.yaml-stream", 0, "describe-stacks", "--output", "yaml-stream")
	first, _ := c.must(0, "describe-stack-events", "--stack-name", "orders", "--max-items", "3", "--query", "[StackEvents[].ResourceStatus, NextToken]", "--output", "json")
	c.golden("max-items", 0, "describe-stack-events", "--stack-name", "orders", "--max-items", "3", "--query", "[StackEvents[].ResourceStatus, NextToken]")
	token := strings.Trim(strings.TrimSpace(strings.Split(strings.TrimSpace(first), "\n")[len(strings.Split(strings.TrimSpace(first), "\n"))-2]), `" `)
	c.golden("starting-token", 0, "describe-stack-events", "--stack-name", "orders", "--max-items", "3", "--starting-token", token, "--query", "StackEvents[].ResourceStatus")
	c.golden("no-paginate", 0, "list-stack-resources", "--stack-name", "orders", "--no-paginate", "--query", "StackResourceSummaries[].LogicalResourceId")
	c.golden("cli-input-json", 0, "describe-stack-resource", "--cli-input-json", `{"StackName": "orders", "LogicalResourceId": "Queue"}`, "--query", "StackResourceDetail.ResourceStatus")
	c.golden("wait-create", 0, "wait", "stack-create-complete", "--stack-name", "orders")
	c.golden("wait-update-idle", exitWaiterFailed, "wait", "stack-update-complete", "--stack-name", "orders")
	c.golden("wait-missing", exitWaiterFailed, "wait", "stack-create-complete", "--stack-name", "nosuch")
	c.golden("wait-delete-missing", 0, "wait", "stack-delete-complete", "--stack-name", "nosuch")
	// A stack stopped in motion: the waiter runs it on in virtual time.
	c.must(0, "update-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v2.yaml", "--faults", dir+"faults.yaml",
		"--until", "Queue:UPDATE_IN_PROGRESS", "--quiet")
	c.golden("wait-update-fails", exitWaiterFailed, "wait", "stack-update-complete", "--stack-name", "orders")
	c.golden("wait-rollback-failed-status", 0, "describe-stacks", "--stack-name", "orders", "--query", "Stacks[0].StackStatus")
	// The update's failure and its rollback's, each in its operation.
	c.golden("describe-events-failed", 0, "describe-events", "--stack-name", "orders", "--filters", "FailedEvents=true",
		"--query", "OperationEvents[].[OperationType,OperationStatus,EventType,LogicalResourceId,ResourceStatus]", "--output", "text")
	c.golden("last-operations", 0, "describe-stacks", "--stack-name", "orders", "--query", "Stacks[0].LastOperations[].OperationType")
	c.golden("debug-and-profile", 0, "--profile", "prod", "--no-cli-pager", "--color", "off", "describe-stacks", "--query", "length(Stacks)")
}

// The YAML output reads back as the JSON output's value.
func TestYAMLOutputReadsBack(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.must(0, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml",
		"--tags", "Key=version,Value=1.0", "Key=flag,Value=true", "Key=null,Value=null", "Key=octal,Value=017", "--quiet")
	for _, op := range [][]string{{"describe-stacks"}, {"describe-stack-events", "--stack-name", "orders"}, {"get-template", "--stack-name", "orders"}} {
		js, _ := c.must(0, append(op, "--output", "json")...)
		ym, _ := c.must(0, append(op, "--output", "yaml")...)
		var fromJSON, fromYAML any
		if err := yaml.Unmarshal([]byte(js), &fromJSON); err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal([]byte(ym), &fromYAML); err != nil {
			t.Fatalf("%s: the YAML does not parse: %v\n%s", op[0], err, ym)
		}
		if fmt.Sprint(fromJSON) != fmt.Sprint(fromYAML) {
			t.Errorf("%s: the YAML reads back as\n%v\nthe JSON as\n%v", op[0], fromYAML, fromJSON)
		}
	}
}

// The waiters are the service model's: each of botocore's
// cloudformation waiters on an operation stacksim has is here, with the
// same operation, delay, attempts and acceptors in the same order.
func TestWaitersAreTheModels(t *testing.T) {
	out, err := exec.Command("python3", "-c", `import botocore,os;print(os.path.dirname(botocore.__file__))`).Output()
	if err != nil {
		t.Skip("botocore is not installed on this machine (python3 -c 'import botocore'): the waiters cannot be compared with its model")
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "data", "cloudformation", "2010-05-15", "waiters-2.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("botocore has no %s: %v", path, err)
	}
	var model struct {
		Waiters map[string]struct {
			Operation   string
			Delay       int
			MaxAttempts int
			Acceptors   []struct {
				Matcher, Argument, State string
				Expected                 any
			}
		}
	}
	if err := json.Unmarshal(data, &model); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{"DescribeStacks": true, "DescribeChangeSet": true}
	ours := map[string]waiter{}
	for _, w := range waiters {
		ours[w.name] = w
	}
	for name, m := range model.Waiters {
		w, ok := ours[name]
		if !have[m.Operation] {
			if ok {
				t.Errorf("%s waits on %s, which stacksim does not have", name, m.Operation)
			}
			continue
		}
		if !ok {
			t.Errorf("the model's waiter %s is missing", name)
			continue
		}
		if w.operation != m.Operation || w.delay != m.Delay || w.maxAttempts != m.MaxAttempts || len(w.acceptors) != len(m.Acceptors) {
			t.Errorf("%s: %s %d %d %d acceptors, the model %s %d %d %d", name, w.operation, w.delay, w.maxAttempts, len(w.acceptors),
				m.Operation, m.Delay, m.MaxAttempts, len(m.Acceptors))
			continue
		}
		for i, a := range m.Acceptors {
			got := w.acceptors[i]
			if got.matcher != a.Matcher || got.argument != a.Argument || got.state != a.State || got.expected != fmt.Sprint(a.Expected) {
				t.Errorf("%s acceptor %d: %+v, the model %+v", name, i, got, a)
			}
		}
		delete(ours, name)
	}
	for name := range ours {
		t.Errorf("waiter %s is not in the model", name)
	}
}
