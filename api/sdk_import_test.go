package api

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
)

// A resource one stack retained is imported into a new stack through the
// Go SDK: ResourcesToImport (a list of structures holding a map) on the
// wire, the Import change, the StackImportComplete waiter; and an import
// the template does not allow is refused with AWS's error.
func TestSDKImport(t *testing.T) {
	ts := newTestServer(t, nil, Options{})
	ctx := context.Background()
	c := ts.cfn
	param := func(policy string) string {
		return "Resources:\n  Config:\n    Type: AWS::SSM::Parameter\n" + policy +
			"    Properties:\n      Name: shared\n      Type: String\n      Value: one\n"
	}
	must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("owner"), TemplateBody: aws.String(param("    DeletionPolicy: Retain\n"))}))
	must(c.DeleteStack(ctx, &cfn.DeleteStackInput{StackName: aws.String("owner")}))

	toImport := []types.ResourceToImport{{ResourceType: aws.String("AWS::SSM::Parameter"), LogicalResourceId: aws.String("Config"),
		ResourceIdentifier: map[string]string{"Name": "shared"}}}
	_, err := c.CreateChangeSet(ctx, &cfn.CreateChangeSetInput{StackName: aws.String("app"), ChangeSetName: aws.String("adopt"),
		ChangeSetType: types.ChangeSetTypeImport, TemplateBody: aws.String(param("")), ResourcesToImport: toImport})
	wantAPIError(t, err, "ValidationError", "The following resources to import [Config] must have DeletionPolicy attribute specified in the template.")

	cs := must(c.CreateChangeSet(ctx, &cfn.CreateChangeSetInput{StackName: aws.String("app"), ChangeSetName: aws.String("adopt"),
		ChangeSetType: types.ChangeSetTypeImport, TemplateBody: aws.String(param("    DeletionPolicy: Retain\n")), ResourcesToImport: toImport}))
	if err := cfn.NewChangeSetCreateCompleteWaiter(c, fastChangeSet).Wait(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: cs.Id}, time.Minute); err != nil {
		t.Fatal(err)
	}
	d := must(c.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: cs.Id}))
	if len(d.Changes) != 1 || d.Changes[0].ResourceChange.Action != types.ChangeActionImport || aws.ToString(d.Changes[0].ResourceChange.PhysicalResourceId) != "shared" {
		t.Fatalf("changes: %+v", d.Changes)
	}
	must(c.ExecuteChangeSet(ctx, &cfn.ExecuteChangeSetInput{ChangeSetName: cs.Id}))
	if err := cfn.NewStackImportCompleteWaiter(c, func(o *cfn.StackImportCompleteWaiterOptions) { o.MinDelay = time.Millisecond }).
		Wait(ctx, &cfn.DescribeStacksInput{StackName: cs.StackId}, time.Minute); err != nil {
		t.Fatal(err)
	}
	r := must(c.DescribeStackResource(ctx, &cfn.DescribeStackResourceInput{StackName: aws.String("app"), LogicalResourceId: aws.String("Config")}))
	if aws.ToString(r.StackResourceDetail.PhysicalResourceId) != "shared" || r.StackResourceDetail.ResourceStatus != types.ResourceStatusUpdateComplete {
		t.Fatalf("imported resource: %+v", r.StackResourceDetail)
	}
}

// ImportExistingResources through the Go SDK (what `cdk deploy
// --import-existing-resources` sends): a CREATE change set imports the
// retained parameter its template names and creates the other; the change
// set and its summary carry the flag; the StackCreateComplete waiter.
func TestSDKImportExistingResources(t *testing.T) {
	ts := newTestServer(t, nil, Options{})
	ctx := context.Background()
	c := ts.cfn
	param := "  Config:\n    Type: AWS::SSM::Parameter\n    DeletionPolicy: Retain\n    Properties:\n      Name: shared\n      Type: String\n      Value: one\n"
	must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("owner"), TemplateBody: aws.String("Resources:\n" + param)}))
	must(c.DeleteStack(ctx, &cfn.DeleteStackInput{StackName: aws.String("owner")}))

	body := "Resources:\n" + param + "  Other:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !GetAtt Config.Value\n"
	cs := must(c.CreateChangeSet(ctx, &cfn.CreateChangeSetInput{StackName: aws.String("app"), ChangeSetName: aws.String("first"),
		ChangeSetType: types.ChangeSetTypeCreate, TemplateBody: aws.String(body), ImportExistingResources: aws.Bool(true)}))
	if err := cfn.NewChangeSetCreateCompleteWaiter(c, fastChangeSet).Wait(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: cs.Id}, time.Minute); err != nil {
		t.Fatal(err)
	}
	d := must(c.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: cs.Id}))
	if !aws.ToBool(d.ImportExistingResources) || len(d.Changes) != 2 ||
		d.Changes[0].ResourceChange.Action != types.ChangeActionImport || aws.ToString(d.Changes[0].ResourceChange.PhysicalResourceId) != "shared" ||
		d.Changes[1].ResourceChange.Action != types.ChangeActionAdd {
		t.Fatalf("change set: ImportExistingResources %v, changes %+v", aws.ToBool(d.ImportExistingResources), d.Changes)
	}
	l := must(c.ListChangeSets(ctx, &cfn.ListChangeSetsInput{StackName: aws.String("app")}))
	if len(l.Summaries) != 1 || !aws.ToBool(l.Summaries[0].ImportExistingResources) {
		t.Fatalf("summaries: %+v", l.Summaries)
	}
	must(c.ExecuteChangeSet(ctx, &cfn.ExecuteChangeSetInput{ChangeSetName: cs.Id}))
	if err := cfn.NewStackCreateCompleteWaiter(c, func(o *cfn.StackCreateCompleteWaiterOptions) { o.MinDelay = time.Millisecond }).
		Wait(ctx, &cfn.DescribeStacksInput{StackName: cs.StackId}, time.Minute); err != nil {
		t.Fatal(err)
	}
	r := must(c.DescribeStackResource(ctx, &cfn.DescribeStackResourceInput{StackName: aws.String("app"), LogicalResourceId: aws.String("Config")}))
	if aws.ToString(r.StackResourceDetail.PhysicalResourceId) != "shared" || r.StackResourceDetail.ResourceStatus != types.ResourceStatusImportComplete {
		t.Fatalf("imported resource: %+v", r.StackResourceDetail)
	}
}
