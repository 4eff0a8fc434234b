package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// get-template-summary of a body and of a stack (the stack's parameters
// are what `deploy` reads before an update), and its refusals: none or
// two of the template's sources, a stack that does not exist.
func TestGetTemplateSummaryCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	tpl := `Description: a summary
Parameters:
  Env: {Type: String, Default: dev, AllowedValues: [dev, prod]}
Resources:
  Role:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument: {Version: "2012-10-17", Statement: []}
  Topic: {Type: AWS::SNS::Topic}
`
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(tpl), 0o644); err != nil {
		t.Fatal(err)
	}
	summary := `"ParameterKey": "Env"|"ParameterType": "String"|"AllowedValues": [|"Description": "a summary"|"CAPABILITY_IAM"|"AWS::IAM::Role",|"AWS::SNS::Topic"|"ResourceIdentifiers": [`
	out, errOut, code := runCLI(t, "get-template-summary", "--template-body", "file://app.yaml")
	for _, want := range strings.Split(summary, "|") {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("get-template-summary of a body (exit %d) lacks %s:\n%s%s", code, want, out, errOut)
		}
	}
	if _, errOut, code := runCLI(t, "create-stack", "--stack-name", "app", "--template-body", "file://app.yaml", "--capabilities", "CAPABILITY_IAM", "--quiet"); code != 0 {
		t.Fatalf("create-stack: exit %d\n%s", code, errOut)
	}
	byStack, _, code := runCLI(t, "get-template-summary", "--stack-name", "app")
	if code != 0 || byStack != out {
		t.Fatalf("get-template-summary of the stack (exit %d) differs from that of its template:\n%s", code, byStack)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "give one of --template-body, --template-url and --stack-name"},
		{[]string{"--stack-name", "app", "--template-body", "file://app.yaml"}, "give one of --template-body, --template-url and --stack-name"},
		{[]string{"--stack-name", "nope"}, "An error occurred (ValidationError) when calling the GetTemplateSummary operation: Stack with id nope does not exist"},
		{[]string{"--template-body", "file://missing.yaml"}, "Unable to load paramfile file://missing.yaml"},
	} {
		_, errOut, code := runCLI(t, append([]string{"get-template-summary"}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("get-template-summary %s: exit %d, want %q:\n%s", strings.Join(tc.args, " "), code, tc.want, errOut)
		}
	}
}
