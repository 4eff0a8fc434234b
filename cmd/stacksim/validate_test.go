package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/template"
)

func TestValidateTemplateGolden(t *testing.T) {
	for _, fixture := range []string{"queue-and-role.yaml", "named-iam.json"} {
		for _, format := range []string{"json", "table", "text"} {
			t.Run(fixture+"/"+format, func(t *testing.T) {
				out, errOut, code := runCLI(t, "validate-template", "--template-body", "file://testdata/validate/"+fixture, "--output", format)
				if code != exitOK {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				golden(t, "validate-template/"+fixture+"."+format, []byte(out))
			})
		}
	}
}

func TestValidateTemplateLiteralBody(t *testing.T) {
	body := "Resources:\n  T:\n    Type: AWS::SNS::Topic\n"
	out, errOut, code := runCLI(t, "validate-template", "--template-body", body)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "{\n    \"Parameters\": []\n}\n" // no Capabilities when none is needed, as AWS answers
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestValidateTemplateBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // golden file, or a substring of stderr
	}{
		{"faults", []string{"validate-template", "--template-body", "file://testdata/validate/broken.yaml"}, "golden"},
		{"missing file", []string{"validate-template", "--template-body", "file://testdata/validate/nope.yaml"},
			"Error parsing parameter '--template-body': Unable to load paramfile file://testdata/validate/nope.yaml"},
		{"no body", []string{"validate-template"}, "Either Template URL or Template Body must be specified."},
		{"bad output", []string{"validate-template", "--template-body", "file://testdata/validate/queue-and-role.yaml", "--output", "xml"},
			"argument --output: Invalid choice"},
		{"json syntax", []string{"validate-template", "--template-body", "{\"Resources\": {,}}"},
			"template-body:1:16: Template format error: JSON not well-formed. (line 1, column 16)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != exitBadInput {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitBadInput, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if tt.want == "golden" {
				golden(t, "validate-template/"+strings.ReplaceAll(tt.name, " ", "-")+".stderr", []byte(errOut))
				return
			}
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.want)
			}
		})
	}
}

func TestValidateTemplateBodyTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/big.yaml"
	body := "Resources:\n  T:\n    Type: AWS::SNS::Topic\n" + "# " + strings.Repeat("x", 52000) + "\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "validate-template", "--template-body", "file://"+path)
	if code != exitBadInput || !strings.Contains(errOut, "Member must have length less than or equal to 51200") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestValidateTemplateLocalMatchesEngine: validate-template answers a
// template without transforms itself, without an engine; its answer must
// be the engine's, which serve gives its clients, byte for byte.
func TestValidateTemplateLocalMatchesEngine(t *testing.T) {
	bodies := map[string]string{
		"no parameters": "Resources:\n  T:\n    Type: AWS::SNS::Topic\n",
		"noecho default": "Description: secrets\nParameters:\n  Secret:\n    Type: String\n    NoEcho: true\n    Default: hunter2\n    Description: a secret\n" +
			"  Env:\n    Type: String\nResources:\n  T:\n    Type: AWS::SNS::Topic\n",
		"capabilities": "Resources:\n  R:\n    Type: AWS::IAM::Role\n    Properties:\n      AssumeRolePolicyDocument: {}\n      RoleName: x\n",
	}
	e, err := engine.New(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			tmpl, err := template.Parse("t.yaml", []byte(body))
			if err != nil {
				t.Fatal(err)
			}
			out, err := e.ValidateTemplate(context.Background(), engine.ValidateTemplateInput{TemplateBody: body})
			if err != nil {
				t.Fatal(err)
			}
			var local, viaEngine strings.Builder
			if err := render(&local, outputJSON, "ValidateTemplate", validateResponse(tmpl)); err != nil {
				t.Fatal(err)
			}
			if err := render(&viaEngine, outputJSON, "ValidateTemplate", engineValidated(out)); err != nil {
				t.Fatal(err)
			}
			if local.String() != viaEngine.String() {
				t.Errorf("validate-template answers\n%s\nthe engine (and serve) answer\n%s", local.String(), viaEngine.String())
			}
		})
	}
}
