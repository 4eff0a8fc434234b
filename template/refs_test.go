package template

import (
	"reflect"
	"strings"
	"testing"
)

func TestReferences(t *testing.T) {
	tpl := mustParse(t, "r.yaml", string(fixture(t, "references/template.yaml")))
	type ref struct {
		Target, Kind, Attribute, Path string
		Pos                           Pos
		Conditional                   bool
	}
	var got []ref
	for _, r := range tpl.References("Sub") {
		got = append(got, ref{r.Target, r.Kind.String(), r.Attribute, r.Path, r.Pos, r.Conditional()})
	}
	want := []ref{
		{"IsProd", "Condition", "", "/Condition", Pos{14, 16}, false},
		{"Queue", "DependsOn", "", "/DependsOn/0", Pos{13, 17}, false},
		{"Topic", "Ref", "", "/Properties/TopicArn", Pos{18, 17}, false},
		{"Queue", "GetAtt", "Arn", "/Properties/Endpoint", Pos{19, 17}, false},
		{"Queue", "GetAtt", "", "/Properties/Dynamic", Pos{20, 16}, false},
		{"Attr", "Parameter", "", "/Properties/Dynamic/Fn::GetAtt/1", Pos{20, 32}, false},
		{"Topic", "Sub", "TopicName", "/Properties/Name", Pos{21, 18}, false},
		{"Queue", "Sub", "", "/Properties/Name", Pos{21, 18}, false},
		{"Env", "Parameter", "", "/Properties/Name", Pos{21, 18}, false},
		{"IsProd", "Condition", "", "/Properties/Maybe/Fn::If/0", Pos{22, 19}, false},
		{"Queue", "Ref", "", "/Properties/Maybe/Fn::If/1", Pos{22, 27}, true},
		{"Env", "Parameter", "", "/Metadata/Owner", Pos{16, 14}, false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("references:\n got %+v\nwant %+v", got, want)
	}
	out := tpl.OutputReferences("Arn")
	if len(out) != 2 || out[0].Target != "Topic" || out[0].Path != "/Value" || out[1].Target != "Queue" || out[1].Path != "/Export/Name" {
		t.Errorf("output references %+v", out)
	}
	if tpl.References("Nope") != nil || tpl.OutputReferences("Nope") != nil {
		t.Error("references of nothing")
	}
}

func TestConditionalResources(t *testing.T) {
	tpl := mustParse(t, "c.yaml", string(fixture(t, "conditional-resources/template.yaml")))
	dev := mustBind(t, tpl)
	if dev.Enabled("Replica") || !dev.Enabled("Queue") || len(dev.Resources()) != 2 {
		t.Errorf("dev resources %v", names(dev.Resources()))
	}
	if got := dev.DependsOn("Alarm"); !reflect.DeepEqual(got, []string{"Queue"}) {
		t.Errorf("Alarm depends on %v", got)
	}
	if got := dev.DependsOn("Queue"); len(got) != 0 {
		t.Errorf("dev Queue depends on %v (the Fn::If branch not taken)", got)
	}
	if len(dev.Outputs()) != 1 || dev.Outputs()[0].Name != "QueueArn" {
		t.Errorf("dev outputs %v", dev.Outputs())
	}
	props, err := dev.Properties("Queue", fakeResolver{})
	if err != nil || len(props) != 0 {
		t.Errorf("dev Queue properties %v %v", props, err)
	}
	prod := mustBind(t, tpl, "Env=prod")
	if got := prod.DependsOn("Queue"); !reflect.DeepEqual(got, []string{"Replica"}) {
		t.Errorf("prod Queue depends on %v", got)
	}
	props, err = prod.Properties("Queue", fakeResolver{atts: map[string]any{"Replica.Arn": "arn:r"}})
	if err != nil || !reflect.DeepEqual(props, map[string]any{"RedrivePolicy": map[string]any{"deadLetterTargetArn": "arn:r"}}) {
		t.Errorf("prod Queue properties %v %v", props, err)
	}
	if _, err := dev.Properties("Replica", fakeResolver{}); err == nil {
		t.Error("properties of a resource that does not exist")
	}
}

func names(rs []*Resource) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.LogicalID)
	}
	return out
}

func TestReferencesToDisabledResources(t *testing.T) {
	head := "Parameters:\n  Env: {Type: String, Default: dev}\nConditions:\n  IsProd: !Equals [!Ref Env, prod]\nResources:\n  Replica:\n    Type: AWS::SQS::Queue\n    Condition: IsProd\n"
	tests := []struct {
		name, body, want string
	}{
		{"ref", "  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      X: !Ref Replica\n",
			"t:12:10: Template format error: Unresolved resource dependencies [Replica] in the Resources block of the template"},
		{"depends on", "  Q:\n    Type: AWS::SQS::Queue\n    DependsOn: Replica\n",
			"t:11:16: Template format error: Unresolved resource dependencies [Replica] in the Resources block of the template"},
		{"sub", "  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      X: !Sub \"${Replica.Arn}\"\n",
			"t:12:15: Template format error: Unresolved resource dependencies [Replica] in the Resources block of the template"},
		{"output", "Outputs:\n  O:\n    Value: !Ref Replica\n",
			"t:11:12: Unresolved resource dependencies [Replica] in the Outputs block of the template"},
		{"if branch not taken", "  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      X: !If [IsProd, !Ref Replica, none]\n", ""},
		{"cycle through a taken branch", "  A:\n    Type: AWS::SQS::Queue\n    Properties:\n      X: !If [IsProd, x, !Ref B]\n  B:\n    Type: AWS::SQS::Queue\n    Properties:\n      X: !Ref A\n",
			"t:9:3: Circular dependency between resources: [A, B]"},
		{"cycle through a branch not taken", "  A:\n    Type: AWS::SQS::Queue\n    Properties:\n      X: !If [IsProd, !Ref B, x]\n  B:\n    Type: AWS::SQS::Queue\n    Properties:\n      X: !Ref A\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, err := Parse("t", []byte(head+tt.body))
			if err != nil {
				t.Fatal(err)
			}
			_, err = tpl.Bind(BindInput{Pseudo: testPseudo})
			if errText(err) != tt.want {
				t.Errorf("got  %s\nwant %s", errText(err), tt.want)
			}
		})
	}
}

func TestConditions(t *testing.T) {
	head := `Parameters:
  Env: {Type: String, Default: dev}
  Count: {Type: Number, Default: "2"}
  Names: {Type: CommaDelimitedList, Default: "a,b"}
Mappings:
  M: {dev: {Big: "false"}, prod: {Big: "true"}}
Resources:
  A: {Type: AWS::SNS::Topic}
Conditions:
  C: `
	tests := []struct {
		expr string
		kv   []string
		want bool
	}{
		{"!Equals [!Ref Env, dev]", nil, true},
		{"!Equals [!Ref Env, dev]", []string{"Env=prod"}, false},
		{"!Equals [!Ref Count, 2]", nil, true},
		{"!Equals [true, \"true\"]", nil, true},
		{"!Equals [!Ref Names, [a, b]]", nil, true},
		{"!Equals [!Select [1, !Ref Names], b]", nil, true},
		{"!Equals [!Join [\"-\", !Ref Names], a-b]", nil, true},
		{"!Equals [!FindInMap [M, !Ref Env, Big], \"true\"]", []string{"Env=prod"}, true},
		{"!Equals [!Sub \"${Env}-${AWS::Region}\", dev-us-east-1]", nil, true},
		{"!Equals [!Ref AWS::AccountId, \"123456789012\"]", nil, true},
		{"!Not [!Equals [!Ref Env, dev]]", nil, false},
		{"!And [!Equals [a, a], !Equals [b, b], !Not [!Equals [a, b]]]", nil, true},
		{"!And [!Equals [a, a], !Equals [a, b]]", nil, false},
		{"!Or [!Equals [a, b], !Equals [b, b]]", nil, true},
		{"!Or [!Equals [a, b], !Equals [c, b]]", nil, false},
		{"!Or [!Condition D, !Equals [x, y]]", nil, true},
		{"!Not [!Condition D]", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			tpl, err := Parse("t", []byte(head+tt.expr+"\n  D: !Equals [1, 1]\n"))
			if err != nil {
				t.Fatal(err)
			}
			b := mustBind(t, tpl, tt.kv...)
			if b.Condition("C") != tt.want {
				t.Errorf("C = %v, want %v", b.Condition("C"), tt.want)
			}
		})
	}
}

func TestRules(t *testing.T) {
	tpl := mustParse(t, "r.yaml", string(fixture(t, "rules/template.yaml")))
	if _, err := tpl.Bind(BindInput{Pseudo: testPseudo}); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	tests := []struct {
		kv   []string
		want string
	}{
		{[]string{"Env=prod"}, "r.yaml:11:17: Production needs a large size"},
		{[]string{"Env=prod", "Size=large"}, ""},
		{[]string{"Size=huge"}, "r.yaml:15:17: Template error: an assertion of rule KnownSize failed"},
		{[]string{"Subnets=subnet-a,subnet-z"}, "r.yaml:16:17: Unknown subnet"},
		{[]string{"Env=prod", "Subnets=subnet-z"}, "r.yaml:11:17: Production needs a large size\nr.yaml:16:17: Unknown subnet"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.kv, ","), func(t *testing.T) {
			_, err := tpl.Bind(BindInput{Parameters: params(tt.kv...), Pseudo: testPseudo})
			if errText(err) != tt.want {
				t.Errorf("got  %s\nwant %s", errText(err), tt.want)
			}
		})
	}
	_, err := Parse("t", []byte("Rules:\n  R:\n    Assertions:\n      - Assert: !Equals [!Join [\"\", [a]], a]\nResources:\n  A: {Type: AWS::SNS::Topic}\n"))
	if want := "t:4:26: Template format error: Following functions are not supported in the Rules block of the template: [Fn::Join]"; errText(err) != want {
		t.Errorf("got  %s\nwant %s", errText(err), want)
	}
}

func TestPoliciesWithFunctions(t *testing.T) {
	body := `Parameters:
  Policy: {Type: String, Default: Retain}
Conditions:
  Keep: !Equals [!Ref Policy, Retain]
Mappings:
  M: {us-east-1: {P: Snapshot}}
Resources:
  A:
    Type: AWS::SNS::Topic
    DeletionPolicy: !Ref Policy
    UpdateReplacePolicy: !If [Keep, Retain, Delete]
  B:
    Type: AWS::RDS::DBInstance
    DeletionPolicy: !FindInMap [M, !Ref AWS::Region, P]
  C:
    Type: AWS::SNS::Topic
`
	tpl := mustParse(t, "t", body)
	b := mustBind(t, tpl)
	if b.DeletionPolicy("A") != "Retain" || b.UpdateReplacePolicy("A") != "Retain" || b.DeletionPolicy("B") != "Snapshot" ||
		b.DeletionPolicy("C") != "Delete" || b.UpdateReplacePolicy("C") != "Delete" {
		t.Errorf("policies %v %v", b.deletion, b.replacement)
	}
	if _, err := tpl.Bind(BindInput{Parameters: params("Policy=Keep"), Pseudo: testPseudo}); errText(err) !=
		"t:10:21: Template format error: Unrecognized DeletionPolicy Keep for resource A" {
		t.Errorf("got %v", err)
	}
	_, err := Parse("t", []byte("Resources:\n  A:\n    Type: AWS::SNS::Topic\n    DeletionPolicy: !Sub x\n"))
	if want := "t:4:21: Template format error: Unsupported expression for DeletionPolicy in resource A"; errText(err) != want {
		t.Errorf("got  %s\nwant %s", errText(err), want)
	}
}
