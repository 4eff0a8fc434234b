package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// lockRaceRounds is how many rounds TestBinaryStateLock's race runs; make
// test runs a few, a soak many:
// go test ./cmd/stacksim -run TestBinaryStateLock/race -lockrace.rounds 50
var lockRaceRounds = flag.Int("lockrace.rounds", 4, "rounds of the writer race of TestBinaryStateLock")

// exitOf runs cmd and returns its exit status and what it wrote.
func exitOf(t *testing.T, cmd *exec.Cmd) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errOut.String()
	}
	if err != nil {
		t.Error(err)
		return -1, "", ""
	}
	return 0, out.String(), errOut.String()
}

// The state file's lock across real processes, on one built binary.
func TestBinaryStateLock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs many processes")
	}
	bin := buildBinary(t)
	tmpl := filepath.Join(t.TempDir(), "topic.yaml")
	if err := os.WriteFile(tmpl, []byte("Resources:\n  T:\n    Type: AWS::SNS::Topic\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// The lost update of issue 11: writers that save nothing (delete-stack
	// of a stack that does not exist) race writers that create a stack, on
	// a state file whose directory does not exist yet. Every create must
	// survive.
	t.Run("race", func(t *testing.T) {
		for round := 1; round <= *lockRaceRounds; round++ {
			state := filepath.Join(t.TempDir(), "sub", "state.json")
			var wg sync.WaitGroup
			for i := 1; i <= 4; i++ {
				wg.Add(2)
				go func() {
					defer wg.Done()
					for range 3 {
						code, _, errOut := exitOf(t, exec.Command(bin, "--state", state, "delete-stack", "--stack-name", "nosuch"))
						if code != 0 && !strings.Contains(errOut, "in use") {
							t.Errorf("delete-stack: exit %d: %s", code, errOut)
						}
					}
				}()
				go func() {
					defer wg.Done()
					// Retried until it succeeds, as a caller does when it is
					// refused at once; bounded, so a broken lock fails
					// instead of hanging.
					for try := 0; ; try++ {
						code, _, errOut := exitOf(t, exec.Command(bin, "--state", state, "create-stack",
							"--stack-name", fmt.Sprintf("s%d", i), "--template-body", "file://"+tmpl, "--quiet"))
						if code == 0 {
							return
						}
						if !strings.Contains(errOut, "in use") || try == 1000 {
							t.Errorf("create-stack s%d: exit %d: %s", i, code, errOut)
							return
						}
					}
				}()
			}
			wg.Wait()
			code, out, errOut := exitOf(t, exec.Command(bin, "--state", state, "list-stacks", "--output", "text"))
			if code != 0 {
				t.Fatalf("list-stacks: exit %d: %s", code, errOut)
			}
			if n := strings.Count(out, "CREATE_COMPLETE"); n != 4 {
				t.Fatalf("round %d: %d stacks of 4 survived the race:\n%s", round, n, out)
			}
		}
	})
}
