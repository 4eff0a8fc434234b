package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A response shaped like DescribeStacks: a list of objects holding lists of
// objects, numbers, booleans and text that needs escaping.
var nestedResponse = object{
	{"Stacks", []any{
		object{
			{"StackName", "app"},
			{"StackStatus", "CREATE_COMPLETE"},
			{"EnableTerminationProtection", false},
			{"Parameters", []any{
				object{{"ParameterKey", "Env"}, {"ParameterValue", "dev"}},
				object{{"ParameterKey", "Secret"}, {"ParameterValue", "****"}},
			}},
			{"Outputs", []any{
				object{{"OutputKey", "Url"}, {"OutputValue", "https://x/\"q\"\tü"}, {"Description", nil}},
			}},
			{"Tags", []any{}},
			{"TimeoutInMinutes", json.Number("30")},
		},
	}},
}

func TestRenderFormats(t *testing.T) {
	for _, format := range []string{outputJSON, outputTable, outputText} {
		var b strings.Builder
		if err := render(&b, format, "DescribeStacks", nestedResponse); err != nil {
			t.Fatal(err)
		}
		golden(t, "output/describe-stacks."+format, []byte(b.String()))
	}
}

func TestRenderEmpty(t *testing.T) {
	var b strings.Builder
	if err := render(&b, outputJSON, "X", object{{"Items", []any{}}, {"Next", nil}}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "{\n    \"Items\": []\n}\n" {
		t.Errorf("got %q", b.String())
	}
	b.Reset()
	if err := render(&b, outputTable, "X", object{}); err != nil || b.String() != "" {
		t.Errorf("table of nothing %q %v", b.String(), err)
	}
}
