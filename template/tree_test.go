package template

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTreeJSON(t *testing.T) {
	body := "Resources:\n  Z:\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: !Sub \"a<b>&\\\"q\\\"\\t${AWS::Region}\"\n  A:\n    Type: AWS::SQS::Queue\n    Properties: {DelaySeconds: 1.50, Tags: [], M: {}, B: yes}\n"
	root, err := ParseTree("t.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	out := root.JSON()
	if !json.Valid(out) {
		t.Fatalf("not JSON:\n%s", out)
	}
	s := string(out)
	// Members in their order, numbers as written, short forms long,
	// < > & as they are.
	if strings.Index(s, `"Z"`) > strings.Index(s, `"A"`) || !strings.Contains(s, `"DelaySeconds": 1.50`) ||
		!strings.Contains(s, `"Fn::Sub": "a<b>&\"q\"\t${AWS::Region}"`) || !strings.Contains(s, `"B": true`) ||
		!strings.Contains(s, `"Tags": []`) || !strings.Contains(s, `"M": {}`) {
		t.Errorf("JSON:\n%s", s)
	}
	again, err := ParseTree("t.json", out)
	if err != nil || string(again.JSON()) != s {
		t.Errorf("a second round differs: %v\n%s", err, again.JSON())
	}
	if _, err := Parse("t.json", out); err != nil {
		t.Errorf("the JSON does not parse as a template: %v", err)
	}
}

func TestTreeParameterValues(t *testing.T) {
	root, err := ParseTree("t.yaml", []byte("Parameters:\n  Env: {Type: String, AllowedValues: [dev, prod]}\n  Names: {Type: CommaDelimitedList, Default: 'a,b'}\n  Ami: {Type: 'AWS::SSM::Parameter::Value<String>', Default: /x}\nResources: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(n string) (string, bool) { return "ami-1", n == "/x" }
	v, _, err := ParameterValues("t.yaml", root, BindInput{Parameters: []ParameterValue{{Key: "Env", Value: "prod"}}, SSMLookup: lookup})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	if string(b) != `{"Ami":"ami-1","Env":"prod","Names":["a","b"]}` {
		t.Errorf("values %s", b)
	}
	if _, _, err := ParameterValues("t.yaml", root, BindInput{Parameters: []ParameterValue{{Key: "Env", Value: "qa"}}, SSMLookup: lookup}); err == nil ||
		!strings.Contains(err.Error(), "must be one of AllowedValues") {
		t.Errorf("a bad value: %v", err)
	}
	ps, err := DeclaredParameters("t.yaml", root)
	if err != nil || len(ps) != 3 {
		t.Fatalf("%v %v", ps, err)
	}
	if d, ok := ps[1].DefaultValue(); !ok || len(d.([]any)) != 2 {
		t.Errorf("default %v", d)
	}
}

func FuzzTreeJSON(f *testing.F) {
	for _, s := range []string{"a: 1", "{\"a\": [1, \"x\\u0001\", null]}", "A: !GetAtt B.C\nD: [yes, '0x1F', 1e3]\n", "k: \"\\u2028é\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		root, err := ParseTree("f", []byte(body))
		if err != nil {
			return
		}
		out := root.JSON()
		if !json.Valid(out) {
			t.Fatalf("not JSON from %q:\n%s", body, out)
		}
		again, err := ParseTree("f.json", out)
		if err != nil {
			t.Fatalf("the JSON of %q does not read back: %v\n%s", body, err, out)
		}
		if string(again.JSON()) != string(out) {
			t.Fatalf("not stable for %q:\n%s\n%s", body, out, again.JSON())
		}
	})
}
