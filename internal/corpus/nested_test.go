package corpus

import (
	"reflect"
	"testing"

	"github.com/stacksim/stacksim/template"
)

func TestNestedURLs(t *testing.T) {
	body := `Parameters:
  Bucket: {Type: String}
  Prefix: {Type: String, Default: "quickstart/"}
Resources:
  A:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: !Sub ["https://${B}.s3.${AWS::Region}.${AWS::URLSuffix}/${Prefix}templates/child.yaml", {B: !Ref Bucket}]
  B:
    Type: AWS::CloudFormation::Stack
    Properties: {TemplateURL: https://s3.amazonaws.com/fixed/other.yaml}
  C:
    Type: AWS::CloudFormation::Stack
    Properties: {TemplateURL: !GetAtt Somewhere.Url}
  D:
    Type: AWS::SNS::Topic
    Properties: {TopicName: https://not-a-stack.s3.amazonaws.com/x.yaml}
`
	root := mustTree(t, "parent.yaml", body)
	params, err := template.DeclaredParameters("parent.yaml", root)
	if err != nil {
		t.Fatal(err)
	}
	got := NestedURLs(root, params, Inputs{Parameters: []template.ParameterValue{{Key: "Bucket", Value: "my-templates"}}})
	want := []string{"https://my-templates.s3.us-east-1.amazonaws.com/quickstart/templates/child.yaml", "https://s3.amazonaws.com/fixed/other.yaml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("URLs %q, want %q", got, want)
	}
	files := []string{"x/templates/child.yaml", "solution/templates/child.yaml", "solution/main.yaml", "child.json"}
	if f, ok := Nearest("solution/main.yaml", "child.yaml", files); !ok || f != "solution/templates/child.yaml" {
		t.Errorf("nearest child.yaml: %q %v", f, ok)
	}
	if f, ok := Nearest("solution/main.yaml", "absent.yaml", files); ok {
		t.Errorf("nearest absent.yaml: %q", f)
	}
}
