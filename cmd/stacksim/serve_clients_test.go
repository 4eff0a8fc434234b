package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
)

// Other real clients against stacksim serve: boto3 (a handler author's
// integration test), the JavaScript SDK v3 and CDK (testdata/clients/node).

// clientsDir is testdata/clients in the repository.
func clientsDir(t *testing.T) string {
	return abs(t, filepath.Join("..", "..", "testdata", "clients"))
}

func TestServeBoto3(t *testing.T) {
	if err := exec.Command("python3", "-c", "import boto3").Run(); err != nil {
		t.Skip("skipped: python3 with boto3 is not on this machine; install boto3 (pip install boto3) to run the boto3 test of stacksim serve")
	}
	dir := t.TempDir()
	greeter := filepath.Join(clientsDir(t), "boto3", "greeter.py")
	s := startServe(t, buildBinary(t), dir,
		"--service-token", "arn:aws:lambda:us-east-1:123456789012:function:greeter=exec:python3 "+greeter)
	cmd := exec.Command("python3", filepath.Join(clientsDir(t), "boto3", "handler_test.py"))
	cmd.Dir = dir
	cmd.Env = append(clientEnv(dir), "STACKSIM_ENDPOINT="+s.url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("handler_test.py: %v\n%s\nserver:\n%s", err, out, s.stderr)
	}
	if !strings.Contains(string(out), "Ran 3 tests") {
		t.Fatalf("handler_test.py:\n%s", out)
	}
}

// nodeDir is testdata/clients/node, with its packages installed (npm ci), or
// the test is skipped.
func nodeDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("skipped: node is not on this machine; install Node.js 20+ to run the JavaScript client tests of stacksim serve")
	}
	dir := filepath.Join(clientsDir(t), "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@aws-sdk", "client-cloudformation")); err != nil {
		t.Skip("skipped: the JavaScript clients are not installed: run 'npm ci' in testdata/clients/node (.ci/run does)")
	}
	return dir
}

func TestServeJavaScriptSDK(t *testing.T) {
	node := nodeDir(t)
	dir := t.TempDir()
	s := startServe(t, buildBinary(t), dir)
	cmd := exec.Command("node", filepath.Join(node, "sdk_test.mjs"))
	cmd.Dir = node
	cmd.Env = append(clientEnv(dir), "STACKSIM_ENDPOINT="+s.url)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "sdk_test.mjs: ok") {
		t.Fatalf("sdk_test.mjs: %v\n%s\nserver:\n%s", err, out, s.stderr)
	}
}

// cdk deploy and cdk destroy of a CDK app with no assets, offline: CDK
// asks STS, then drives change sets and events as against AWS; its
// --notification-arns reach the stack, whose events serve publishes.
func TestServeCDK(t *testing.T) {
	node := nodeDir(t)
	dir := t.TempDir()
	s := startServe(t, buildBinary(t), dir, "--notifications", "notes.jsonl", "--eventbridge", "bus.jsonl")
	cdk := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(node, "node_modules", ".bin", "cdk"), append(args, "--no-notices", "--output", filepath.Join(dir, "cdk.out"))...)
		cmd.Dir = filepath.Join(node, "cdkapp")
		cmd.Env = append(clientEnv(dir), "AWS_ENDPOINT_URL="+s.url, "CDK_DISABLE_CLI_TELEMETRY=true", "CI=true")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("cdk %s: %v\n%s\nserver:\n%s", strings.Join(args, " "), err, out, s.stderr)
		}
		return string(out)
	}
	topic := "arn:aws:sns:us-east-1:123456789012:deploys"
	out := cdk("deploy", "--require-approval", "never", "--notification-arns", topic)
	if !strings.Contains(out, "✅  CdkDemo") || !strings.Contains(out, "CdkDemo.AlertsArn = arn:aws:sns:us-east-1:123456789012:CdkDemo-Alerts") {
		t.Fatalf("cdk deploy:\n%s", out)
	}
	c := sdkClient(s.url)
	st, err := c.DescribeStacks(context.Background(), &cfn.DescribeStacksInput{StackName: aws.String("CdkDemo")})
	if err != nil || st.Stacks[0].StackStatus != "CREATE_COMPLETE" || len(st.Stacks[0].NotificationARNs) != 1 || st.Stacks[0].NotificationARNs[0] != topic {
		t.Fatalf("after cdk deploy: %v %+v", err, st)
	}
	notes := readNotifications(t, filepath.Join(dir, "notes.jsonl"))
	if len(notes) == 0 || !strings.Contains(notes[len(notes)-1].Message, "StackName='CdkDemo'\nClientRequestToken=") ||
		!strings.Contains(notes[len(notes)-1].Message, "ResourceStatus='CREATE_COMPLETE'") {
		t.Fatalf("the notifications of cdk deploy --notification-arns: %d, the last %+v", len(notes), notes[len(notes)-1:])
	}
	if len(readBusEvents(t, filepath.Join(dir, "bus.jsonl"))) < len(notes) {
		t.Fatal("fewer bus events than notifications")
	}
	out = cdk("destroy", "--force")
	if !strings.Contains(out, "CdkDemo: destroyed") {
		t.Fatalf("cdk destroy:\n%s", out)
	}
	id := aws.ToString(st.Stacks[0].StackId)
	st, err = c.DescribeStacks(context.Background(), &cfn.DescribeStacksInput{StackName: aws.String(id)})
	if err != nil || st.Stacks[0].StackStatus != "DELETE_COMPLETE" {
		t.Fatalf("after cdk destroy: %v %+v", err, st)
	}

	// The retained, named parameter outlived the stack: deployed again
	// with --import-existing-resources, the new stack takes it over (without
	// the flag its create fails: it exists).
	out = cdk("deploy", "--require-approval", "never", "--import-existing-resources")
	if !strings.Contains(out, "✅  CdkDemo") {
		t.Fatalf("cdk deploy --import-existing-resources:\n%s", out)
	}
	rs, err := c.DescribeStackResources(context.Background(), &cfn.DescribeStackResourcesInput{StackName: aws.String("CdkDemo")})
	if err != nil {
		t.Fatal(err)
	}
	imported := false
	for _, r := range rs.StackResources {
		if aws.ToString(r.PhysicalResourceId) == "/cdkdemo/shared" {
			imported = r.ResourceStatus == "IMPORT_COMPLETE"
		}
	}
	if !imported {
		t.Fatalf("after cdk deploy --import-existing-resources, /cdkdemo/shared is not imported: %+v", rs.StackResources)
	}
	cdk("destroy", "--force")
}

// CDK's default synthesizer, as `cdk init` makes apps: `cdk bootstrap`
// makes the CDKToolkit stack (its staging bucket, roles, version
// parameter), then `cdk deploy` assumes the deploy and publishing roles
// (STS), uploads the template to the staging bucket (S3, into --s3-dir),
// with its nested stack's, and the function's zipped code (a file asset),
// reads the bootstrap
// version (SSM) and deploys by a change set whose TemplateURL is the
// server's own; `cdk diff` (by a change set), an update and `cdk destroy`
// follow.
func TestServeCDKBootstrap(t *testing.T) {
	node := nodeDir(t)
	dir := t.TempDir()
	s3 := filepath.Join(dir, "s3")
	if err := os.Mkdir(s3, 0o755); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, buildBinary(t), dir, "--s3-dir", s3)
	cdk := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(node, "node_modules", ".bin", "cdk"), append(args, "--no-notices", "--output", filepath.Join(dir, "cdk.out"))...)
		cmd.Dir = filepath.Join(node, "cdkmodern")
		cmd.Env = append(append(clientEnv(dir), "AWS_ENDPOINT_URL="+s.url, "CDK_DISABLE_CLI_TELEMETRY=true", "CI=true"), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("cdk %s: %v\n%s\nserver:\n%s", strings.Join(args, " "), err, out, s.stderr)
		}
		return string(out)
	}
	if out := cdk(nil, "bootstrap", "aws://123456789012/us-east-1"); !strings.Contains(out, "Environment aws://123456789012/us-east-1 bootstrapped") {
		t.Fatalf("cdk bootstrap:\n%s", out)
	}
	out := cdk(nil, "deploy", "--require-approval", "never")
	if !strings.Contains(out, "✅  Modern") || !strings.Contains(out, "Modern.AlertsArn = arn:aws:sns:us-east-1:123456789012:Modern-Alerts") ||
		!strings.Contains(out, "Modern.WorkQueueUrl = https://sqs.us-east-1.amazonaws.com/123456789012/Modern-Queues") {
		t.Fatalf("cdk deploy:\n%s", out)
	}
	if strings.Contains(out, "could not be used to assume") {
		t.Fatalf("cdk deploy did not assume the bootstrap roles:\n%s", out)
	}
	staging := filepath.Join(s3, "cdk-hnb659fds-assets-123456789012-us-east-1")
	templates, _ := filepath.Glob(filepath.Join(staging, "*.json"))
	code, _ := filepath.Glob(filepath.Join(staging, "*.zip"))
	if len(templates) != 2 || len(code) != 1 {
		t.Fatalf("the staging bucket holds %v and %v, not the two templates (the stack's, the nested one's) and the function's code", templates, code)
	}
	c := sdkClient(s.url)
	st, err := c.DescribeStacks(context.Background(), &cfn.DescribeStacksInput{StackName: aws.String("Modern")})
	if err != nil || st.Stacks[0].StackStatus != "CREATE_COMPLETE" {
		t.Fatalf("after cdk deploy: %v %+v", err, st)
	}
	// cdk diff makes a change set to see the change (and deletes one of a
	// fresh name first, which must succeed though it does not exist).
	if out := cdk([]string{"TOPIC_NAME=alerts v2"}, "diff"); strings.Contains(out, "Could not create a change set") ||
		!strings.Contains(out, "[~] AWS::SNS::Topic Alerts") || !strings.Contains(out, "[+] alerts v2") {
		t.Fatalf("cdk diff:\n%s", out)
	}
	if out := cdk([]string{"TOPIC_NAME=alerts v2"}, "deploy", "--require-approval", "never"); !strings.Contains(out, "✅  Modern") {
		t.Fatalf("cdk deploy (the update):\n%s", out)
	}
	st, err = c.DescribeStacks(context.Background(), &cfn.DescribeStacksInput{StackName: aws.String("Modern")})
	if err != nil || st.Stacks[0].StackStatus != "UPDATE_COMPLETE" {
		t.Fatalf("after the update: %v %+v", err, st)
	}
	if out := cdk(nil, "destroy", "--force"); !strings.Contains(out, "Modern: destroyed") {
		t.Fatalf("cdk destroy:\n%s", out)
	}
}
