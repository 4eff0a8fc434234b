package resources_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
	"github.com/stacksim/stacksim/resources/faults"
)

var fence = regexp.MustCompile("(?ms)^[ \t]*```([a-z]*)\n(.*?)^[ \t]*```")

type block struct{ lang, body string }

func blocks(t *testing.T, path string) (string, []block) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	for _, m := range fence.FindAllStringSubmatch(string(data), -1) {
		out = append(out, block{m[1], m[2]})
	}
	return string(data), out
}

// normalized drops indentation and blank lines.
func normalized(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func containsRun(hay, needle []string) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		ok := true
		for j := range needle {
			if hay[i+j] != needle[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestDocsQuoteExamples: every Go block of the docs is quoted from an
// example that the tests compile (and run, where it has an Output).
func TestDocsQuoteExamples(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	examples := normalized(string(src))
	for _, doc := range []string{"../docs/handlers.md", "../docs/faults.md"} {
		_, bs := blocks(t, doc)
		n := 0
		for _, b := range bs {
			if b.lang != "go" {
				continue
			}
			n++
			if !containsRun(examples, normalized(b.body)) {
				t.Errorf("%s: a Go block is not quoted from example_test.go:\n%s", doc, b.body)
			}
		}
		if n == 0 {
			t.Errorf("%s has no Go example", doc)
		}
	}
}

func TestFaultDocExamplesLoad(t *testing.T) {
	_, bs := blocks(t, "../docs/faults.md")
	n := 0
	for _, b := range bs {
		if b.lang != "yaml" {
			continue
		}
		n++
		if _, err := faults.Load("docs/faults.md", []byte(b.body)); err != nil {
			t.Errorf("%v\n%s", err, b.body)
		}
	}
	if n < 8 {
		t.Fatalf("only %d YAML examples", n)
	}
}

func TestHandlerDocExamples(t *testing.T) {
	text, bs := blocks(t, "../docs/handlers.md")
	var creq *resources.CustomRequest
	for _, b := range bs {
		if b.lang != "json" {
			continue
		}
		if !json.Valid([]byte(b.body)) {
			t.Errorf("invalid JSON:\n%s", b.body)
			continue
		}
		switch {
		case strings.Contains(b.body, `"RequestType"`):
			creq = &resources.CustomRequest{}
			if err := json.Unmarshal([]byte(b.body), creq); err != nil {
				t.Error(err)
			}
		case strings.Contains(b.body, `"Status"`):
			if _, err := resources.ParseCustomResponse([]byte(b.body), creq); err != nil {
				t.Errorf("the documented response is refused: %v", err)
			}
		case strings.Contains(b.body, `"stacksim"`): // stacksim's process protocol
			r, err := resources.DecodeRequest([]byte(b.body))
			if err != nil || r.ResourceType == "" || r.Action != resources.ActionUpdate {
				t.Errorf("process request: %+v %v", r, err)
			}
		case strings.Contains(b.body, `"action"`):
			var r resources.Request
			if err := json.Unmarshal([]byte(b.body), &r); err != nil || r.Action != resources.ActionCreate || r.DesiredResourceState["Name"] != "orders" {
				t.Errorf("request: %+v %v", r, err)
			}
		case strings.Contains(b.body, `"transformId"`):
			var m resources.MacroRequest
			if err := json.Unmarshal([]byte(b.body), &m); err != nil || m.TransformID == "" || m.RequestID == "" || len(m.Fragment) == 0 {
				t.Errorf("macro event: %+v %v", m, err)
			}
		case strings.Contains(b.body, `"fragment"`):
			var a struct{ RequestID, Status string }
			if err := json.Unmarshal([]byte(b.body), &a); err != nil || a.RequestID == "" || a.Status != "success" {
				t.Errorf("macro answer: %+v %v", a, err)
			}
		case strings.Contains(b.body, `"status"`):
			var ev resources.ProgressEvent
			if err := json.Unmarshal([]byte(b.body), &ev); err != nil || !ev.Status.Valid() || ev.CallbackDelaySeconds != 30 {
				t.Errorf("event: %+v %v", ev, err)
			}
		}
	}
	for _, r := range contract.Rules() {
		if !strings.Contains(text, "`"+r.ID+"`") {
			t.Errorf("docs/handlers.md does not document rule %s", r.ID)
		}
	}
	for _, typ := range resources.EmbeddedTypes() {
		if !strings.Contains(text, typ) {
			t.Errorf("docs/handlers.md does not list %s", typ)
		}
	}
	for _, code := range resources.ErrorCodes() {
		if !strings.Contains(text, string(code)) {
			t.Errorf("docs/handlers.md does not list %s", code)
		}
	}
}
