package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/sdkhttp"
)

// The serve command, as a process: started on a loopback port, stopped by
// a signal or killed.

// served is a running `stacksim serve`.
type served struct {
	t      *testing.T
	cmd    *exec.Cmd
	url    string
	stderr *strings.Builder
	done   chan error
}

// startServe starts `stacksim serve --addr 127.0.0.1:0 ARGS...` in dir and
// waits (bounded) for the line that names its address.
func startServe(t *testing.T, bin, dir string, args ...string) *served {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{t: t, cmd: cmd, stderr: &strings.Builder{}, done: make(chan error, 1)}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			s.stderr.WriteString(sc.Text() + "\n")
			select {
			case lines <- sc.Text():
			default:
			}
		}
		_, _ = io.Copy(io.Discard, pipe)
		s.done <- cmd.Wait()
		close(lines)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	guard := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stacksim serve ended:\n%s", s.stderr)
			}
			if _, rest, found := strings.Cut(l, "serving CloudFormation on "); found {
				s.url, _, _ = strings.Cut(rest, " ")
				return s
			}
		case <-guard:
			t.Fatalf("stacksim serve did not start:\n%s", s.stderr)
		}
	}
}

// wait waits (bounded) for the process to end and returns its exit code.
func (s *served) wait() int {
	s.t.Helper()
	select {
	case err := <-s.done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			s.t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		s.t.Fatalf("stacksim serve did not stop:\n%s", s.stderr)
	}
	return -1
}

func sdkClient(url string) *cfn.Client {
	return cfn.New(cfn.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", ""), Retryer: aws.NopRetryer{},
		HTTPClient: sdkhttp.Client(), // without smithy-go's request-body race (see sdkhttp)
	})
}

const serveTemplate = "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: v1\n"

// kill -9 right after acknowledged calls loses none of them: every call
// that changes the state is saved before it is answered.
func TestServeKill9KeepsAcknowledgedCalls(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	s := startServe(t, bin, dir)
	c := sdkClient(s.url)
	ctx := context.Background()
	var ids []string
	for _, name := range []string{"one", "two", "three"} {
		out, err := c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String(name), TemplateBody: aws.String(serveTemplate)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, aws.ToString(out.StackId))
	}
	if _, err := c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("two"), TemplateBody: aws.String(strings.Replace(serveTemplate, "v1", "v2", 1))}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteStack(ctx, &cfn.DeleteStackInput{StackName: aws.String("three")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateTerminationProtection(ctx, &cfn.UpdateTerminationProtectionInput{StackName: aws.String("one"), EnableTerminationProtection: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	// The last answer is in: kill at once, no chance to flush anything.
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s.wait()
	e, err := engine.Open(filepath.Join(dir, defaultStatePath), engine.Options{})
	if err != nil {
		t.Fatalf("reopening the state after kill -9: %v", err)
	}
	defer e.Close()
	want := map[string]string{ids[0]: "CREATE_COMPLETE", ids[1]: "UPDATE_COMPLETE", ids[2]: "DELETE_COMPLETE"}
	for id, status := range want {
		out, err := e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: id})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Stacks[0].StackStatus; got != status {
			t.Errorf("%s: %s after kill -9, want %s", out.Stacks[0].StackName, got, status)
		}
	}
	out, _ := e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: "one"})
	if p := out.Stacks[0].EnableTerminationProtection; p == nil || !*p {
		t.Error("termination protection lost after kill -9")
	}
}

// SIGTERM stops the server and saves; another writer meanwhile is told
// the state is in use by the server, named.
func TestServeSignalAndLock(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	s := startServe(t, bin, dir, "--pace", "x10")
	c := sdkClient(s.url)
	if _, err := c.CreateStack(context.Background(), &cfn.CreateStackInput{StackName: aws.String("app"), TemplateBody: aws.String(serveTemplate)}); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, bin: bin, dir: dir}
	_, stderr := p.run(exitBadInput, "delete-stack", "--stack-name", "app", "--lock-timeout", "0")
	if !strings.Contains(stderr, "is in use by stacksim serve on 127.0.0.1:") {
		t.Fatalf("a second writer: %s", stderr)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d after SIGTERM:\n%s", code, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), "stopped; state saved to "+defaultStatePath) {
		t.Fatalf("stderr:\n%s", s.stderr)
	}
	out, _ := p.run(exitOK, "describe-stacks", "--stack-name", "app")
	if !strings.Contains(out, `"StackName": "app"`) {
		t.Fatalf("describe-stacks after the server stopped: %s", out)
	}
}

// A server that no call changed makes no state file, and says so when it
// stops (it said "state saved to" a file that was not there).
func TestServeStopUnchanged(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	s := startServe(t, bin, dir)
	if _, err := sdkClient(s.url).DescribeStacks(context.Background(), &cfn.DescribeStacksInput{}); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d after SIGTERM:\n%s", code, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), "stopped; nothing changed, so no state file was made ("+defaultStatePath+")") {
		t.Errorf("stderr:\n%s", s.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, defaultStatePath)); !os.IsNotExist(err) {
		t.Errorf("a server no call changed left a state file (%v)", err)
	}
}

// serve --in-memory answers as serve does and writes nothing: no state
// file, no directory for one; what it held is gone when it stops, and
// another command meanwhile is not told of any server.
func TestServeInMemory(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	s := startServe(t, bin, dir, "--in-memory")
	c := sdkClient(s.url)
	if _, err := c.CreateStack(context.Background(), &cfn.CreateStackInput{StackName: aws.String("app"), TemplateBody: aws.String(serveTemplate)}); err != nil {
		t.Fatal(err)
	}
	out, err := c.DescribeStacks(context.Background(), &cfn.DescribeStacksInput{StackName: aws.String("app")})
	if err != nil || len(out.Stacks) != 1 || out.Stacks[0].StackStatus != "CREATE_COMPLETE" {
		t.Fatalf("describe-stacks: %v %v", out, err)
	}
	p := &proc{t: t, bin: bin, dir: dir}
	if out, _ := p.run(exitOK, "list-stacks"); strings.Contains(out, `"app"`) {
		t.Fatalf("the CLI sees the in-memory account: %s", out)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d after SIGTERM:\n%s", code, s.stderr)
	}
	// stderr is read once the process ended (its reader wrote it until then)
	for _, want := range []string{"(in memory: nothing is saved, pace instant)", "stopped; the account was in memory (--in-memory) and is gone"} {
		if !strings.Contains(s.stderr.String(), want) {
			t.Fatalf("stderr lacks %q:\n%s", want, s.stderr)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Fatalf("serve --in-memory left %v in its directory", entries)
	}
}

func TestServeFlags(t *testing.T) {
	for _, args := range [][]string{{"serve", "--pace", "fast"}, {"serve", "--addr", "nonsense"}, {"serve", "--faults", "nope.yaml"},
		{"serve", "--in-memory", "--state", "x.db"}} {
		_, stderr, code := runCLI(t, args...)
		if code != exitBadInput || !strings.HasPrefix(stderr, "stacksim: ") {
			t.Errorf("stacksim %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
	}
	for addr, want := range map[string]bool{"127.0.0.1:1": true, "[::1]:1": true, "0.0.0.0:1": false, "192.0.2.1:1": false} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := isLoopback(a); got != want {
			t.Errorf("isLoopback(%s) = %v", addr, got)
		}
	}
}
