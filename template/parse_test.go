package template

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestYAMLQuirks(t *testing.T) {
	tpl, err := Parse("quirks.yaml", fixture(t, "yaml-quirks/template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if tpl.FormatVersion != "2010-09-09" {
		t.Errorf("FormatVersion = %q", tpl.FormatVersion)
	}
	got := tpl.Resource("Thing").Properties.Literal().(map[string]any)
	shared := map[string]any{"K": "v", "L": []any{json.Number("1"), json.Number("2")}}
	want := map[string]any{
		"ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:f",
		"Date":         "2010-09-09",
		"Octal":        "0123",
		"Hex":          "0x1F",
		"Float":        json.Number("1.5"),
		"Exp":          json.Number("1e3"),
		"Int":          json.Number("42"),
		"Neg":          json.Number("-7"),
		"Dot":          ".5",
		"Plus":         "+1",
		"Underscore":   "1_000",
		"Sexagesimal":  "12:30",
		"Version":      json.Number("1.10"),
		"Inf":          ".inf",
		"Yes":          true,
		"No":           false,
		"On":           true,
		"Off":          false,
		"LetterY":      "y",
		"QuotedTrue":   "true",
		"StrTag":       "123",
		"IntTag":       json.Number("7"),
		"Block":        "line1\nline2\n",
		"Folded":       "a b\n",
		"Anchor":       shared,
		"Alias":        shared,
		"Merged":       map[string]any{"K": "mine", "L": []any{json.Number("1"), json.Number("2")}, "Extra": "e"},
		"MergedList":   map[string]any{"A": json.Number("1"), "B": json.Number("2")},
	}
	for k, w := range want {
		if !reflect.DeepEqual(got[k], w) {
			t.Errorf("%s = %#v, want %#v", k, got[k], w)
		}
	}
	// An alias is a copy, with its own path.
	alias := tpl.Resource("Thing").Properties.Get("Alias").Get("K")
	if alias.Path() != "/Resources/Thing/Properties/Alias/K" {
		t.Errorf("alias path = %s", alias.Path())
	}
}

func TestShortFormsAreTheLongForms(t *testing.T) {
	y := mustParse(t, "t.yaml", string(fixture(t, "short-forms/template.yaml")))
	j := mustParse(t, "t.json", string(fixture(t, "short-forms/template.json")))
	if !reflect.DeepEqual(y.Root.Literal(), j.Root.Literal()) {
		a, _ := json.MarshalIndent(y.Root.Literal(), "", " ")
		b, _ := json.MarshalIndent(j.Root.Literal(), "", " ")
		t.Fatalf("YAML and JSON differ:\n%s\n%s", a, b)
	}
	// The short form keeps its tag and its position.
	b := y.Resource("Bucket").Properties.Get("B")
	if b.Tag != "!GetAtt" || b.Func() != "Fn::GetAtt" || b.Pos != (Pos{16, 10}) {
		t.Errorf("B: tag %q func %q pos %v", b.Tag, b.Func(), b.Pos)
	}
	if attr := b.Get("Fn::GetAtt").Items[1]; attr.Pos != (Pos{16, 24}) {
		t.Errorf("attribute position %v", attr.Pos)
	}
	bound := mustBind(t, y)
	props, err := bound.Properties("Bucket", fakeResolver{atts: map[string]any{"Topic.TopicName": "tn"}, exports: map[string]any{"name": "v"}})
	if err != nil {
		t.Fatal(err)
	}
	if props["B"] != "tn" || props["I"] != "a" || props["J"] != "v" {
		t.Errorf("props %v", props)
	}
	if !bound.Condition("Both") {
		t.Error("Both is false")
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"json", "{\n  \"Resources\": {\n    \"A\": {\"Type\" \"x\"}\n  }\n}",
			"t:3:18: Template format error: JSON not well-formed. (line 3, column 18) (expected ':' after member name \"Type\")"},
		{"json end", `{"Resources": {`,
			"t:1:16: Template format error: JSON not well-formed. (line 1, column 16) (unexpected end of input in an object)"},
		{"json duplicate", "{\"Resources\": {}, \"Resources\": {}}",
			"t:1:19: Template format error: JSON not well-formed. (line 1, column 19) (duplicate member \"Resources\")"},
		{"json control character", "{\"Resources\": \"a\x01b\"}",
			"t:1:17: Template format error: JSON not well-formed. (line 1, column 17) (control character in a string)"},
		{"yaml", "Resources:\n  A:\n    Type: [x\n",
			"t:4:1: Template format error: YAML not well-formed. (line 4, column 1) (did not find expected ',' or ']' (while parsing a flow sequence at line 3, column 11))"},
		// As recorded against AWS: a key without its colon is reported on
		// the next line, at the ':' PyYAML stops on (its problem mark).
		{"yaml missing colon", "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties\n      BucketName: x\n",
			"t:5:17: Template format error: YAML not well-formed. (line 5, column 17) (mapping values are not allowed in this context)"},
		{"yaml bad indentation", "Resources:\n  A:\n    Type: x\n   Properties: {}\n",
			"t:4:4: Template format error: YAML not well-formed. (line 4, column 4) (did not find expected key (while parsing a block mapping at line 2, column 3))"},
		{"yaml end without a line break", "Resources:\n  A:\n    Type: [x",
			"t:3:13: Template format error: YAML not well-formed. (line 3, column 13) (did not find expected ',' or ']' (while parsing a flow sequence at line 3, column 11))"},
		{"yaml tab", "Resources:\n\tA: {Type: x}\n",
			"t:2:1: Template format error: YAML not well-formed. (line 2, column 1) (found character that cannot start any token)"},
		{"yaml duplicate", "Resources:\n  A:\n    Type: x\n    Type: y\n",
			"t:4:5: Template format error: YAML not well-formed. (line 4, column 5) (mapping key \"Type\" already defined)"},
		{"yaml two documents", "Resources: {}\n---\nResources: {}\n",
			"t:2:1: Template format error: YAML not well-formed. (line 2, column 1) (a template is a single YAML document)"},
		{"yaml unknown tag", "Resources:\n  A:\n    Type: !Foo x\n",
			"t:3:11: Template format error: YAML not well-formed. (line 3, column 11) (unknown tag !Foo)"},
		{"yaml recursive alias", "Resources: &a\n  A: *a\n",
			"t:1:12: Template format error: YAML not well-formed. (line 1, column 12) (nesting deeper than 512 levels (or a recursive alias))"},
		{"not a map", "- a\n- b\n", "t:1:1: Template format error: unsupported structure."},
		{"empty", "", "t:1:1: Template format error: unsupported structure."},
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

func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		b.WriteString("a" + itoa(i) + ": &a" + itoa(i) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + itoa(i-1))
		}
		b.WriteString("]\n")
	}
	_, err := Parse("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "aliases expand to too many values") {
		t.Fatalf("got %v", err)
	}
}

func TestJSONFallsBackToYAML(t *testing.T) {
	// Not JSON (trailing commas) but a YAML flow map: CloudFormation reads
	// it as YAML.
	tpl, err := Parse("t", []byte(`{"Resources": {"A": {"Type": "AWS::SNS::Topic",},},}`))
	if err != nil {
		t.Fatal(err)
	}
	if tpl.Resource("A") == nil {
		t.Fatal("no resource A")
	}
}

func TestByteOrderMark(t *testing.T) {
	body := append([]byte{0xEF, 0xBB, 0xBF}, `{"Resources": {"A": {"Type": "AWS::SNS::Topic"}}}`...)
	if _, err := Parse("t", body); err != nil {
		t.Fatal(err)
	}
}

func TestPositionsAndPaths(t *testing.T) {
	tpl := mustParse(t, "t.yaml", "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties:\n      Tags:\n        - {Key: k, Value: v}\n")
	r := tpl.Resource("Topic")
	if r.Pos != (Pos{2, 3}) {
		t.Errorf("resource at %v", r.Pos)
	}
	v := r.Properties.Get("Tags").Items[0].Get("Value")
	if v.Pos != (Pos{6, 27}) || v.Path() != "/Resources/Topic/Properties/Tags/0/Value" {
		t.Errorf("value at %v, path %s", v.Pos, v.Path())
	}
	if v.Parent().Parent().Parent() != r.Properties {
		t.Error("parents do not lead to Properties")
	}
}

func TestTooLarge(t *testing.T) {
	body := make([]byte, MaxURLBodyBytes+1)
	if _, err := Parse("t", body); err == nil || !strings.Contains(err.Error(), "Template may not exceed") {
		t.Fatalf("got %v", err)
	}
	if err := CheckBodySize("t", make([]byte, MaxBodyBytes+1)); err == nil ||
		!strings.Contains(err.Error(), "Member must have length less than or equal to 51200") {
		t.Fatalf("got %v", err)
	}
	if err := CheckBodySize("t", make([]byte, MaxBodyBytes)); err != nil {
		t.Fatal(err)
	}
}

func TestErrorsAreSortedAndListed(t *testing.T) {
	_, err := Parse("t.yaml", []byte("Resources:\n  B:\n    Type: AWS::SNS::Topic\n    DependsOn: Nope\n  A-1:\n    Type: AWS::SNS::Topic\n"))
	var es Errors
	if !errors.As(err, &es) || len(es) != 2 {
		t.Fatalf("got %v", err)
	}
	if es[0].Line != 4 || es[1].Line != 5 {
		t.Errorf("not sorted: %v", err)
	}
	if len(AsList(err)) != 2 || len(AsList(es[0])) != 1 || AsList(nil) != nil {
		t.Error("AsList")
	}
}
