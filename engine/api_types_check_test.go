package engine

import (
	"errors"
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
