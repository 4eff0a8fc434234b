package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A type of the user's, given with --schemas: a private type of the account.
const myTypeSchema = `{"typeName": "MyCo::Widget::Gear", "description": "a gear of the user's",
 "properties": {"Name": {"type": "string"}, "Teeth": {"type": "integer"}, "Arn": {"type": "string"}},
 "primaryIdentifier": ["/properties/Name"], "createOnlyProperties": ["/properties/Name"],
 "readOnlyProperties": ["/properties/Arn"], "additionalProperties": false}`

func registryEngine(t *testing.T) *Engine {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "myco-widget-gear.json"), []byte(myTypeSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	return newTestEngine(t, Options{SchemaDir: dir})
}

func TestDescribeType(t *testing.T) {
	e := registryEngine(t)
	ctx := context.Background()
	cases := []struct {
		name       string
		in         DescribeTypeInput
		arn, vis   string
		provision  string
		schemaHas  string
		code, text string
	}{
		{name: "AWS type", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "AWS::S3::Bucket"},
			arn: "arn:aws:cloudformation:us-east-1::type/resource/AWS-S3-Bucket", vis: "PUBLIC", provision: "FULLY_MUTABLE",
			schemaHas: `"typeName":"AWS::S3::Bucket"`},
		{name: "by ARN", in: DescribeTypeInput{Arn: "arn:aws:cloudformation:us-east-1::type/resource/AWS-SQS-Queue"},
			arn: "arn:aws:cloudformation:us-east-1::type/resource/AWS-SQS-Queue", vis: "PUBLIC", provision: "FULLY_MUTABLE",
			schemaHas: `"typeName":"AWS::SQS::Queue"`},
		{name: "every property create-only", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "AWS::AutoScaling::LaunchConfiguration"},
			arn: "arn:aws:cloudformation:us-east-1::type/resource/AWS-AutoScaling-LaunchConfiguration", vis: "PUBLIC"},
		{name: "private type", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "MyCo::Widget::Gear"},
			arn: "arn:aws:cloudformation:us-east-1:123456789012:type/resource/MyCo-Widget-Gear/00000001", vis: "PRIVATE",
			provision: "FULLY_MUTABLE", schemaHas: `"description": "a gear of the user's"`},
		{name: "private type's version", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "MyCo::Widget::Gear", VersionId: "00000001"},
			arn: "arn:aws:cloudformation:us-east-1:123456789012:type/resource/MyCo-Widget-Gear/00000001", vis: "PRIVATE", provision: "FULLY_MUTABLE"},
		{name: "private type by ARN", in: DescribeTypeInput{Arn: "arn:aws:cloudformation:us-east-1:123456789012:type/resource/MyCo-Widget-Gear/00000001"},
			arn: "arn:aws:cloudformation:us-east-1:123456789012:type/resource/MyCo-Widget-Gear/00000001", vis: "PRIVATE", provision: "FULLY_MUTABLE"},
		{name: "unknown type", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "AWS::S3::Buckett"},
			code: CodeTypeNotFound, text: "The type 'AWS::S3::Buckett' cannot be found."},
		{name: "SAM type", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "AWS::Serverless::Function"},
			code: CodeTypeNotFound, text: "The type 'AWS::Serverless::Function' cannot be found."},
		{name: "custom resource", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "Custom::Thing"},
			code: CodeTypeNotFound, text: "The type 'Custom::Thing' cannot be found."},
		{name: "a module", in: DescribeTypeInput{Type: "MODULE", TypeName: "MyCo::Widget::Gear::MODULE"},
			code: CodeTypeNotFound, text: "The type 'MyCo::Widget::Gear::MODULE' cannot be found."},
		{name: "an AWS type has no version", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "AWS::S3::Bucket", VersionId: "00000001"},
			code: CodeTypeNotFound},
		{name: "a version that is not", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "MyCo::Widget::Gear", VersionId: "00000002"},
			code: CodeTypeNotFound},
		{name: "third-party", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "AWS::S3::Bucket", PublisherId: "abc"},
			code: CodeTypeNotFound},
		{name: "no type", in: DescribeTypeInput{TypeName: "AWS::S3::Bucket"}, code: CodeCFNRegistryError, text: "Specify either TypeName and Type, or Arn"},
		{name: "both", in: DescribeTypeInput{Type: "RESOURCE", TypeName: "AWS::S3::Bucket", Arn: "arn:aws:cloudformation:us-east-1::type/resource/AWS-S3-Bucket"},
			code: CodeCFNRegistryError},
		{name: "bad kind", in: DescribeTypeInput{Type: "resource", TypeName: "AWS::S3::Bucket"}, code: CodeValidationError,
			text: "1 validation error detected: Value 'resource' at 'type' failed to satisfy constraint: Member must satisfy enum value set: [RESOURCE, MODULE, HOOK]"},
		{name: "ARN of another region", in: DescribeTypeInput{Arn: "arn:aws:cloudformation:eu-west-1::type/resource/AWS-S3-Bucket"}, code: CodeCFNRegistryError},
		{name: "ARN of another account", in: DescribeTypeInput{Arn: "arn:aws:cloudformation:us-east-1:999999999999:type/resource/MyCo-Widget-Gear"}, code: CodeCFNRegistryError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := e.DescribeType(ctx, c.in)
			if c.code != "" {
				if !IsCode(err, c.code) || (c.text != "" && err.(*APIError).Message != c.text) {
					t.Fatalf("got %v, want %s %q", err, c.code, c.text)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := c.provision
			if want == "" {
				want = "IMMUTABLE"
			}
			if out.Arn != c.arn || out.Visibility != c.vis || out.ProvisioningType != want || out.Type != "RESOURCE" ||
				out.DeprecatedStatus != "LIVE" || !out.IsDefaultVersion || !strings.Contains(out.Schema, c.schemaHas) {
				t.Fatalf("got %+v", out)
			}
			if private := c.vis == "PRIVATE"; (out.DefaultVersionId == "00000001") != private || (out.TypeTestsStatus == "NOT_TESTED") != private {
				t.Fatalf("version members: %+v", out)
			}
		})
	}
}

func TestListTypes(t *testing.T) {
	e := registryEngine(t)
	ctx := context.Background()
	names := func(out *ListTypesOutput) []string {
		var s []string
		for _, x := range out.TypeSummaries {
			s = append(s, x.TypeName)
		}
		return s
	}
	// The default: the account's private, fully mutable types.
	out, err := e.ListTypes(ctx, ListTypesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(out); len(got) != 1 || got[0] != "MyCo::Widget::Gear" || out.TypeSummaries[0].DefaultVersionId != "00000001" ||
		out.TypeSummaries[0].TypeArn != "arn:aws:cloudformation:us-east-1:123456789012:type/resource/MyCo-Widget-Gear" ||
		out.TypeSummaries[0].Description != "a gear of the user's" || out.NextToken != "" {
		t.Fatalf("private types: %+v", out)
	}
	// AWS's, a page at a time, by prefix.
	in := ListTypesInput{Visibility: "PUBLIC", Filters: &TypeFilters{Category: "AWS_TYPES", TypeNamePrefix: "AWS::SQS::"}, MaxResults: 1}
	var all []string
	for page := 0; ; page++ {
		out, err := e.ListTypes(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, names(out)...)
		if out.NextToken == "" {
			break
		}
		if page > 10 {
			t.Fatal("pages do not end")
		}
		in.NextToken = out.NextToken
	}
	if strings.Join(all, " ") != "AWS::SQS::Queue AWS::SQS::QueueInlinePolicy AWS::SQS::QueuePolicy" {
		t.Fatalf("SQS types: %v", all)
	}
	// IMMUTABLE lists the types whose properties are all create-only.
	imm, err := e.ListTypes(ctx, ListTypesInput{Visibility: "PUBLIC", ProvisioningType: "IMMUTABLE", Filters: &TypeFilters{TypeNamePrefix: "AWS::AutoScaling::"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(imm); len(got) != 1 || got[0] != "AWS::AutoScaling::LaunchConfiguration" {
		t.Fatalf("immutable: %v", got)
	}
	// Filters that cannot match, as AWS documents them: an empty list.
	for _, in := range []ListTypesInput{
		{Filters: &TypeFilters{Category: "AWS_TYPES"}},
		{Visibility: "PUBLIC", Filters: &TypeFilters{Category: "REGISTERED"}},
		{Visibility: "PUBLIC", Type: "HOOK"},
		{Visibility: "PUBLIC", DeprecatedStatus: "DEPRECATED"},
		{Visibility: "PUBLIC", Filters: &TypeFilters{PublisherId: "abc"}},
	} {
		out, err := e.ListTypes(ctx, in)
		if err != nil || len(out.TypeSummaries) != 0 {
			t.Fatalf("%+v: %v %v", in, out, err)
		}
	}
	// Bad input.
	for _, in := range []ListTypesInput{{Visibility: "public"}, {MaxResults: 101}, {NextToken: "x"}, {Filters: &TypeFilters{Category: "MINE"}}} {
		if _, err := e.ListTypes(ctx, in); !IsCode(err, CodeValidationError) {
			t.Fatalf("%+v: %v", in, err)
		}
	}
}

func BenchmarkListTypesPublic(b *testing.B) {
	e := newTestEngine(b, Options{})
	for i := 0; i < b.N; i++ {
		if _, err := e.ListTypes(context.Background(), ListTypesInput{Visibility: "PUBLIC", MaxResults: 100}); err != nil {
			b.Fatal(err)
		}
	}
}
