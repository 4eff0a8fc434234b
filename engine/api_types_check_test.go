package engine

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/template"
)

// The hint an unrecognized type gets, where it is in the template, and the
// types that are recognized without a registry schema of their own.
func TestUnrecognizedTypeHints(t *testing.T) {
	e := newTestEngine(t, Options{})
	cases := []struct{ typ, detail string }{
		{"AWS::S3::Buckett", "did you mean AWS::S3::Bucket?"},
		{"AWS::SQS::queue", "did you mean AWS::SQS::Queue?"},
		{"AWS::Serverless::Function", "Transform: AWS::Serverless-2016-10-31"},
		{"Initech::TPS::Report", "a third-party type"},
		{"AWS::Nothing::LikeIt", ""},
	}
	for _, c := range cases {
		body := "Resources:\n  R:\n    Type: " + c.typ + "\n"
		_, err := e.ValidateTemplate(ctx(), ValidateTemplateInput{TemplateBody: body})
		var api *APIError
		var te *template.Error
		if !errors.As(err, &api) || api.Message != "Template format error: Unrecognized resource types: ["+c.typ+"]" || !errors.As(err, &te) {
			t.Fatalf("%s: %v", c.typ, err)
		}
		if te.Line != 3 || te.Col != 11 || !strings.Contains(te.Detail, c.detail) || (c.detail == "" && te.Detail != "") {
			t.Errorf("%s: at %d:%d, detail %q, want 3:11 and %q", c.typ, te.Line, te.Col, te.Detail, c.detail)
		}
	}
	for _, typ := range []string{"AWS::CDK::Metadata", "Custom::Anything", "AWS::CloudFormation::CustomResource", "Alexa::ASK::Skill", "AWS::CloudFormation::WaitConditionHandle"} {
		if _, err := e.ValidateTemplate(ctx(), ValidateTemplateInput{TemplateBody: "Resources:\n  R:\n    Type: " + typ + "\n"}); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}
	// A transform may change the types: ValidateTemplate does not check
	// them (CreateStack checks the processed template's).
	withTransform := "Transform: AWS::LanguageExtensions\nResources:\n  F:\n    Type: AWS::S3::Buckett\n"
	if _, err := e.ValidateTemplate(ctx(), ValidateTemplateInput{TemplateBody: withTransform}); err != nil {
		t.Errorf("with a transform: %v", err)
	}
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "t", TemplateBody: withTransform}); err == nil || !strings.Contains(err.Error(), "Unrecognized resource types: [AWS::S3::Buckett]") {
		t.Errorf("CreateStack with a transform: %v", err)
	}
}

// A template that uses a type whose schema the user gave and cannot be used
// (here a --schemas file with a type that is not JSON's) is refused by every
// call that takes a template, before anything is stored, with the schema's
// problem and where the template uses the type; the same template with the
// file mended creates.
func TestUnusableSchemaRefused(t *testing.T) {
	dir := t.TempDir()
	const good = `{"typeName": "Acme::Thing::Widget", "description": "a widget",
 "properties": {"Name": {"type": "string"}}, "primaryIdentifier": ["/properties/Name"], "createOnlyProperties": ["/properties/Name"], "additionalProperties": false}`
	file := filepath.Join(dir, "acme-thing-widget.json")
	write := func(doc string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(strings.Replace(good, `"type": "string"`, `"type": "strin"`, 1))
	e := newTestEngine(t, Options{SchemaDir: dir})
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "keep", TemplateBody: "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n"}); err != nil {
		t.Fatal(err)
	}
	restsAt(t, e, "keep", "CREATE_COMPLETE")
	before := state(t, e)

	body := "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n  W:\n    Type: Acme::Thing::Widget\n    Properties: {Name: w}\n"
	want := "The schema of resource type Acme::Thing::Widget cannot be used: " + file + `: compile schema: at /properties/Name/type: "strin" is not a JSON type (object, array, string, number, integer, boolean, null)`
	for name, call := range map[string]func() error{
		"CreateStack": func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "w", TemplateBody: body})
			return err
		},
		"UpdateStack": func() error {
			_, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "keep", TemplateBody: body})
			return err
		},
		"CreateChangeSet CREATE": func() error {
			_, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "w", ChangeSetName: "c", ChangeSetType: "CREATE", TemplateBody: body})
			return err
		},
		"CreateChangeSet UPDATE": func() error {
			_, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "keep", ChangeSetName: "c", TemplateBody: body})
			return err
		},
		"ValidateTemplate": func() error {
			_, err := e.ValidateTemplate(ctx(), ValidateTemplateInput{TemplateBody: body})
			return err
		},
	} {
		err := call()
		var api *APIError
		var te *template.Error
		if !errors.As(err, &api) || api.Code != CodeValidationError || api.Message != want {
			t.Errorf("%s: %v\nwant ValidationError: %s", name, err, want)
			continue
		}
		if !errors.As(err, &te) || te.Line != 5 || te.Col != 11 || te.Path != "/Resources/W/Type" || !strings.Contains(te.Detail, "fix the schema file") {
			t.Errorf("%s: positioned as %+v", name, te)
		}
	}
	if after := state(t, e); !bytes.Equal(before, after) {
		t.Errorf("a refused call changed the state:\n%s\n---\n%s", before, after)
	}

	write(good)
	mended := newTestEngine(t, Options{SchemaDir: dir})
	if _, err := mended.CreateStack(ctx(), CreateStackInput{StackName: "w", TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	restsAt(t, mended, "w", "CREATE_COMPLETE")

	// a file with a type's registry name that declares another type is
	// named in the refusal of the type
	misnamed := strings.Replace(good, "Widget", "Gadgt", 1)
	if err := os.WriteFile(filepath.Join(dir, "acme-thing-gadget.json"), []byte(misnamed), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := newTestEngine(t, Options{SchemaDir: dir}).ValidateTemplate(ctx(), ValidateTemplateInput{TemplateBody: "Resources:\n  G:\n    Type: Acme::Thing::Gadget\n"})
	var te *template.Error
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "Unrecognized resource types: [Acme::Thing::Gadget]") ||
		te.Detail != filepath.Join(dir, "acme-thing-gadget.json")+" declares typeName Acme::Thing::Gadgt, not Acme::Thing::Gadget: a schema file is found by its typeName" {
		t.Errorf("misnamed: %v (%+v)", err, te)
	}
}

// restsAt runs the loop to rest and fails unless the stack is then in want.
func restsAt(t *testing.T, e *Engine, stack, want string) {
	t.Helper()
	mustRun(t, e)
	out, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Stacks[0].StackStatus; got != want {
		t.Fatalf("%s is %s (%s), not %s", stack, got, out.Stacks[0].StackStatusReason, want)
	}
}
