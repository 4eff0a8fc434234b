package engine

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A failed nested update as AWS records it, reproduced word for word.
//
// Two public logs of real deployments (boltops-tools/jets, docs
// "debugging/cloudformation" and "debug/package-type"; BEHAVIOUR.md §4
// style, oldest first, "..." where the log leaves lines out):
//
// The root (jets deploy, 03:20:27 to 03:21:43):
//
//	UPDATE_IN_PROGRESS AWS::CloudFormation::Stack demo-dev User Initiated
//	...
//	UPDATE_FAILED AWS::CloudFormation::Stack JetsPreheatJob Embedded stack arn:aws:cloudformation:us-west-2:112233445566:stack/demo-dev-JetsPreheatJob-IXX3J912KGKS/f4fec860-1871-11e9-94d5-0a57e06cb5fc was not successfully updated. Currently in UPDATE_ROLLBACK_IN_PROGRESS with reason: The following resource(s) failed to update: [WarmLambdaFunction, TorchLambdaFunction].
//	UPDATE_FAILED AWS::CloudFormation::Stack JetsPublicController Resource update cancelled
//	UPDATE_FAILED AWS::CloudFormation::Stack PostsController Resource update cancelled
//	...
//	UPDATE_ROLLBACK_COMPLETE AWS::CloudFormation::Stack demo-dev
//
// The nested stack that failed, in full, and its parent's reason (another
// deploy of the same application, 06:11:57 to 06:12:46):
//
//	Embedded stack arn:aws:cloudformation:us-west-2:536766270177:stack/demo-dev-Controller-1WSPSJ0ROO9XK/fb4bc090-f9fa-11ee-ad50-06de9d982e51 was not successfully updated. Currently in UPDATE_ROLLBACK_IN_PROGRESS with reason: The following resource(s) failed to update: [LambdaFunction].
//	UPDATE_IN_PROGRESS AWS::CloudFormation::Stack demo-dev-Controller-1WSPSJ0ROO9XK User Initiated
//	UPDATE_IN_PROGRESS AWS::Lambda::Function LambdaFunction
//	UPDATE_FAILED AWS::Lambda::Function LambdaFunction Resource handler returned message: "Invalid request provided: Updating PackageType is not supported" (RequestToken: 5cb957bc-31aa-6484-db0a-7bb3351ee4bd, HandlerErrorCode: InvalidRequest)
//	UPDATE_ROLLBACK_IN_PROGRESS AWS::CloudFormation::Stack demo-dev-Controller-1WSPSJ0ROO9XK The following resource(s) failed to update: [LambdaFunction].
//	UPDATE_COMPLETE AWS::Lambda::Function LambdaFunction
//	UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS AWS::CloudFormation::Stack demo-dev-Controller-1WSPSJ0ROO9XK
//	UPDATE_ROLLBACK_COMPLETE AWS::CloudFormation::Stack demo-dev-Controller-1WSPSJ0ROO9XK
//
// The test runs the root with the failing stack of the second log and the
// two controllers of the first in flight beside it. Each recorded line
// must be one of the stack's events, in the recorded order (the logs leave
// events out: the rollback's UPDATE_IN_PROGRESS of LambdaFunction, the
// "..."), word for word: the account, region, random suffixes, stack UUIDs
// and request tokens, which are the account's and the run's own, are
// matched by their shape. stacksim's stack reasons end with a space after
// the period ("...: [LambdaFunction]. ", BEHAVIOUR.md §4), which the log
// printer trimmed; reasons are compared trimmed.

var recordedNestedRoot = []string{
	"UPDATE_IN_PROGRESS AWS::CloudFormation::Stack demo-dev User Initiated",
	"UPDATE_FAILED AWS::CloudFormation::Stack Controller Embedded stack arn:aws:cloudformation:us-west-2:536766270177:stack/demo-dev-Controller-1WSPSJ0ROO9XK/fb4bc090-f9fa-11ee-ad50-06de9d982e51 was not successfully updated. Currently in UPDATE_ROLLBACK_IN_PROGRESS with reason: The following resource(s) failed to update: [LambdaFunction].",
	"UPDATE_FAILED AWS::CloudFormation::Stack JetsPublicController Resource update cancelled",
	"UPDATE_FAILED AWS::CloudFormation::Stack PostsController Resource update cancelled",
	"UPDATE_ROLLBACK_COMPLETE AWS::CloudFormation::Stack demo-dev",
}

var recordedNestedChild = []string{
	"UPDATE_IN_PROGRESS AWS::CloudFormation::Stack demo-dev-Controller-1WSPSJ0ROO9XK User Initiated",
	"UPDATE_IN_PROGRESS AWS::Lambda::Function LambdaFunction",
	`UPDATE_FAILED AWS::Lambda::Function LambdaFunction Resource handler returned message: "Invalid request provided: Updating PackageType is not supported" (RequestToken: 5cb957bc-31aa-6484-db0a-7bb3351ee4bd, HandlerErrorCode: InvalidRequest)`,
	"UPDATE_ROLLBACK_IN_PROGRESS AWS::CloudFormation::Stack demo-dev-Controller-1WSPSJ0ROO9XK The following resource(s) failed to update: [LambdaFunction].",
	"UPDATE_COMPLETE AWS::Lambda::Function LambdaFunction",
	"UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS AWS::CloudFormation::Stack demo-dev-Controller-1WSPSJ0ROO9XK",
	"UPDATE_ROLLBACK_COMPLETE AWS::CloudFormation::Stack demo-dev-Controller-1WSPSJ0ROO9XK",
}

// The parts of a recorded line that are the account's or the run's own.
var (
	recordedARN    = regexp.MustCompile(`arn:aws:cloudformation:[a-z0-9-]+:\d{12}:stack/([A-Za-z0-9-]+?)-[A-Z0-9]{12,13}/[0-9a-f-]{36}`)
	recordedSuffix = regexp.MustCompile(`^(demo-dev-[A-Za-z]+)-[A-Z0-9]{12,13}$`)
	recordedToken  = regexp.MustCompile(`RequestToken: [0-9a-f-]{36}`)
)

// normalise replaces what is the account's or the run's own.
func normalise(line string) string {
	line = recordedARN.ReplaceAllString(line, "arn:aws:cloudformation:REGION:ACCOUNT:stack/$1-RANDOM/UUID")
	line = recordedToken.ReplaceAllString(line, "RequestToken: TOKEN")
	fields := strings.SplitN(line, " ", 4)
	if len(fields) >= 3 {
		fields[2] = recordedSuffix.ReplaceAllString(fields[2], "$1-RANDOM")
	}
	return strings.Join(fields, " ")
}

// eventLines are a stack's events, oldest first, as the logs print them.
func eventLines(t *testing.T, e *Engine, stack string) []string {
	t.Helper()
	var lines []string
	token := ""
	for {
		out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: stack, NextToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range out.StackEvents {
			line := strings.TrimSpace(fmt.Sprintf("%s %s %s %s", ev.ResourceStatus, ev.ResourceType, ev.LogicalResourceId, strings.TrimSpace(ev.ResourceStatusReason)))
			lines = append(lines, normalise(line))
		}
		if out.NextToken == "" {
			break
		}
		token = out.NextToken
	}
	slices.Reverse(lines)
	return lines
}

// inOrder checks that every recorded line is one of got's, in order.
func inOrder(t *testing.T, what string, recorded, got []string) {
	t.Helper()
	i := 0
	for _, line := range got {
		if i < len(recorded) && line == normalise(recorded[i]) {
			i++
		}
	}
	if i < len(recorded) {
		t.Errorf("%s: recorded line %d is not among the events after line %d:\n  %s\nevents:\n  %s", what, i+1, i, normalise(recorded[i]), strings.Join(got, "\n  "))
	}
}

func TestNestedRecordedFailedUpdate(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "lifecycles", "nested-recorded"))
	h := newHarness(t, "nested-recorded", Options{S3Dir: filepath.Join(dir, "s3")})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "demo-dev", TemplateBody: h.fixture("demo-dev.yaml")})
	})
	h.wait("demo-dev")
	in := UpdateStackInput{StackName: "demo-dev", UsePreviousTemplate: true, Parameters: []Parameter{{ParameterKey: "Version", ParameterValue: "2"}}}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.updateStack(in) })
	h.wait("demo-dev")
	res, err := h.e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "demo-dev", LogicalResourceId: "Controller"})
	if err != nil {
		t.Fatal(err)
	}
	child := res.StackResourceDetail.PhysicalResourceId
	inOrder(t, "demo-dev", recordedNestedRoot, eventLines(t, h.e, "demo-dev"))
	inOrder(t, "demo-dev-Controller", recordedNestedChild, eventLines(t, h.e, child))
	h.done()
}
