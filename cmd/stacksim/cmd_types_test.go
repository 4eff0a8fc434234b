package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// describe-type and list-types as a user runs them: the registry's types,
// a --schemas type of the user's, paging and bad input. They read no
// state and write none.
func TestTypeCommands(t *testing.T) {
	dir := t.TempDir()
	schemas := filepath.Join(dir, "schemas")
	if err := os.MkdirAll(schemas, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := `{"typeName": "MyCo::Widget::Gear", "description": "a gear of the user's",
 "properties": {"Name": {"type": "string"}, "Teeth": {"type": "integer"}},
 "primaryIdentifier": ["/properties/Name"], "createOnlyProperties": ["/properties/Name"], "additionalProperties": false}`
	if err := os.WriteFile(filepath.Join(schemas, "myco-widget-gear.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state.db")
	cli := func(args ...string) (string, string, int) {
		return runCLI(t, append([]string{"--state", state, "--schemas", schemas}, args...)...)
	}

	out, errOut, code := cli("describe-type", "--type", "RESOURCE", "--type-name", "AWS::SQS::Queue", "--query", "Schema", "--output", "text")
	var schema map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &schema) != nil || schema["typeName"] != "AWS::SQS::Queue" {
		t.Fatalf("describe-type's schema (%d): %s %s", code, out, errOut)
	}
	out, _, code = cli("describe-type", "--arn", "arn:aws:cloudformation:us-east-1:123456789012:type/resource/MyCo-Widget-Gear",
		"--query", "[Visibility,DefaultVersionId,ProvisioningType,Description]", "--output", "text")
	if code != 0 || out != "PRIVATE\t00000001\tFULLY_MUTABLE\ta gear of the user's\n" {
		t.Fatalf("describe-type of the user's type (%d): %q", code, out)
	}
	out, _, code = cli("list-types")
	golden(t, "types/list-types-private", []byte(out))
	out2, _, code2 := cli("list-types", "--visibility", "PUBLIC", "--filters", "Category=AWS_TYPES,TypeNamePrefix=AWS::SQS::", "--output", "table")
	golden(t, "types/list-types-sqs-table", []byte(out2))
	if code != 0 || code2 != 0 {
		t.Fatalf("list-types: %d %d", code, code2)
	}
	// --max-items pages the whole answer as the AWS CLI does.
	out, _, code = cli("list-types", "--visibility", "PUBLIC", "--filters", `{"TypeNamePrefix": "AWS::SQS::"}`, "--max-items", "2", "--query", "[TypeSummaries[].TypeName, NextToken != null]")
	if code != 0 || !strings.Contains(out, `"AWS::SQS::QueueInlinePolicy"`) || strings.Contains(out, `"AWS::SQS::QueuePolicy"`) || !strings.Contains(out, "true") {
		t.Fatalf("list-types --max-items 2 (%d): %s", code, out)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"describe-type", "--type", "RESOURCE", "--type-name", "AWS::S3::Buckett"},
			"An error occurred (TypeNotFoundException) when calling the DescribeType operation: The type 'AWS::S3::Buckett' cannot be found.\n"},
		{[]string{"describe-type", "--type-name", "AWS::S3::Bucket"},
			"An error occurred (CFNRegistryException) when calling the DescribeType operation: Specify either TypeName and Type, or Arn\n"},
		{[]string{"list-types", "--visibility", "public"},
			"An error occurred (ValidationError) when calling the ListTypes operation: 1 validation error detected: Value 'public' at 'visibility' failed to satisfy constraint: Member must satisfy enum value set: [PUBLIC, PRIVATE]\n"},
		{[]string{"list-types", "--filters", "Category=AWS_TYPES,Owner=me"}, "Owner"},
		{[]string{"list-types", "--filters", "{bad"}, "Error parsing parameter '--filters'"},
	} {
		_, errOut, code := cli(c.args...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("a read of the registry wrote the state: %v", err)
	}
}
