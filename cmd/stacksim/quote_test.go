package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An error never echoes a large input back whole: what it quotes is cut
// to readfile.MaxQuote bytes and says how long the input was.
func TestErrorsCapWhatTheyQuote(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	write := func(name, text string) string { return writeFile(t, dir, name, text) }
	big := strings.Repeat("x", 300_000)
	tmpl := "file://" + write("topic.yaml", "Parameters:\n  P:\n    Type: String\n    Default: d\nResources:\n  T:\n    Type: AWS::SNS::Topic\n")
	c.must(0, "create-stack", "--stack-name", "app", "--template-body", tmpl, "--quiet")
	create := func(extra ...string) []string {
		return append([]string{"create-stack", "--stack-name", "x", "--template-body", tmpl}, extra...)
	}
	update := func(extra ...string) []string {
		return append([]string{"update-stack", "--stack-name", "app", "--use-previous-template"}, extra...)
	}
	tests := []struct {
		name string
		args []string
		want string // in the message, before the cut
	}{
		{"JSON of --parameters", create("--parameters", "file://"+write("params.json", `[{"ParameterKey": "`+big+`",}]`)),
			// Python's json.loads' words and place, as the AWS CLI prints them.
			"Invalid JSON: Expecting property name enclosed in double quotes: line 1 column 300022 (char 300021)\nJSON received: [{\"ParameterKey\": \"xxx"},
		{"JSON of a list flag", create("--capabilities", "file://"+write("caps.json", `["`+big)),
			"Error parsing parameter '--capabilities': Invalid JSON"},
		{"shorthand of --parameters", create("--parameters", "ParameterKey=P,ParameterValue=["+big),
			"Error parsing parameter '--parameters': Expected: ',', received: 'EOF' for input:\n...xxx"},
		{"type of a parameter member", create("--parameters", "file://"+write("list.json", `[{"ParameterKey": "P", "ParameterValue": ["`+big+`"]}]`)),
			"Invalid type for parameter Parameters[0].ParameterValue, value: ['xxx"},
		{"unknown member of a parameter", create("--parameters", "file://"+write("member.json", `[{"`+big+`": "v"}]`)),
			`Unknown parameter in Parameters[0]: "xxx`},
		{"parameter value too long", update("--parameters", "ParameterKey=P,ParameterValue="+big),
			"1 validation error detected: Value 'xxx"},
		{"parameter not in the template", update("--parameters", "ParameterKey="+big+",ParameterValue=v"),
			"Parameters: [xxx"},
		{"stack name", []string{"create-stack", "--stack-name", big, "--template-body", tmpl},
			"1 validation error detected: Value 'xxx"},
		{"enumeration", create("--on-failure", big),
			"1 validation error detected: Value 'xxx"},
		{"template value", []string{"validate-template", "--template-body", "file://" + write("version.yaml", "AWSTemplateFormatVersion: "+big[:50_000]+"\nResources: {}\n")},
			"Template format error: Unsupported template format version xxx"},
		{"fault file value", update("--faults", write("times.yaml", "faults:\n  - match: {logicalId: T}\n    fail: NotFound\n    times: "+big+"\n")),
			`times must be a whole number ≥ 1, "once" or "always", not "xxx`},
		{"fault file key", update("--faults", write("key.yaml", "faults:\n  - match: {logicalId: T}\n    ? "+big+"\n    : 1\n")),
			`unknown key "xxx`},
		{"fault glob", update("--faults", write("glob.yaml", "faults:\n  - match: {logicalId: \"["+big+"\"}\n    fail: NotFound\n")),
			`logicalId "[xxx`},
		{"scenario value", []string{"run", write("contract.yaml", "name: s\ncontract: "+big+"\nsteps: []\n")},
			`contract must be off, report or strict, not "xxx`},
		{"scenario key", []string{"run", write("skey.yaml", "name: s\n? "+big+"\n: 1\nsteps: []\n")},
			`unknown key "xxx`},
		{"scenario kind", []string{"run", write("steps.yaml", "name: s\nsteps: "+big+"\n")},
			`steps must be a list (each step starts with "- "), not "xxx`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := c.run(tc.args...)
			if code != exitBadInput || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, " bytes in all)") {
				t.Fatalf("exit %d, stderr (%d bytes):\n%.2000s\nwant exit 2, a cut quote and %q", code, len(errOut), errOut, tc.want)
			}
			if len(errOut) > 2000 {
				t.Fatalf("the message is %d bytes: it echoes the input\n%.2000s", len(errOut), errOut)
			}
		})
	}
}

// writeFile writes text to dir/name and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
