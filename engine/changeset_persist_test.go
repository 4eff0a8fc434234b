package engine

import (
	"path/filepath"
	"testing"
)

// A change set made by one process and executed by another (the CLI's
// create-change-set, then execute-change-set) does what the call asked:
// an empty list of rollback triggers, tags or notification ARNs removes
// the stack's, as in one process. The state file used to drop the empty
// lists, so the execution kept them (found by TestRandomWorldsPersisted,
// seeds 55, 63 and 227 of 400).
func TestChangeSetEmptyListsSurviveTheStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	opts := Options{Alarms: map[string]string{"Watch": AlarmOK}}
	e, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	body := "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v}\n"
	m := 0
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: body, Tags: []Tag{{Key: "team", Value: "core"}},
		NotificationARNs:      []string{topicOps},
		RollbackConfiguration: &RollbackConfiguration{RollbackTriggers: []RollbackTrigger{{Arn: e.AlarmARN("Watch"), Type: alarmType}}, MonitoringTimeInMinutes: &m}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "strip", UsePreviousTemplate: true,
		Tags: []Tag{}, NotificationARNs: []string{}, RollbackConfiguration: &RollbackConfiguration{RollbackTriggers: []RollbackTrigger{}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.Save(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e, err = Open(path, opts); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "app", ChangeSetName: "strip"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	out, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "app"})
	if err != nil {
		t.Fatal(err)
	}
	st := out.Stacks[0]
	if st.StackStatus != "UPDATE_COMPLETE" || len(st.Tags) != 0 || len(st.NotificationARNs) != 0 || len(st.RollbackConfiguration.RollbackTriggers) != 0 {
		t.Fatalf("after the change set ran in a second process: %s, tags %v, topics %v, triggers %v",
			st.StackStatus, st.Tags, st.NotificationARNs, st.RollbackConfiguration.RollbackTriggers)
	}
}
