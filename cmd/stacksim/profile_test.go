package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// STACKSIM_CPUPROFILE writes a CPU profile (gzip-compressed protobuf, what
// go tool pprof reads) of what runs between start and stop; a path that
// cannot be written is said on stderr, and nothing else changes.
func TestCPUProfileEnv(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.prof")
	t.Setenv(profileEnv, path)
	var stderr bytes.Buffer
	stop := startProfile(&stderr)
	if code := run([]string{"validate-template", "--template-body", `{"Resources": {"T": {"Type": "AWS::SNS::Topic"}}}`}, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != exitOK {
		t.Fatalf("validate-template: exit %d: %s", code, stderr.String())
	}
	stop()
	if stderr.Len() != 0 {
		t.Fatalf("stderr: %s", stderr.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("the profile is not gzip-compressed (pprof's format): % x", b[:min(len(b), 8)])
	}

	t.Setenv(profileEnv, filepath.Join(dir, "missing", "cpu.prof"))
	stderr.Reset()
	startProfile(&stderr)()
	if got := stderr.String(); !strings.Contains(got, "STACKSIM_CPUPROFILE="+filepath.Join(dir, "missing", "cpu.prof")+": no profile:") {
		t.Fatalf("a profile that cannot be made: %q", got)
	}

	t.Setenv(profileEnv, "")
	stderr.Reset()
	startProfile(&stderr)()
	if stderr.Len() != 0 {
		t.Fatalf("no profile asked: %q", stderr.String())
	}
}
