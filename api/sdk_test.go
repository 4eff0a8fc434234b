package api

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	smithy "github.com/aws/smithy-go"
)

// The Go SDK drives stacksim unchanged: create with parameters, the
// waiter, describe, outputs, events, delete.
func TestSDKCreateDescribeDelete(t *testing.T) {
	ts := newTestServer(t, nil, Options{})
	ctx := context.Background()
	body := readFile(t, "testdata/params.yaml")
	out, err := ts.cfn.CreateStack(ctx, &cfn.CreateStackInput{
		StackName:    aws.String("app"),
		TemplateBody: aws.String(body),
		Parameters:   []types.Parameter{{ParameterKey: aws.String("Env"), ParameterValue: aws.String("prod")}},
		Tags:         []types.Tag{{Key: aws.String("team"), Value: aws.String("core")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(out.StackId); got == "" || got[:26] != "arn:aws:cloudformation:us-" {
		t.Fatalf("StackId = %q", got)
	}
	w := cfn.NewStackCreateCompleteWaiter(ts.cfn, func(o *cfn.StackCreateCompleteWaiterOptions) { o.MinDelay = time.Millisecond })
	if err := w.Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("app")}, time.Minute); err != nil {
		t.Fatal(err)
	}
	d, err := ts.cfn.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: out.StackId})
	if err != nil {
		t.Fatal(err)
	}
	st := d.Stacks[0]
	if st.StackStatus != types.StackStatusCreateComplete || aws.ToString(st.StackName) != "app" {
		t.Fatalf("stack = %s %s", aws.ToString(st.StackName), st.StackStatus)
	}
	if len(st.Outputs) != 1 || aws.ToString(st.Outputs[0].OutputKey) != "FirstName" || aws.ToString(st.Outputs[0].ExportName) != "app-first" {
		t.Fatalf("outputs = %+v", st.Outputs)
	}
	if len(st.Parameters) != 1 || aws.ToString(st.Parameters[0].ParameterValue) != "prod" {
		t.Fatalf("parameters = %+v", st.Parameters)
	}
	if len(st.Tags) != 1 || aws.ToString(st.Tags[0].Key) != "team" {
		t.Fatalf("tags = %+v", st.Tags)
	}
	if st.CreationTime == nil || !st.CreationTime.Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("CreationTime = %v", st.CreationTime)
	}
	ev, err := ts.cfn.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	// Newest first: the stack's CREATE_COMPLETE.
	if len(ev.StackEvents) != 8 || ev.StackEvents[0].ResourceStatus != types.ResourceStatusCreateComplete || aws.ToString(ev.StackEvents[0].LogicalResourceId) != "app" {
		t.Fatalf("events = %d, first %+v", len(ev.StackEvents), ev.StackEvents[0])
	}
	if _, err := ts.cfn.DeleteStack(ctx, &cfn.DeleteStackInput{StackName: aws.String("app")}); err != nil {
		t.Fatal(err)
	}
	dw := cfn.NewStackDeleteCompleteWaiter(ts.cfn, func(o *cfn.StackDeleteCompleteWaiterOptions) { o.MinDelay = time.Millisecond })
	if err := dw.Wait(ctx, &cfn.DescribeStacksInput{StackName: out.StackId}, time.Minute); err != nil {
		t.Fatal(err)
	}
	// Gone by name; found by ARN, DELETE_COMPLETE.
	_, err = ts.cfn.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("app")})
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "ValidationError" || api.ErrorMessage() != "Stack with id app does not exist" {
		t.Fatalf("DescribeStacks of a deleted stack by name: %v", err)
	}
	d, err = ts.cfn.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: out.StackId})
	if err != nil || d.Stacks[0].StackStatus != types.StackStatusDeleteComplete {
		t.Fatalf("DescribeStacks by ARN after delete: %v %+v", err, d)
	}
}

// Typed errors: the SDK maps the codes of the model to its exception types.
func TestSDKTypedErrors(t *testing.T) {
	ts := newTestServer(t, nil, Options{})
	ctx := context.Background()
	body := readFile(t, "testdata/params.yaml")
	in := &cfn.CreateStackInput{StackName: aws.String("app"), TemplateBody: aws.String(body)}
	if _, err := ts.cfn.CreateStack(ctx, in); err != nil {
		t.Fatal(err)
	}
	_, err := ts.cfn.CreateStack(ctx, in)
	var exists *types.AlreadyExistsException
	if !errors.As(err, &exists) || exists.ErrorMessage() != "Stack [app] already exists" {
		t.Fatalf("second CreateStack: %v", err)
	}
	_, err = ts.cfn.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{StackName: aws.String("app"), ChangeSetName: aws.String("nope")})
	var nf *types.ChangeSetNotFoundException
	if !errors.As(err, &nf) || nf.ErrorMessage() != "ChangeSet [nope] does not exist" {
		t.Fatalf("DescribeChangeSet of a missing change set: %v", err)
	}
	var re interface{ HTTPStatusCode() int }
	if !errors.As(err, &re) || re.HTTPStatusCode() != 404 {
		t.Fatalf("ChangeSetNotFound status: %v", err)
	}
}
