package engine

import (
	"bytes"
	"strings"
	"testing"
)

// What CreateChangeSet refuses of an import, before anything is stored.
func TestImportRefused(t *testing.T) {
	const tpl = `Resources:
  Config:
    Type: AWS::SSM::Parameter
    DeletionPolicy: Retain
    Properties:
      Name: shared
      Type: String
      Value: one
  Hook:
    Type: Custom::Thing
    DeletionPolicy: Retain
    Properties:
      ServiceToken: arn:aws:lambda:us-east-1:123456789012:function:f
`
	ssm := func(id string, ident map[string]string) ResourceToImport {
		return ResourceToImport{ResourceType: "AWS::SSM::Parameter", LogicalResourceId: id, ResourceIdentifier: ident}
	}
	name := map[string]string{"Name": "shared"}
	for _, c := range []struct {
		why    string
		csType string
		in     []ResourceToImport
		exist  bool
		want   string
	}{
		{"none", ChangeSetTypeImport, nil, false, "ResourcesToImport must be given for a change set of type IMPORT"},
		{"not an import", ChangeSetTypeUpdate, []ResourceToImport{ssm("Config", name)}, false, "ResourcesToImport can be given only with ChangeSetType IMPORT"},
		{"no logical id", ChangeSetTypeImport, []ResourceToImport{ssm("", name)}, false, "Value null at 'resourcesToImport.1.member.logicalResourceId'"},
		{"no identifier", ChangeSetTypeImport, []ResourceToImport{ssm("Config", nil)}, false, "Value null at 'resourcesToImport.1.member.resourceIdentifier'"},
		{"twice", ChangeSetTypeImport, []ResourceToImport{ssm("Config", name), ssm("Config", name)}, false, "Resource [Config] is named more than once"},
		{"not in the template", ChangeSetTypeImport, []ResourceToImport{ssm("Other", name)}, false, "Resource [Other] in ResourcesToImport is not in the template"},
		{"other type", ChangeSetTypeImport, []ResourceToImport{{ResourceType: "AWS::SNS::Topic", LogicalResourceId: "Config", ResourceIdentifier: name}}, false,
			"Resource [Config] in ResourcesToImport has type AWS::SNS::Topic, but the template's Config is of type AWS::SSM::Parameter"},
		{"wrong identifier", ChangeSetTypeImport, []ResourceToImport{ssm("Config", map[string]string{"Name": "shared", "Extra": "x"})}, false,
			"Resource [Config] of type AWS::SSM::Parameter is identified by [Name]: its ResourceIdentifier gives [Extra, Name]"},
		{"custom", ChangeSetTypeImport, []ResourceToImport{{ResourceType: "Custom::Thing", LogicalResourceId: "Hook", ResourceIdentifier: name}}, false,
			"Resource [Hook] of type Custom::Thing cannot be imported: custom resources do not support import"},
		{"everything else created", ChangeSetTypeImport, []ResourceToImport{ssm("Config", name)}, false,
			"You have modified resources [Hook] in your template that are not being imported."},
	} {
		t.Run(c.why, func(t *testing.T) {
			e := newTestEngine(t, Options{})
			before := state(t, e)
			_, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "cs", ChangeSetType: c.csType,
				TemplateBody: tpl, ResourcesToImport: c.in})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if !bytes.Equal(before, state(t, e)) {
				t.Fatal("the refused call changed the stored state")
			}
		})
	}
	// ImportExistingResources belongs to CREATE and UPDATE change sets.
	e := newTestEngine(t, Options{})
	before := state(t, e)
	if _, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "cs", ChangeSetType: ChangeSetTypeImport,
		TemplateBody: tpl, ResourcesToImport: []ResourceToImport{ssm("Config", name)}, ImportExistingResources: true}); err == nil ||
		!strings.Contains(err.Error(), "ImportExistingResources can be given only with ChangeSetType CREATE or UPDATE") {
		t.Fatalf("ImportExistingResources on an IMPORT change set: %v", err)
	}
	if !bytes.Equal(before, state(t, e)) {
		t.Fatal("the refused call changed the stored state")
	}
}
