package template

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestUnknown(t *testing.T) {
	u := Unknown{LogicalID: "Topic1", Attribute: "Arn"}
	if u.CausingEntity() != "Topic1.Arn" || (Unknown{LogicalID: "Topic1"}).CausingEntity() != "Topic1" ||
		(Unknown{Export: "e"}).CausingEntity() != "e" {
		t.Error("CausingEntity")
	}
	if u.String() != "{{changeSet:KNOWN_AFTER_APPLY}}" {
		t.Error("String")
	}
	known := map[string]any{"A": []any{"x", json.Number("1"), true, map[string]any{"B": "c"}}}
	if !IsKnown(known) {
		t.Error("known value reported unknown")
	}
	partly := map[string]any{"Z": u, "A": []any{"x", Unknown{LogicalID: "Q"}}}
	if IsKnown(partly) {
		t.Error("partly unknown value reported known")
	}
	if got, ok := FirstUnknown(partly); !ok || got.LogicalID != "Q" {
		t.Errorf("FirstUnknown = %v", got)
	}
}

func TestUnknownPropagates(t *testing.T) {
	tpl := mustParse(t, "t", `Resources:
  Vpc: {Type: AWS::EC2::VPC}
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: !Select [0, !Cidr [!GetAtt Vpc.CidrBlock, 2, 8]]
      Tags:
        - Key: Name
          Value: !Join ["-", [!Ref Vpc, subnet]]
        - Key: Known
          Value: fixed
Outputs:
  Id:
    Value: !Ref Subnet
`)
	b := mustBind(t, tpl)
	r := fakeResolver{refs: map[string]any{"Vpc": Unknown{LogicalID: "Vpc"}}, atts: map[string]any{"Vpc.CidrBlock": Unknown{LogicalID: "Vpc", Attribute: "CidrBlock"}}}
	props, err := b.Properties("Subnet", r)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"VpcId":     Unknown{LogicalID: "Vpc"},
		"CidrBlock": Unknown{LogicalID: "Vpc", Attribute: "CidrBlock"},
		"Tags": []any{
			map[string]any{"Key": "Name", "Value": Unknown{LogicalID: "Vpc"}},
			map[string]any{"Key": "Known", "Value": "fixed"},
		},
	}
	if !reflect.DeepEqual(props, want) {
		t.Errorf("got %#v", props)
	}
	if IsKnown(props) {
		t.Error("IsKnown")
	}
	// Once the VPC exists, the values are known.
	props, err = b.Properties("Subnet", fakeResolver{refs: map[string]any{"Vpc": "vpc-1"}, atts: map[string]any{"Vpc.CidrBlock": "10.0.0.0/16"}})
	if err != nil || !IsKnown(props) || props["CidrBlock"] != "10.0.0.0/24" {
		t.Errorf("got %v %v", props, err)
	}
}

func TestValuesEqual(t *testing.T) {
	tests := []struct {
		a, b any
		want bool
	}{
		{"1", json.Number("1"), true},
		{true, "true", true},
		{"a", "b", false},
		{[]any{"a", json.Number("2")}, []any{"a", "2"}, true},
		{[]any{"a"}, []any{"a", "b"}, false},
		{map[string]any{"k": "v"}, map[string]any{"k": "v"}, true},
		{map[string]any{"k": "v"}, map[string]any{"k": "w"}, false},
		{"a", []any{"a"}, false},
	}
	for _, tt := range tests {
		if got := valuesEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("valuesEqual(%v, %v) = %v", tt.a, tt.b, got)
		}
	}
}

func TestCidrSubnets(t *testing.T) {
	tests := []struct {
		block       string
		count, bits int
		want        []string
		err         string
	}{
		{"192.168.0.0/16", 2, 8, []string{"192.168.0.0/24", "192.168.1.0/24"}, ""},
		{"10.0.0.0/8", 3, 16, []string{"10.0.0.0/16", "10.1.0.0/16", "10.2.0.0/16"}, ""},
		{"10.0.0.5/24", 1, 8, []string{"10.0.0.0/24"}, ""},
		{"10.0.0.0/24", 4, 0, []string{"10.0.0.0/32", "10.0.0.1/32", "10.0.0.2/32", "10.0.0.3/32"}, ""},
		{"10.0.255.0/16", 2, 8, []string{"10.0.0.0/24", "10.0.1.0/24"}, ""},
		{"2001:db8::/32", 2, 96, []string{"2001:db8::/32", ""}, "Fn::Cidr cannot make 2 /32 subnets in 2001:db8::/32: it holds 1"},
		{"2001:db8::/32", 2, 80, []string{"2001:db8::/48", "2001:db8:1::/48"}, ""},
		{"2001:db8::/56", 3, 64, []string{"2001:db8::/64", "2001:db8:0:1::/64", "2001:db8:0:2::/64"}, ""},
		{"10.0.0.0/16", 1, 33, nil, "Fn::Cidr cidrBits must be between 0 and 32, got 33"},
		{"10.0.0.0/16", 257, 8, nil, "Fn::Cidr count must be between 1 and 256, got 257"},
		{"10.0.0.0/16", 1, 20, nil, "Fn::Cidr cannot make /12 subnets in 10.0.0.0/16"},
	}
	for _, tt := range tests {
		got, msg := cidrSubnets(tt.block, tt.count, tt.bits)
		if msg != tt.err || (tt.err == "" && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("Cidr(%s, %d, %d) = %v %q, want %v %q", tt.block, tt.count, tt.bits, got, msg, tt.want, tt.err)
		}
	}
}

func TestCapabilities(t *testing.T) {
	tests := []struct {
		name, resources string
		transform       bool
		caps            []string
		reason          string
	}{
		{"none", "  T: {Type: AWS::SNS::Topic}\n", false, nil, ""},
		{"iam", "  R: {Type: AWS::IAM::Role, Properties: {AssumeRolePolicyDocument: {}}}\n  P: {Type: AWS::IAM::Policy}\n  R2: {Type: AWS::IAM::Role}\n",
			false, []string{"CAPABILITY_IAM"}, "The following resource(s) require capabilities: [AWS::IAM::Role, AWS::IAM::Policy]"},
		{"named iam", "  R: {Type: AWS::IAM::Role, Properties: {RoleName: admin}}\n", false,
			[]string{"CAPABILITY_NAMED_IAM"}, "The following resource(s) require capabilities: [AWS::IAM::Role]"},
		{"no value is no name", "  R: {Type: AWS::IAM::User, Properties: {UserName: !Ref AWS::NoValue}}\n", false,
			[]string{"CAPABILITY_IAM"}, "The following resource(s) require capabilities: [AWS::IAM::User]"},
		{"transform", "  T: {Type: AWS::SNS::Topic}\n", true, []string{"CAPABILITY_AUTO_EXPAND"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := "Resources:\n" + tt.resources
			if tt.transform {
				body = "Transform: AWS::LanguageExtensions\n" + body
			}
			req := mustParse(t, "t", body).Capabilities()
			if !reflect.DeepEqual(req.Capabilities, tt.caps) || req.Reason != tt.reason {
				t.Errorf("got %v %q", req.Capabilities, req.Reason)
			}
		})
	}
	// A binding leaves out the resources whose condition is false.
	tpl := mustParse(t, "t", "Parameters:\n  Admin: {Type: String, Default: \"no\"}\nConditions:\n  IsAdmin: !Equals [!Ref Admin, \"yes\"]\nResources:\n  R: {Type: AWS::IAM::Role, Condition: IsAdmin}\n  T: {Type: AWS::SNS::Topic}\n")
	if req := mustBind(t, tpl).Capabilities(); len(req.Capabilities) != 0 {
		t.Errorf("bound capabilities %v", req.Capabilities)
	}
	if req := mustBind(t, tpl, "Admin=yes").Capabilities(); !reflect.DeepEqual(req.Resources, []string{"R"}) {
		t.Errorf("bound resources %v", req.Resources)
	}
}

func TestOutputs(t *testing.T) {
	tpl := mustParse(t, "t", `Resources:
  T: {Type: AWS::SNS::Topic}
Outputs:
  Arn:
    Description: the topic
    Value: !Ref T
    Export:
      Name: !Sub "${AWS::StackName}-arn"
  List:
    Value: !GetAZs ""
  Map:
    Value: {A: b}
`)
	b := mustBind(t, tpl)
	v, err := b.OutputValue("Arn", fakeResolver{})
	if err != nil || v != "phys-T" {
		t.Errorf("Arn = %v %v", v, err)
	}
	name, ok, err := b.ExportName("Arn", fakeResolver{})
	if err != nil || !ok || name != "test-arn" {
		t.Errorf("export %v %v %v", name, ok, err)
	}
	if _, ok, _ := b.ExportName("List", nil); ok {
		t.Error("List is not exported")
	}
	if v, err := b.OutputValue("List", nil); err != nil || !reflect.DeepEqual(v, []any{"us-east-1a", "us-east-1b", "us-east-1c"}) {
		t.Errorf("List = %v %v", v, err)
	}
	if _, err := b.OutputValue("Map", nil); errText(err) != "t:12:12: Template format error: The Value field of every Outputs member must evaluate to a String." {
		t.Errorf("Map: %v", err)
	}
	if tpl.Output("Arn").Description != "the topic" {
		t.Error("Description")
	}
}
