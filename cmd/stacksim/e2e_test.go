package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The built binary, driven across processes on one state file.

// buildBinary builds stacksim into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "stacksim")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type proc struct {
	t   *testing.T
	bin string
	dir string // the working directory: the state is .stacksim/state.db in it
}

func (p *proc) run(want int, args ...string) (string, string) {
	p.t.Helper()
	cmd := exec.Command(p.bin, args...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		p.t.Fatal(err)
	}
	if code != want {
		p.t.Fatalf("stacksim %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out.String(), errOut.String())
	}
	return out.String(), errOut.String()
}

func abs(t testing.TB, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestBinaryStoryAcrossProcesses(t *testing.T) {
	p := &proc{t: t, bin: buildBinary(t), dir: t.TempDir()}
	dir := abs(t, fixtures+"/update-rollback-failed")
	v1, v2 := "file://"+dir+"/template-v1.yaml", "file://"+dir+"/template-v2.yaml"
	p.run(0, "create-stack", "--stack-name", "orders", "--template-body", v1)
	if _, err := os.Stat(filepath.Join(p.dir, ".stacksim", "state.db")); err != nil {
		t.Fatalf("the default state file was not made: %v", err)
	}
	// An update with a fault whose rollback fails, in a process of its own.
	_, errOut := p.run(1, "update-stack", "--stack-name", "orders", "--template-body", v2, "--faults", dir+"/faults.yaml")
	if !strings.Contains(errOut, "orders: UPDATE_ROLLBACK_FAILED — The following resource(s) failed to update: [Config].") {
		t.Errorf("summary missing:\n%s", errOut)
	}
	out, _ := p.run(0, "describe-stack-resource", "--stack-name", "orders", "--logical-resource-id", "Config", "--output", "text")
	if !strings.Contains(out, "UPDATE_FAILED") {
		t.Errorf("Config is not UPDATE_FAILED in a new process:\n%s", out)
	}
	p.run(0, "continue-update-rollback", "--stack-name", "orders")
	out, _ = p.run(0, "describe-stacks", "--stack-name", "orders", "--output", "text")
	if !strings.Contains(out, "UPDATE_ROLLBACK_COMPLETE") {
		t.Errorf("not UPDATE_ROLLBACK_COMPLETE:\n%s", out)
	}
	// Stopped by --until in one process, cancelled in another.
	p.run(0, "update-stack", "--stack-name", "orders", "--template-body", v2, "--until", "Queue:UPDATE_IN_PROGRESS")
	out, _ = p.run(0, "describe-stacks", "--stack-name", "orders", "--output", "text")
	if !strings.Contains(out, "UPDATE_IN_PROGRESS") {
		t.Errorf("not in motion after --until:\n%s", out)
	}
	p.run(0, "step", "--stack-name", "orders")
	p.run(0, "cancel-update-stack", "--stack-name", "orders")
	p.run(0, "delete-stack", "--stack-name", "orders")
	out, _ = p.run(0, "list-stacks", "--output", "text")
	if !strings.Contains(out, "DELETE_COMPLETE") || strings.Count(out, "STACKSUMMARIES") != 1 {
		t.Errorf("list-stacks after the delete:\n%s", out)
	}
}

// A process killed while it saves leaves the previous state or the new
// one, never a part of it: a save is one transaction of the state database
// (bbolt writes the changed pages, flushes them, then the page that makes
// them the state). The state is made large, so that a save writes tens of
// MB; the test kills the process (SIGKILL) as soon as the file changes —
// while the save writes its pages — and checks what a later process reads.
func TestBinaryKilledWhileSaving(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a large state")
	}
	p := &proc{t: t, bin: buildBinary(t), dir: t.TempDir()}
	write := func(name, text string) string {
		path := filepath.Join(p.dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return "file://" + path
	}
	// 300 resources, each holding 16 KiB: a state of tens of MB from a
	// small template.
	var b strings.Builder
	b.WriteString("Parameters:\n  Blob:\n    Type: String\nResources:\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "  R%d:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: !Sub \"${Blob}${Blob}${Blob}${Blob}\"}\n", i)
	}
	tmpl := write("big.yaml", b.String())
	blob := func(c string) string { return "ParameterKey=Blob,ParameterValue=" + strings.Repeat(c, 1000) }
	p.run(0, "create-stack", "--stack-name", "big", "--template-body", tmpl, "--parameters", blob("a"), "--quiet")
	state := filepath.Join(p.dir, ".stacksim", "state.db")
	before, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("state file: %d bytes", len(before))
	stat := func() (int64, time.Time) {
		fi, err := os.Stat(state)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size(), fi.ModTime()
	}
	size0, mtime0 := stat()

	killed := 0
	for try := 0; try < 10 && killed < 3; try++ {
		cmd := exec.Command(p.bin, "update-stack", "--stack-name", "big", "--template-body", tmpl, "--parameters", blob("b"), "--quiet")
		cmd.Dir = p.dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		finished := false
	watch:
		for {
			select {
			case <-done:
				finished = true
				break watch
			default:
			}
			if size, mtime := stat(); size != size0 || !mtime.Equal(mtime0) {
				_ = cmd.Process.Signal(syscall.SIGKILL)
				<-done
				break watch
			}
		}
		out, _ := p.run(0, "describe-stacks", "--stack-name", "big", "--output", "text")
		switch {
		case strings.Contains(out, "UPDATE_COMPLETE"):
			// The save went through before the kill: the new state.
		case strings.Contains(out, "CREATE_COMPLETE") && !finished:
			killed++ // killed during the save: the old state.
		default:
			t.Fatalf("after a kill, the state is neither the old one nor the new one:\n%s", out)
		}
		// Start again from the old state.
		if err := os.WriteFile(state, before, 0o600); err != nil {
			t.Fatal(err)
		}
		size0, mtime0 = stat()
	}
	if killed == 0 {
		t.Fatal("never caught the process while it was saving")
	}
	t.Logf("killed %d save(s) part way; each left the old state", killed)
	// A later process reads the old state, takes the lock the dead one
	// held, and saves again.
	p.run(0, "update-stack", "--stack-name", "big", "--template-body", tmpl, "--parameters", blob("c"), "--quiet")
	out, _ := p.run(0, "describe-stacks", "--stack-name", "big", "--output", "text")
	if !strings.Contains(out, "UPDATE_COMPLETE") {
		t.Errorf("the update after the kills did not complete:\n%s", out)
	}
}
