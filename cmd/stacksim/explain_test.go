package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExplainGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"explain-update-rollback-failed", []string{"explain", "UPDATE_ROLLBACK_FAILED"}},
		{"explain-create-failed", []string{"explain", "create-failed"}},
		{"explain-review-in-progress", []string{"explain", "review_in_progress"}},
		{"explain-update-in-progress", []string{"explain", "Update-In-Progress"}},
		{"explain-delete-complete", []string{"explain", "DELETE_COMPLETE"}},
		{"explain-resource-update-failed", []string{"explain", "--resource", "UPDATE_FAILED"}},
		{"explain-resource-delete-skipped", []string{"explain", "--resource", "delete-skipped"}},
		{"explain-update-rollback-failed-json", []string{"explain", "--output", "json", "UPDATE_ROLLBACK_FAILED"}},
		{"explain-resource-delete-skipped-yaml", []string{"explain", "--output", "yaml", "--resource", "DELETE_SKIPPED"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, c.args...)
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			golden(t, c.name, []byte(stdout))
		})
	}
}

// Every status of both machines can be explained.
func TestExplainEveryStatus(t *testing.T) {
	for _, args := range [][]string{
		{"CREATE_IN_PROGRESS", "CREATE_COMPLETE", "CREATE_FAILED", "ROLLBACK_IN_PROGRESS", "ROLLBACK_COMPLETE",
			"ROLLBACK_FAILED", "DELETE_IN_PROGRESS", "DELETE_FAILED", "DELETE_COMPLETE", "UPDATE_IN_PROGRESS",
			"UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "UPDATE_COMPLETE", "UPDATE_FAILED", "UPDATE_ROLLBACK_IN_PROGRESS",
			"UPDATE_ROLLBACK_FAILED", "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS", "UPDATE_ROLLBACK_COMPLETE",
			"REVIEW_IN_PROGRESS", "IMPORT_IN_PROGRESS", "IMPORT_COMPLETE", "IMPORT_ROLLBACK_IN_PROGRESS",
			"IMPORT_ROLLBACK_FAILED", "IMPORT_ROLLBACK_COMPLETE"},
	} {
		for _, s := range args {
			if _, stderr, code := runCLI(t, "explain", s); code != exitOK {
				t.Errorf("explain %s: exit %d: %s", s, code, stderr)
			}
		}
	}
	for _, s := range []string{"CREATE_IN_PROGRESS", "CREATE_FAILED", "CREATE_COMPLETE", "UPDATE_IN_PROGRESS",
		"UPDATE_FAILED", "UPDATE_COMPLETE", "DELETE_IN_PROGRESS", "DELETE_FAILED", "DELETE_COMPLETE", "DELETE_SKIPPED",
		"IMPORT_IN_PROGRESS", "IMPORT_FAILED", "IMPORT_COMPLETE", "IMPORT_ROLLBACK_IN_PROGRESS",
		"IMPORT_ROLLBACK_FAILED", "IMPORT_ROLLBACK_COMPLETE"} {
		if _, stderr, code := runCLI(t, "explain", "--resource", s); code != exitOK {
			t.Errorf("explain --resource %s: exit %d: %s", s, code, stderr)
		}
	}
}

// An unknown status is bad input (exit 2) with the closest names suggested.
func TestExplainUnknownStatus(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"explain", "UPDATE_ROLBACK_FAIL"},
			`stacksim: unknown stack status "UPDATE_ROLBACK_FAIL"; did you mean UPDATE_ROLLBACK_FAILED, UPDATE_ROLLBACK_COMPLETE or IMPORT_ROLLBACK_FAILED?` + "\n"},
		{[]string{"explain", "rollback-complet"},
			`stacksim: unknown stack status "rollback-complet"; did you mean ROLLBACK_COMPLETE, ROLLBACK_FAILED or UPDATE_ROLLBACK_COMPLETE?` + "\n"},
		{[]string{"explain", "DELETE_SKIPPED"},
			"stacksim: DELETE_SKIPPED is a resource status, not a stack status: add --resource\n"},
		{[]string{"explain", "--resource", "update-rollback-failed"},
			"stacksim: UPDATE_ROLLBACK_FAILED is a stack status, not a resource status: drop --resource\n"},
		{[]string{"explain", "banana"},
			`stacksim: unknown stack status "banana"; 'stacksim states' lists them all` + "\n"},
		{[]string{"explain", "--resource", "banana"},
			`stacksim: unknown resource status "banana"; 'stacksim states --resource' lists them all` + "\n"},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(t, c.args...)
		if code != exitBadInput || stdout != "" || stderr != c.want {
			t.Errorf("%v: exit %d, stdout %q\n got stderr %q\nwant stderr %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if _, _, code := runCLI(t, "explain"); code != exitBadInput {
		t.Errorf("explain without a status: exit %d, want 2", code)
	}
}

// explain --stack-name explains the status the stack is in: its reason,
// its failed resources, and AWS's answers for this stack (its name and
// ARN in the messages); with --logical-resource-id, its resource's.
func TestExplainAStack(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.must(exitOK, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml", "--quiet")
	c.must(exitFailed, "update-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v2.yaml",
		"--faults", dir+"faults.yaml", "--quiet")
	c.golden("explain-stack", exitOK, "explain", "--stack-name", "orders")
	c.golden("explain-stack-resource", exitOK, "explain", "--stack-name", "orders", "--logical-resource-id", "Config")
	c.golden("explain-stack-json", exitOK, "explain", "--stack-name", "orders", "--output", "json")
	out, _ := c.must(exitOK, "explain", "--stack-name", "orders")
	if strings.Contains(out, "NAME") && strings.Contains(out, "STACK_ID") {
		t.Errorf("the refusals are an example's, not the stack's:\n%s", out)
	}
	// text and table are the prose; so is a settings file's output: json
	// (the default of AWS's answers, not of explain's prose).
	for _, args := range [][]string{{"--output", "text"}, {"--output", "table"}} {
		if again, _ := c.must(exitOK, append([]string{"explain", "--stack-name", "orders"}, args...)...); again != out {
			t.Errorf("explain %v is not the prose:\n%s", args, again)
		}
	}
	settings := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(settings, []byte("output: json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, _ := c.must(exitOK, "--config", settings, "explain", "--stack-name", "orders"); again != out {
		t.Errorf("a settings file's output: json changed explain's prose:\n%s", again)
	}
	// The document: the stack, what failed, and refusals naming it.
	js, _ := c.must(exitOK, "explain", "--stack-name", "orders", "--output", "json")
	var doc struct {
		Stack struct {
			StackName, StackStatus string
		}
		FailedResources []struct{ LogicalResourceID, ResourceStatus string }
		Explanation     struct {
			Status   string
			Refusals []struct{ Operation, Code, Message string }
		}
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, js)
	}
	if doc.Stack.StackName != "orders" || doc.Stack.StackStatus != "UPDATE_ROLLBACK_FAILED" || doc.Explanation.Status != "UPDATE_ROLLBACK_FAILED" ||
		len(doc.FailedResources) == 0 || len(doc.Explanation.Refusals) == 0 {
		t.Fatalf("%+v", doc)
	}
	for _, r := range doc.Explanation.Refusals {
		if strings.Contains(r.Message, "NAME") || strings.Contains(r.Message, "STACK_ID") {
			t.Errorf("%s's refusal is an example's: %s", r.Operation, r.Message)
		}
	}
	ops, _ := c.must(exitOK, "explain", "--stack-name", "orders", "--logical-resource-id", "Config", "--output", "json", "--query", "[resource.resourceStatus, explanation.machine]")
	if got := strings.Join(strings.Fields(ops), ""); got != `["UPDATE_FAILED","resource"]` {
		t.Errorf("--query over the resource's document: %s", ops)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "--stack-name", "nope"}, "Stack with id nope does not exist"},
		{[]string{"explain", "--stack-name", "orders", "UPDATE_COMPLETE"}, "give a STATUS or --stack-name, not both"},
		{[]string{"explain", "--stack-name", "orders", "--resource"}, "--logical-resource-id"},
		{[]string{"explain", "--logical-resource-id", "Config"}, "--logical-resource-id needs --stack-name"},
		{[]string{"explain"}, "give the STATUS to explain"},
		{[]string{"explain", "--stack-name", "orders", "--query", "stack"}, "--query selects from explain's document, not its prose: add --output json"},
		{[]string{"explain", "--output", "bogus", "CREATE_FAILED"}, "argument --output: Invalid choice"},
		{[]string{"explain", "--stack-name", "orders", "--logical-resource-id", "Nope"}, "Resource Nope does not exist for stack orders"},
	} {
		_, errOut := c.must(exitBadInput, bad.args...)
		if !strings.Contains(errOut, bad.want) {
			t.Errorf("%v: stderr %q, want %q", bad.args, errOut, bad.want)
		}
	}
}
