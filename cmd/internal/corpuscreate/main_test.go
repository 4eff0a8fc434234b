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
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Created and deleted: a parameter without a default, an SSM type with
	// a public default, a secret and a parameter its references name.
	write("ok.yaml", `Parameters:
  Name: {Type: String, AllowedPattern: "[a-z]{3,}"}
  Ami: {Type: "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>", Default: /aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64}
  Subnets: {Type: "List<AWS::EC2::Subnet::Id>"}
Resources:
  P:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !Sub "${Name} ${Ami} {{resolve:ssm:/team/setting}} {{resolve:secretsmanager:team/db:SecretString:user}}"
  Q:
    Type: AWS::SSM::Parameter
    Properties: {Type: String, Value: !Select [4, !Ref Subnets]}
`)
	// A macro the run makes, its function a pass-through.
	write("macro/uses.yaml", "Transform: Tagger\nResources:\n  T:\n    Type: AWS::SNS::Topic\n")
	// Refused: an export no stack makes.
	write("refused.yaml", "Resources:\n  T:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: !ImportValue nobody-exports-this}\n")
	// Rolled back: a property the type does not have.
	write("rolled-back.yaml", "Resources:\n  T:\n    Type: AWS::SNS::Topic\n    Properties: {Nope: 1}\n")
	var out bytes.Buffer
	code := run(dir, "", "", 3, &out, nil)
	text := out.String()
	for _, want := range []string{
		"CREATE_COMPLETE    ok.yaml\n",
		"CREATE_COMPLETE    macro/uses.yaml\n",
		"REFUSED            refused.yaml: No export named nobody-exports-this found.",
		"ROLLBACK_COMPLETE  rolled-back.yaml: T (AWS::SNS::Topic): ",
		"The 2 that did not create, by reason:",
		"4 templates: 2 CREATE_COMPLETE (2 deleted to DELETE_COMPLETE), 2 did not create, 0 broke stacksim\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if code != 1 {
		t.Errorf("exit %d with -min 3 and 2 created, want 1", code)
	}
	out.Reset()
	if code := run(dir, "", "", 2, &out, nil); code != 0 {
		t.Errorf("exit %d with -min 2, want 0\n%s", code, out.String())
	}
}
