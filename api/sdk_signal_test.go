package api

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"

	"github.com/stacksim/stacksim/engine"
)

// With --signals manual, CreateStack answers while an instance waits for
// its creation policy's signal (the instant pace stops there, not at the
// timeout); SignalResource through the Go SDK completes it, and the
// waiter succeeds.
func TestSDKSignalResource(t *testing.T) {
	e, err := engine.New(engine.Options{Seed: 1, Signals: engine.SignalsManual})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	ts := newTestServer(t, e, Options{})
	ctx := context.Background()
	c := ts.cfn
	const tpl = `Resources:
  Server:
    Type: AWS::EC2::Instance
    CreationPolicy:
      ResourceSignal: {Count: 1, Timeout: PT5M}
    Properties:
      ImageId: ami-0123456789abcdef0
      InstanceType: t3.micro
`
	must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("web"), TemplateBody: aws.String(tpl)}))
	st := must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("web")})).Stacks[0]
	if st.StackStatus != types.StackStatusCreateInProgress {
		t.Fatalf("while the server waits for its signal: %s", st.StackStatus)
	}
	_, err = c.SignalResource(ctx, &cfn.SignalResourceInput{StackName: aws.String("web"), LogicalResourceId: aws.String("Server"),
		UniqueId: aws.String("i-1"), Status: "DONE"})
	wantAPIError(t, err, "ValidationError", "1 validation error detected: Value 'DONE' at 'status' failed to satisfy constraint: Member must satisfy enum value set: [SUCCESS, FAILURE]")
	must(c.SignalResource(ctx, &cfn.SignalResourceInput{StackName: aws.String("web"), LogicalResourceId: aws.String("Server"),
		UniqueId: aws.String("i-1"), Status: types.ResourceSignalStatusSuccess}))
	if err := cfn.NewStackCreateCompleteWaiter(c, fastCreate).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("web")}, time.Minute); err != nil {
		t.Fatal(err)
	}
	ev := must(c.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("web")}))
	found := false
	for _, x := range ev.StackEvents {
		found = found || aws.ToString(x.ResourceStatusReason) == "Received SUCCESS signal with UniqueId i-1"
	}
	if !found {
		t.Fatal("no event of the signal")
	}
}
