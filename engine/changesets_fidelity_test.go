package engine

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources/faults"
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
	// A name the stack has no change set of is deleted without an error
	// (CDK deletes one of a fresh name before each deploy and diff); an
	// ARN of none is ChangeSetNotFound.
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "live", TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	if _, err := e.DeleteChangeSet(ctx(), DeleteChangeSetInput{StackName: "live", ChangeSetName: "cdk-diff-change-set-1"}); err != nil {
		t.Errorf("DeleteChangeSet of a name the stack has none of: %v", err)
	}
	missing := strings.Replace(made.Id, ":changeSet/one/", ":changeSet/none/", 1)
	_, err = e.DeleteChangeSet(ctx(), DeleteChangeSetInput{ChangeSetName: missing})
	wantAPIError(t, err, CodeChangeSetNotFound, "ChangeSet ["+missing+"] does not exist")
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

// A StackName is a name or an ARN (AWS's pattern says so); a CREATE change
// set naming a live stack by its ARN is refused as by its name, with the
// ARN in AWS's words.
func TestCreateChangeSetWithAStacksARN(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	out, err := e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: body})
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	_, err = e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: out.StackId, ChangeSetName: "again", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body})
	wantAPIError(t, err, CodeValidationError, "Stack ["+out.StackId+"] already exists and cannot be created again with the changeSet [again].")
	_, err = e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "again", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body})
	wantAPIError(t, err, CodeValidationError, "Stack [app] already exists and cannot be created again with the changeSet [again].")
	_, err = e.CreateStack(ctx(), CreateStackInput{StackName: "my_stack", TemplateBody: body})
	wantAPIError(t, err, CodeValidationError, "1 validation error detected: Value 'my_stack' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*")
	// An ARN that names no live stack cannot name a new one.
	gone := "arn:aws:cloudformation:us-east-1:123456789012:stack/gone/00000000-0000-4000-8000-000000000000"
	_, err = e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: gone, ChangeSetName: "one", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body})
	wantAPIError(t, err, CodeValidationError, "Stack ["+gone+"] does not exist")
	_, err = e.CreateStack(ctx(), CreateStackInput{StackName: gone, TemplateBody: body})
	wantAPIError(t, err, CodeValidationError, "Stack ["+gone+"] does not exist")
	if list, _ := e.ListStacks(ctx(), ListStacksInput{}); len(list.StackSummaries) != 1 {
		t.Fatalf("%d stacks", len(list.StackSummaries))
	}
}

// A change set with no changes is FAILED, and executing it is refused in
// AWS's words, the change set named by its ARN.
func TestExecuteFailedChangeSet(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	made, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "same", TemplateBody: body})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "app", ChangeSetName: "same"})
	wantAPIError(t, err, CodeInvalidChangeSetStatus, "ChangeSet ["+made.Id+"] cannot be executed in its current status of [FAILED]")
}

// A resource that a create's rollback deleted is gone for
// DescribeStackResource: "Resource NAME does not exist for stack STACK"
// (BEHAVIOUR.md §8), though the stack still lists it DELETE_COMPLETE.
func TestDescribeStackResourceDeletedByRollback(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n  Bad:\n    Type: AWS::SNS::Topic\n    DependsOn: Topic\n"
	inj, err := faults.Load("f.yaml", []byte("faults:\n  - match: {logicalId: Bad, action: create}\n    fail: {code: AccessDenied, message: no}\n"))
	if err != nil {
		t.Fatal(err)
	}
	in := CreateStackInput{StackName: "app", TemplateBody: body}
	in.Faults = inj.Faults()
	if _, err := e.CreateStack(ctx(), in); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	_, err = e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "app", LogicalResourceId: "Topic"})
	wantAPIError(t, err, CodeValidationError, "Resource Topic does not exist for stack app")
}

// A change set may import an export that does not exist yet: it is made
// (AVAILABLE, a [WARN] reason naming the resource and the export), and
// executing it is refused until the export exists, then runs.
func TestChangeSetImportsAnExportNotMadeYet(t *testing.T) {
	e := newTestEngine(t, Options{})
	consumer := "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !ImportValue shared\n"
	producer := "Resources:\n  Q:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: v\nOutputs:\n  O:\n    Value: !Ref Q\n    Export:\n      Name: shared\n"
	if _, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "c", ChangeSetName: "one", ChangeSetType: ChangeSetTypeCreate, TemplateBody: consumer}); err != nil {
		t.Fatalf("CreateChangeSet refused: %v", err)
	}
	cs, err := e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: "c", ChangeSetName: "one"})
	if err != nil {
		t.Fatal(err)
	}
	if cs.Status != ChangeSetStatusCreateComplete || cs.ExecutionStatus != ExecutionStatusAvailable ||
		!strings.HasPrefix(cs.StatusReason, "[WARN] ") || !strings.HasSuffix(cs.StatusReason, "resource [P] because: No export named shared found.") {
		t.Fatalf("change set: %s %s %q", cs.Status, cs.ExecutionStatus, cs.StatusReason)
	}
	_, err = e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "c", ChangeSetName: "one"})
	wantAPIError(t, err, CodeValidationError, "No export named shared found.")
	st, _ := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "c"})
	if st.Stacks[0].StackStatus != "REVIEW_IN_PROGRESS" {
		t.Fatalf("after the refused execute: %s", st.Stacks[0].StackStatus)
	}
	// A direct create is refused at once, as before.
	_, err = e.CreateStack(ctx(), CreateStackInput{StackName: "d", TemplateBody: consumer})
	wantAPIError(t, err, CodeValidationError, "No export named shared found.")
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "p", TemplateBody: producer}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	if _, err := e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "c", ChangeSetName: "one"}); err != nil {
		t.Fatalf("execute once the export exists: %v", err)
	}
	mustRun(t, e)
	st, _ = e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "c"})
	if st.Stacks[0].StackStatus != "CREATE_COMPLETE" {
		t.Fatalf("consumer: %s", st.Stacks[0].StackStatus)
	}
}
