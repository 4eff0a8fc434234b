package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/scenario"
)

func TestStatesGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"states-table", []string{"states"}},
		{"states-mermaid", []string{"states", "--output", "mermaid"}},
		{"states-dot", []string{"states", "--output", "dot"}},
		{"states-json", []string{"states", "--output", "json"}},
		{"states-resource-table", []string{"states", "--resource"}},
		{"states-resource-mermaid", []string{"states", "--resource", "--output", "mermaid"}},
		{"states-resource-dot", []string{"states", "--resource", "--output", "dot"}},
		{"states-resource-json", []string{"states", "--resource", "--output", "json"}},
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

func TestStatesJSONIsValid(t *testing.T) {
	for _, args := range [][]string{{"states", "--output", "json"}, {"states", "--resource", "--output", "json"}} {
		stdout, _, _ := runCLI(t, args...)
		var doc struct {
			Machine  string
			Statuses []struct{ Status string }
			Events   []struct{ Event string }
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if len(doc.Statuses) == 0 || len(doc.Events) == 0 || doc.Statuses[0].Status != "" {
			t.Errorf("%v: %d statuses (first %q), %d events", args, len(doc.Statuses), doc.Statuses[0].Status, len(doc.Events))
		}
	}
}

// The markdown format is docs/states.md: `make docs` writes it with this
// command, and `make docs-check` compares. The test says so early.
func TestStatesMarkdownIsTheDoc(t *testing.T) {
	stdout, _, code := runCLI(t, "states", "--output", "markdown")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	doc, err := os.ReadFile("../../docs/states.md")
	if err != nil {
		t.Fatal(err)
	}
	if stdout != string(doc) {
		t.Errorf("docs/states.md is stale: run 'make docs'\n%s", scenario.Diff(string(doc), stdout))
	}
}

func TestStatesBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"states", "--output", "svg"}, `stacksim: --output "svg": want mermaid, dot, table, json, markdown` + "\n"},
		{[]string{"states", "--resource", "--output", "markdown"}, "stacksim: --output markdown renders both machines: drop --resource\n"},
		{[]string{"states", "extra"}, "stacksim: unknown command \"extra\" for \"stacksim states\"\nRun 'stacksim states --help' for usage.\n"},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(t, c.args...)
		if code != exitBadInput || stdout != "" || stderr != c.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

func TestStatesHelpListsFormats(t *testing.T) {
	stdout, _, _ := runCLI(t, "states", "--help")
	if !strings.Contains(stdout, "mermaid, dot, table, json, markdown") {
		t.Errorf("help does not list the formats:\n%s", stdout)
	}
}
