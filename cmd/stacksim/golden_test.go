package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/scenario"
)

// update rewrites the golden files instead of comparing with them:
// go test ./cmd/stacksim -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with the current output")

// golden compares got with testdata/NAME.golden. With -update it writes got
// there instead. A difference fails the test with a line diff.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run 'go test ./cmd/stacksim -update' to create it", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (- golden, + got); if the change is right, run 'go test ./cmd/stacksim -update':\n%s",
			path, scenario.Diff(string(want), string(got)))
	}
}

// runCLI runs one stacksim command line in process and returns what it wrote
// and its exit status.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}
