package template

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestForEach(t *testing.T) {
	tpl := mustParse(t, "l.yaml", string(fixture(t, "language-extensions/loops.yaml")))
	want := []string{"Topicorders", "Topicpayments", "BucketLogs", "PolicyLogsRead", "PolicyLogsWrite",
		"BucketData", "PolicyDataRead", "PolicyDataWrite", "Summary"}
	if got := names(tpl.Resources); !reflect.DeepEqual(got, want) {
		t.Fatalf("resources %v, want %v", got, want)
	}
	if tpl.Condition("Isorders") == nil || tpl.Output("ordersArn") == nil {
		t.Fatal("conditions or outputs not expanded")
	}
	r := tpl.Resource("Topicorders")
	if r.Condition != "Isorders" {
		t.Errorf("Condition = %q", r.Condition)
	}
	// The loop keeps the positions of the template as written.
	if r.Pos != (Pos{21, 7}) {
		t.Errorf("Topicorders at %v", r.Pos)
	}
	b := mustBind(t, tpl)
	props, err := b.Properties("Topicorders", fakeResolver{})
	if err != nil {
		t.Fatal(err)
	}
	if props["TopicName"] != "test-orders" || props["DisplayName"] != "orders" || props["Plain"] != "stays ${Name}" {
		t.Errorf("Topicorders %v", props)
	}
	props, err = b.Properties("PolicyDataWrite", fakeResolver{atts: map[string]any{"BucketData.Arn": "arn:data"}})
	if err != nil {
		t.Fatal(err)
	}
	if props["Bucket"] != "phys-BucketData" || props["Arn"] != "arn:data" {
		t.Errorf("PolicyDataWrite %v", props)
	}
	if got := b.DependsOn("PolicyDataWrite"); !reflect.DeepEqual(got, []string{"BucketData"}) {
		t.Errorf("PolicyDataWrite depends on %v", got)
	}
	props, err = b.Properties("Summary", fakeResolver{})
	if err != nil {
		t.Fatal(err)
	}
	if props["Count"] != json.Number("2") || props["Value"] != `{"Zebra":1,"Apple":["a","us-east-1"]}` || props["Fallback"] != "none" {
		t.Errorf("Summary %v", props)
	}
	v, err := b.OutputValue("paymentsArn", fakeResolver{})
	if err != nil || v != "phys-Topicpayments" {
		t.Errorf("paymentsArn = %v, %v", v, err)
	}
}

func TestForEachOverAParameterWithoutDefault(t *testing.T) {
	body := `Transform: AWS::LanguageExtensions
Parameters:
  Names: {Type: CommaDelimitedList}
Resources:
  Fn::ForEach::Queues:
    - N
    - !Ref Names
    - Queue${N}: {Type: AWS::SQS::Queue}
`
	tpl := mustParse(t, "t", body)
	if len(tpl.Resources) != 0 {
		t.Fatalf("resources before binding: %v", names(tpl.Resources))
	}
	b := mustBind(t, tpl, "Names=a,b,c")
	if got := names(b.Resources()); !reflect.DeepEqual(got, []string{"Queuea", "Queueb", "Queuec"}) {
		t.Errorf("resources %v", got)
	}
	if b.Template() == tpl || b.Template().Resource("Queueb") == nil {
		t.Error("the bound template is not the expanded one")
	}
}

func TestForEachErrors(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"layout", "Transform: AWS::LanguageExtensions\nResources:\n  Fn::ForEach::X:\n    - [a]\n    - B: {Type: AWS::SNS::Topic}\n",
			"t:3:3: Transform AWS::LanguageExtensions failed with: Fn::ForEach layout is incorrect"},
		{"collection", "Transform: AWS::LanguageExtensions\nResources:\n  Fn::ForEach::X:\n    - I\n    - [[a]]\n    - B${I}: {Type: AWS::SNS::Topic}\n",
			"t:5:8: Transform AWS::LanguageExtensions failed with: Could not find a collection or could not be resolved for Fn::ForEach"},
		{"key without the identifier", "Transform: AWS::LanguageExtensions\nResources:\n  Fn::ForEach::X:\n    - I\n    - [a, b]\n    - B: {Type: AWS::SNS::Topic}\n",
			"t:6:7: Transform AWS::LanguageExtensions failed with: Fn::ForEach layout is incorrect"},
		{"loop named after a resource", "Transform: AWS::LanguageExtensions\nResources:\n  X: {Type: AWS::SNS::Topic}\n  Fn::ForEach::X:\n    - I\n    - [a]\n    - B${I}: {Type: AWS::SNS::Topic}\n",
			"t:4:3: Transform AWS::LanguageExtensions failed with: The loop name X is the logical id of a resource. A loop name cannot conflict with a logical id in the Resources section."},
		{"outside the sections", "Transform: AWS::LanguageExtensions\nMetadata:\n  Fn::ForEach::X: [I, [a], {\"K${I}\": v}]\nResources:\n  A: {Type: AWS::SNS::Topic}\n",
			"t:3:3: Transform AWS::LanguageExtensions failed with: Fn::ForEach is not supported in the Metadata section. The functions of AWS::LanguageExtensions are supported in the Resources, Conditions and Outputs sections."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t", []byte(tt.body))
			if errText(err) != tt.want {
				t.Errorf("got  %s\nwant %s", errText(err), tt.want)
			}
		})
	}
}
