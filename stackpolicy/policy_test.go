package stackpolicy

import (
	"errors"
	"strings"
	"testing"
)

// The rules of protect-stack-resources.html, one case each.
func TestEvaluate(t *testing.T) {
	const (
		allowAll = `{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]}`
		denyAll  = `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"*","Resource":"*"}]}`
		// The guide's example: everything but the production database.
		guide = `{"Statement":[
			{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"},
			{"Effect":"Deny","Action":"Update:*","Principal":"*","Resource":"LogicalResourceId/ProductionDatabase"}]}`
		replaceOnly = `{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"},
			{"Effect":"Deny","Action":["Update:Replace","Update:Delete"],"Principal":"*","Resource":"LogicalResourceId/Db*"}]}`
		notAction = `{"Statement":[{"Effect":"Allow","NotAction":"Update:Delete","Principal":"*","Resource":"*"}]}`
		notRes    = `{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","NotResource":"LogicalResourceId/Keep?"}]}`
		byType    = `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"*","Resource":"*","Condition":{"StringEquals":{"ResourceType":["AWS::RDS::DBInstance"]}}},
			{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]}`
		byTypeLike = `{"Statement":[{"Effect":"Allow","Action":"Update:Modify","Principal":"*","Resource":"*","Condition":{"StringLike":{"ResourceType":"AWS::EC2::*"}}}]}`
		single     = `{"Statement":{"Effect":"Allow","Action":"Update:Modify","Principal":"*","Resource":"LogicalResourceId/Queue"}}`
	)
	cases := []struct {
		name, policy string
		action       Action
		id, typ      string
		allowed      bool
		statement    int
		reason       string
	}{
		{"allow all", allowAll, Replace, "Bucket", "AWS::S3::Bucket", true, 1, ""},
		{"deny all", denyAll, Modify, "CFNUser", "AWS::IAM::User", false, 1, "Action denied by stack policy: Statement [#1] does not allow [Update:*] for resource [*];"},
		{"no statements protect nothing", `{}`, Modify, "Bucket", "AWS::S3::Bucket", true, 0, ""},
		{"an empty list neither", `{"Statement":[]}`, Delete, "Bucket", "AWS::S3::Bucket", true, 0, ""},
		{"explicit deny wins over an earlier allow", guide, Modify, "ProductionDatabase", "AWS::RDS::DBInstance", false, 2,
			"Action denied by stack policy: Statement [#2] does not allow [Update:*] for resource [LogicalResourceId/ProductionDatabase];"},
		{"others allowed", guide, Delete, "Web", "AWS::EC2::Instance", true, 1, ""},
		{"action list and wildcard resource", replaceOnly, Replace, "DbMain", "AWS::RDS::DBInstance", false, 2,
			"Action denied by stack policy: Statement [#2] does not allow [Update:Replace, Update:Delete] for resource [LogicalResourceId/Db*];"},
		{"modify not in the deny list", replaceOnly, Modify, "DbMain", "AWS::RDS::DBInstance", true, 1, ""},
		{"wildcard does not match another prefix", replaceOnly, Replace, "MyDb", "AWS::RDS::DBInstance", true, 1, ""},
		{"NotAction allows the others", notAction, Replace, "Bucket", "AWS::S3::Bucket", true, 1, ""},
		{"NotAction leaves its action to the default", notAction, Delete, "Bucket", "AWS::S3::Bucket", false, 0,
			"Action not allowed by stack policy: No statement allows [Update:Delete] for resource [LogicalResourceId/Bucket];"},
		{"NotResource with ? leaves it out", notRes, Modify, "Keep1", "AWS::S3::Bucket", false, 0,
			"Action not allowed by stack policy: No statement allows [Update:Modify] for resource [LogicalResourceId/Keep1];"},
		{"NotResource ? is one character", notRes, Modify, "Keep12", "AWS::S3::Bucket", true, 1, ""},
		{"StringEquals on the type denies", byType, Modify, "Db", "AWS::RDS::DBInstance", false, 1,
			"Action denied by stack policy: Statement [#1] does not allow [Update:*] for resource [*];"},
		{"StringEquals other type falls through", byType, Modify, "Topic", "AWS::SNS::Topic", true, 2, ""},
		{"StringLike matches", byTypeLike, Modify, "Vpc", "AWS::EC2::VPC", true, 1, ""},
		{"StringLike other type", byTypeLike, Modify, "Topic", "AWS::SNS::Topic", false, 0,
			"Action not allowed by stack policy: No statement allows [Update:Modify] for resource [LogicalResourceId/Topic];"},
		{"StringLike other action", byTypeLike, Replace, "Vpc", "AWS::EC2::VPC", false, 0,
			"Action not allowed by stack policy: No statement allows [Update:Replace] for resource [LogicalResourceId/Vpc];"},
		{"one statement as an object", single, Modify, "Queue", "AWS::SQS::Queue", true, 1, ""},
		{"exact resource only", single, Modify, "Queue2", "AWS::SQS::Queue", false, 0,
			"Action not allowed by stack policy: No statement allows [Update:Modify] for resource [LogicalResourceId/Queue2];"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.policy)
			if err != nil {
				t.Fatal(err)
			}
			d := p.Evaluate(c.action, c.id, c.typ)
			if d.Allowed != c.allowed || d.Statement != c.statement || d.Reason != c.reason {
				t.Errorf("got %+v\nwant allowed=%v statement=%d reason=%q", d, c.allowed, c.statement, c.reason)
			}
		})
	}
}

// Policies AWS refuses (with its one InvalidMessage); the detail says why.
func TestParseRefuses(t *testing.T) {
	cases := []struct{ name, body, detail string }{
		{"not JSON", "abc123", "not JSON"},
		{"empty", "  ", "empty"},
		{"array", `[]`, "JSON object"},
		{"principal", `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"a1b2","Resource":"*"}]}`, `Principal must be "*"`},
		{"action outside Update", `{"Statement":[{"Effect":"Deny","Action":"Delete:*","Principal":"*","Resource":"*"}]}`, `Action "Delete:*"`},
		{"unknown update action", `{"Statement":[{"Effect":"Deny","Action":"Update:Rename","Principal":"*","Resource":"*"}]}`, "matches none"},
		{"effect", `{"Statement":[{"Effect":"Maybe","Action":"Update:*","Principal":"*","Resource":"*"}]}`, "Effect is Allow or Deny"},
		{"both Action and NotAction", `{"Statement":[{"Effect":"Deny","Action":"Update:*","NotAction":"Update:Modify","Principal":"*","Resource":"*"}]}`, "one of Action and NotAction"},
		{"no resource", `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"*"}]}`, "one of Resource and NotResource"},
		{"resource form", `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"*","Resource":"arn:aws:s3:::b"}]}`, "LogicalResourceId/NAME"},
		{"condition operator", `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"*","Resource":"*","Condition":{"ArnLike":{"ResourceType":"x"}}}]}`, "StringEquals and StringLike"},
		{"condition key", `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"*","Resource":"*","Condition":{"StringEquals":{"aws:Region":"x"}}}]}`, "ResourceType"},
		{"unknown statement key", `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"*","Resource":"*","Extra":1}]}`, `unknown key "Extra"`},
		{"unknown top key", `{"Statements":[]}`, `unknown key "Statements"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.body)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if err.Error() != "invalid stack policy: "+pe.Detail {
				t.Errorf("message %q", err.Error())
			}
			if !strings.Contains(pe.Detail, c.detail) {
				t.Errorf("detail %q lacks %q", pe.Detail, c.detail)
			}
		})
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		p, s string
		want bool
	}{
		{"*", "", true}, {"a*", "abc", true}, {"*c", "abc", true}, {"a*c", "ac", true}, {"a*c", "abd", false},
		{"a?c", "abc", true}, {"a?c", "ac", false}, {"*b*", "abc", true}, {"Update:*", "Update:Modify", true},
		{"Update:M*", "Update:Replace", false}, {"ab", "abc", false}, {"a**", "a", true},
	}
	for _, c := range cases {
		if got := match(c.p, c.s); got != c.want {
			t.Errorf("match(%q, %q) = %v, want %v", c.p, c.s, got, c.want)
		}
	}
}
