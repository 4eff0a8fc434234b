package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The AWS CLI (v1, in the machine's Python) against stacksim serve,
// unchanged: --endpoint-url and test credentials.

// awsCLI runs `aws ARGS...` against a server, isolated from the machine's
// AWS configuration.
type awsCLI struct {
	t   *testing.T
	url string
	dir string
}

func newAWSCLI(t *testing.T, url, dir string) *awsCLI {
	t.Helper()
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("skipped: the AWS CLI (aws) is not on this machine; install it (pip install awscli) to run the AWS CLI tests of stacksim serve")
	}
	return &awsCLI{t: t, url: url, dir: dir}
}

func clientEnv(dir string) []string {
	return append(os.Environ(),
		"AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_DEFAULT_REGION=us-east-1", "AWS_REGION=us-east-1",
		"AWS_CONFIG_FILE="+filepath.Join(dir, "no-config"), "AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(dir, "no-credentials"),
		"AWS_EC2_METADATA_DISABLED=true", "AWS_PAGER=")
}

// run runs the CLI and returns stdout, stderr and the exit code.
func (a *awsCLI) run(args ...string) (string, string, int) {
	a.t.Helper()
	cmd := exec.Command("aws", append([]string{"--endpoint-url", a.url}, args...)...)
	cmd.Dir = a.dir
	cmd.Env = clientEnv(a.dir)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		a.t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// ok runs the CLI and fails the test unless it exits 0.
func (a *awsCLI) ok(args ...string) string {
	a.t.Helper()
	out, errOut, code := a.run(args...)
	if code != 0 {
		a.t.Fatalf("aws %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

const cliTemplate = `Parameters:
  Env:
    Type: String
    Default: dev
Resources:
  P:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !Ref Env
Outputs:
  Name:
    Value: !Ref P
`

const cliFaults = `faults:
  - match: {logicalId: P, action: update, phase: forward}
    fail: {code: InvalidRequest, message: "Value is out of range"}
    times: always
`

func TestServeAWSCLI(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(cliTemplate), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "faults.yaml"), []byte(cliFaults), 0o644); err != nil {
		t.Fatal(err)
	}
	cli := newAWSCLI(t, "", dir)
	s := startServe(t, buildBinary(t), dir, "--faults", "faults.yaml")
	cli.url = s.url
	cf := func(args ...string) []string { return append([]string{"cloudformation"}, args...) }

	// create-stack, then the waiter.
	out := cli.ok(cf("create-stack", "--stack-name", "app", "--template-body", "file://app.yaml")...)
	if !strings.Contains(out, `"StackId": "arn:aws:cloudformation:us-east-1:123456789012:stack/app/`) {
		t.Fatalf("create-stack printed:\n%s", out)
	}
	cli.ok(cf("wait", "stack-create-complete", "--stack-name", "app")...)

	// An update that fails and rolls back: the waiter exits non-zero.
	cli.ok(cf("update-stack", "--stack-name", "app", "--use-previous-template", "--parameters", "ParameterKey=Env,ParameterValue=prod")...)
	_, errOut, code := cli.run(cf("wait", "stack-update-complete", "--stack-name", "app")...)
	if code == 0 || !strings.Contains(errOut, `Waiter StackUpdateComplete failed: Waiter encountered a terminal failure state: For expression "Stacks[].StackStatus" we matched expected path: "UPDATE_ROLLBACK_COMPLETE"`) {
		t.Fatalf("wait stack-update-complete after a failed update: exit %d\n%s", code, errOut)
	}
	out = cli.ok(cf("describe-stack-events", "--stack-name", "app", "--query", "StackEvents[?ResourceStatus=='UPDATE_FAILED'].ResourceStatusReason", "--output", "text")...)
	if !strings.Contains(out, `Resource handler returned message: "Value is out of range"`) {
		t.Fatalf("the failed update's reason:\n%s", out)
	}

	// describe-stack-events with --max-items: a page and a NextToken, then
	// the rest.
	var page struct {
		StackEvents []json.RawMessage
		NextToken   string
	}
	if err := json.Unmarshal([]byte(cli.ok(cf("describe-stack-events", "--stack-name", "app", "--max-items", "3")...)), &page); err != nil {
		t.Fatal(err)
	}
	if len(page.StackEvents) != 3 || page.NextToken == "" {
		t.Fatalf("--max-items 3: %d events, NextToken %q", len(page.StackEvents), page.NextToken)
	}
	var rest struct{ StackEvents []json.RawMessage }
	if err := json.Unmarshal([]byte(cli.ok(cf("describe-stack-events", "--stack-name", "app", "--starting-token", page.NextToken)...)), &rest); err != nil {
		t.Fatal(err)
	}
	var all struct{ StackEvents []json.RawMessage }
	if err := json.Unmarshal([]byte(cli.ok(cf("describe-stack-events", "--stack-name", "app")...)), &all); err != nil {
		t.Fatal(err)
	}
	if len(rest.StackEvents)+3 != len(all.StackEvents) || len(all.StackEvents) < 10 {
		t.Fatalf("pages: 3 + %d, all %d", len(rest.StackEvents), len(all.StackEvents))
	}

	// An error as the CLI prints it.
	_, errOut, code = cli.run(cf("describe-stacks", "--stack-name", "nope")...)
	if want := "\nAn error occurred (ValidationError) when calling the DescribeStacks operation: Stack with id nope does not exist\n"; code != 255 || errOut != want {
		t.Fatalf("describe-stacks of a missing stack: exit %d\n%q\nwant\n%q", code, errOut, want)
	}

	// cloudformation deploy: create, update, and nothing to deploy.
	out = cli.ok(cf("deploy", "--stack-name", "dep", "--template-file", "app.yaml")...)
	if !strings.Contains(out, "Successfully created/updated stack - dep") {
		t.Fatalf("deploy (create):\n%s", out)
	}
	// The faults fail an update of P: the update adds a resource and
	// leaves P alone.
	two := strings.Replace(cliTemplate, "Outputs:", "  Q:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: q\nOutputs:", 1)
	if err := os.WriteFile(filepath.Join(dir, "app2.yaml"), []byte(two), 0o644); err != nil {
		t.Fatal(err)
	}
	out = cli.ok(cf("deploy", "--stack-name", "dep", "--template-file", "app2.yaml")...)
	if !strings.Contains(out, "Successfully created/updated stack - dep") {
		t.Fatalf("deploy (update):\n%s", out)
	}
	out = cli.ok(cf("deploy", "--stack-name", "dep", "--template-file", "app2.yaml", "--no-fail-on-empty-changeset")...)
	if !strings.Contains(out, "No changes to deploy. Stack dep is up to date") {
		t.Fatalf("deploy (no changes):\n%s", out)
	}
	out = cli.ok(cf("describe-stacks", "--stack-name", "dep", "--query", "Stacks[0].[StackStatus,length(Outputs)]", "--output", "text")...)
	if strings.TrimSpace(out) != "UPDATE_COMPLETE\t1" {
		t.Fatalf("after deploy: %q", out)
	}
	// Resource import: a retained parameter comes into a new stack, its
	// identifier in the CLI's shorthand (a map inside a list of structures
	// on the wire), then the import waiter.
	keep := strings.Replace(cliTemplate, "    Type: AWS::SSM::Parameter\n", "    Type: AWS::SSM::Parameter\n    DeletionPolicy: Retain\n", 1)
	keep = strings.Replace(keep, "      Type: String\n      Value: !Ref Env", "      Name: kept\n      Type: String\n      Value: !Ref Env", 1)
	keep = keep[:strings.Index(keep, "Outputs:")]
	if err := os.WriteFile(filepath.Join(dir, "keep.yaml"), []byte(keep), 0o644); err != nil {
		t.Fatal(err)
	}
	cli.ok(cf("create-stack", "--stack-name", "old", "--template-body", "file://keep.yaml")...)
	cli.ok(cf("delete-stack", "--stack-name", "old")...)
	cli.ok(cf("create-change-set", "--stack-name", "adopted", "--change-set-name", "adopt", "--change-set-type", "IMPORT",
		"--template-body", "file://keep.yaml", "--resources-to-import", "ResourceType=AWS::SSM::Parameter,LogicalResourceId=P,ResourceIdentifier={Name=kept}")...)
	cli.ok(cf("wait", "change-set-create-complete", "--stack-name", "adopted", "--change-set-name", "adopt")...)
	cli.ok(cf("execute-change-set", "--stack-name", "adopted", "--change-set-name", "adopt")...)
	cli.ok(cf("wait", "stack-import-complete", "--stack-name", "adopted")...)
	out = cli.ok(cf("describe-stack-resources", "--stack-name", "adopted", "--query", "StackResources[0].[PhysicalResourceId,ResourceStatus]", "--output", "text")...)
	if strings.TrimSpace(out) != "kept\tUPDATE_COMPLETE" {
		t.Fatalf("after the import: %q", out)
	}
	// Drift detection, as the AWS CLI calls it: the id, then the result.
	id := strings.TrimSpace(cli.ok(cf("detect-stack-drift", "--stack-name", "adopted", "--query", "StackDriftDetectionId", "--output", "text")...))
	out = cli.ok(cf("describe-stack-drift-detection-status", "--stack-drift-detection-id", id, "--query", "[DetectionStatus,StackDriftStatus,DriftedStackResourceCount]", "--output", "text")...)
	if strings.TrimSpace(out) != "DETECTION_COMPLETE\tIN_SYNC\t0" {
		t.Fatalf("drift detection: %q", out)
	}
	out = cli.ok(cf("describe-stack-resource-drifts", "--stack-name", "adopted", "--query", "StackResourceDrifts[].[LogicalResourceId,StackResourceDriftStatus]", "--output", "text")...)
	if strings.TrimSpace(out) != "P\tIN_SYNC" {
		t.Fatalf("resource drifts: %q", out)
	}

	// Operations: the import that made the stack counts as its create; its
	// events by its id.
	opID := strings.TrimSpace(cli.ok(cf("describe-stacks", "--stack-name", "adopted", "--query", "Stacks[0].LastOperations[0].[OperationType,OperationId]", "--output", "text")...))
	typ, opID, _ := strings.Cut(opID, "\t")
	if typ != "CREATE_STACK" || len(opID) != 36 {
		t.Fatalf("LastOperations after the import: %q %q", typ, opID)
	}
	out = cli.ok(cf("describe-events", "--operation-id", opID, "--query", "OperationEvents[0].[OperationStatus,EventType,ResourceStatus]", "--output", "text")...)
	if strings.TrimSpace(out) != "SUCCEEDED\tSTACK_EVENT\tIMPORT_COMPLETE" {
		t.Fatalf("describe-events of the import: %q", out)
	}

	// The registry, as scripts fetch a type's schema; the AWS CLI pages
	// list-types itself.
	out = cli.ok(cf("describe-type", "--type", "RESOURCE", "--type-name", "AWS::SQS::Queue", "--query", "Schema", "--output", "text")...)
	var schema struct {
		TypeName string `json:"typeName"`
	}
	if err := json.Unmarshal([]byte(out), &schema); err != nil || schema.TypeName != "AWS::SQS::Queue" {
		t.Fatalf("describe-type's schema: %v\n%s", err, out)
	}
	_, errOut, code = cli.run(cf("describe-type", "--type", "RESOURCE", "--type-name", "AWS::S3::Buckett")...)
	if code == 0 || !strings.Contains(errOut, "An error occurred (TypeNotFoundException) when calling the DescribeType operation: The type 'AWS::S3::Buckett' cannot be found.") {
		t.Fatalf("describe-type of a missing type: exit %d\n%s", code, errOut)
	}
	out = cli.ok(cf("list-types", "--visibility", "PUBLIC", "--filters", "Category=AWS_TYPES,TypeNamePrefix=AWS::SQS::", "--page-size", "1", "--query", "TypeSummaries[].TypeName", "--output", "text")...)
	if strings.Fields(out)[0] != "AWS::SQS::Queue" || len(strings.Fields(out)) != 3 {
		t.Fatalf("list-types in pages of one: %q", out)
	}

	// STS, as SDK-based tools ask first.
	cmd := exec.Command("aws", "--endpoint-url", s.url, "sts", "get-caller-identity", "--query", "Account", "--output", "text")
	cmd.Env = clientEnv(dir)
	b, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(b)) != "123456789012" {
		t.Fatalf("sts get-caller-identity: %v %s", err, b)
	}

	// CloudWatch's set-alarm-state (the alarms of rollback triggers), and
	// its error as the AWS CLI prints it.
	_, errOut, code = cli.run("cloudwatch", "set-alarm-state", "--alarm-name", "nope", "--state-value", "ALARM", "--state-reason", "test")
	if code == 0 || !strings.Contains(errOut, "An error occurred (ResourceNotFound) when calling the SetAlarmState operation: Alarm nope not found") {
		t.Fatalf("set-alarm-state of an alarm the account has not: exit %d\n%s", code, errOut)
	}
}

// The AWS CLI's S3 through serve (AWS_ENDPOINT_URL points every service
// at it): `s3 mb` makes the bucket (a directory of --s3-dir);
// `cloudformation deploy --s3-bucket` uploads the template to it and
// deploys it by its URL; `s3 ls` and `s3 cp` read the bucket back; `s3 rb
// --force` empties it and removes it.
func TestServeAWSCLIS3(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "s3"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(cliTemplate), 0o644); err != nil {
		t.Fatal(err)
	}
	newAWSCLI(t, "", dir) // skips without the AWS CLI
	s := startServe(t, buildBinary(t), dir, "--s3-dir", "s3")
	aws := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("aws", args...)
		cmd.Dir = dir
		cmd.Env = append(clientEnv(dir), "AWS_ENDPOINT_URL="+s.url)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("aws %s: %v\n%s\nserver:\n%s", strings.Join(args, " "), err, out, s.stderr)
		}
		return string(out)
	}
	if out := aws("s3", "mb", "s3://my-artifacts"); !strings.Contains(out, "make_bucket: my-artifacts") {
		t.Fatalf("s3 mb:\n%s", out)
	}
	if out := aws("s3", "ls"); !strings.Contains(out, " my-artifacts\n") {
		t.Fatalf("s3 ls (the buckets):\n%s", out)
	}
	if out := aws("cloudformation", "deploy", "--stack-name", "staged", "--template-file", "app.yaml", "--s3-bucket", "my-artifacts"); !strings.Contains(out, "Successfully created/updated stack - staged") {
		t.Fatalf("cloudformation deploy --s3-bucket:\n%s", out)
	}
	staged, _ := filepath.Glob(filepath.Join(dir, "s3", "my-artifacts", "*.template"))
	if len(staged) != 1 {
		t.Fatalf("the bucket holds %v, not the template", staged)
	}
	if out := aws("cloudformation", "describe-stacks", "--stack-name", "staged", "--query", "Stacks[0].StackStatus", "--output", "text"); strings.TrimSpace(out) != "CREATE_COMPLETE" {
		t.Fatalf("the stack: %s", out)
	}
	key := filepath.Base(staged[0])
	if out := aws("s3", "ls", "s3://my-artifacts/"); !strings.Contains(out, key) {
		t.Fatalf("s3 ls:\n%s", out)
	}
	aws("s3", "cp", "s3://my-artifacts/"+key, "copy.yaml")
	if b, err := os.ReadFile(filepath.Join(dir, "copy.yaml")); err != nil || string(b) != cliTemplate {
		t.Fatalf("s3 cp: %v\n%s", err, b)
	}
	if out := aws("s3", "rb", "s3://my-artifacts", "--force"); !strings.Contains(out, "remove_bucket: my-artifacts") {
		t.Fatalf("s3 rb --force:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "s3", "my-artifacts")); err == nil {
		t.Fatal("the bucket's directory is still there after s3 rb")
	}
}
