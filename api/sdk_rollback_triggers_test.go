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

// RollbackConfiguration through the Go SDK: it round-trips through
// DescribeStacks and DescribeChangeSet, a create watching an alarm in OK
// waits out its monitoring time and completes, an update watching one in
// ALARM (serve --alarm) rolls back and its waiter fails, and a list of six
// triggers is refused by the model's bound.
func TestSDKRollbackTriggers(t *testing.T) {
	e, err := engine.New(engine.Options{Seed: 1, Alarms: map[string]string{"Latency": engine.AlarmOK, "HighErrors": engine.AlarmAlarm}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	c := newTestServer(t, e, Options{}).cfn
	ctx := context.Background()
	const tpl = "Parameters: {V: {Type: String}}\nResources:\n  P: {Type: AWS::SSM::Parameter, Properties: {Type: String, Value: !Ref V}}\n"
	trigger := func(name string) types.RollbackTrigger {
		return types.RollbackTrigger{Arn: aws.String(e.AlarmARN(name)), Type: aws.String("AWS::CloudWatch::Alarm")}
	}
	param := func(v string) []types.Parameter {
		return []types.Parameter{{ParameterKey: aws.String("V"), ParameterValue: aws.String(v)}}
	}

	must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("app"), TemplateBody: aws.String(tpl), Parameters: param("1"),
		RollbackConfiguration: &types.RollbackConfiguration{RollbackTriggers: []types.RollbackTrigger{trigger("Latency")}, MonitoringTimeInMinutes: aws.Int32(5)}}))
	if err := cfn.NewStackCreateCompleteWaiter(c, fastCreate).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("app")}, time.Minute); err != nil {
		t.Fatal(err)
	}
	st := must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("app")})).Stacks[0]
	rc := st.RollbackConfiguration
	if rc == nil || len(rc.RollbackTriggers) != 1 || aws.ToString(rc.RollbackTriggers[0].Arn) != e.AlarmARN("Latency") || aws.ToInt32(rc.MonitoringTimeInMinutes) != 5 {
		t.Fatalf("RollbackConfiguration: %+v", rc)
	}
	if got := st.LastUpdatedTime; got != nil {
		t.Fatalf("a create has no LastUpdatedTime: %v", got)
	}
	if d := st.CreationTime.Sub(must(c.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("app")})).StackEvents[0].Timestamp.UTC()); d > -5*time.Minute {
		t.Fatalf("the create completed %v after it began, not after its 5 minutes of monitoring", -d)
	}

	// A change set carries its configuration.
	must(c.CreateChangeSet(ctx, &cfn.CreateChangeSetInput{StackName: aws.String("app"), ChangeSetName: aws.String("v2"), TemplateBody: aws.String(tpl), Parameters: param("2"),
		RollbackConfiguration: &types.RollbackConfiguration{RollbackTriggers: []types.RollbackTrigger{trigger("HighErrors")}}}))
	cs := must(c.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{StackName: aws.String("app"), ChangeSetName: aws.String("v2")}))
	if cs.RollbackConfiguration == nil || len(cs.RollbackConfiguration.RollbackTriggers) != 1 || aws.ToString(cs.RollbackConfiguration.RollbackTriggers[0].Arn) != e.AlarmARN("HighErrors") {
		t.Fatalf("the change set's RollbackConfiguration: %+v", cs.RollbackConfiguration)
	}
	must(c.DeleteChangeSet(ctx, &cfn.DeleteChangeSetInput{StackName: aws.String("app"), ChangeSetName: aws.String("v2")}))

	// HighErrors is in ALARM: the update rolls back at once.
	must(c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("app"), TemplateBody: aws.String(tpl), Parameters: param("2"),
		RollbackConfiguration: &types.RollbackConfiguration{RollbackTriggers: []types.RollbackTrigger{trigger("HighErrors")}}}))
	if err := cfn.NewStackUpdateCompleteWaiter(c, fastUpdate).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("app")}, time.Minute); err == nil {
		t.Fatal("the waiter succeeded for an update its trigger rolled back")
	}
	st = must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("app")})).Stacks[0]
	if st.StackStatus != types.StackStatusUpdateRollbackComplete {
		t.Fatalf("after the update: %s", st.StackStatus)
	}
	reason := ""
	for _, ev := range must(c.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("app")})).StackEvents {
		if ev.ResourceStatus == types.ResourceStatus("UPDATE_ROLLBACK_IN_PROGRESS") {
			reason = aws.ToString(ev.ResourceStatusReason)
			break
		}
	}
	if want := "Rollback triggered by alarm(s) in ALARM state: [" + e.AlarmARN("HighErrors") + "]."; reason != want {
		t.Fatalf("the rollback's reason: %q, want %q", reason, want)
	}
	if rc := st.RollbackConfiguration; rc == nil || len(rc.RollbackTriggers) != 1 || aws.ToString(rc.RollbackTriggers[0].Arn) != e.AlarmARN("Latency") {
		t.Fatalf("the rollback did not put the stack's configuration back: %+v", rc)
	}

	six := make([]types.RollbackTrigger, 6)
	for i := range six {
		six[i] = trigger("Latency")
	}
	_, err = c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("app"), TemplateBody: aws.String(tpl), Parameters: param("3"),
		RollbackConfiguration: &types.RollbackConfiguration{RollbackTriggers: six}})
	wantAPIError(t, err, "ValidationError", "1 validation error detected: Value at 'rollbackConfiguration.rollbackTriggers' failed to satisfy constraint: Member must have length less than or equal to 5")
}
