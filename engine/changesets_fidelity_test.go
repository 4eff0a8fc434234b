package engine

import (
	"testing"
)

// Change sets as AWS keeps and refuses them.

// The change set that made a stack is still found by its ARN once the
// stack is deleted (EXECUTE_COMPLETE); by name, the deleted stack's name
// no longer names a stack: "Stack [NAME] does not exist", for
// DescribeChangeSet and DeleteChangeSet alike (API.md's recorded
// messages), and so for a stack that never existed.
func TestChangeSetOfADeletedStack(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	made, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "one", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "other", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	if _, err := e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{ChangeSetName: made.Id}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "app"}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	cs, err := e.DescribeChangeSet(ctx(), DescribeChangeSetInput{ChangeSetName: made.Id})
	if err != nil {
		t.Fatalf("DescribeChangeSet by ARN after the delete: %v", err)
	}
	if cs.ExecutionStatus != ExecutionStatusExecuteComplete || cs.Status != ChangeSetStatusCreateComplete || cs.StackId != made.StackId {
		t.Errorf("change set after the delete: %s %s %s", cs.Status, cs.ExecutionStatus, cs.StackId)
	}
	// By the stack's ARN and the change set's name, too.
	if _, err := e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: made.StackId, ChangeSetName: "one"}); err != nil {
		t.Errorf("by the deleted stack's ARN: %v", err)
	}
	// The one never executed went with the stack.
	_, err = e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: made.StackId, ChangeSetName: "other"})
	wantAPIError(t, err, CodeChangeSetNotFound, "ChangeSet [other] does not exist")

	_, err = e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: "app", ChangeSetName: "one"})
	wantAPIError(t, err, CodeValidationError, "Stack [app] does not exist")
	_, err = e.DeleteChangeSet(ctx(), DeleteChangeSetInput{StackName: "nope", ChangeSetName: "one"})
	wantAPIError(t, err, CodeValidationError, "Stack [nope] does not exist")
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
}

// Fn::FindInMap with a key that no runtime value decides and the mapping
// lacks is refused by the call itself, CreateStack and CreateChangeSet
// alike, as AWS refuses it ("Template error: Unable to get mapping for
// AWSEBAWSInstanceTypeFamily2Arch::t3a::Arch", AWS Elastic Beanstalk's
// platform release notes, 2019-06-07), and nothing is stored.
func TestFindInMapMissingKeyRefused(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Mappings:\n  M:\n    a:\n      b: c\nResources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !FindInMap [M, a, nope]\n"
	const msg = "Template error: Unable to get mapping for M::a::nope"
	_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "m", TemplateBody: body})
	wantAPIError(t, err, CodeValidationError, msg)
	_, err = e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "m", ChangeSetName: "one", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body})
	wantAPIError(t, err, CodeValidationError, msg)
	if list, err := e.ListStacks(ctx(), ListStacksInput{}); err != nil || len(list.StackSummaries) != 0 {
		t.Fatalf("stacks after the refusals: %v %+v", err, list)
	}
}
