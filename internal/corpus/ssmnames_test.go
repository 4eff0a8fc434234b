package corpus

import (
	"strings"
	"testing"

	"github.com/stacksim/stacksim/template"
)

func TestAccountParameter(t *testing.T) {
	for name, want := range map[string]bool{
		"/Infra/VpcCidr":          true,
		"/network/vpc/primary/id": true,
		"plain-name":              true,
		"/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64": false, // public: the engine answers it
		"/aws/service/not/published/by/stacksim":                            false, // AWS's prefix: no account holds it
		"aws.config":                                                        false,
		"/SSM/thing":                                                        false,
		"arn:aws:ssm:us-east-1:123456789012:parameter/x":                    false, // not a name a user gives
		"": false,
	} {
		if got := AccountParameter(name); got != want {
			t.Errorf("AccountParameter(%q) = %v, want %v", name, got, want)
		}
	}
}

// The default of an SSM parameter type that names a parameter of the
// author's account is given to the account, with a value of the type
// (of the property that reads it, when one does), and the parameter keeps
// its default; the same from the tree of a template with a transform.
func TestMakeInputsSSMDefaults(t *testing.T) {
	body := `Parameters:
  Cidr: {Type: "AWS::SSM::Parameter::Value<String>", Default: /Infra/VpcCidr}
  Vpc: {Type: "AWS::SSM::Parameter::Value<AWS::EC2::VPC::Id>", Default: /network/vpc/id}
  Ami: {Type: "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>", Default: /aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64}
  Name: {Type: String, Default: kept}
  Policy: {Type: String}
Resources:
  V:
    Type: AWS::EC2::VPC
    Properties: {CidrBlock: !Ref Cidr}
  S:
    Type: AWS::EC2::SecurityGroup
    Properties: {GroupDescription: !Ref Name, VpcId: !Ref Vpc}
    DeletionPolicy: !Ref Policy
`
	props := fakeProps{"AWS::EC2::VPC CidrBlock": "10.0.0.0/16"}
	tmpl, err := template.Parse("t.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	fromTemplate, err := MakeInputs(tmpl, props)
	if err != nil {
		t.Fatal(err)
	}
	root, err := template.ParseTree("t.yaml", []byte("Transform: AWS::LanguageExtensions\n"+body))
	if err != nil {
		t.Fatal(err)
	}
	fromTree, err := MakeInputsTree("t.yaml", root, props)
	if err != nil {
		t.Fatal(err)
	}
	for what, in := range map[string]Inputs{"MakeInputs": fromTemplate, "MakeInputsTree": fromTree} {
		if got := in.SSM["/Infra/VpcCidr"]; got != "10.0.0.0/16Cidr" {
			t.Errorf("%s: /Infra/VpcCidr = %q, want the CidrBlock property's value", what, got)
		}
		if got := in.SSM["/network/vpc/id"]; !strings.HasPrefix(got, "vpc-") {
			t.Errorf("%s: /network/vpc/id = %q, want a VPC id", what, got)
		}
		if len(in.SSM) != 2 {
			t.Errorf("%s: SSM %v, want the two account names only", what, in.SSM)
		}
		// Policy, read as a DeletionPolicy, is the only parameter given.
		if len(in.Parameters) != 1 || in.Parameters[0] != (template.ParameterValue{Key: "Policy", Value: "Delete"}) {
			t.Errorf("%s: parameters %v, want Policy=Delete only", what, in.Parameters)
		}
	}
	if _, err := tmpl.Bind(fromTemplate.BindInput()); err != nil {
		t.Errorf("bind with the SSM defaults given: %v", err)
	}
}
