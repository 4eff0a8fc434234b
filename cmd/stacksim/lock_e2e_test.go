//go:build unix

package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stacksim/stacksim/engine"
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
		lost := 0
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
					// Half the creators are refused at once when the state
					// is held (--lock-timeout 0) and retry until they
					// succeed, as callers did before writers waited;
					// bounded, so a broken lock fails instead of hanging.
					// The others wait (the default).
					args := []string{"--state", state, "create-stack", "--stack-name", fmt.Sprintf("s%d", i), "--template-body", "file://" + tmpl, "--quiet"}
					if i%2 == 0 {
						args = append(args, "--lock-timeout", "0")
					}
					for try := 0; ; try++ {
						code, _, errOut := exitOf(t, exec.Command(bin, args...))
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
			// A reader, which takes no lock, sees a whole state or none.
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 3 {
					if code, _, errOut := exitOf(t, exec.Command(bin, "--state", state, "list-stacks")); code != 0 {
						t.Errorf("list-stacks during the race: exit %d: %s", code, errOut)
					}
				}
			}()
			wg.Wait()
			code, out, errOut := exitOf(t, exec.Command(bin, "--state", state, "list-stacks", "--output", "text"))
			if code != 0 {
				t.Fatalf("list-stacks: exit %d: %s", code, errOut)
			}
			if n := strings.Count(out, "CREATE_COMPLETE"); n != 4 {
				t.Errorf("round %d: %d stacks of 4 survived the race:\n%s", round, n, out)
				lost++
			}
		}
		if lost > 0 {
			t.Errorf("%d of %d rounds lost stacks", lost, *lockRaceRounds)
		}
	})

	// Two processes: the first holds the lock while its custom resource's
	// handler (cat of a FIFO) waits for the test; the second, started
	// then, says it waits, and succeeds once the first is done.
	t.Run("waits", func(t *testing.T) {
		dir := t.TempDir()
		state := filepath.Join(dir, "state.json")
		fifo := filepath.Join(dir, "answer")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		hold := filepath.Join(dir, "hold.yaml")
		if err := os.WriteFile(hold, []byte("Resources:\n  Hold:\n    Type: Custom::Hold\n    Properties:\n      ServiceToken: arn:aws:lambda:us-east-1:123456789012:function:hold\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		first := exec.Command(bin, "--state", state, "--service-token", "arn:aws:lambda:us-east-1:123456789012:function:hold=exec:cat "+fifo,
			"create-stack", "--stack-name", "first", "--template-body", "file://"+hold, "--quiet")
		var firstErr bytes.Buffer
		first.Stderr = &firstErr
		if err := first.Start(); err != nil {
			t.Fatal(err)
		}
		firstDone := make(chan error, 1)
		go func() { firstDone <- first.Wait() }()
		// Opening the FIFO returns when the handler opened it: the first
		// process is then in its handler, holding the lock.
		opened := make(chan *os.File, 1)
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
			}
			opened <- f
		}()
		var answer *os.File
		select {
		case answer = <-opened:
		case err := <-firstDone:
			t.Fatalf("the first process ended before its handler ran: %v\n%s", err, firstErr.String())
		}

		second := exec.Command(bin, "--state", state, "--lock-timeout", "10m", "create-stack", "--stack-name", "second", "--template-body", "file://"+tmpl, "--quiet")
		stderr, err := second.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := second.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(stderr).ReadString('\n')
		want := fmt.Sprintf("stacksim: state file %s is in use by stacksim create-stack (pid %d, since ", state, first.Process.Pid)
		if err != nil || !strings.HasPrefix(line, want) || !strings.HasSuffix(line, "; waiting up to 10m0s for it (--lock-timeout)\n") {
			t.Fatalf("the second process's first line: %q (%v); want it to start %q", line, err, want)
		}
		// Let the first finish; the second gets the lock.
		if _, err := answer.WriteString(`{"Status":"SUCCESS","PhysicalResourceId":"held"}` + "\n"); err != nil {
			t.Fatal(err)
		}
		_ = answer.Close()
		if err := <-firstDone; err != nil {
			t.Fatalf("first: %v\n%s", err, firstErr.String())
		}
		rest, _ := io.ReadAll(stderr)
		if err := second.Wait(); err != nil {
			t.Fatalf("second: %v\n%s", err, rest)
		}
		_, out, _ := exitOf(t, exec.Command(bin, "--state", state, "list-stacks", "--output", "text"))
		if strings.Count(out, "CREATE_COMPLETE") != 2 {
			t.Fatalf("both stacks should exist:\n%s", out)
		}
	})

	// A writer that waited --lock-timeout gives up, exit 2, naming the
	// holder (here one that describes itself as serve does), and changes
	// nothing.
	t.Run("timeout", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state.json")
		holder, err := engine.Open(state, engine.Options{StateLock: engine.StateLockOptions{Command: "stacksim serve", Detail: "on 127.0.0.1:4599"}})
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Close()
		code, out, errOut := exitOf(t, exec.Command(bin, "--state", state, "--lock-timeout", "10ms", "create-stack", "--stack-name", "x", "--template-body", "file://"+tmpl))
		want := fmt.Sprintf("stacksim: state file %s is in use by stacksim serve (pid %d, on 127.0.0.1:4599, since ", state, os.Getpid())
		tail := fmt.Sprintf("): waited 10ms for its lock %s.lock; run the command again when it is done, wait longer with --lock-timeout (now 10ms), or use another --state file\n", state)
		lines := strings.SplitAfter(errOut, "\n")
		if code != exitBadInput || out != "" || len(lines) != 3 || !strings.HasSuffix(lines[0], "waiting up to 10ms for it (--lock-timeout)\n") ||
			!strings.HasPrefix(lines[1], want) || !strings.HasSuffix(lines[1], tail) {
			t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and the last line\n%s...%s", code, out, errOut, want, tail)
		}
		if _, err := os.Stat(state); !os.IsNotExist(err) {
			t.Errorf("the refused writer wrote the state file")
		}
		// --lock-timeout 0: refused at once, without the note that it waits.
		code, _, errOut = exitOf(t, exec.Command(bin, "--state", state, "--lock-timeout", "0", "delete-stack", "--stack-name", "x"))
		if code != exitBadInput || strings.Contains(errOut, "waiting") || !strings.Contains(errOut, "it holds its lock "+state+".lock;") {
			t.Fatalf("--lock-timeout 0: exit %d\n%s", code, errOut)
		}
		code, _, errOut = exitOf(t, exec.Command(bin, "--state", state, "--lock-timeout", "-1s", "delete-stack", "--stack-name", "x"))
		if code != exitBadInput || !strings.Contains(errOut, "--lock-timeout -1s: want a duration of 0 or more") {
			t.Fatalf("--lock-timeout -1s: exit %d\n%s", code, errOut)
		}
	})
}
