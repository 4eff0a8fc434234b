package resources

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTemplatesGolden pins what value templates fill to, errors included,
// for every kind of placeholder and every way of writing one wrong.
func TestTemplatesGolden(t *testing.T) {
	model := map[string]any{"Name": "my.Queue", "Arn": "arn:aws:lambda:us-east-1:123456789012:function:fn:3",
		"Size": json.Number("8"), "On": true, "Nested": map[string]any{"A/B": "slash", "Deep": map[string]any{"X": "x"}}, "Obj": map[string]any{}}
	templates := []string{
		"plain", "{Name}", "{Name!dash}", "{Name!lower}", "{Arn!tail}", "{Name!nope}", "{Size}-{On}",
		"{Missing}", "{Missing|fallback}", "{Missing|fb!lower}", "{Obj}", "{Nested/Deep/X}", "{Nested/A~1B}", "{Nested/Nope|d}",
		"{$Region}/{$AccountId}/{$Partition}/{$URLSuffix}/{$StackName}/{$LogicalId}/{$Now}",
		"{$uuid}", "{$uuid}{$uuid}", "{$octet}.{$octet}", "{$hex:8}", "{$upper:5}-{$lower:5}-{$mixed:5}-{$digits:5}",
		"{$hex}", "{$hex:0}", "{$hex:257}", "{$hex:x}", "{$nope:4}", "{$nope}", "{$seq}", "{$seq:Name}",
		"a{Name", "{Name}b{c", "x}{Name}{", "{}", "{{Name}}", "{Name}{Missing}{$nope}",
		"{Arn!name}", "{Name!name}", "{Missing|arn:aws:ecs:us-east-1:123456789012:cluster/prod!name}",
		"{$Now:label}", "{$RegionCode}", "{$EC2InternalDomain} {$EC2PublicDomain}", "{Arn!after:function:}", "{Arn!after:nope}", "{Arn!after:}", "{Arn!before::function}", "{Arn!before:}", "{$HEX:8}", "{$account:6}/{$account:6}", "{$account}",
		"{$HostedZone:elb} {$HostedZone:nlb} {$HostedZone:vpce}", "{$HostedZone:alb}", "{$HostedZone}",
	}
	req := &Request{StackID: testStack, LogicalResourceIdentifier: "Thing", ClientRequestToken: "t1", Region: "eu-west-1"}
	var b strings.Builder
	for _, tmpl := range templates {
		e := newEnv(req, 5, Epoch, model)
		got, err := e.expandString(tmpl, "/properties/P")
		if err != nil {
			got = "error: " + err.Error()
		}
		b.WriteString(tmpl + " => " + got + "\n")
	}
	// {$account:N} is the account's: the same for another resource of it,
	// another for another account.
	other := newEnv(&Request{StackID: "arn:aws:cloudformation:eu-west-1:123456789012:stack/other/1", LogicalResourceIdentifier: "Else", ClientRequestToken: "t9", Region: "eu-west-1"}, 5, Epoch, model)
	a, _ := newEnv(req, 5, Epoch, model).expandString("{$account:12}", "/properties/P")
	if b, _ := other.expandString("{$account:12}", "/properties/Q"); a != b {
		t.Errorf("{$account:12} of two resources of one account: %s and %s", a, b)
	}
	if d, _ := newEnv(&Request{StackID: testStack, LogicalResourceIdentifier: "Thing", Region: "us-east-1"}, 5, Epoch, model).expandString("{$EC2InternalDomain} {$EC2PublicDomain}", "/properties/P"); d != "ec2.internal compute-1.amazonaws.com" {
		t.Errorf("us-east-1's EC2 domains: %s", d)
	}
	other.account = "210987654321"
	if b, _ := other.expandString("{$account:12}", "/properties/P"); a == b {
		t.Errorf("{$account:12} of two accounts: both %s", a)
	}
	Golden(t, "templates.txt", []byte(b.String()))
}
