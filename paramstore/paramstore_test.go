package paramstore

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

var amiPattern = regexp.MustCompile(`^ami-[0-9a-f]{17}$`)

func TestPublicNames(t *testing.T) {
	images := []string{
		"/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2",
		"/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64",
		"/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-arm64",
		"/aws/service/ami-amazon-linux-latest/al2023-ami-minimal-kernel-default-x86_64",
		"/aws/service/ami-amazon-linux-latest/amzn-ami-hvm-x86_64-gp2",
		"/aws/service/ami-amazon-linux-latest/amzn2-ami-kernel-5.10-hvm-x86_64-gp2",
		"/aws/service/ami-windows-latest/Windows_Server-2022-English-Full-SQL_2022_Web",
		"/aws/service/ami-windows-latest/Windows_Server-2019-English-Full-Base",
		"/aws/service/ecs/optimized-ami/amazon-linux-2/recommended/image_id",
		"/aws/service/ecs/optimized-ami/amazon-linux-2023/arm64/recommended/image_id",
		"/aws/service/eks/optimized-ami/1.29/amazon-linux-2/recommended/image_id",
		"/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/x86_64/standard/recommended/image_id",
		"/aws/service/canonical/ubuntu/eks-pro/22.04/1.29/stable/current/amd64/hvm/ebs-gp2/ami-id",
		"/aws/service/canonical/ubuntu/server/24.04/stable/current/arm64/hvm/ebs-gp3/ami-id",
		"/aws/service/debian/release/10/latest/amd64",
		"/aws/service/bottlerocket/aws-k8s-1.30/x86_64/latest/image_id",
	}
	for _, name := range images {
		p, ok := Public("us-east-1", "aws", name)
		if !ok {
			t.Errorf("%s: not a public parameter", name)
			continue
		}
		if !amiPattern.MatchString(p.Value) {
			t.Errorf("%s = %q, want ami- and 17 hex digits", name, p.Value)
		}
		again, _ := Public("us-east-1", "aws", name)
		other, _ := Public("eu-west-1", "aws", name)
		if again.Value != p.Value || other.Value == p.Value {
			t.Errorf("%s: %q then %q, %q in eu-west-1: want the same in one region, another elsewhere", name, p.Value, again.Value, other.Value)
		}
	}
	for _, name := range []string{
		"/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp3", // no such image family
		"/aws/service/ami-amazon-linux-latest/",
		"/aws/service/nope",
		"/my/param",
		"/aws/service/global-infrastructure/regions/xx-nowhere-9",
	} {
		if p, ok := Public("us-east-1", "aws", name); ok {
			t.Errorf("%s: public with %q, want missing", name, p.Value)
		}
	}
}

func TestPublicDocuments(t *testing.T) {
	p, ok := Public("us-east-1", "aws", "/aws/service/ecs/optimized-ami/amazon-linux-2/recommended")
	if !ok {
		t.Fatal("the ECS recommended document is not public")
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(p.Value), &doc); err != nil {
		t.Fatalf("recommended: %v: %s", err, p.Value)
	}
	id, _ := Public("us-east-1", "aws", "/aws/service/ecs/optimized-ami/amazon-linux-2/recommended/image_id")
	if doc["image_id"] != id.Value || doc["os"] != "Amazon Linux 2" {
		t.Errorf("recommended %s; image_id %s: the document and its field disagree", p.Value, id.Value)
	}
	cases := map[string]string{
		"/aws/service/global-infrastructure/regions/eu-west-1":                           "eu-west-1",
		"/aws/service/global-infrastructure/regions/eu-west-1/longName":                  "Europe (Ireland)",
		"/aws/service/global-infrastructure/regions/cn-north-1/partition":                "aws-cn",
		"/aws/service/global-infrastructure/regions/us-east-1/services/ec2":              "ec2",
		"/aws/service/eks/optimized-ami/1.29/amazon-linux-2/recommended/release_version": "1.29.0-20250101",
	}
	for name, want := range cases {
		if p, ok := Public("us-east-1", "aws", name); !ok || p.Value != want {
			t.Errorf("%s = %q (%v), want %q", name, p.Value, ok, want)
		}
	}
}

func TestSourcesOrder(t *testing.T) {
	s := Sources{Region: "us-east-1",
		Account: func(name string) (Parameter, bool) {
			if name == "/app/made" {
				return Parameter{Name: name, Type: TypeString, Value: "from-stack", Version: 1}, true
			}
			return Parameter{}, false
		},
		User: map[string]string{"/app/made": "from-user", "/app/given": "given",
			"/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2": "ami-pinned"}}
	for name, want := range map[string]string{
		"/app/made":  "from-stack",
		"/app/given": "given",
		"/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2": "ami-pinned",
		"arn:aws:ssm:us-east-1:123456789012:parameter/app/given":        "given",
	} {
		if p, ok := s.Get(name); !ok || p.Value != want {
			t.Errorf("Get(%s) = %q, %v; want %q", name, p.Value, ok, want)
		}
	}
	if _, ok := s.Get("/app/missing"); ok {
		t.Error("a missing parameter was found")
	}
	if got := MissingMessage("/a", "/b"); got != "Unable to fetch parameters [/a, /b] from parameter store for this account." {
		t.Errorf("MissingMessage = %q", got)
	}
}

func TestParseRefs(t *testing.T) {
	cases := []struct {
		in   string
		want Ref
		err  string
	}{
		{in: "{{resolve:ssm:/a/b}}", want: Ref{Service: "ssm", Name: "/a/b"}},
		{in: "{{resolve:ssm:MyUsername:1}}", want: Ref{Service: "ssm", Name: "MyUsername", Version: "1"}},
		{in: "{{resolve:ssm-secure:MySecurePassword:12}}", want: Ref{Service: "ssm-secure", Name: "MySecurePassword", Version: "12"}},
		{in: "{{resolve:ssm:arn:aws:ssm:us-east-1:123456789012:parameter/a:3}}", want: Ref{Service: "ssm", Name: "arn:aws:ssm:us-east-1:123456789012:parameter/a", Version: "3"}},
		{in: "{{resolve:secretsmanager:MySecret}}", want: Ref{Service: "secretsmanager", SecretID: "MySecret"}},
		{in: "{{resolve:secretsmanager:MySecret:SecretString:password}}", want: Ref{Service: "secretsmanager", SecretID: "MySecret", JSONKey: "password"}},
		{in: "{{resolve:secretsmanager:MySecret:SecretString:password:AWSPREVIOUS}}", want: Ref{Service: "secretsmanager", SecretID: "MySecret", JSONKey: "password", VersionStage: "AWSPREVIOUS"}},
		{in: "{{resolve:secretsmanager:MySecret::::v1}}", want: Ref{Service: "secretsmanager", SecretID: "MySecret", VersionID: "v1"}},
		{in: "{{resolve:secretsmanager:arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf:SecretString:password}}",
			want: Ref{Service: "secretsmanager", SecretID: "arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf", JSONKey: "password"}},
		{in: "{{resolve:ssm:}}", err: "names no parameter"},
		{in: "{{resolve:secretsmanager:a}}b}}", err: "ends at the first }}"},
		{in: "{{resolve:ssm:a}}}", err: "ends at the first }}"},
		{in: "{{resolve:ssm:a b}}", err: "only letters"},
		{in: "{{resolve:ssm:a:x}}", err: "not a whole number"},
		{in: "{{resolve:secretsmanager:s:SecretBinary}}", err: "SecretString"},
		{in: "{{resolve:secretsmanager:s:SecretString:k:st:id:extra}}", err: "write {{resolve:secretsmanager"},
	}
	for _, c := range cases {
		got, err := Parse(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Parse(%s): err %v, want %q", c.in, err, c.err)
			}
			continue
		}
		c.want.Text = c.in
		if err != nil || got != c.want {
			t.Errorf("Parse(%s) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestReplace(t *testing.T) {
	in := "user={{resolve:ssm:/u}} pw={{resolve:ssm-secure:/p:2}} {{resolve:other:x}} {{resolve:secretsmanager:s:SecretString:k}}!"
	got, err := Replace(in, func(r Ref) (string, error) { return "<" + r.Service + ">", nil })
	want := "user=<ssm> pw=<ssm-secure> {{resolve:other:x}} <secretsmanager>!"
	if err != nil || got != want {
		t.Errorf("Replace = %q, %v; want %q", got, err, want)
	}
	if !Contains(in) || Contains("{{resolve:other:x}}") || Contains("plain") {
		t.Error("Contains is wrong")
	}
	if _, err := Replace("{{resolve:ssm:/open", nil); err == nil || !strings.Contains(err.Error(), "closing }}") {
		t.Errorf("an open reference: %v", err)
	}
	refs, err := Find(in)
	if err != nil || len(refs) != 3 || !refs[1].Secure() || refs[0].Secure() {
		t.Errorf("Find = %+v, %v", refs, err)
	}
}

func TestSecureAllowed(t *testing.T) {
	if !SecureAllowed("AWS::RDS::DBInstance", []string{"MasterUserPassword"}) ||
		!SecureAllowed("AWS::OpsWorks::Stack", []string{"RdsDbInstances", "2", "DbPassword"}) ||
		!SecureAllowed("AWS::IAM::User", []string{"LoginProfile", "Password"}) {
		t.Error("a supported property is refused")
	}
	if SecureAllowed("AWS::RDS::DBInstance", []string{"MasterUsername"}) || SecureAllowed("AWS::SSM::Parameter", []string{"Value"}) {
		t.Error("an unsupported property is accepted")
	}
}

func TestSecretValues(t *testing.T) {
	if v, err := SecretValue(`{"username":"admin","port":5432}`, "username"); err != nil || v != "admin" {
		t.Errorf("username = %q, %v", v, err)
	}
	if v, err := SecretValue(`{"username":"admin","port":5432}`, "port"); err != nil || v != "5432" {
		t.Errorf("port = %q, %v", v, err)
	}
	if v, _ := SecretValue("plain", ""); v != "plain" {
		t.Errorf("whole = %q", v)
	}
	for _, s := range []string{`{"a":"b"}`, "not json"} {
		if _, err := SecretValue(s, "password"); err == nil || err.Error() != MsgNoJSONKey {
			t.Errorf("%s: %v, want %q", s, err, MsgNoJSONKey)
		}
	}
	spec := map[string]any{"SecretStringTemplate": `{"username":"admin"}`, "GenerateStringKey": "password",
		"PasswordLength": "16", "ExcludeCharacters": `"@/\`}
	a, err := GenerateSecretString(spec, "arn:1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GenerateSecretString(spec, "arn:1")
	c, _ := GenerateSecretString(spec, "arn:2")
	if a != b || a == c {
		t.Errorf("generated %q, %q, %q: want the same for one secret, another for another", a, b, c)
	}
	pw, err := SecretValue(a, "password")
	if err != nil || len(pw) != 16 || strings.ContainsAny(pw, `"@/\`) {
		t.Errorf("password %q (%v) from %s", pw, err, a)
	}
	if u, _ := SecretValue(a, "username"); u != "admin" {
		t.Errorf("username %q", u)
	}
	plain, _ := GenerateSecretString(map[string]any{"ExcludePunctuation": true, "ExcludeUppercase": "true"}, "k")
	if len(plain) != 32 || strings.ToLower(plain) != plain || strings.ContainsAny(plain, punctuationChars) {
		t.Errorf("plain %q", plain)
	}
	if _, err := GenerateSecretString(map[string]any{"ExcludeLowercase": true, "ExcludeUppercase": true, "ExcludeNumbers": true, "ExcludePunctuation": true}, "k"); err == nil {
		t.Error("nothing to draw from: no error")
	}
}

func TestParseAssignments(t *testing.T) {
	m, err := ParseAssignments("--ssm-parameter", []string{"/a=1", "b=x=y"}, CheckUserName)
	if err != nil || m["/a"] != "1" || m["b"] != "x=y" {
		t.Errorf("%v %v", m, err)
	}
	for _, bad := range [][]string{{"novalue"}, {"a b=1"}, {"/a=1", "/a=2"}} {
		if _, err := ParseAssignments("--ssm-parameter", bad, CheckUserName); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"{{resolve:ssm:/a:1}}", "{{resolve:secretsmanager:arn:aws:secretsmanager:r:a:secret:n:SecretString:k::}}", "{{resolve:ssm-secure:x}}", "{{resolve:}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			_, _ = Replace(s, func(Ref) (string, error) { return "X", nil }) // must not panic
			return
		}
		if r.Text != s {
			t.Fatalf("Text %q, input %q", r.Text, s)
		}
		// A whole reference is replaced whole.
		if out, err := Replace(s, func(Ref) (string, error) { return "X", nil }); err != nil || out != "X" {
			t.Fatalf("Replace(%q) = %q, %v; want X", s, out, err)
		}
	})
}
