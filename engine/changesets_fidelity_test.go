package engine

import (
	"reflect"
	"strings"
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

// DescribeChangeSet's details and contexts, without and with
// IncludePropertyValues, as AWS gives them for a parameter's change, a
// Fn::GetAtt and a Ref of the resource it replaces (plan/changes.go cites
// the recordings).
func TestChangeSetDetailsAsAWSGivesThem(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := `Parameters:
  TopicName:
    Type: String
Resources:
  Foo:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: !Ref TopicName
  Bar:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !GetAtt Foo.TopicName
  Baz:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !Ref Foo
`
	param := func(v string) []Parameter { return []Parameter{{ParameterKey: "TopicName", ParameterValue: v}} }
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "p", TemplateBody: body, Parameters: param("topic-name-1")}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	if _, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "p", ChangeSetName: "two", TemplateBody: body, Parameters: param("topic-name-2")}); err != nil {
		t.Fatal(err)
	}
	type row struct{ logical, name, eval, source, entity, before, after, typ, path string }
	rows := func(values bool) (out []row, contexts []string) {
		cs, err := e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: "p", ChangeSetName: "two", IncludePropertyValues: values})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs.Changes {
			rc := c.ResourceChange
			contexts = append(contexts, rc.LogicalResourceID+" "+rc.BeforeContext+" "+rc.AfterContext)
			for _, d := range rc.Details {
				out = append(out, row{rc.LogicalResourceID, d.Target.Name, d.Evaluation, d.ChangeSource, d.CausingEntity,
					d.Target.BeforeValue, d.Target.AfterValue, d.Target.AttributeChangeType, d.Target.Path})
			}
		}
		return out, contexts
	}
	got, contexts := rows(false)
	want := []row{
		{"Foo", "TopicName", "Static", "ParameterReference", "TopicName", "", "", "", ""},
		{"Foo", "TopicName", "Dynamic", "DirectModification", "", "", "", "", ""},
		{"Bar", "Value", "Dynamic", "ResourceAttribute", "Foo.TopicName", "", "", "", ""},
		{"Baz", "Value", "Static", "ResourceReference", "Foo", "", "", "", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("without property values:\n got %v\nwant %v", got, want)
	}
	for _, c := range contexts {
		if strings.Contains(c, "{") {
			t.Errorf("a context without property values: %s", c)
		}
	}
	const ka = "{{changeSet:KNOWN_AFTER_APPLY}}"
	arn := "arn:aws:sns:us-east-1:123456789012:topic-name-1"
	got, contexts = rows(true)
	want = []row{
		{"Foo", "TopicName", "Dynamic", "DirectModification", "", "topic-name-1", "topic-name-2", "Modify", "/Properties/TopicName"},
		{"Foo", "TopicName", "Static", "ParameterReference", "TopicName", "topic-name-1", "topic-name-2", "Modify", "/Properties/TopicName"},
		{"Bar", "Value", "Dynamic", "DirectModification", "", "topic-name-1", ka, "Modify", "/Properties/Value"},
		{"Bar", "Value", "Static", "ResourceAttribute", "Foo.TopicName", "topic-name-1", ka, "Modify", "/Properties/Value"},
		{"Baz", "Value", "Dynamic", "DirectModification", "", arn, ka, "Modify", "/Properties/Value"},
		{"Baz", "Value", "Static", "ResourceReference", "Foo", arn, ka, "Modify", "/Properties/Value"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with property values:\n got %v\nwant %v", got, want)
	}
	wantContexts := []string{
		`Foo {"Properties":{"TopicName":"topic-name-1"}} {"Properties":{"TopicName":"topic-name-2"}}`,
		`Bar {"Properties":{"Type":"String","Value":"topic-name-1"}} {"Properties":{"Type":"String","Value":"` + ka + `"}}`,
		`Baz {"Properties":{"Type":"String","Value":"` + arn + `"}} {"Properties":{"Type":"String","Value":"` + ka + `"}}`,
	}
	if !reflect.DeepEqual(contexts, wantContexts) {
		t.Errorf("contexts:\n got %q\nwant %q", contexts, wantContexts)
	}

	// A CREATE change set: each Add has its AfterContext (a reference to a
	// resource not made yet is not known) and, with values, Replacement True.
	if _, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "q", ChangeSetName: "one", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body, Parameters: param("t")}); err != nil {
		t.Fatal(err)
	}
	cs, err := e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: "q", ChangeSetName: "one", IncludePropertyValues: true})
	if err != nil {
		t.Fatal(err)
	}
	rc := cs.Changes[1].ResourceChange
	if rc.Action != "Add" || rc.Replacement != "True" || rc.BeforeContext != "" || rc.AfterContext != `{"Properties":{"Type":"String","Value":"`+ka+`"}}` {
		t.Errorf("Add with values: %+v", rc)
	}
	plain, _ := e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: "q", ChangeSetName: "one"})
	if rc := plain.Changes[1].ResourceChange; rc.Replacement != "" || rc.AfterContext != "" {
		t.Errorf("Add without values: %+v", rc)
	}
}
