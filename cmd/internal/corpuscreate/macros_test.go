package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
)

// invoke runs a stand-in macro through its target, as the engine calls it.
func invoke(t *testing.T, name, fragment string, params, values map[string]any) map[string]any {
	t.Helper()
	target, ok := macroTarget(name)
	if !ok {
		t.Fatalf("no stand-in for %s", name)
	}
	req := &resources.MacroRequest{Region: "us-east-1", AccountID: "123456789012", Fragment: json.RawMessage(fragment),
		TransformID: "123456789012::" + name, Params: params, RequestID: "req-1", TemplateParameterValues: values}
	raw, err := target.(resources.MacroTarget).InvokeMacro(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var answer map[string]any
	if err := json.Unmarshal(raw, &answer); err != nil {
		t.Fatal(err)
	}
	if answer["requestId"] != "req-1" {
		t.Errorf("%s: requestId %v", name, answer["requestId"])
	}
	return answer
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestStandInMacros(t *testing.T) {
	for _, c := range []struct {
		name, macro, fragment string
		params, values        map[string]any
		want                  string // the fragment as JSON, or "failure: TEXT"
	}{
		{name: "count a number", macro: "Count",
			fragment: `{"Resources": {"B": {"Type": "T", "Properties": {"N": "b-%d"}, "Count": 2}, "C": {"Type": "T"}}}`,
			want:     `{"Resources":{"B1":{"Properties":{"N":"b-1"},"Type":"T"},"B2":{"Properties":{"N":"b-2"},"Type":"T"},"C":{"Type":"T"}}}`},
		{name: "count a list", macro: "Count",
			fragment: `{"Resources": {"B": {"Type": "T", "Properties": {"N": "%s-%d"}, "Count": ["x", "y"]}}}`,
			want:     `{"Resources":{"B1":{"Properties":{"N":"x-1"},"Type":"T"},"B2":{"Properties":{"N":"y-2"},"Type":"T"}}}`},
		{name: "count a parameter", macro: "Count", values: map[string]any{"N": "2", "L": []any{"a"}},
			fragment: `{"Resources": {"B": {"Type": "T", "Count": {"Ref": "N"}}, "C": {"Type": "T", "Properties": {"V": "%s"}, "Count": {"Ref": "L"}}}}`,
			want:     `{"Resources":{"B1":{"Type":"T"},"B2":{"Type":"T"},"C1":{"Properties":{"V":"a"},"Type":"T"}}}`},
		{name: "count clashes", macro: "Count",
			fragment: `{"Resources": {"B": {"Type": "T", "Count": 1}, "B1": {"Type": "T"}}}`,
			want:     "failure: Count: copy B1 of B is a resource of the template already"},
		{name: "count zero", macro: "Count", fragment: `{"Resources": {"B": {"Type": "T", "Count": 0}}}`,
			want: `failure: Count: resource B: Count is "0": a whole number from 1 to 500`},
		{name: "explode", macro: "Explode",
			fragment: `{"Mappings": {"M": {"Monthly": {"ResourceName": "Month", "Days": 30}, "Yearly": {"Days": 365}}},
				"Resources": {"B": {"Type": "T", "Properties": {"D": "!Explode Days"}, "ExplodeMap": "M"}}}`,
			want: `{"Mappings":{"M":{"Monthly":{"Days":30,"ResourceName":"Month"},"Yearly":{"Days":365}}},"Resources":{"BYearly":{"Properties":{"D":365},"Type":"T"},"Month":{"Properties":{"D":30},"Type":"T"}}}`},
		{name: "explode a missing attribute", macro: "Explode",
			fragment: `{"Mappings": {"M": {"K": {}}}, "Resources": {"B": {"Type": "T", "Properties": {"D": "!Explode Days"}, "ExplodeMap": "M"}}}`,
			want:     "failure: Explode: resource B: mapping M's entry K has no Days"},
		{name: "role builder", macro: "ExecutionRoleBuilder",
			fragment: `{"Resources": {"R": {"Type": "AWS::IAM::Role", "Properties": {"Type": "Lambda", "Name": "app", "Path": "/x/",
				"Permissions": [{"ReadOnly": "arn:aws:s3:::b"}, {"ReadWrite": "arn:aws:dynamodb:us-east-1:1:table/t"}]}}}}`,
			want: `{"Resources":{"R":{"Properties":{"AssumeRolePolicyDocument":{"Statement":[{"Action":"sts:AssumeRole","Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"}}],"Version":"2012-10-17"},"Path":"/x/","Policies":[{"PolicyDocument":{"Statement":[{"Action":["s3:Get*","s3:List*","s3:Describe*"],"Effect":"Allow","Resource":"arn:aws:s3:::b"},{"Action":["dynamodb:*"],"Effect":"Allow","Resource":"arn:aws:dynamodb:us-east-1:1:table/t"}],"Version":"2012-10-17"},"PolicyName":"app-permissions"}],"RoleName":"app"},"Type":"AWS::IAM::Role"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			answer := invoke(t, c.macro, c.fragment, c.params, c.values)
			if msg, failing := strings.CutPrefix(c.want, "failure: "); failing {
				if answer["status"] != "failure" || answer["errorMessage"] != msg {
					t.Errorf("got %s, want failure %q", compactJSON(answer), msg)
				}
				return
			}
			if answer["status"] != "success" || compactJSON(answer["fragment"]) != c.want {
				t.Errorf("got %s\nwant fragment %s", compactJSON(answer), c.want)
			}
		})
	}
}

// The snippet macros answer a value of their own (a tag's Value).
func TestStandInSnippetMacros(t *testing.T) {
	in := "This is a test input string"
	for _, c := range []struct {
		macro  string
		params map[string]any
		want   any
	}{
		{"String", map[string]any{"InputString": in, "Operation": "Upper"}, "THIS IS A TEST INPUT STRING"},
		{"String", map[string]any{"InputString": in, "Operation": "Lower"}, "this is a test input string"},
		{"String", map[string]any{"InputString": "hELLO world", "Operation": "Capitalize"}, "Hello world"},
		{"String", map[string]any{"InputString": "they're bill's 2nd", "Operation": "Title"}, "They'Re Bill'S 2Nd"},
		{"String", map[string]any{"InputString": "aB", "Operation": "SwapCase"}, "Ab"},
		{"String", map[string]any{"InputString": in, "Operation": "Replace", "Old": " ", "New": "_"}, "This_is_a_test_input_string"},
		{"String", map[string]any{"InputString": in, "Operation": "Strip", "Chars": "Tgif"}, "his is a test input strin"},
		{"String", map[string]any{"InputString": "  x  ", "Operation": "Strip"}, "x"},
		{"String", map[string]any{"InputString": in, "Operation": "MaxLength", "Length": "4", "StripFrom": "Left"}, "ring"},
		{"String", map[string]any{"InputString": in, "Operation": "MaxLength", "Length": "4"}, "This"},
		{"Date", map[string]any{"Date": "", "Operation": "Current"}, "2025-01-01T00:00:00Z"},
		{"Date", map[string]any{"Date": "2024-02-28", "Days": "2", "Operation": "Add"}, "2024-03-01T00:00:00Z"},
		{"Date", map[string]any{"Date": "2024-03-01", "Days": "1", "Operation": "Subtract"}, "2024-02-29T00:00:00Z"},
		{"Date", map[string]any{"Date": "2024-01-01", "Date2": "2024-12-31", "Operation": "Days"}, "365"},
		{"DatetimeNow", map[string]any{"format": "%Y-%m-%dT%H:%M:%SZ %j %b %A %%"}, "2025-01-01T00:00:00Z 001 Jan Wednesday %"},
	} {
		answer := invoke(t, c.macro, `{}`, c.params, nil)
		if answer["status"] != "success" || answer["fragment"] != c.want {
			t.Errorf("%s %v: got %s, want %q", c.macro, c.params, compactJSON(answer), c.want)
		}
	}
	for _, c := range []struct {
		macro  string
		params map[string]any
		want   string
	}{
		{"String", map[string]any{"InputString": "x", "Operation": "Reverse"}, `String: no operation "Reverse"`},
		{"Date", map[string]any{"Date": "yesterday", "Operation": "Current"}, `Date: Date "yesterday" is not an ISO 8601 date`},
		{"DatetimeNow", map[string]any{"format": "%Q"}, "DatetimeNow: the format's %Q is not a directive the stand-in knows"},
	} {
		answer := invoke(t, c.macro, `{}`, c.params, nil)
		if answer["status"] != "failure" || answer["errorMessage"] != c.want {
			t.Errorf("%s %v: got %s, want failure %q", c.macro, c.params, compactJSON(answer), c.want)
		}
	}
}

func TestStandInPyPlate(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: PyPlate's stand-in runs the snippets with it")
	}
	fragment := `{"Resources": {"B": {"Type": "T", "Properties": {"Tags": "#!PyPlate\noutput = [{'Key': k, 'Value': v} for k, v in (t.split('=') for t in params['Tags'])]",
		"Where": "#!PyPlate\noutput = region + ':' + account_id + ':' + str(len(template['Resources']))", "Plain": "x"}}}}`
	answer := invoke(t, "PyPlate", fragment, nil, map[string]any{"Tags": []any{"Env=Prod", "BU=Team"}})
	want := `{"Resources":{"B":{"Properties":{"Plain":"x","Tags":[{"Key":"Env","Value":"Prod"},{"Key":"BU","Value":"Team"}],"Where":"us-east-1:123456789012:1"},"Type":"T"}}}`
	if answer["status"] != "success" || compactJSON(answer["fragment"]) != want {
		t.Errorf("got %s\nwant fragment %s", compactJSON(answer), want)
	}
	answer = invoke(t, "PyPlate", `{"Resources": {"B": {"Type": "T", "Properties": {"V": "#!PyPlate\nraise ValueError('no')"}}}}`, nil, nil)
	if msg, _ := answer["errorMessage"].(string); answer["status"] != "failure" || !strings.Contains(msg, "ValueError: no") {
		t.Errorf("a failing snippet: %s", compactJSON(answer))
	}
}
