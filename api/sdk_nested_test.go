package api

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"

	"github.com/stacksim/stacksim/engine"
)

// Nested stacks through the Go SDK: the child's ParentId and RootId, and a
// change set with IncludeNestedStacks whose change names the nested
// stack's change set (ChangeSetId), which names its parent and root.
func TestSDKNestedStacks(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "engine", "testdata", "lifecycles", "nested"))
	e, err := engine.New(engine.Options{Seed: 1, S3Dir: filepath.Join(dir, "s3")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	ts := newTestServer(t, e, Options{})
	ctx := context.Background()
	c := ts.cfn
	body := readFile(t, filepath.Join(dir, "parent.yaml"))
	root := must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("shop"), TemplateBody: aws.String(body)}))
	must(0, cfn.NewStackCreateCompleteWaiter(c, fastCreate).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("shop")}, time.Minute))
	res := must(c.DescribeStackResource(ctx, &cfn.DescribeStackResourceInput{StackName: aws.String("shop"), LogicalResourceId: aws.String("Network")}))
	child := aws.ToString(res.StackResourceDetail.PhysicalResourceId)
	st := must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String(child)})).Stacks[0]
	if aws.ToString(st.ParentId) != aws.ToString(root.StackId) || aws.ToString(st.RootId) != aws.ToString(root.StackId) {
		t.Fatalf("child %s: ParentId %s RootId %s, want %s", child, aws.ToString(st.ParentId), aws.ToString(st.RootId), aws.ToString(root.StackId))
	}

	cs := must(c.CreateChangeSet(ctx, &cfn.CreateChangeSetInput{StackName: aws.String("shop"), ChangeSetName: aws.String("prod"),
		UsePreviousTemplate: aws.Bool(true), IncludeNestedStacks: aws.Bool(true),
		Parameters: []types.Parameter{{ParameterKey: aws.String("Env"), ParameterValue: aws.String("prod")}}}))
	d := must(c.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: cs.Id}))
	if !aws.ToBool(d.IncludeNestedStacks) {
		t.Fatalf("root change set: IncludeNestedStacks false")
	}
	var nested string
	for _, ch := range d.Changes {
		if aws.ToString(ch.ResourceChange.LogicalResourceId) == "Network" {
			nested = aws.ToString(ch.ResourceChange.ChangeSetId)
		}
	}
	if nested == "" {
		t.Fatalf("the root change set's change of Network names no change set: %+v", d.Changes)
	}
	n := must(c.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: aws.String(nested)}))
	if aws.ToString(n.ParentChangeSetId) != aws.ToString(cs.Id) || aws.ToString(n.RootChangeSetId) != aws.ToString(cs.Id) || aws.ToString(n.StackId) != child {
		t.Fatalf("nested change set: parent %s root %s stack %s", aws.ToString(n.ParentChangeSetId), aws.ToString(n.RootChangeSetId), aws.ToString(n.StackId))
	}
	must(c.ExecuteChangeSet(ctx, &cfn.ExecuteChangeSetInput{ChangeSetName: cs.Id}))
	must(0, cfn.NewStackUpdateCompleteWaiter(c, fastUpdate).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("shop")}, time.Minute))
	if n := must(c.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: aws.String(nested)})); n.ExecutionStatus != types.ExecutionStatusExecuteComplete {
		t.Fatalf("nested change set after the root's execution: %s", n.ExecutionStatus)
	}
}
