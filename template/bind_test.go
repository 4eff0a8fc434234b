package template

import (
	"reflect"
	"strings"
	"testing"
)

const paramsTemplate = `Parameters:
  Name:
    Type: String
    MinLength: 3
    MaxLength: 8
    AllowedPattern: "[a-z]+"
  Size:
    Type: Number
    MinValue: 1
    MaxValue: 10
  Sizes:
    Type: List<Number>
    Default: "1,2"
  Env:
    Type: String
    AllowedValues: [dev, prod]
    Default: dev
  Described:
    Type: String
    Default: ok
    AllowedPattern: "ok|fine"
    ConstraintDescription: must be ok or fine.
  Secret:
    Type: String
    NoEcho: true
    Default: hunter2
  Subnets:
    Type: List<AWS::EC2::Subnet::Id>
    Default: subnet-1,subnet-2
  Image:
    Type: AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>
    Default: /images/latest
  Tags:
    Type: AWS::SSM::Parameter::Value<List<String>>
    Default: /tags
  Bucket:
    Type: String
    Default: my-bucket
    AllowedPattern: ^(?=^.{3,63}$)(?!.*[.-]{2})(?!^(\d+\.)+\d+$)[a-z0-9][a-z0-9.-]*[a-z0-9]$
Resources:
  Topic:
    Type: AWS::SNS::Topic
`

var ssmValues = map[string]string{"/images/latest": "ami-123", "/tags": "a,b", "/other": "ami-456"}

func bindParams(kv []string, previous map[string]string) (*Bound, error) {
	tpl, err := Parse("p.yaml", []byte(paramsTemplate))
	if err != nil {
		return nil, err
	}
	in := BindInput{Parameters: params(kv...), Pseudo: testPseudo, SSM: ssmValues, Previous: previous}
	for i := range in.Parameters {
		if strings.HasSuffix(in.Parameters[i].Key, "+prev") {
			in.Parameters[i].Key = strings.TrimSuffix(in.Parameters[i].Key, "+prev")
			in.Parameters[i].UsePreviousValue = true
		}
	}
	return tpl.Bind(in)
}

func TestParameterValues(t *testing.T) {
	b, err := bindParams([]string{"Name=abcd", "Size=5"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"Name": "abcd", "Size": "5", "Sizes": []any{"1", "2"}, "Env": "dev", "Described": "ok", "Secret": "hunter2",
		"Subnets": []any{"subnet-1", "subnet-2"}, "Image": "ami-123", "Tags": []any{"a", "b"}, "Bucket": "my-bucket",
	}
	for k, w := range want {
		if v, _ := b.ParameterValue(k); !reflect.DeepEqual(v, w) {
			t.Errorf("%s = %#v, want %#v", k, v, w)
		}
	}
	var image, secret BoundParameter
	for _, p := range b.Parameters() {
		switch p.Key {
		case "Image":
			image = p
		case "Secret":
			secret = p
		}
	}
	if image.Value != "/images/latest" || image.ResolvedValue != "ami-123" || !image.FromDefault {
		t.Errorf("Image = %+v", image)
	}
	if secret.Shown() != "****" || !secret.NoEcho {
		t.Errorf("Secret = %+v shown %q", secret, secret.Shown())
	}
	if tpl := b.Template(); tpl.Parameter("Secret").Mask("x") != "****" || tpl.Parameter("Env").Mask("x") != "x" {
		t.Error("Mask")
	}
}

func TestParameterErrors(t *testing.T) {
	tests := []struct {
		name string
		kv   []string
		prev map[string]string
		want string
	}{
		{"missing values", nil, nil, "p.yaml:2:3: Parameters: [Name, Size] must have values"},
		{"unknown parameter", []string{"Name=abcd", "Size=5", "Nope=1", "Nah=2"}, nil,
			"p.yaml:2:3: Parameters: [Nope, Nah] do not exist in the template"},
		{"too short", []string{"Name=ab", "Size=5"}, nil, "p.yaml:2:3: Parameter 'Name' must contain at least 3 characters"},
		{"too long", []string{"Name=abcdefghi", "Size=5"}, nil, "p.yaml:2:3: Parameter 'Name' must contain at most 8 characters"},
		{"pattern", []string{"Name=ABCD", "Size=5"}, nil, "p.yaml:2:3: Parameter 'Name' must match pattern [a-z]+"},
		{"not a number", []string{"Name=abcd", "Size=five"}, nil, "p.yaml:7:3: Parameter 'Size' must be a number."},
		{"too small", []string{"Name=abcd", "Size=0"}, nil, "p.yaml:7:3: Parameter 'Size' must be a number not less than 1"},
		{"too big", []string{"Name=abcd", "Size=11"}, nil, "p.yaml:7:3: Parameter 'Size' must be a number not greater than 10"},
		{"number list", []string{"Name=abcd", "Size=5", "Sizes=1,x"}, nil, "p.yaml:11:3: Parameter 'Sizes' must be a number list."},
		{"allowed values", []string{"Name=abcd", "Size=5", "Env=test"}, nil, "p.yaml:14:3: Parameter 'Env' must be one of AllowedValues"},
		{"constraint description", []string{"Name=abcd", "Size=5", "Described=bad"}, nil, "p.yaml:18:3: Parameter 'Described' must be ok or fine."},
		{"ssm parameter missing", []string{"Name=abcd", "Size=5", "Image=/nope"}, nil,
			"p.yaml:30:3: Unable to fetch parameters [/nope] from parameter store for this account."},
		{"use previous without previous", []string{"Name+prev=", "Size=5"}, map[string]string{},
			"p.yaml:2:3: Invalid input for parameter key Name. Cannot specify usePreviousValue as true for a parameter key not in the previous template"},
		// AllowedPattern is Java's: lookaheads hold (regexp2 runs them)
		{"pattern with lookaheads", []string{"Name=abcd", "Size=5", "Bucket=my..bucket"}, nil,
			`p.yaml:36:3: Parameter 'Bucket' must match pattern ^(?=^.{3,63}$)(?!.*[.-]{2})(?!^(\d+\.)+\d+$)[a-z0-9][a-z0-9.-]*[a-z0-9]$`},
		{"pattern with lookaheads, too long", []string{"Name=abcd", "Size=5", "Bucket=" + strings.Repeat("b", 64)}, nil,
			`p.yaml:36:3: Parameter 'Bucket' must match pattern ^(?=^.{3,63}$)(?!.*[.-]{2})(?!^(\d+\.)+\d+$)[a-z0-9][a-z0-9.-]*[a-z0-9]$`},
		{"every fault", []string{"Name=A", "Size=x"}, nil,
			"p.yaml:2:3: Parameter 'Name' must contain at least 3 characters\np.yaml:7:3: Parameter 'Size' must be a number."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := bindParams(tt.kv, tt.prev)
			if errText(err) != tt.want {
				t.Errorf("got  %s\nwant %s", errText(err), tt.want)
			}
		})
	}
}

func TestUsePreviousValue(t *testing.T) {
	b, err := bindParams([]string{"Name+prev=", "Size=2", "Image+prev="}, map[string]string{"Name": "older", "Image": "/other"})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := b.ParameterValue("Name"); v != "older" {
		t.Errorf("Name = %v", v)
	}
	// An SSM parameter keeps its name and is resolved again.
	if v, _ := b.ParameterValue("Image"); v != "ami-456" {
		t.Errorf("Image = %v", v)
	}
	for _, p := range b.Parameters() {
		if p.Key == "Name" && !p.UsePreviousValue {
			t.Error("Name not marked UsePreviousValue")
		}
	}
}

func TestPseudoParameterDefaults(t *testing.T) {
	tpl := mustParse(t, "t", "Resources:\n  A: {Type: AWS::SNS::Topic}\n")
	for region, want := range map[string][2]string{
		"us-east-1":     {"aws", "amazonaws.com"},
		"cn-north-1":    {"aws-cn", "amazonaws.com.cn"},
		"us-gov-west-1": {"aws-us-gov", "amazonaws.com"},
	} {
		b, err := tpl.Bind(BindInput{Pseudo: Pseudo{Region: region}})
		if err != nil {
			t.Fatal(err)
		}
		if b.pseudo["AWS::Partition"] != want[0] || b.pseudo["AWS::URLSuffix"] != want[1] {
			t.Errorf("%s: %v %v", region, b.pseudo["AWS::Partition"], b.pseudo["AWS::URLSuffix"])
		}
	}
	b, err := tpl.Bind(BindInput{Pseudo: Pseudo{Region: "eu-west-1", NotificationARNs: []string{"arn:sns"}}, AZs: []string{"z1", "z2"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.azs, []string{"z1", "z2"}) || !reflect.DeepEqual(b.pseudo["AWS::NotificationARNs"], []any{"arn:sns"}) {
		t.Errorf("azs %v arns %v", b.azs, b.pseudo["AWS::NotificationARNs"])
	}
}
