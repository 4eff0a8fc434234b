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
	t     *testing.T
	bin   string
	dir   string // the working directory: the state is .stacksim/state.json in it
	stdin string
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

func abs(t *testing.T, p string) string {
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
	if _, err := os.Stat(filepath.Join(p.dir, ".stacksim", "state.json")); err != nil {
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

// A process killed while it writes the state file leaves the previous state
// intact: the file is written to a temporary file and renamed over the old
// one. The state is made large, so that its save takes a while; the test
// kills the process (SIGKILL) as soon as the temporary file appears.
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
	// 300 resources of a permissive type (--permissive-types), each holding 16 KiB: a state of
	// several tens of MB from a small template.
	var b strings.Builder
	b.WriteString("Parameters:\n  Blob:\n    Type: String\nResources:\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "  R%d:\n    Type: Acme::Test::Blob\n    Properties: {Data: !Sub \"${Blob}${Blob}${Blob}${Blob}\"}\n", i)
	}
	tmpl := write("big.yaml", b.String())
	blob := func(c string) string { return "ParameterKey=Blob,ParameterValue=" + strings.Repeat(c, 4000) }
	p.run(0, "create-stack", "--stack-name", "big", "--template-body", tmpl, "--parameters", blob("a"), "--quiet", "--permissive-types")
	state := filepath.Join(p.dir, ".stacksim", "state.json")
	before, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("state file: %d bytes", len(before))

	killed := false
	for try := 0; try < 5 && !killed; try++ {
		cmd := exec.Command(p.bin, "update-stack", "--stack-name", "big", "--template-body", tmpl, "--parameters", blob("b"), "--quiet", "--permissive-types")
		cmd.Dir = p.dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		deadline := time.Now().Add(2 * time.Minute)
	watch:
		for time.Now().Before(deadline) {
			select {
			case <-done:
				break watch // the save finished before it was seen: try again
			default:
			}
			if temps, _ := filepath.Glob(filepath.Join(p.dir, ".stacksim", ".state.json.tmp-*")); len(temps) > 0 {
				_ = cmd.Process.Signal(syscall.SIGKILL)
				<-done
				killed = true
				break watch
			}
		}
		if !killed {
			// The update went through: put the state back as it was.
			if err := os.WriteFile(state, before, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !killed {
		t.Fatal("never caught the process while it was writing the state file")
	}
	after, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatalf("the state file changed although its writer was killed (%d bytes before, %d after)", len(before), len(after))
	}
	temps, _ := filepath.Glob(filepath.Join(p.dir, ".stacksim", ".state.json.tmp-*"))
	if len(temps) == 0 {
		t.Fatal("no temporary file left: the kill did not happen during the save")
	}
	// The next process reads the previous state, takes the lock the dead
	// one held, and removes the stale temporary file.
	out, _ := p.run(0, "describe-stacks", "--stack-name", "big", "--output", "text")
	if !strings.Contains(out, "CREATE_COMPLETE") {
		t.Errorf("after the kill, the stack is not as it was:\n%s", out)
	}
	p.run(0, "update-stack", "--stack-name", "big", "--template-body", tmpl, "--parameters", blob("c"), "--quiet", "--permissive-types")
	if temps, _ := filepath.Glob(filepath.Join(p.dir, ".stacksim", ".state.json.tmp-*")); len(temps) != 0 {
		t.Errorf("stale temporary files left: %v", temps)
	}
	out, _ = p.run(0, "describe-stacks", "--stack-name", "big", "--output", "text")
	if !strings.Contains(out, "UPDATE_COMPLETE") {
		t.Errorf("the update after the kill did not complete:\n%s", out)
	}
}
