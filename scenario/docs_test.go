package scenario

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The complete scenarios of docs/scenarios.md (the yaml blocks that start
// with "name:") load, run, and hold.
func TestDocsExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(doc), "```yaml\n")
	n := 0
	for _, b := range blocks[1:] {
		body, _, _ := strings.Cut(b, "```")
		if !strings.HasPrefix(body, "name:") {
			continue
		}
		n++
		sc, err := Load("docs/scenarios.md", []byte(body))
		if err != nil {
			t.Fatalf("example %d: %v", n, err)
		}
		res, err := Run(context.Background(), sc, Options{})
		if err != nil {
			t.Fatalf("example %s: %v", sc.Name, err)
		}
		for _, f := range res.Failures {
			t.Errorf("example %s: %s", sc.Name, f)
		}
		if sc.Name == "first" && !strings.Contains(res.Log(), "== UpdateStack demo faults=[fail Queue]\n") {
			t.Errorf("the log of the first example is not as documented:\n%s", res.Log())
		}
	}
	if n < 2 {
		t.Errorf("found %d complete examples", n)
	}
}
