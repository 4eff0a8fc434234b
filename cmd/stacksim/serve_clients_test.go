package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Other real clients against stacksim serve: boto3 (a handler author's
// integration test), the JavaScript SDK v3 and CDK (test/clients/node).

// clientsDir is test/clients in the repository.
func clientsDir(t *testing.T) string {
	return abs(t, filepath.Join("..", "..", "test", "clients"))
}

func TestServeBoto3(t *testing.T) {
	if err := exec.Command("python3", "-c", "import boto3").Run(); err != nil {
		t.Skip("skipped: python3 with boto3 is not on this machine; install boto3 (pip install boto3) to run the boto3 test of stacksim serve")
	}
	dir := t.TempDir()
	greeter := filepath.Join(clientsDir(t), "boto3", "greeter.py")
	s := startServe(t, buildBinary(t), dir,
		"--service-token", "arn:aws:lambda:us-east-1:123456789012:function:greeter=exec:python3 "+greeter)
	cmd := exec.Command("python3", filepath.Join(clientsDir(t), "boto3", "handler_test.py"))
	cmd.Dir = dir
	cmd.Env = append(clientEnv(dir), "STACKSIM_ENDPOINT="+s.url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("handler_test.py: %v\n%s\nserver:\n%s", err, out, s.stderr)
	}
	if !strings.Contains(string(out), "Ran 2 tests") {
		t.Fatalf("handler_test.py:\n%s", out)
	}
}
