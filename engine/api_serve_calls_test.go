package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stacksim/stacksim/statemachine"
)

// The calls that serve's clients make and the CLI did not: termination
// protection, GetTemplateSummary, and retries by ClientRequestToken.

const twoParams = `AWSTemplateFormatVersion: "2010-09-09"
Description: summary
Metadata:
  Owner: core
Parameters:
  Env:
    Type: String
    Default: dev
    AllowedValues: [dev, prod]
    Description: the environment
  Secret:
    Type: String
    NoEcho: true
Resources:
  Topic:
    Type: AWS::SNS::Topic
  Param:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !Ref Env
  Other:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !Ref Secret
  Role:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument: {}
  Mystery:
    Type: AWS::Nope::Thing
`

func TestGetTemplateSummary(t *testing.T) {
	e := newTestEngine(t, Options{})
	out, err := e.GetTemplateSummary(ctx(), GetTemplateSummaryInput{TemplateBody: twoParams})
	if err != nil {
		t.Fatal(err)
	}
	want := &GetTemplateSummaryOutput{
		Parameters: []ParameterDeclaration{
			{ParameterKey: "Env", DefaultValue: "dev", ParameterType: "String", Description: "the environment", ParameterConstraints: ParameterConstraints{AllowedValues: []string{"dev", "prod"}}},
			{ParameterKey: "Secret", ParameterType: "String", NoEcho: true},
		},
		Description:        "summary",
		Capabilities:       []string{"CAPABILITY_IAM"},
		CapabilitiesReason: "The following resource(s) require capabilities: [AWS::IAM::Role]",
		ResourceTypes:      []string{"AWS::SNS::Topic", "AWS::SSM::Parameter", "AWS::IAM::Role", "AWS::Nope::Thing"},
		Version:            "2010-09-09",
		Metadata:           `{"Owner":"core"}`,
		ResourceIdentifierSummaries: []ResourceIdentifierSummary{
			{ResourceType: "AWS::SNS::Topic", LogicalResourceIds: []string{"Topic"}, ResourceIdentifiers: []string{"TopicArn"}},
			{ResourceType: "AWS::SSM::Parameter", LogicalResourceIds: []string{"Param", "Other"}, ResourceIdentifiers: []string{"Name"}},
			{ResourceType: "AWS::IAM::Role", LogicalResourceIds: []string{"Role"}, ResourceIdentifiers: []string{"RoleName"}},
		},
		Warnings: &TemplateSummaryWarnings{UnrecognizedResourceTypes: []string{"AWS::Nope::Thing"}},
	}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", out, want)
	}
	// By stack: the stack's template.
	body := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "web", TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	out, err = e.GetTemplateSummary(ctx(), GetTemplateSummaryInput{StackName: "web"})
	if err != nil || !reflect.DeepEqual(out.ResourceTypes, []string{"AWS::SNS::Topic"}) {
		t.Fatalf("by stack: %v %+v", err, out)
	}
	_, err = e.GetTemplateSummary(ctx(), GetTemplateSummaryInput{StackName: "nope"})
	wantAPIError(t, err, CodeValidationError, "Stack with id nope does not exist")
	_, err = e.GetTemplateSummary(ctx(), GetTemplateSummaryInput{})
	wantAPIError(t, err, CodeValidationError, "Specify one of TemplateBody, TemplateURL and StackName (stacksim does not read StackSetName).")
	// By URL: as by body.
	path := filepath.Join(t.TempDir(), "t.yaml")
	if err := os.WriteFile(path, []byte(twoParams), 0o644); err != nil {
		t.Fatal(err)
	}
	byURL, err := e.GetTemplateSummary(ctx(), GetTemplateSummaryInput{TemplateURL: "file://" + path})
	if err != nil || !reflect.DeepEqual(byURL, want) {
		t.Fatalf("by URL: %v\n%+v", err, byURL)
	}
}

func TestTerminationProtection(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	cs, err := e.CreateStack(ctx(), CreateStackInput{StackName: "web", TemplateBody: body, EnableTerminationProtection: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	_, err = e.DeleteStack(ctx(), DeleteStackInput{StackName: "web"})
	wantAPIError(t, err, CodeValidationError, "Stack [web] cannot be deleted while TerminationProtection is enabled")
	off := false
	out, err := e.UpdateTerminationProtection(ctx(), UpdateTerminationProtectionInput{StackName: "web", EnableTerminationProtection: &off})
	if err != nil || out.StackId != cs.StackId {
		t.Fatalf("UpdateTerminationProtection: %v %+v", err, out)
	}
	d, _ := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "web"})
	if p := d.Stacks[0].EnableTerminationProtection; p == nil || *p {
		t.Fatal("protection still on")
	}
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "web"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	on := true
	_, err = e.UpdateTerminationProtection(ctx(), UpdateTerminationProtectionInput{StackName: cs.StackId, EnableTerminationProtection: &on})
	wantAPIError(t, err, CodeValidationError, "Stack with id "+cs.StackId+" does not exist")
	_, err = e.UpdateTerminationProtection(ctx(), UpdateTerminationProtectionInput{StackName: "web"})
	wantAPIError(t, err, CodeValidationError, "1 validation error detected: Value null at 'enableTerminationProtection' failed to satisfy constraint: Member must not be null")
}

func TestClientRequestTokenRetries(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	in := CreateStackInput{StackName: "web", TemplateBody: body, ClientRequestToken: "create-1"}
	first, err := e.CreateStack(ctx(), in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	// The same call again: the same answer, nothing done.
	again, err := e.CreateStack(ctx(), in)
	if err != nil || again.StackId != first.StackId {
		t.Fatalf("retried CreateStack: %v %+v", err, again)
	}
	ev, _ := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "web"})
	n := len(ev.StackEvents)
	// Without the token it is a new call, refused.
	in.ClientRequestToken = ""
	_, err = e.CreateStack(ctx(), in)
	wantAPIError(t, err, CodeAlreadyExists, "Stack [web] already exists")
	// The token of the create, given to an update: refused.
	_, err = e.UpdateStack(ctx(), UpdateStackInput{StackName: "web", TemplateBody: body + "  Two:\n    Type: AWS::SNS::Topic\n", ClientRequestToken: "create-1"})
	if !IsCode(err, CodeTokenAlreadyExists) {
		t.Fatalf("update with the create's token: %v", err)
	}
	up := UpdateStackInput{StackName: "web", TemplateBody: body + "  Two:\n    Type: AWS::SNS::Topic\n", ClientRequestToken: "update-1"}
	if _, err := e.UpdateStack(ctx(), up); err != nil {
		t.Fatal(err)
	}
	// A retry while the update runs is not refused as a second update.
	if _, err := e.UpdateStack(ctx(), up); err != nil {
		t.Fatalf("retried UpdateStack in UPDATE_IN_PROGRESS: %v", err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	// ... nor after it completed ("No updates are to be performed").
	if _, err := e.UpdateStack(ctx(), up); err != nil {
		t.Fatalf("retried UpdateStack after UPDATE_COMPLETE: %v", err)
	}
	ev, _ = e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "web"})
	if got := len(ev.StackEvents) - n; got != 6 {
		t.Fatalf("one update wrote %d events, want 6 (retries wrote some)", got)
	}
	// Every event of the update carries the caller's token.
	for _, x := range ev.StackEvents[:6] {
		if x.ClientRequestToken != "update-1" {
			t.Fatalf("event %s %s has token %q", x.LogicalResourceId, x.ResourceStatus, x.ClientRequestToken)
		}
	}
	del := DeleteStackInput{StackName: "web", ClientRequestToken: "delete-1"}
	if _, err := e.DeleteStack(ctx(), del); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteStack(ctx(), del); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	d, _ := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: first.StackId})
	if d.Stacks[0].StackStatus != string(statemachine.StackStatusDeleteComplete) {
		t.Fatalf("status %s", d.Stacks[0].StackStatus)
	}
}

// TestCreateChangeSetClientTokenRetries: CreateChangeSet's ClientToken
// makes a retry answer the change set the first call made — before and
// after it runs, and after the state is saved and loaded — while the name
// stays taken for a call without the token or with another one.
func TestCreateChangeSetClientTokenRetries(t *testing.T) {
	e := newTestEngine(t, Options{})
	in := CreateChangeSetInput{StackName: "web", ChangeSetName: "first", ChangeSetType: ChangeSetTypeCreate,
		TemplateBody: "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n", ClientToken: "cs-1"}
	first, err := e.CreateChangeSet(ctx(), in)
	if err != nil {
		t.Fatal(err)
	}
	events := func() int {
		t.Helper()
		ev, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: first.StackId})
		if err != nil {
			t.Fatal(err)
		}
		return len(ev.StackEvents)
	}
	retry := func(when string) {
		t.Helper()
		n := events()
		again, err := e.CreateChangeSet(ctx(), in)
		if err != nil || again.Id != first.Id || again.StackId != first.StackId {
			t.Fatalf("retry %s: %v %+v, want %+v", when, err, again, first)
		}
		l, err := e.ListChangeSets(ctx(), ListChangeSetsInput{StackName: first.StackId})
		if err != nil || len(l.Summaries) != 1 {
			t.Fatalf("retry %s: the stack has %d change sets (%v), want 1", when, len(l.Summaries), err)
		}
		if events() != n {
			t.Fatalf("retry %s wrote events", when)
		}
	}
	retry("in review")
	for _, token := range []string{"", "cs-2"} {
		other := in
		other.ClientToken = token
		_, err := e.CreateChangeSet(ctx(), other)
		wantAPIError(t, err, CodeAlreadyExists, "ChangeSet [first] already exists")
	}
	if _, err := e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{ChangeSetName: first.Id}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	retry("after it ran")
	loaded, err := NewFromState(state(t, e), Options{})
	if err != nil {
		t.Fatal(err)
	}
	e = loaded
	retry("after a save and a load")
}

// TestChangeSetNameFreeAfterExecution: once a change set has run, a new
// change set may take its name (aws cloudformation deploy names its change
// sets by the second), and the name finds the new one; a change set that
// has not run keeps its name.
func TestChangeSetNameFreeAfterExecution(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	first, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "web", ChangeSetName: "deploy-1", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{ChangeSetName: first.Id}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	update := CreateChangeSetInput{StackName: "web", ChangeSetName: "deploy-1", TemplateBody: body + "  Two:\n    Type: AWS::SNS::Topic\n"}
	second, err := e.CreateChangeSet(ctx(), update)
	if err != nil {
		t.Fatalf("a change set named as the executed one: %v", err)
	}
	if second.Id == first.Id {
		t.Fatal("the second change set has the first's id")
	}
	d, err := e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: "web", ChangeSetName: "deploy-1"})
	if err != nil || d.ChangeSetId != second.Id || d.ExecutionStatus != ExecutionStatusAvailable {
		t.Fatalf("DescribeChangeSet by name: %v %s %s, want the new one, AVAILABLE", err, d.ChangeSetId, d.ExecutionStatus)
	}
	d, err = e.DescribeChangeSet(ctx(), DescribeChangeSetInput{ChangeSetName: first.Id})
	if err != nil || d.ExecutionStatus != ExecutionStatusExecuteComplete {
		t.Fatalf("the first by ARN: %v %+v", err, d)
	}
	_, err = e.CreateChangeSet(ctx(), update)
	wantAPIError(t, err, CodeAlreadyExists, "ChangeSet [deploy-1] already exists")
}
