package template

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// exprTemplate holds one expression as the property P of Bucket, on line 21
// at column 10.
const exprTemplate = `AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  Env: {Type: String, Default: dev, AllowedValues: [dev, prod]}
  Names: {Type: CommaDelimitedList, Default: "a,b,c"}
  Num: {Type: Number, Default: "3"}
  Attr: {Type: String, Default: Arn}
  Block: {Type: String, Default: 10.0.0.0/16}
Mappings:
  M:
    dev: {Size: small, List: [x, y], Num: 1}
    prod: {Size: large, List: [z], Num: 2}
Conditions:
  IsProd: !Equals [!Ref Env, prod]
  IsDev: !Not [!Condition IsProd]
Resources:
  Topic:
    Type: AWS::SNS::Topic
  Bucket:
    Type: AWS::S3::Bucket
    Properties:
      P: %s
`

var exprResolver = fakeResolver{
	atts: map[string]any{
		"Topic.TopicArn":         "arn:aws:sns:us-east-1:123456789012:topic",
		"Topic.Arn":              "arn:topic",
		"Topic.Endpoint.Address": "topic.example.com",
		"Topic.List":             []any{"l0", "l1"},
		"Topic.Later":            Unknown{LogicalID: "Topic", Attribute: "Later"},
	},
	exports: map[string]any{"shared-vpc": "vpc-123", "dev-vpc": "vpc-dev"},
}

// evalExpr parses, binds and resolves the template holding expr, and
// returns the properties of Bucket; the error is from whichever step failed.
func evalExpr(expr string, kv ...string) (map[string]any, error) {
	tpl, err := Parse("f.yaml", []byte(fmt.Sprintf(exprTemplate, expr)))
	if err != nil {
		return nil, err
	}
	b, err := tpl.Bind(BindInput{Parameters: params(kv...), Pseudo: testPseudo})
	if err != nil {
		return nil, err
	}
	return b.Properties("Bucket", exprResolver)
}

type exprCase struct {
	name string
	expr string
	kv   []string
	want any    // the value of P; noValue when P is removed
	err  string // the whole error text, FILE:LINE:COL: MESSAGE
}

func runExprCases(t *testing.T, cases []exprCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			props, err := evalExpr(c.expr, c.kv...)
			if c.err != "" {
				if errText(err) != c.err {
					t.Fatalf("error\n got %s\nwant %s", errText(err), c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			got, ok := props["P"]
			if c.want == noValue {
				if ok {
					t.Fatalf("P = %#v, want it removed", got)
				}
				return
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("P = %#v, want %#v", got, c.want)
			}
		})
	}
}

func list(items ...any) []any {
	if items == nil {
		return []any{}
	}
	return items
}

func TestRef(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "parameter", expr: "!Ref Env", want: "dev"},
		{name: "parameter given", expr: "!Ref Env", kv: []string{"Env=prod"}, want: "prod"},
		{name: "list parameter", expr: "!Ref Names", want: list("a", "b", "c")},
		{name: "number parameter is a string", expr: "!Ref Num", want: "3"},
		{name: "region", expr: "!Ref AWS::Region", want: "us-east-1"},
		{name: "account", expr: "!Ref AWS::AccountId", want: "123456789012"},
		{name: "stack name", expr: "!Ref AWS::StackName", want: "test"},
		{name: "stack id", expr: "!Ref AWS::StackId", want: testPseudo.StackID},
		{name: "partition", expr: "!Ref AWS::Partition", want: "aws"},
		{name: "url suffix", expr: "!Ref AWS::URLSuffix", want: "amazonaws.com"},
		{name: "notification arns", expr: "!Ref AWS::NotificationARNs", want: list()},
		{name: "no value removes the property", expr: "!Ref AWS::NoValue", want: noValue},
		{name: "no value removes a list element", expr: "[a, !Ref AWS::NoValue, b]", want: list("a", "b")},
		{name: "no value removes a field", expr: "{A: 1, B: !Ref AWS::NoValue}", want: map[string]any{"A": json.Number("1")}},
		{name: "resource", expr: "!Ref Topic", want: "phys-Topic"},
		{name: "long form", expr: `{"Ref": "Env"}`, want: "dev"},
		{name: "not a string", expr: "!Ref [Env]",
			err: "f.yaml:21:10: Template format error: Every Ref object must have a single String value."},
		{name: "undeclared", expr: "!Ref Nope",
			err: "f.yaml:21:10: Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template"},
		{name: "unknown pseudo parameter", expr: "!Ref AWS::Nope",
			err: "f.yaml:21:10: Template format error: Unresolved resource dependencies [AWS::Nope] in the Resources block of the template"},
	})
}

func TestGetAtt(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "short form", expr: "!GetAtt Topic.TopicArn", want: "arn:aws:sns:us-east-1:123456789012:topic"},
		{name: "list form", expr: "!GetAtt [Topic, TopicArn]", want: "arn:aws:sns:us-east-1:123456789012:topic"},
		{name: "dotted attribute", expr: "!GetAtt Topic.Endpoint.Address", want: "topic.example.com"},
		{name: "long string form", expr: `{"Fn::GetAtt": "Topic.Endpoint.Address"}`, want: "topic.example.com"},
		{name: "attribute from a parameter", expr: "!GetAtt [Topic, !Ref Attr]", want: "arn:topic"},
		{name: "list attribute", expr: "!GetAtt Topic.List", want: list("l0", "l1")},
		{name: "not known yet", expr: "!GetAtt Topic.Later", want: Unknown{LogicalID: "Topic", Attribute: "Later"}},
		{name: "the resolver refuses the attribute", expr: "!GetAtt Topic.Nope",
			err: "f.yaml:21:10: Resource type AWS::SNS::Topic does not support attribute {Nope}."},
		{name: "undefined resource", expr: "!GetAtt Nope.Arn",
			err: "f.yaml:21:10: Template error: instance of Fn::GetAtt references undefined resource Nope"},
		{name: "a parameter is no resource", expr: "!GetAtt Env.Arn",
			err: "f.yaml:21:10: Template error: instance of Fn::GetAtt references undefined resource Env"},
		{name: "no attribute", expr: "!GetAtt Topic",
			err: "f.yaml:21:10: " + msgGetAtt},
		{name: "empty attribute", expr: `!GetAtt [Topic, ""]`,
			err: "f.yaml:21:10: " + msgGetAtt},
		{name: "three parameters", expr: "!GetAtt [Topic, A, B]",
			err: "f.yaml:21:10: " + msgGetAtt},
		{name: "attribute from a resource", expr: "!GetAtt [Topic, !Ref Topic]",
			err: "f.yaml:21:26: Template error: the attribute of Fn::GetAtt may be a Ref to a parameter only"},
	})
}

func TestGetAttErrorPath(t *testing.T) {
	_, err := evalExpr("!GetAtt Topic.Nope")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%v is no *Error", err)
	}
	if e.Path != "/Resources/Bucket/Properties/P/Fn::GetAtt" {
		t.Errorf("Path = %q", e.Path)
	}
	if e.Unwrap() == nil || !strings.Contains(e.Unwrap().Error(), "{Nope}") {
		t.Errorf("the resolver's error is not wrapped: %v", e.Unwrap())
	}
}

func TestSub(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "everything", expr: `!Sub "${AWS::Region}-${Env}-${Topic}-${Topic.Arn}-${!Literal}"`,
			want: "us-east-1-dev-phys-Topic-arn:topic-${Literal}"},
		{name: "variable map", expr: `!Sub ["${A}-${B}", {A: x, B: !Ref Env}]`, want: "x-dev"},
		{name: "the map wins over a parameter", expr: `!Sub ["${Env}", {Env: mine}]`, want: "mine"},
		{name: "spaces in the braces", expr: `!Sub "${ Env }"`, want: "dev"},
		{name: "no variable", expr: `!Sub "plain $ { text"`, want: "plain $ { text"},
		{name: "unclosed", expr: `!Sub "a ${Env"`, want: "a ${Env"},
		{name: "number parameter", expr: `!Sub "n=${Num}"`, want: "n=3"},
		{name: "unknown attribute propagates", expr: `!Sub "${Topic.Later}/x"`, want: Unknown{LogicalID: "Topic", Attribute: "Later"}},
		{name: "block scalar", expr: "!Sub |\n        echo ${Env}\n", want: "echo dev\n"},
		{name: "a list does not substitute", expr: `!Sub "${Names}"`,
			err: "f.yaml:21:10: Template error: variable Names in Fn::Sub expression does not resolve to a string"},
		{name: "bad variable name", expr: `!Sub "${a-b}"`,
			err: "f.yaml:21:15: " + msgSubVarName},
		{name: "undeclared variable", expr: `!Sub "${Nope}"`,
			err: "f.yaml:21:15: Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template"},
		{name: "bad arguments", expr: `!Sub [a, b, c]`,
			err: "f.yaml:21:10: " + msgSub},
		{name: "bad map key", expr: `!Sub ["x", {a-b: x}]`,
			err: "f.yaml:21:22: Template error: every key of the context object of every Fn::Sub object must contain only alphanumeric characters and underscores"},
	})
}

func TestJoinSelectSplit(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "join", expr: `!Join ["-", [a, !Ref Env, 1, true]]`, want: "a-dev-1-true"},
		{name: "join drops no value", expr: `!Join ["-", [a, !Ref AWS::NoValue, b]]`, want: "a-b"},
		{name: "join a list parameter", expr: `!Join [",", !Ref Names]`, want: "a,b,c"},
		{name: "join nothing", expr: `!Join [",", []]`, want: ""},
		{name: "join an unknown", expr: `!Join [",", [a, !GetAtt Topic.Later]]`, want: Unknown{LogicalID: "Topic", Attribute: "Later"}},
		{name: "join a scalar", expr: `!Join ["-", a]`, err: "f.yaml:21:10: " + msgJoin},
		{name: "join a map element", expr: `!Join ["-", [{a: b}]]`, err: "f.yaml:21:10: " + msgJoin},
		{name: "join one parameter", expr: `!Join ["-"]`, err: "f.yaml:21:10: " + msgJoin},
		{name: "select", expr: `!Select [1, !Ref Names]`, want: "b"},
		{name: "select a string index", expr: `!Select ["0", [x, y]]`, want: "x"},
		{name: "select from a mapping list", expr: `!Select [1, !FindInMap [M, !Ref Env, List]]`, want: "y"},
		{name: "select from the zones", expr: `!Select [2, !GetAZs ""]`, want: "us-east-1c"},
		{name: "select out of range", expr: `!Select [5, !Ref Names]`,
			err: "f.yaml:21:10: Template error: Fn::Select cannot select nonexistent value at index 5"},
		{name: "select a negative index", expr: `!Select [-1, [a]]`,
			err: "f.yaml:21:10: Template error: Fn::Select cannot select nonexistent value at index -1"},
		{name: "select a bad index", expr: `!Select [a, [x]]`, err: "f.yaml:21:10: " + msgSelectIndex},
		{name: "select one parameter", expr: `!Select [0]`, err: "f.yaml:21:10: " + msgSelectArgs},
		{name: "select from a string", expr: `!Select [0, !Ref Env]`, err: "f.yaml:21:10: " + msgSelectArgs},
		{name: "split", expr: `!Split [",", "a,b,,c"]`, want: list("a", "b", "", "c")},
		{name: "split and select", expr: `!Select [1, !Split [",", !Join [",", !Ref Names]]]`, want: "b"},
		{name: "split an unknown", expr: `!Split [",", !GetAtt Topic.Later]`, want: Unknown{LogicalID: "Topic", Attribute: "Later"}},
		{name: "split a list", expr: `!Split [",", [a]]`, err: "f.yaml:21:10: " + msgSplit},
		{name: "split with a function delimiter", expr: `!Split [!Ref Env, a]`, err: "f.yaml:21:10: " + msgSplit},
	})
}

func TestBase64FindInMapGetAZs(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "base64", expr: `!Base64 hello`, want: "aGVsbG8="},
		{name: "base64 of a function", expr: `!Base64 {"Fn::Sub": "${Env}"}`, want: "ZGV2"},
		{name: "base64 of a list", expr: `!Base64 [a]`, err: "f.yaml:21:10: Template error: every Fn::Base64 object must have a String-typed value."},
		{name: "find in map", expr: `!FindInMap [M, !Ref Env, Size]`, want: "small"},
		{name: "find in map, prod", expr: `!FindInMap [M, !Ref Env, Size]`, kv: []string{"Env=prod"}, want: "large"},
		{name: "find a list", expr: `!FindInMap [M, dev, List]`, want: list("x", "y")},
		{name: "find a number", expr: `!FindInMap [M, dev, Num]`, want: json.Number("1")},
		{name: "missing key, static", expr: `!FindInMap [M, test, Size]`,
			err: "f.yaml:21:10: Template error: Unable to get mapping for M::test::Size"},
		{name: "missing key, dynamic", expr: `!FindInMap [M, !Ref AWS::Region, Size]`,
			err: "f.yaml:21:10: Template error: Unable to get mapping for M::us-east-1::Size"},
		{name: "missing mapping", expr: `!FindInMap [Nope, a, b]`,
			err: "f.yaml:21:22: Template error: Mapping named 'Nope' is not present in the 'Mappings' section of template"},
		{name: "two parameters", expr: `!FindInMap [M, a]`, err: "f.yaml:21:10: " + msgFindInMap},
		{name: "default value needs the transform", expr: `!FindInMap [M, a, b, {DefaultValue: x}]`, err: "f.yaml:21:10: " + msgFindInMap},
		{name: "zones of the region", expr: `!GetAZs ""`, want: list("us-east-1a", "us-east-1b", "us-east-1c")},
		{name: "zones of Ref region", expr: `!GetAZs {"Ref": "AWS::Region"}`, want: list("us-east-1a", "us-east-1b", "us-east-1c")},
		{name: "zones with null", expr: `!GetAZs`, want: list("us-east-1a", "us-east-1b", "us-east-1c")},
		{name: "zones of another region", expr: `!GetAZs eu-west-1`, want: list()},
		{name: "zones of a list", expr: `!GetAZs [a]`, err: "f.yaml:21:10: Template error: every Fn::GetAZs object must have a String-typed value."},
	})
}

func TestImportValueAndCidr(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "import", expr: `!ImportValue shared-vpc`, want: "vpc-123"},
		{name: "import a name built with Sub", expr: `!ImportValue {"Fn::Sub": "${Env}-vpc"}`, want: "vpc-dev"},
		{name: "import a missing export", expr: `!ImportValue nope`, err: "f.yaml:21:10: No export named nope found."},
		{name: "import depends on a resource", expr: `!ImportValue {"Ref": "Topic"}`, err: "f.yaml:21:23: " + msgImportDepends},
		{name: "import depends on an attribute", expr: `!ImportValue {"Fn::Sub": "${Topic.Arn}"}`, err: "f.yaml:21:35: " + msgImportDepends},
		{name: "cidr", expr: `!Cidr [10.0.0.0/16, 3, 8]`, want: list("10.0.0.0/24", "10.0.1.0/24", "10.0.2.0/24")},
		{name: "cidr of a parameter", expr: `!Cidr [!Ref Block, 2, 12]`, want: list("10.0.0.0/20", "10.0.16.0/20")},
		{name: "cidr with strings", expr: `!Cidr ["192.168.0.0/16", "2", "8"]`, want: list("192.168.0.0/24", "192.168.1.0/24")},
		{name: "cidr, host block", expr: `!Cidr [10.0.0.8/29, 2, 1]`, want: list("10.0.0.8/31", "10.0.0.10/31")},
		{name: "cidr ipv6", expr: `!Cidr ["2001:db8::/56", 2, 64]`, want: list("2001:db8::/64", "2001:db8:0:1::/64")},
		{name: "cidr of an unknown", expr: `!Cidr [!GetAtt Topic.Later, 2, 8]`, want: Unknown{LogicalID: "Topic", Attribute: "Later"}},
		{name: "cidr, too many", expr: `!Cidr [10.0.0.0/24, 3, 8]`,
			err: "f.yaml:21:10: Template error: Fn::Cidr cannot make 3 /24 subnets in 10.0.0.0/24: it holds 1"},
		{name: "cidr, count zero", expr: `!Cidr [10.0.0.0/16, 0, 8]`,
			err: "f.yaml:21:10: Template error: Fn::Cidr count must be between 1 and 256, got 0"},
		{name: "cidr, bad block", expr: `!Cidr [nope, 1, 8]`,
			err: "f.yaml:21:10: Template error: Fn::Cidr requires a CIDR block as its first parameter, got 'nope'"},
		{name: "cidr, two parameters", expr: `!Cidr [10.0.0.0/16, 1]`, err: "f.yaml:21:10: " + msgCidrArgs},
	})
}

func TestIfAndConditionFunctionsInProperties(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "if false", expr: `!If [IsProd, big, small]`, want: "small"},
		{name: "if true", expr: `!If [IsProd, big, small]`, kv: []string{"Env=prod"}, want: "big"},
		{name: "if with no value", expr: `!If [IsDev, !Ref AWS::NoValue, x]`, want: noValue},
		{name: "if in a list", expr: `[a, !If [IsDev, !Ref AWS::NoValue, x]]`, want: list("a")},
		{name: "if nested", expr: `!If [IsProd, a, !If [IsDev, b, c]]`, want: "b"},
		{name: "if undefined condition", expr: `!If [Nope, a, b]`,
			err: "f.yaml:21:15: Template error: unresolved condition dependency Nope in Fn::If"},
		{name: "if with two elements", expr: `!If [IsProd, a]`, err: "f.yaml:21:10: " + msgIfArgs},
		{name: "if without a condition name", expr: `!If [[a], b, c]`,
			err: "f.yaml:21:10: Template error: Fn::If requires a list argument with the first element being a condition"},
		{name: "equals in a property", expr: `!Equals [a, a]`,
			err: "f.yaml:21:10: Template error: Fn::Equals can be used only in the Conditions section, in Fn::If and in Rules"},
		{name: "unknown function", expr: `{"Fn::Foo": 1}`,
			err: "f.yaml:21:10: Template Error: Encountered unsupported function: Fn::Foo Supported functions are: " + supportedFunctions},
		{name: "rule function outside rules", expr: `!Contains [[a], a]`,
			err: "f.yaml:21:10: Template format error: Fn::Contains can be used only in the Rules block of the template"},
		{name: "language extension without the transform", expr: `!Length [a]`,
			err: "f.yaml:21:10: Template Error: Encountered unsupported function: Fn::Length Supported functions are: " + supportedFunctions},
	})
}

func TestTransformFunctionIsUnsupported(t *testing.T) {
	_, err := evalExpr(`{"Fn::Transform": {"Name": "AWS::Include", "Parameters": {"Location": "s3://b/k"}}}`)
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("got %v, want an error wrapping ErrUnsupported", err)
	}
	if want := "f.yaml:21:10: Template format error: Fn::Transform (AWS::Include) has not run"; !strings.HasPrefix(errText(err), want) {
		t.Errorf("got %s", err)
	}
}
