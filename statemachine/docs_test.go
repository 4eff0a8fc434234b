package statemachine

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every status of each machine has its own section in the committed
// docs/states.md, under its machine's heading.
func TestEveryStatusInDocs(t *testing.T) {
	raw, err := os.ReadFile("../docs/states.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	stackPart, rest, ok := strings.Cut(doc, "\n## The resource\n")
	if !ok {
		t.Fatal("docs/states.md has no '## The resource' section")
	}
	resourcePart, _, _ := strings.Cut(rest, "\n## Where the seeds and AWS differ\n")
	for _, s := range StackStatuses() {
		if !strings.Contains(stackPart, "\n#### "+string(s)+"\n") {
			t.Errorf("stack status %s has no section in docs/states.md", s)
		}
	}
	for _, s := range ResourceStatuses() {
		if !strings.Contains(resourcePart, "\n#### "+string(s)+"\n") {
			t.Errorf("resource status %s has no section in docs/states.md", s)
		}
	}
	for _, ev := range StackEvents() {
		if !strings.Contains(stackPart, "| `"+string(ev)+"` |") {
			t.Errorf("stack event %s is not in the events table", ev)
		}
	}
	for _, ev := range ResourceEvents() {
		if !strings.Contains(resourcePart, "| `"+string(ev)+"` |") {
			t.Errorf("resource event %s is not in the events table", ev)
		}
	}
}

// The hand-written prose names only events that exist: `word` in backticks
// that looks like an event must be one.
func TestProseNamesRealEvents(t *testing.T) {
	known := map[string]bool{"statemachine": true} // the package, named in the intro
	for _, e := range StackEvents() {
		known[string(e)] = true
	}
	for _, e := range ResourceEvents() {
		known[string(e)] = true
	}
	texts := map[string]string{"intro": proseIntro, "stack paths": proseStackPaths, "resource paths": proseResourcePaths}
	for i, n := range seedNotes {
		texts[fmt.Sprintf("seed note %d", i)] = n.Encoded
	}
	code := regexp.MustCompile("`([a-z_]+)`")
	for name, text := range texts {
		for _, m := range code.FindAllStringSubmatch(text, -1) {
			if !known[m[1]] {
				t.Errorf("%s names `%s`, which is no event", name, m[1])
			}
		}
	}
}

// Every status has prose, and every piece of prose belongs to a status.
func TestProseCoversEveryStatus(t *testing.T) {
	for _, s := range StackStatuses() {
		if p := stackProse[s]; p.Summary == "" || p.Next == "" {
			t.Errorf("stack status %s lacks a summary or next steps", s)
		}
	}
	for _, s := range ResourceStatuses() {
		if p := resourceProse[s]; p.Summary == "" || p.Next == "" {
			t.Errorf("resource status %s lacks a summary or next steps", s)
		}
	}
	if len(stackProse) != len(StackStatuses()) || len(resourceProse) != len(ResourceStatuses()) {
		t.Errorf("prose for %d stack and %d resource statuses", len(stackProse), len(resourceProse))
	}
}

// The diagrams draw every transition of the tables, and nothing else.
func TestDiagramsDrawEveryTransition(t *testing.T) {
	for _, m := range []Machine{StackMachine, ResourceMachine} {
		var mermaid, dot bytes.Buffer
		if err := Render(&mermaid, m, FormatMermaid); err != nil {
			t.Fatal(err)
		}
		if err := Render(&dot, m, FormatDOT); err != nil {
			t.Fatal(err)
		}
		arrows := 0
		for _, a := range viewOf(m).arcs() {
			from := a.from
			if from == NotExist {
				from = "[*]"
			}
			line := fmt.Sprintf("    %s --> %s: %s\n", from, a.to, strings.Join(a.events, ", "))
			if !strings.Contains(mermaid.String(), line) {
				t.Errorf("%s mermaid lacks %q", m, line)
			}
			if !strings.Contains(dot.String(), fmt.Sprintf("%q -> %q", label(a.from), a.to)) {
				t.Errorf("%s dot lacks %s -> %s", m, label(a.from), a.to)
			}
			arrows += len(a.events)
		}
		want := len(StackTransitions())
		if m == ResourceMachine {
			want = len(ResourceTransitions())
		}
		if arrows != want {
			t.Errorf("%s: the arcs carry %d events, the table has %d transitions", m, arrows, want)
		}
		if !strings.HasPrefix(mermaid.String(), "stateDiagram-v2\n") {
			t.Errorf("%s mermaid does not start with stateDiagram-v2", m)
		}
	}
}

func TestRenderUnknownFormat(t *testing.T) {
	err := Render(&bytes.Buffer{}, StackMachine, "svg")
	if err == nil || !strings.Contains(err.Error(), "mermaid, dot, table, json, markdown") {
		t.Errorf("got %v", err)
	}
}

func TestParseStatus(t *testing.T) {
	for in, want := range map[string]StackStatus{
		"UPDATE_ROLLBACK_FAILED":   "UPDATE_ROLLBACK_FAILED",
		"update-rollback-failed":   "UPDATE_ROLLBACK_FAILED",
		" Update_Rollback-Failed ": "UPDATE_ROLLBACK_FAILED",
		"review in progress":       "REVIEW_IN_PROGRESS",
	} {
		if got, err := ParseStackStatus(in); err != nil || got != want {
			t.Errorf("ParseStackStatus(%q) = %s, %v", in, got, err)
		}
	}
	if got, err := ParseResourceStatus("delete-skipped"); err != nil || got != ResourceStatusDeleteSkipped {
		t.Errorf("ParseResourceStatus = %s, %v", got, err)
	}
	_, err := ParseStackStatus("DELETE_SKIPPED")
	var ue *UnknownStatusError
	if !asUnknown(err, &ue) || ue.OtherKind != "resource" {
		t.Errorf("DELETE_SKIPPED as a stack status: %v", err)
	}
	_, err = ParseStackStatus("UPDATE_ROLLBACK_FAIL")
	if !asUnknown(err, &ue) || len(ue.Suggestions) == 0 || ue.Suggestions[0] != "UPDATE_ROLLBACK_FAILED" {
		t.Errorf("UPDATE_ROLLBACK_FAIL: %v", err)
	}
	if _, err := ParseStackStatus(""); err == nil {
		t.Error("the empty name parsed: NotExist is no status to explain")
	}
}

func asUnknown(err error, target **UnknownStatusError) bool {
	u, ok := err.(*UnknownStatusError)
	*target = u
	return ok
}

func TestExplainUnknown(t *testing.T) {
	if _, err := ExplainStack("NOPE"); err == nil {
		t.Error("ExplainStack accepted an unknown status")
	}
	if _, err := ExplainResource(NotExist); err == nil {
		t.Error("ExplainResource accepted NotExist")
	}
}
