package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.yaml", "Parameters:\n  Name: {Type: String, AllowedPattern: \"[a-z]{3,}\"}\nResources:\n  T:\n    Type: AWS::SNS::Topic\n    Properties: {TopicName: !Ref Name}\n")
	write("sam.yaml", "Transform: AWS::Serverless-2016-10-31\nResources:\n  F: {Type: AWS::Serverless::Function}\n")
	write("bad.json", `{"Resources": {}}`)
	var out bytes.Buffer
	if code := run(dir, false, &out); code != 1 {
		t.Errorf("exit %d, want 1 for an unexpected failure", code)
	}
	text := out.String()
	for _, want := range []string{"FAIL bad.json", "SKIP sam.yaml: Template format error: Transform AWS::Serverless-2016-10-31 has not run",
		"1 unexpected result(s)", "1 passed, 1 failed, 1 skipped\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if !strings.HasSuffix(text, "1 passed, 1 failed, 1 skipped\n") {
		t.Errorf("the last line is not the count:\n%s", text)
	}
}
