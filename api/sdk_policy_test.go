package api

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
)

// Stack policies through the SDK: CreateStack's StackPolicyBody,
// GetStackPolicy, SetStackPolicy's refusal in AWS's words, and an update
// the policy denies, rolled back.
func TestSDKStackPolicy(t *testing.T) {
	ts := newTestServer(t, nil, Options{})
	ctx := context.Background()
	c := ts.cfn
	tpl := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: one\n"
	deny := `{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"},{"Effect":"Deny","Action":"Update:Modify","Principal":"*","Resource":"LogicalResourceId/Topic"}]}`
	must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("p"), TemplateBody: aws.String(tpl), StackPolicyBody: aws.String(deny)}))
	if err := cfn.NewStackCreateCompleteWaiter(c, fastCreate).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("p")}, time.Minute); err != nil {
		t.Fatal(err)
	}
	got := must(c.GetStackPolicy(ctx, &cfn.GetStackPolicyInput{StackName: aws.String("p")}))
	if aws.ToString(got.StackPolicyBody) != deny {
		t.Fatalf("GetStackPolicy = %v", aws.ToString(got.StackPolicyBody))
	}
	_, err := c.SetStackPolicy(ctx, &cfn.SetStackPolicyInput{StackName: aws.String("p"), StackPolicyBody: aws.String("not json")})
	wantAPIError(t, err, "ValidationError", "Error validating stack policy: Invalid stack policy")

	must(c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("p"), TemplateBody: aws.String(tpl[:len(tpl)-4] + "two\n")}))
	err = cfn.NewStackUpdateCompleteWaiter(c, fastUpdate).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("p")}, time.Minute)
	if err == nil {
		t.Fatal("the denied update completed")
	}
	ev := must(c.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("p")}))
	want := "Action denied by stack policy: Statement [#2] does not allow [Update:Modify] for resource [LogicalResourceId/Topic];"
	var reason string
	for _, e := range ev.StackEvents {
		if aws.ToString(e.LogicalResourceId) == "Topic" && e.ResourceStatus == types.ResourceStatusUpdateFailed {
			reason = aws.ToString(e.ResourceStatusReason)
		}
	}
	if reason != want {
		t.Fatalf("Topic's UPDATE_FAILED reason %q, want %q", reason, want)
	}
	st := must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("p")})).Stacks[0]
	if st.StackStatus != types.StackStatusUpdateRollbackComplete {
		t.Fatalf("status %s", st.StackStatus)
	}
	// The policy set with SetStackPolicy allows it.
	must(c.SetStackPolicy(ctx, &cfn.SetStackPolicyInput{StackName: aws.String("p"),
		StackPolicyBody: aws.String(`{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]}`)}))
	must(c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("p"), TemplateBody: aws.String(tpl[:len(tpl)-4] + "two\n")}))
	if err := cfn.NewStackUpdateCompleteWaiter(c, fastUpdate).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("p")}, time.Minute); err != nil {
		t.Fatal(err)
	}
}
