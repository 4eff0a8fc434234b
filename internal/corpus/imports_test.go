package corpus

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/template"
)

func mustTree(t *testing.T, name, body string) *template.Node {
	t.Helper()
	root, err := template.ParseTree(name, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestProducers(t *testing.T) {
	var x Exports
	// Two clusters export the same names; only the private one exports
	// PrivateListener. A network stack in another directory exports with
	// a hyphen, and one a literal name.
	x.Add("ecs/clusters/public.yaml", mustTree(t, "public.yaml", `Resources: {}
Outputs:
  C: {Value: c, Export: {Name: !Join [":", [!Ref "AWS::StackName", ClusterName]]}}
  L: {Value: l, Export: {Name: !Join [":", [!Ref "AWS::StackName", PublicListener]]}}
`))
	x.Add("ecs/clusters/private.yaml", mustTree(t, "private.yaml", `Resources: {}
Outputs:
  C: {Value: c, Export: {Name: !Join [":", [!Ref "AWS::StackName", ClusterName]]}}
  L: {Value: l, Export: {Name: !Join [":", [!Ref "AWS::StackName", PrivateListener]]}}
`))
	x.Add("ecs/clusters/private.json", mustTree(t, "private.json", `{"Resources": {}, "Outputs": {
  "C": {"Value": "c", "Export": {"Name": {"Fn::Join": [":", [{"Ref": "AWS::StackName"}, "ClusterName"]]}}},
  "L": {"Value": "l", "Export": {"Name": {"Fn::Join": [":", [{"Ref": "AWS::StackName"}, "PrivateListener"]]}}}}}`))
	x.Add("net/vpc.yaml", mustTree(t, "vpc.yaml", `Parameters:
  Env: {Type: String, Default: dev}
Resources: {}
Outputs:
  V: {Value: v, Export: {Name: !Sub "${AWS::StackName}-${Env}-VpcId"}}
  T: {Value: t, Export: {Name: TeamTopic}}
`))
	for _, tt := range []struct {
		name, file, body string
		want             []Producer
		param            string // the parameter given the producer's name
	}{
		{"the default names the stack", "ecs/services/private.yaml", `Parameters:
  StackName: {Type: String, Default: production}
Resources:
  S:
    Type: AWS::ECS::Service
    Properties:
      Cluster: !ImportValue {"Fn::Join": [":", [!Ref StackName, ClusterName]]}
      L: !ImportValue {"Fn::Join": [":", [!Ref StackName, PrivateListener]]}
`, []Producer{{File: "ecs/clusters/private.yaml", StackName: "production"}}, ""},
		{"the YAML one of two in the nearest directory", "ecs/services/public.json", `{"Parameters": {"StackName": {"Type": "String", "Default": "production"}},
 "Resources": {"S": {"Type": "AWS::ECS::Service", "Properties": {"Cluster": {"Fn::ImportValue": {"Fn::Join": [":", [{"Ref": "StackName"}, "ClusterName"]]}}}}}}`,
			[]Producer{{File: "ecs/clusters/private.json", StackName: "production"}}, ""},
		{"a parameter without a default is given the stack's name", "app/app.yaml", `Parameters:
  Network: {Type: String}
Resources:
  S:
    Type: AWS::EC2::SecurityGroup
    Properties: {VpcId: !ImportValue {"Fn::Sub": "${Network}-dev-VpcId"}}
`, []Producer{{File: "net/vpc.yaml", StackName: "vpc"}}, "Network=vpc"},
		{"a literal name", "app/topic.yaml", `Resources:
  S:
    Type: AWS::SNS::Subscription
    Properties: {TopicArn: !ImportValue TeamTopic}
`, []Producer{{File: "net/vpc.yaml", StackName: "vpc"}}, ""},
		{"a literal name of a stack-named export", "app/lit.yaml", `Resources:
  S:
    Type: AWS::ECS::Service
    Properties: {Cluster: !ImportValue "prod:PublicListener"}
`, []Producer{{File: "ecs/clusters/public.yaml", StackName: "prod"}}, ""},
		{"a name no template exports", "app/none.yaml", `Parameters:
  Network: {Type: String, Default: ""}
Resources:
  S:
    Type: AWS::EC2::SecurityGroup
    Properties: {VpcId: !ImportValue {"Fn::Sub": "${Network}-SubnetId"}}
`, nil, ""},
		{"names no one template exports together", "ecs/services/both.yaml", `Parameters:
  StackName: {Type: String, Default: production}
Resources:
  S:
    Type: AWS::ECS::Service
    Properties:
      A: !ImportValue {"Fn::Join": [":", [!Ref StackName, PrivateListener]]}
      B: !ImportValue {"Fn::Join": [":", [!Ref StackName, PublicListener]]}
`, nil, ""},
	} {
		in := Inputs{Parameters: []template.ParameterValue{{Key: "Network", Value: "aaaaaaaa"}}}
		got := x.Producers(tt.file, mustTree(t, tt.file, tt.body), &in)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: producers %v, want %v", tt.name, got, tt.want)
		}
		if tt.param != "" {
			key, value, _ := strings.Cut(tt.param, "=")
			if in.Parameters[0].Key != key || in.Parameters[0].Value != value {
				t.Errorf("%s: parameters %v, want %s", tt.name, in.Parameters, tt.param)
			}
		} else if in.Parameters[0].Value != "aaaaaaaa" {
			t.Errorf("%s: parameters changed: %v", tt.name, in.Parameters)
		}
	}
}

func TestStackNameOf(t *testing.T) {
	for file, want := range map[string]string{
		"a/cloudformation-codebuild-template.json": "cloudformation-codebuild-template",
		"a/VPC_With_Managed_NAT.yaml":              "VPC-With-Managed-NAT",
		"a/1-network.yaml":                         "producer-1-network",
	} {
		if got := stackNameOf(file); got != want || !stackNameRE.MatchString(got) {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
}
