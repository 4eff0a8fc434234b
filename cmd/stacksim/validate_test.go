package main

import (
	"os"
	"strings"
	"testing"
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
	want := "{\n    \"Parameters\": [],\n    \"Capabilities\": []\n}\n"
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
