package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const samTemplate = `Transform: AWS::Serverless-2016-10-31
Parameters:
  Stage: {Type: String, Default: dev}
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: index.handler
      InlineCode: "def handler(event, context): return 1"
      Environment: {Variables: {STAGE: !Ref Stage}}
`

// `aws cloudformation deploy` of a SAM template, twice: the update calls
// GetTemplateSummary on the stack first (to learn its parameters), which
// must describe a template whose transform ran — the way SAM users deploy
// again — and then the change set runs the translator again.
func TestServeAWSCLIDeploySAM(t *testing.T) {
	if err := exec.Command("python3", "-c", "import samtranslator").Run(); err != nil {
		t.Skipf("skipped: python3 cannot import samtranslator (pip install aws-sam-translator): %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sam.yaml"), []byte(samTemplate), 0o644); err != nil {
		t.Fatal(err)
	}
	cli := newAWSCLI(t, "", dir)
	s := startServe(t, buildBinary(t), dir)
	cli.url = s.url
	deploy := []string{"cloudformation", "deploy", "--stack-name", "sam", "--template-file", "sam.yaml", "--capabilities", "CAPABILITY_IAM", "CAPABILITY_AUTO_EXPAND"}
	if out := cli.ok(deploy...); !strings.Contains(out, "Successfully created/updated stack - sam") {
		t.Fatalf("deploy (create):\n%s", out)
	}
	summary := cli.ok("cloudformation", "get-template-summary", "--stack-name", "sam",
		"--query", "[Parameters[].ParameterKey, DeclaredTransforms, ResourceTypes, Capabilities]", "--output", "json")
	for _, want := range []string{`"Stage"`, `"AWS::Serverless-2016-10-31"`, `"AWS::Lambda::Function"`, `"AWS::IAM::Role"`, `"CAPABILITY_AUTO_EXPAND"`} {
		if !strings.Contains(summary, want) {
			t.Fatalf("get-template-summary of the SAM stack lacks %s:\n%s", want, summary)
		}
	}
	if out := cli.ok(append(deploy, "--parameter-overrides", "Stage=prod")...); !strings.Contains(out, "Successfully created/updated stack - sam") {
		t.Fatalf("deploy (update):\n%s", out)
	}
	got := cli.ok("cloudformation", "describe-stacks", "--stack-name", "sam", "--query", "Stacks[0].[StackStatus, Parameters[0].ParameterValue]", "--output", "text")
	if strings.Fields(got)[0] != "UPDATE_COMPLETE" || strings.Fields(got)[1] != "prod" {
		t.Fatalf("after the second deploy: %q", got)
	}
	if out := cli.ok(append(deploy, "--parameter-overrides", "Stage=prod", "--no-fail-on-empty-changeset")...); !strings.Contains(out, "No changes to deploy. Stack sam is up to date") {
		t.Fatalf("deploy (no changes):\n%s", out)
	}
}
