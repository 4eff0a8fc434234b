package pkgexport

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/template"
)

// The writers against what the AWS CLI (PyYAML, json.dumps) writes for the
// same templates: testdata/pyyaml/NAME.golden and NAME.json.golden were
// made by the AWS CLI's own yamlhelper (see testdata/pyyaml/README.md).
func TestWritersMatchTheAWSCLI(t *testing.T) {
	inputs, err := filepath.Glob("testdata/pyyaml/*.yaml")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(in, ".yaml")
		t.Run(filepath.Base(name), func(t *testing.T) {
			body, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			root, err := template.ParseTree(in, body)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				golden string
				got    []byte
			}{{name + ".golden", YAML(root)}, {name + ".json.golden", JSON(root)}} {
				want, err := os.ReadFile(c.golden)
				if err != nil {
					t.Fatal(err)
				}
				if string(c.got) != string(want) {
					t.Errorf("%s: differs from the AWS CLI's\n%s", c.golden, lineDiff(string(want), string(c.got)))
				}
			}
		})
	}
}

// lineDiff shows the first lines that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl && shown < 10 {
			shown++
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n- " + wl + "\n+ " + gl + "\n")
		}
	}
	return b.String()
}
