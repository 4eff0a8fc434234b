package template

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture reads template/testdata/PATH: fixtures live in directories named
// after what they test.
func fixture(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mustParse parses a body or fails the test.
func mustParse(t testing.TB, name, body string) *Template {
	t.Helper()
	tpl, err := Parse(name, []byte(body))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return tpl
}

// testPseudo are the pseudo parameters of the tests.
var testPseudo = Pseudo{
	AccountID: "123456789012", Region: "us-east-1", StackName: "test",
	StackID: "arn:aws:cloudformation:us-east-1:123456789012:stack/test/0",
}

// params turns "Key=Value" pairs into parameter values.
func params(kv ...string) []ParameterValue {
	var out []ParameterValue
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		out = append(out, ParameterValue{Key: k, Value: v})
	}
	return out
}

// mustBind binds with the test pseudo parameters or fails the test.
func mustBind(t testing.TB, tpl *Template, kv ...string) *Bound {
	t.Helper()
	b, err := tpl.Bind(BindInput{Parameters: params(kv...), Pseudo: testPseudo})
	if err != nil {
		t.Fatalf("Bind: %v", err)
	}
	return b
}

// fakeResolver answers from maps; a missing attribute is an error, as the
// engine reports an attribute a type lacks.
type fakeResolver struct {
	refs    map[string]any
	atts    map[string]any // "Id.Attr"
	exports map[string]any
}

func (f fakeResolver) Ref(id string) (any, error) {
	if v, ok := f.refs[id]; ok {
		return v, nil
	}
	return "phys-" + id, nil
}

func (f fakeResolver) GetAtt(id, attr string) (any, error) {
	if v, ok := f.atts[id+"."+attr]; ok {
		return v, nil
	}
	return nil, errors.New("Resource type AWS::SNS::Topic does not support attribute {" + attr + "}.")
}

func (f fakeResolver) ImportValue(name string) (any, error) {
	if v, ok := f.exports[name]; ok {
		return v, nil
	}
	return nil, errors.New("No export named " + name + " found.")
}

// errText returns the text of an error, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
