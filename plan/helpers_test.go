package plan

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// *resources.Schema is what the planner reads schemas through.
var _ Schema = (*resources.Schema)(nil)

// update rewrites the golden files instead of comparing with them:
// go test ./plan -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with the current output")

// golden compares got with testdata/NAME (or writes it, with -update). A
// difference fails the test showing the first lines that differ.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run 'go test ./plan -update' to create it", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; if the change is right, run 'go test ./plan -update':\n%s", path, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows where two texts part, by lines, with a little context.
func firstDiff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	var out strings.Builder
	for k := max(0, i-2); k < i; k++ {
		fmt.Fprintf(&out, "  %s\n", a[k])
	}
	for k := i; k < min(len(a), i+4); k++ {
		fmt.Fprintf(&out, "- %s\n", a[k])
	}
	for k := i; k < min(len(b), i+4); k++ {
		fmt.Fprintf(&out, "+ %s\n", b[k])
	}
	return out.String()
}

// testCase is a fixture directory, testdata/NAME/:
//
//	before.yaml  the deployed template (absent for a create)
//	after.yaml   the desired template (absent for a delete)
//	case.yaml    parameters, schemas, resource states, retained resources
//
// The deployed stack is made by "creating" before.yaml in a simulated world
// (physical ids NAME-1, attributes PHYSICAL/ATTR), then adjusting resource
// states as case.yaml says.
type testCase struct {
	name     string
	conf     caseConfig
	before   *template.Bound
	after    *template.Bound
	deployed Deployed
	world    *world
}

type caseConfig struct {
	ParametersBefore map[string]string       `yaml:"parametersBefore"`
	Parameters       map[string]string       `yaml:"parameters"`
	Schemas          map[string]schemaConfig `yaml:"schemas"`
	States           map[string]stateConfig  `yaml:"states"`
	Retain           []string                `yaml:"retain"`
}

type schemaConfig struct {
	CreateOnly  []string `yaml:"createOnly"`
	Conditional []string `yaml:"conditional"`
	Strategy    string   `yaml:"strategy"`
}

type stateConfig struct {
	Status     string  `yaml:"status"`
	PhysicalID *string `yaml:"physicalId"`
}

// loadCase reads testdata/NAME.
func loadCase(t testing.TB, name string) *testCase {
	t.Helper()
	dir := filepath.Join("testdata", name)
	tc := &testCase{name: name}
	if b, err := os.ReadFile(filepath.Join(dir, "case.yaml")); err == nil {
		if err := yaml.Unmarshal(b, &tc.conf); err != nil {
			t.Fatalf("%s/case.yaml: %v", name, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "before.yaml")); err == nil {
		tc.before = bindTemplate(t, name+"/before.yaml", b, tc.conf.ParametersBefore)
		tc.world = newWorld(tc.schemas())
		tc.deployed = tc.world.deploy(t, tc.before, tc.conf.ParametersBefore)
		for i := range tc.deployed.Resources {
			d := &tc.deployed.Resources[i]
			if st, ok := tc.conf.States[d.LogicalID]; ok {
				d.Status = st.Status
				if st.PhysicalID != nil {
					d.PhysicalID = *st.PhysicalID
				}
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "after.yaml")); err == nil {
		tc.after = bindTemplate(t, name+"/after.yaml", b, tc.conf.Parameters)
	}
	return tc
}

// schemas finds a type's schema: case.yaml's, or the one stacksim embeds.
func (tc *testCase) schemas() Schemas {
	return func(typeName string) Schema {
		if c, ok := tc.conf.Schemas[typeName]; ok {
			return &resources.Schema{TypeName: typeName, CreateOnlyProperties: c.CreateOnly,
				ConditionalCreateOnlyProperties: c.Conditional, Replacement: c.Strategy}
		}
		if s, ok, err := resources.EmbeddedSchema(typeName); ok && err == nil {
			return s
		}
		return nil
	}
}

func (tc *testCase) update(t testing.TB) *Plan {
	t.Helper()
	p, err := ForUpdate(UpdateInput{Deployed: tc.deployed, Desired: tc.after, Live: tc.world, Schemas: tc.schemas()})
	if err != nil {
		t.Fatalf("%s: ForUpdate: %v", tc.name, err)
	}
	checkPlan(t, p)
	return p
}

var testPseudo = template.Pseudo{
	AccountID: "123456789012", Region: "us-east-1", StackName: "test",
	StackID: "arn:aws:cloudformation:us-east-1:123456789012:stack/test/0",
}

func bindTemplate(t testing.TB, name string, body []byte, params map[string]string) *template.Bound {
	t.Helper()
	tpl, err := template.Parse(name, body)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var pv []template.ParameterValue
	for _, k := range keys {
		pv = append(pv, template.ParameterValue{Key: k, Value: params[k]})
	}
	b, err := tpl.Bind(template.BindInput{Parameters: pv, Pseudo: testPseudo})
	if err != nil {
		t.Fatalf("Bind %s: %v", name, err)
	}
	return b
}

// checkPlan checks what every plan must satisfy: it validates, it survives
// a JSON round trip, and every After edge points back within its phase.
func checkPlan(t testing.TB, p *Plan) {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatalf("Validate: %v\n%s", err, p)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	var back Plan
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("json.Unmarshal: %v", err)
	}
	again, _ := json.Marshal(&back)
	if !bytes.Equal(b, again) {
		t.Fatalf("JSON round trip differs:\n%s\n%s", b, again)
	}
}

func changesJSON(t testing.TB, p *Plan) []byte {
	t.Helper()
	b, err := json.MarshalIndent(Changes(p), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}
