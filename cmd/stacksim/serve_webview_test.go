package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
)

// The web view of stacksim serve in a real browser: Debian's Chromium,
// driven by playwright-core (testdata/clients/browser, installed by
// .ci/run with npm ci). Skipped, saying what is missing, where Chromium,
// Node.js or the package is not on the machine.

const chromiumPath = "/usr/bin/chromium"

// browserDir is testdata/clients/browser, with playwright-core
// installed, or the test is skipped.
func browserDir(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skip("skipped: Chromium is not on this machine (" + chromiumPath + "); install Debian's chromium (apt-get install chromium; .ci/run does) to run the browser test of the web view")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("skipped: node is not on this machine; install Node.js 20+ to run the browser test of the web view")
	}
	dir := filepath.Join(clientsDir(t), "browser")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core")); err != nil {
		t.Skip("skipped: playwright-core is not installed: run 'npm ci' in testdata/clients/browser (.ci/run does)")
	}
	return dir
}

// artefactsDir is where the browser tests leave their screenshots:
// $STACKSIM_ARTEFACTS, or testdata/clients/browser/artefacts (ignored by
// git), emptied first.
func artefactsDir(t *testing.T, browser, name string) string {
	t.Helper()
	dir := os.Getenv("STACKSIM_ARTEFACTS")
	if dir == "" {
		dir = filepath.Join(browser, "artefacts")
	}
	dir = filepath.Join(dir, name)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runBrowser runs one script of testdata/clients/browser against a server
// and returns what it printed.
func runBrowser(t *testing.T, browser, script string, s *served, env ...string) string {
	t.Helper()
	cmd := exec.Command("node", filepath.Join(browser, script))
	cmd.Dir = browser
	cmd.Env = append(os.Environ(), append([]string{"STACKSIM_ENDPOINT=" + s.url, "CHROMIUM=" + chromiumPath}, env...)...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), script+": ok") {
		t.Fatalf("%s: %v\n%s\nserver:\n%s", script, err, out, s.stderr)
	}
	return string(out)
}

func TestServeWebViewInBrowser(t *testing.T) {
	browser := browserDir(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	story := abs(t, filepath.Join(fixtures, "update-rollback-failed"))
	// With the faults: the update fails, and so does its rollback.
	s := startServe(t, bin, dir, "--faults", filepath.Join(story, "faults.yaml"))
	c := sdkClient(s.url)
	ctx := context.Background()
	if _, err := c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("orders"), TemplateBody: aws.String(readFileString(t, filepath.Join(story, "template-v1.yaml")))}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("orders"), TemplateBody: aws.String(readFileString(t, filepath.Join(story, "template-v2.yaml")))}); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := s.wait(); code != 0 {
		t.Fatalf("serve exited %d:\n%s", code, s.stderr)
	}
	// The permission is back: a server without the faults, and the page.
	s = startServe(t, bin, dir)
	artefacts := artefactsDir(t, browser, "story")
	out := runBrowser(t, browser, "webview_story.mjs", s, "STACKSIM_ARTEFACTS="+artefacts)
	t.Logf("%s(screenshots in %s)", out, artefacts)
	st, err := sdkClient(s.url).DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("orders")})
	if err != nil || st.Stacks[0].StackStatus != "UPDATE_ROLLBACK_COMPLETE" {
		t.Fatalf("after the page stepped the rollback: %v %+v", err, st)
	}
}

func readFileString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The web view at 10,000 resources (make bench-webview, which sets
// STACKSIM_WEBVIEW_SCALE=1): the figures of webview_scale.mjs.
func TestServeWebViewAtScale(t *testing.T) {
	if os.Getenv("STACKSIM_WEBVIEW_SCALE") == "" {
		t.Skip("skipped: the 10,000-resource measure of the web view runs with make bench-webview (STACKSIM_WEBVIEW_SCALE=1)")
	}
	browser := browserDir(t)
	s := startServe(t, buildBinary(t), t.TempDir())
	artefacts := artefactsDir(t, browser, "scale")
	out := runBrowser(t, browser, "webview_scale.mjs", s, "STACKSIM_ARTEFACTS="+artefacts, "STACKSIM_PID="+strconv.Itoa(s.cmd.Process.Pid))
	t.Logf("%s(screenshots in %s)", out, artefacts)
}

// A page reading the event stream does not keep serve from stopping: the
// stream ends when the server shuts down.
func TestServeStopsWithPagesOpen(t *testing.T) {
	s := startServe(t, buildBinary(t), t.TempDir())
	resp, err := http.Get(s.url + "/view/api/live")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "event: hello\n" {
		t.Fatalf("the stream began %q, %v", line, err)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := s.wait(); code != 0 || !strings.Contains(s.stderr.String(), "stacksim: stopped") {
		t.Fatalf("serve exited %d:\n%s", code, s.stderr)
	}
}
