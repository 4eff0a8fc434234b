package corpus

import (
	"strings"
	"testing"

	"github.com/stacksim/stacksim/template"
)

// fakeProps answers TYPE/PATH#KEY for the properties it knows.
type fakeProps map[string]string

func (f fakeProps) PropertyValue(typeName string, path []string, key string) (string, bool) {
	v, ok := f[typeName+" "+strings.Join(path, "/")]
	if !ok {
		return "", false
	}
	return v + key, true
}

func TestPropertyValues(t *testing.T) {
	props := fakeProps{
		"AWS::EKS::Cluster Version":                "v-",
		"AWS::EFS::MountTarget SubnetId":           "subnet-",
		"AWS::IAM::Role ManagedPolicyArns/*":       "arn:aws:iam::aws:policy/",
		"AWS::EC2::Instance SecurityGroupIds/*":    "sg-",
		"AWS::EC2::Instance Tags/*/Value":          "tag-",
		"AWS::SNS::Topic TopicName":                "topic-",
		"AWS::EC2::Instance NetworkInterfaces/*/X": "never",
	}
	body := `Parameters:
  Version: {Type: String}
  Subnets: {Type: CommaDelimitedList}
  Policy: {Type: String}
  Groups: {Type: CommaDelimitedList}
  Owner: {Type: String}
  Picked: {Type: String, AllowedValues: [a, b]}
  Short: {Type: String, MaxLength: 3}
  InSub: {Type: String}
Resources:
  C:
    Type: AWS::EKS::Cluster
    Properties: {Version: !Ref Version}
  M:
    Type: AWS::EFS::MountTarget
    Properties: {SubnetId: !Select [1, !Ref Subnets]}
  R:
    Type: AWS::IAM::Role
    Properties:
      ManagedPolicyArns: [arn:aws:iam::aws:policy/Admin, !Ref Policy]
  I:
    Type: AWS::EC2::Instance
    Properties:
      SecurityGroupIds: !Ref Groups
      Tags: [{Key: owner, Value: !If [Always, !Ref Owner, !Ref "AWS::NoValue"]}]
  T:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: !Ref Picked
      DisplayName: !Ref Short
      Subscription: [{Endpoint: !Sub "${InSub}", Protocol: email}]
Conditions:
  Always: !Equals [a, a]
`
	tpl, err := template.Parse("t.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	in, err := MakeInputs(tpl, props)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range in.Parameters {
		got[p.Key] = p.Value
	}
	for k, want := range map[string]string{
		"Version": "v-Version",
		"Subnets": "subnet-Subnets#0,subnet-Subnets#1",
		"Policy":  "arn:aws:iam::aws:policy/Policy",
		"Groups":  "sg-Groups#0,sg-Groups#1",
		"Owner":   "tag-Owner",
		"Picked":  "a",        // AllowedValues decide
		"Short":   "aaa",      // no property reads it
		"InSub":   "aaaaaaaa", // read inside Fn::Sub: not a property's value
	} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
	// Without Properties, the values come from the parameters alone.
	plain, err := MakeInputs(tpl, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Parameters[0].Value != "aaaaaaaa" {
		t.Errorf("Version without Properties: %q", plain.Parameters[0].Value)
	}
}
