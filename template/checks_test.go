package template

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The checks CloudFormation makes when a template is submitted, with AWS's
// messages and the position each one points at.
func TestSubmissionChecks(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"no resources", "Description: x\n",
			"t:1:1: Template format error: At least one Resources member must be defined."},
		{"empty resources", "Resources: {}\n",
			"t:1:12: Template format error: At least one Resources member must be defined."},
		{"null resources", "Resources:\n",
			"t:1:11: Template format error: At least one Resources member must be defined."},
		{"no type", "Resources:\n  A:\n    Properties: {}\n",
			"t:2:3: Template format error: [/Resources/A] Every Resources object must contain a Type member."},
		{"type not a string", "Resources:\n  A:\n    Type: [x]\n",
			"t:3:11: Template format error: [/Resources/A/Type] Every Type member must be a string."},
		{"malformed type", "Resources:\n  A:\n    Type: SNS-Topic\n",
			"t:3:11: Template format error: Unrecognized resource types: [SNS-Topic]"},
		{"name not alphanumeric", "Resources:\n  my-topic:\n    Type: AWS::SNS::Topic\n",
			"t:2:3: Template format error: Resource name my-topic is non alphanumeric."},
		{"null value", "Resources:\n  A:\n    Type: AWS::SNS::Topic\nOutputs:\n  MyOutput:\n    Value:\n",
			"t:6:11: [/Outputs/MyOutput/Value] 'null' values are not allowed in templates"},
		{"null output", "Resources:\n  A:\n    Type: AWS::SNS::Topic\nOutputs:\n  MyOutput:\n",
			"t:5:12: Template format error: Every Outputs member must contain a Value object"},
		{"null property", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    Properties:\n      TopicName: ~\n",
			"t:5:18: [/Resources/A/Properties/TopicName] 'null' values are not allowed in templates"},
		{"unknown section", "Resources:\n  A:\n    Type: AWS::SNS::Topic\nOutput: {}\nFoo: 1\n",
			"t:4:1: Template format error: Invalid template property or properties [Output, Foo]"},
		{"unknown resource attribute", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    Propertys: {}\n",
			"t:4:5: Invalid template resource property 'Propertys'"},
		{"deletion policy", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    DeletionPolicy: Keep\n",
			"t:4:21: Template format error: Unrecognized DeletionPolicy Keep for resource A"},
		{"update replace policy", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    UpdateReplacePolicy: RetainExceptOnCreate\n",
			"t:4:26: Template format error: Unrecognized UpdateReplacePolicy RetainExceptOnCreate for resource A"},
		{"depends on nothing", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    DependsOn: [B]\n",
			"t:4:17: Template format error: Unresolved resource dependencies [B] in the Resources block of the template"},
		{"depends on a map", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    DependsOn: {B: 1}\n",
			"t:4:16: Template format error: DependsOn must be a string or list of strings."},
		{"condition not a string", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    Condition: [C]\n",
			"t:4:16: Template format error: Every Condition member must be a string."},
		{"undefined condition", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    Condition: C\n",
			"t:4:16: Template format error: Unresolved condition dependencies [C] in the Resources block of the template"},
		{"format version", "AWSTemplateFormatVersion: 2010-09-10\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:1:27: Template format error: Unsupported template format version 2010-09-10."},
		{"output without value", "Resources:\n  A:\n    Type: AWS::SNS::Topic\nOutputs:\n  O:\n    Description: d\n",
			"t:6:5: Template format error: Every Outputs member must contain a Value object"},
		{"output property", "Resources:\n  A:\n    Type: AWS::SNS::Topic\nOutputs:\n  O:\n    Value: v\n    Exports: {Name: n}\n",
			"t:7:5: Template format error: Invalid outputs property : [Exports]"},
		{"output condition function", "Resources:\n  A:\n    Type: AWS::SNS::Topic\nOutputs:\n  O:\n    Value: !Equals [a, b]\n",
			"t:6:12: Template format error: The Value field of every Outputs member must evaluate to a String."},
		{"output refers to nothing", "Resources:\n  A:\n    Type: AWS::SNS::Topic\nOutputs:\n  O:\n    Value: !Ref B\n",
			"t:6:12: Unresolved resource dependencies [B] in the Outputs block of the template"},
		{"parameter without type", "Parameters:\n  P: {Default: x}\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:6: Template format error: Every Parameters object must contain a Type member."},
		{"parameter type", "Parameters:\n  P: {Type: Text}\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:13: Template format error: Unrecognized parameter type: Text"},
		{"parameter pattern no engine compiles", "Parameters:\n  P: {Type: String, AllowedPattern: '[a-z('}\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:37: Template format error: Parameter 'P' AllowedPattern is not a valid regular expression: [a-z( (error parsing regexp: unterminated [] set in `[a-z(`; AllowedPattern is a Java regular expression the whole value must match)"},
		{"parameter property", "Parameters:\n  P: {Type: String, Defualt: x}\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:21: Invalid template parameter property 'Defualt'"},
		{"parameter and resource share a name", "Parameters:\n  A: {Type: String}\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:5:5: Template error: all resources and parameters must have unique names. Common name(s):[A]"},
		{"condition not boolean", "Conditions:\n  C: !Ref P\nParameters:\n  P: {Type: String}\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:6: Template format error: Conditions can only be boolean operations on parameters and other conditions"},
		{"condition refers to a resource", "Conditions:\n  C: !Equals [!Ref A, x]\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:15: Template format error: Unresolved dependencies [A]. Cannot reference resources in the Conditions block of the template"},
		{"condition uses GetAtt", "Conditions:\n  C: !Equals [!GetAtt A.Arn, x]\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:15: Template format error: Unresolved dependencies [A]. Cannot reference resources in the Conditions block of the template"},
		{"condition cycle", "Conditions:\n  C1: !Not [!Condition C2]\n  C2: !Not [!Condition C1]\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:3: Template format error: Circular dependency between conditions: [C1, C2]"},
		{"and with one operand", "Conditions:\n  C: !And [!Equals [a, a]]\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:6: Template error: every Fn::And object requires a list of at least 2 and at most 10 boolean parameters."},
		{"or with a string", "Conditions:\n  C: !Or [!Equals [a, a], x]\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:27: Template error: every Fn::Or object requires a list of at least 2 and at most 10 boolean parameters."},
		{"not with two", "Conditions:\n  C: !Not [!Equals [a, a], !Equals [b, b]]\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:6: Template error: Fn::Not requires a list argument with one element"},
		{"equals with three", "Conditions:\n  C: !Equals [a, b, c]\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:6: " + msgEquals},
		{"mapping with a function", "Mappings:\n  M:\n    K: {A: !Ref AWS::Region}\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:3:12: Template format error: Every Mappings attribute must be a String or a List."},
		{"mapping value an object", "Mappings:\n  M:\n    K:\n      A: {x: 1}\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:4:10: Template format error: Every Mappings attribute must be a String or a List."},
		{"mapping not a map", "Mappings:\n  M: 3\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:2:6: Template format error: Every Mappings member M must be a map"},
		{"resources a string", "Resources: \"\"\n",
			"t:1:12: Template format error: Any Resources member must be an object."},
		{"cycle", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    DependsOn: B\n  B:\n    Type: AWS::SNS::Topic\n    Properties:\n      X: !GetAtt A.Arn\n",
			"t:2:3: Circular dependency between resources: [A, B]"},
		{"self reference", "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    Properties:\n      X: !Ref A\n",
			"t:2:3: Circular dependency between resources: [A]"},
		{"fn foreach without the transform", "Resources:\n  Fn::ForEach::X:\n    - I\n    - [a]\n    - B${I}: {Type: AWS::SNS::Topic}\n",
			"t:2:3: Template format error: [/Resources/Fn::ForEach::X] resource definition is malformed (Fn::ForEach needs Transform: AWS::LanguageExtensions)"},
		{"description too long", "Description: " + strings.Repeat("x", 1025) + "\nResources:\n  A:\n    Type: AWS::SNS::Topic\n",
			"t:1:14: Template format error: Template description may not exceed 1024 bytes in size"},
		{"every fault at once", "Resources:\n  a-b:\n    Type: AWS::SNS::Topic\n  C:\n    Type: AWS::SNS::Topic\n    Properties:\n      X: !Ref Nope\nOutputs:\n  O:\n    Value:\n",
			"t:2:3: Template format error: Resource name a-b is non alphanumeric.\n" +
				"t:7:10: Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template\n" +
				"t:10:11: [/Outputs/O/Value] 'null' values are not allowed in templates"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t", []byte(tt.body))
			if errText(err) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", errText(err), tt.want)
			}
		})
	}
}

func TestQuotas(t *testing.T) {
	section := func(name, member string, n int) string {
		var b strings.Builder
		b.WriteString(name + ":\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  X%d: %s\n", i, member)
		}
		return b.String()
	}
	tests := []struct {
		name, body, want string
	}{
		{"resources", section("Resources", "{Type: AWS::SNS::Topic}", 501),
			"t:2:3: Template format error: Number of resources, 501, is greater than maximum allowed, 500"},
		{"parameters", section("Parameters", "{Type: String}", 201) + "Resources:\n  A: {Type: AWS::SNS::Topic}\n",
			"t:2:3: Template format error: Number of parameters, 201, is greater than maximum allowed, 200"},
		{"outputs", "Resources:\n  A: {Type: AWS::SNS::Topic}\n" + section("Outputs", "{Value: v}", 201),
			"t:4:3: Template format error: Number of outputs, 201, is greater than maximum allowed, 200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t", []byte(tt.body))
			if errText(err) != tt.want {
				t.Errorf("got  %s\nwant %s", errText(err), tt.want)
			}
		})
	}
	if _, err := Parse("t", []byte(section("Resources", "{Type: AWS::SNS::Topic}", 500))); err != nil {
		t.Errorf("500 resources: %v", err)
	}
}

func TestUnsupportedTransforms(t *testing.T) {
	for _, body := range []string{
		"Transform: AWS::Serverless-2016-10-31\nResources:\n  F: {Type: AWS::Serverless::Function}\n",
		"Transform: [AWS::LanguageExtensions, MyMacro]\nResources:\n  A: {Type: AWS::SNS::Topic}\n",
		"Transform: {Name: AWS::Include, Parameters: {Location: s3://b/k}}\nResources:\n  A: {Type: AWS::SNS::Topic}\n",
		"Resources:\n  A:\n    Type: AWS::SNS::Topic\n    Properties:\n      Fn::Transform: {Name: AWS::Include}\n",
		"Resources:\n  A: {Type: My::Thing::Queue::MODULE}\n",
	} {
		_, err := Parse("t", []byte(body))
		if !errors.Is(err, ErrUnsupported) || !IsUnsupported(err) {
			t.Errorf("%q: got %v, want ErrUnsupported", body, err)
		}
	}
	tpl := mustParse(t, "t", "Transform: AWS::LanguageExtensions\nResources:\n  A: {Type: AWS::SNS::Topic}\n")
	if !tpl.HasTransform(LanguageExtensions) || len(tpl.Transform) != 1 {
		t.Errorf("Transform = %v", tpl.Transform)
	}
}

func FuzzIsResourceType(f *testing.F) {
	for _, s := range []string{"AWS::SQS::Queue", "AWS::SQS::Queue::MODULE", "Custom::My-Res_1.@", "Custom::", "A::B", "A::B::C::D",
		"A:::B::C", "A::B::C::MODULE::MODULE", "Custom::A::B", "Custom::a:b", "::B::C", "A::B::", "A::B::C::MODUL"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isResourceType(s), typeRE.MatchString(s); got != want {
			t.Fatalf("isResourceType(%q) = %v, typeRE says %v", s, got, want)
		}
	})
}

func TestFnNamed(t *testing.T) {
	for name, id := range fnByName {
		if got := fnNamed(name); got != id {
			t.Errorf("fnNamed(%s) = %d, want %d", name, got, id)
		}
	}
	for _, name := range []string{"", "Fn::", "Fn::Foo", "ref", "Fn::ForEach::X"} {
		if got := fnNamed(name); got != fnNone {
			t.Errorf("fnNamed(%s) = %d", name, got)
		}
	}
}
