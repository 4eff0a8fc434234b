package resources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ExampleValue makes a value that passes the type's own validation, for a
// property at the top, under an object and in an array, and a different
// one for another key where the schema allows it.
func TestExampleValue(t *testing.T) {
	reg := NewRegistry(RegistryOptions{})
	defer reg.Close()
	for _, tt := range []struct {
		typeName string
		path     []string
		want     string // a prefix the value has
	}{
		{"AWS::EFS::MountTarget", []string{"SubnetId"}, "subnet-"},
		{"AWS::EKS::Cluster", []string{"Version"}, "1."},
		{"AWS::IAM::Role", []string{"ManagedPolicyArns", "*"}, "arn:"},
		{"AWS::IAM::Role", []string{"PermissionsBoundary"}, ""}, // minLength 20, no pattern
		{"AWS::EC2::Instance", []string{"NetworkInterfaces", "*", "SubnetId"}, ""},
	} {
		s, err := reg.Schema(tt.typeName)
		if err != nil {
			t.Fatal(err)
		}
		a, ok := s.ExampleValue(1, tt.path, "a")
		if !ok {
			t.Errorf("%s %v: no value", tt.typeName, tt.path)
			continue
		}
		b, _ := s.ExampleValue(1, tt.path, "b")
		str, _ := a.(string)
		if len(str) < len(tt.want) || str[:len(tt.want)] != tt.want {
			t.Errorf("%s %v: %v, want a string starting %q", tt.typeName, tt.path, a, tt.want)
		}
		if err := s.CheckAttribute(joinDots(tt.path), a); err != nil {
			t.Errorf("%s %v: %v does not fit: %v", tt.typeName, tt.path, a, err)
		}
		if Equal(a, b) {
			t.Errorf("%s %v: keys a and b both give %v", tt.typeName, tt.path, a)
		}
		again, _ := s.ExampleValue(1, tt.path, "a")
		if !Equal(a, again) {
			t.Errorf("%s %v: %v then %v for the same key", tt.typeName, tt.path, a, again)
		}
	}
	s, _ := reg.Schema("AWS::EFS::MountTarget")
	if v, ok := s.ExampleValue(1, []string{"NoSuchProperty"}, "a"); ok {
		t.Errorf("a property the schema does not have: %v", v)
	}
}

func joinDots(path []string) string {
	out := ""
	for i, p := range path {
		if i > 0 {
			out += "."
		}
		out += p
	}
	return out
}

// A model with several extraneous keys and several missing ones is refused
// with the keys in one order, every time (the validator gathers them from
// maps).
func TestValidationListsKeysInOrder(t *testing.T) {
	reg := NewRegistry(RegistryOptions{})
	defer reg.Close()
	s, err := reg.Schema("AWS::IAM::Role")
	if err != nil {
		t.Fatal(err)
	}
	model := map[string]any{"Type": "x", "Name": "y", "Permissions": "z", "Alpha": "a", "Zulu": "b"}
	// everit, CloudFormation's validator, reports each key on its own.
	const want = "#: extraneous key [Alpha] is not permitted; #: extraneous key [Name] is not permitted; " +
		"#: extraneous key [Permissions] is not permitted; #: extraneous key [Type] is not permitted; " +
		"#: extraneous key [Zulu] is not permitted; #: required key [AssumeRolePolicyDocument] not found"
	for i := 0; i < 20; i++ {
		err := s.ValidateInput(model)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("run %d: %v, want %q", i, err, want)
		}
	}
}

// A registry schema given with --schemas (SchemaDir) is simulated with
// stacksim's overlay for the type, as the registry's own is: a nested
// stack answers Outputs.NAME. A schema of the user's own the overlay does
// not fit is kept as it is.
func TestSchemaDirKeepsOverlays(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("aws-cloudformation-stack.json", `{"typeName": "AWS::CloudFormation::Stack", "description": "nested stack",
	  "properties": {"TemplateURL": {"type": "string"}, "StackId": {"type": "string"}},
	  "required": ["TemplateURL"], "readOnlyProperties": ["/properties/StackId"],
	  "primaryIdentifier": ["/properties/StackId"], "additionalProperties": false}`)
	write("aws-ec2-eip.json", `{"typeName": "AWS::EC2::EIP", "description": "a user's own, without PublicIp",
	  "properties": {"Domain": {"type": "string"}, "Id": {"type": "string"}},
	  "readOnlyProperties": ["/properties/Id"], "primaryIdentifier": ["/properties/Id"], "additionalProperties": false}`)
	reg := NewRegistry(RegistryOptions{SchemaDir: dir})
	defer reg.Close()
	stack, err := reg.Schema("AWS::CloudFormation::Stack")
	if err != nil {
		t.Fatal(err)
	}
	if !stack.HasAttribute("Outputs.VpcId") || stack.Description != "nested stack" {
		t.Errorf("the nested stack of SchemaDir: Outputs.VpcId %v, description %q", stack.HasAttribute("Outputs.VpcId"), stack.Description)
	}
	eip, err := reg.Schema("AWS::EC2::EIP")
	if err != nil {
		t.Fatalf("a schema the overlay does not fit: %v", err)
	}
	if eip.HasAttribute("PublicIp") {
		t.Errorf("the user's EIP schema took the overlay")
	}
}
