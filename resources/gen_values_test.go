package resources

import (
	"regexp"
	"regexp/syntax"
	"testing"
	"unicode/utf8"
)

// The values registry types answer look like AWS's (issue 13's failures
// among them: an EIP without its identifier, read-only attributes never
// made, an EFS file system named by a UUID).
func TestRegistryValuesLookLikeAWS(t *testing.T) {
	reg := NewRegistry(RegistryOptions{Seed: 3})
	cases := []struct {
		typ   string
		props map[string]any
		ref   string            // a pattern Ref matches
		attrs map[string]string // attribute → a pattern its value (as JSON-ish text) matches
	}{
		{"AWS::EC2::EIP", map[string]any{"Domain": "vpc"}, `^\d+\.\d+\.\d+\.\d+$`,
			map[string]string{"AllocationId": `^eipalloc-[0-9a-f]{17}$`, "PublicIp": `^\d+\.\d+\.\d+\.\d+$`}},
		{"AWS::EC2::VPCGatewayAttachment", map[string]any{"VpcId": "vpc-0123456789abcdef0", "InternetGatewayId": "igw-0123456789abcdef0"},
			`^IGW\|vpc-0123456789abcdef0$`, nil},
		{"AWS::EFS::FileSystem", nil, `^fs-[0-9a-f]{17}$`,
			map[string]string{"FileSystemId": `^fs-[0-9a-f]{17}$`, "Arn": `^arn:aws:elasticfilesystem:us-east-1:123456789012:file-system/fs-[0-9a-f]{17}$`}},
		{"AWS::EFS::MountTarget", map[string]any{"FileSystemId": "fs-0123456789abcdef0", "SubnetId": "subnet-0123456789abcdef0", "SecurityGroups": []any{"sg-0123456789abcdef0"}},
			`^fsmt-[0-9a-f]{17}$`, nil},
		{"AWS::EC2::LaunchTemplate", map[string]any{"LaunchTemplateData": map[string]any{"InstanceType": "t3.micro"}}, `^lt-[0-9a-f]{17}$`,
			map[string]string{"LatestVersionNumber": `^1$`, "DefaultVersionNumber": `^1$`}},
		{"AWS::Config::ConfigRule", map[string]any{"Source": map[string]any{"Owner": "AWS", "SourceIdentifier": "S3_BUCKET_VERSIONING_ENABLED"}}, `^demo-Rule-`,
			map[string]string{"Compliance.Type": `^COMPLIANT$`, "Arn": `^arn:aws:config:us-east-1:123456789012:config-rule/`}},
		{"AWS::DirectoryService::MicrosoftAD", map[string]any{"Name": "corp.example.com", "Password": "Secret-Passw0rd",
			"VpcSettings": map[string]any{"VpcId": "vpc-0123456789abcdef0", "SubnetIds": []any{"subnet-0123456789abcdef0", "subnet-0123456789abcdef1"}}},
			`^d-[0-9a-f]{10}$`, map[string]string{"DnsIpAddresses": `^\[\d+\.\d+\.\d+\.\d+ \d+\.\d+\.\d+\.\d+\]$`}},
		{"AWS::ApiGateway::Resource", map[string]any{"RestApiId": "a1b2c3d4e5", "ParentId": "f6g7h8", "PathPart": "orders"}, `^[a-z0-9]{6}$`, nil},
		{"AWS::CertificateManager::Certificate", map[string]any{"DomainName": "shop.example.com"}, `^arn:aws:acm:us-east-1:123456789012:certificate/[0-9a-f-]{36}$`, nil},
		{"AWS::Cognito::UserPool", nil, `^us-east-1_[A-Za-z0-9]{9}$`, map[string]string{"Arn": `^arn:aws:cognito-idp:us-east-1:123456789012:userpool/us-east-1_`}},
		{"AWS::CloudFormation::Stack", map[string]any{"TemplateURL": "https://s3.amazonaws.com/bucket/child.yaml"},
			`^arn:aws:cloudformation:us-east-1:123456789012:stack/demo-Nested-[A-Z0-9]{13}/`, map[string]string{"Outputs.VpcId": `^vpc-[0-9a-f]{17}$`}},
		{"AWS::EC2::NetworkInterface", map[string]any{"SubnetId": "subnet-0123456789abcdef0"}, `^eni-[0-9a-f]{17}$`,
			map[string]string{"SecondaryPrivateIpAddresses": `^\[\S+ \S+\]$`, "PrimaryPrivateIpAddress": `^10\.`}},
	}
	for _, c := range cases {
		t.Run(c.typ, func(t *testing.T) {
			p, err := reg.Provider(c.typ)
			if err != nil {
				t.Fatal(err)
			}
			logical := map[string]string{"AWS::Config::ConfigRule": "Rule", "AWS::CloudFormation::Stack": "Nested"}[c.typ]
			if logical == "" {
				logical = "Thing"
			}
			ev := drive(t, p, newReq(ActionCreate, logical, "t1", StringifyModel(c.props)))
			if ev.Status != StatusSuccess {
				t.Fatalf("create: %v", ev)
			}
			ref, err := p.Ref(ev.ResourceModel)
			if s, _ := ref.(string); err != nil || !regexp.MustCompile(c.ref).MatchString(s) {
				t.Errorf("Ref = %v (%v), want %s", ref, err, c.ref)
			}
			for a, want := range c.attrs {
				v, err := p.GetAtt(ev.ResourceModel, a)
				if err != nil {
					t.Errorf("GetAtt %s: %v", a, err)
					continue
				}
				if err := p.Schema().CheckAttribute(a, v); err != nil {
					t.Errorf("GetAtt %s: %v", a, err)
				}
				text := fmtValue(v)
				if !regexp.MustCompile(want).MatchString(text) {
					t.Errorf("GetAtt %s = %s, want %s", a, text, want)
				}
			}
		})
	}
}

func fmtValue(v any) string {
	switch t := v.(type) {
	case []any:
		s := "["
		for i, x := range t {
			if i > 0 {
				s += " "
			}
			s += fmtValue(x)
		}
		return s + "]"
	case string:
		return t
	}
	str, _ := scalarString(v)
	return str
}

// The pattern generator gives strings the pattern matches, within the
// length bounds, the same for the same stream; nothing for what no string
// matches or Go cannot parse.
func TestPatternGenerate(t *testing.T) {
	key := requestKey(1, "stack", "Logical", "token")
	cases := []struct {
		pattern        string
		minLen, maxLen int
		ok             bool
	}{
		{`^[a-z0-9-]{3,63}$`, 3, 63, true},
		{`^arn:aws[a-z-]*:iam::\d{12}:role/[\w+=,.@-]+$`, 0, 2048, true},
		{`^fs-[0-9a-f]{8,40}$`, 0, 128, true},
		{`^[a-zA-Z0-9]+$`, 16, 16, true},
		{`^(arn:aws[-a-z]*:elasticfilesystem:[0-9a-z-:]+:file-system/fs-[0-9a-f]{8,40}|fs-[0-9a-f]{8,40})$`, 0, 128, true},
		{`^\p{L}[\p{L}\p{Z}\p{N}_.:/=+\-@]*$`, 1, 256, true},
		{`(?i)^[a-z]{1}(?:-?[a-z0-9]){0,62}$`, 1, 63, true},
		{`^.{1,255}$`, 1, 255, true},
		{`"^arn:aws:acm:[a-z0-9-]+:\d{12}:certificate\/.+$"`, 0, -1, false}, // quoted: nothing matches
		{`^(?!aws:)[a-z]+$`, 0, -1, false},                                  // a lookahead: Go cannot parse it
		{`^[a-z]{10}$`, 0, 5, false},                                        // longer than maxLength
	}
	for _, c := range cases {
		cp := compilePattern(c.pattern)
		got, ok := cp.generate(key.stream("p:"+c.pattern), c.minLen, c.maxLen)
		if ok != c.ok {
			t.Errorf("%s: ok=%v (%q), want %v", c.pattern, ok, got, c.ok)
			continue
		}
		if !ok {
			continue
		}
		n := utf8.RuneCountInString(got)
		if !cp.matches(got) || n < c.minLen || (c.maxLen >= 0 && n > c.maxLen) {
			t.Errorf("%s [%d,%d]: %q", c.pattern, c.minLen, c.maxLen, got)
		}
		again, _ := compilePattern(c.pattern).generate(key.stream("p:"+c.pattern), c.minLen, c.maxLen)
		if again != got {
			t.Errorf("%s: %q then %q from the same stream", c.pattern, got, again)
		}
	}
}

// Whatever the pattern, the generator does not panic, and what it gives
// the pattern matches.
func FuzzPatternGenerate(f *testing.F) {
	for _, p := range []string{`^[a-z]+$`, `a{2,5}(b|c)*`, `^\d{12}$`, `[^a-z]`, `(?i)x+`, `\bword\b`, `^$`, `.*`} {
		f.Add(p, 0, 64)
	}
	f.Fuzz(func(t *testing.T, pattern string, minLen, maxLen int) {
		if _, err := syntax.Parse(pattern, syntax.Perl); err != nil || len(pattern) > 200 {
			return
		}
		minLen, maxLen = minLen%300, maxLen%300
		if minLen < 0 {
			minLen = -minLen
		}
		cp := compilePattern(pattern)
		got, ok := cp.generate(requestKey(1, "s", "l", "t").stream(pattern), minLen, maxLen)
		if ok && !cp.matches(got) {
			t.Fatalf("%q generated %q, which it does not match", pattern, got)
		}
	})
}
