//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// maxInputRSS is the memory a command refusing a too-large input may
// use: the peak resident set of the process, measured by the kernel.
const maxInputRSS = 100 << 20

// Every flag that reads a file refuses /dev/zero and a 50 MB file with a
// message that names the limit, without reading it whole: the built
// binary is run on each, and its peak memory measured (go test -v shows
// each one's time and peak RSS).
func TestBinaryInputLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	m := newMeasurer(t, buildBinary(t))
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	writeBig(t, big, 50<<20)
	tmpl := writeFile(t, dir, "topic.yaml", "Resources:\n  T:\n    Type: AWS::SNS::Topic\n")
	thing := writeFile(t, dir, "thing.yaml", "Resources:\n  T:\n    Type: Acme::Test::Thing\n")
	state := filepath.Join(dir, "state.json")
	if _, errOut, code := runCLI(t, "--state", state, "create-stack", "--stack-name", "app", "--template-body", "file://"+tmpl, "--quiet"); code != 0 {
		t.Fatal(errOut)
	}
	scenarioFile := func(name, text string) string { return writeFile(t, dir, name, text) }
	okScenario := scenarioFile("ok.yaml", "name: ok\nsteps:\n  - CreateStack: {StackName: a, TemplateBody: file://topic.yaml}\n")
	// A schema directory whose one schema is the input (a symbolic link to
	// it, so that /dev/zero can be one).
	schemaDir := func(input string) string {
		d := filepath.Join(t.TempDir(), "schemas")
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(input, filepath.Join(d, "acme-test-thing.json")); err != nil {
			t.Fatal(err)
		}
		return d
	}

	const (
		templateMsg = ":1:1: 1 validation error detected: Value at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to 51200 (the body is "
		paramMsg    = " the 1,048,576 bytes a file:// value may hold: CloudFormation takes at most 200 parameters of 4,096 bytes and 50 tags; check the path"
		faultMsg    = " the 1,048,576 bytes a fault file may hold: a fault file lists faults, a few lines each; check the path"
	)
	ops := []string{"--state", state}
	tests := []struct {
		flag string
		args func(path string) []string
		// want is in the message, with {path} for the input's path,
		// {size} for what is said of its size and {tsize} for what AWS's
		// template error says of it.
		want string
		// run prints the event log before it compares it with --golden.
		stdoutOK bool
	}{
		{"create-stack --template-body", func(p string) []string {
			return append(ops, "create-stack", "--stack-name", "x", "--template-body", "file://"+p)
		}, "{path}" + templateMsg + "{tsize}; a larger template, up to 1000000 bytes, is given by URL: --template-url file://PATH, or --template-url https://BUCKET.s3.amazonaws.com/KEY with --s3-dir DIR holding DIR/BUCKET/KEY)", false},
		{"validate-template --template-body", func(p string) []string {
			return []string{"validate-template", "--template-body", "file://" + p}
		}, "{path}" + templateMsg + "{tsize}; a larger template, up to 1000000 bytes, is given by URL: --template-url file://PATH", false},
		{"--parameters", func(p string) []string {
			return append(ops, "update-stack", "--stack-name", "app", "--use-previous-template", "--parameters", "file://"+p)
		}, "Error parsing parameter '--parameters': Unable to load paramfile file://{path}: {path} {size}" + paramMsg, false},
		{"--tags", func(p string) []string {
			return append(ops, "create-stack", "--stack-name", "x", "--template-body", "file://"+tmpl, "--tags", "file://"+p)
		}, "Error parsing parameter '--tags': Unable to load paramfile file://{path}: {path} {size}" + paramMsg, false},
		{"--capabilities", func(p string) []string {
			return append(ops, "create-change-set", "--stack-name", "app", "--change-set-name", "c", "--use-previous-template", "--capabilities", "file://"+p)
		}, "Error parsing parameter '--capabilities': Unable to load paramfile file://{path}: {path} {size}" + paramMsg, false},
		{"--notification-arns", func(p string) []string {
			return append(ops, "create-stack", "--stack-name", "x", "--template-body", "file://"+tmpl, "--notification-arns", "file://"+p)
		}, "Error parsing parameter '--notification-arns': Unable to load paramfile file://{path}: {path} {size}" + paramMsg, false},
		{"--retain-resources", func(p string) []string {
			return append(ops, "delete-stack", "--stack-name", "app", "--retain-resources", "file://"+p)
		}, "Error parsing parameter '--retain-resources': Unable to load paramfile file://{path}: {path} {size}" + paramMsg, false},
		{"--resources-to-skip", func(p string) []string {
			return append(ops, "continue-update-rollback", "--stack-name", "app", "--resources-to-skip", "file://"+p)
		}, "Error parsing parameter '--resources-to-skip': Unable to load paramfile file://{path}: {path} {size}" + paramMsg, false},
		{"--stack-status-filter", func(p string) []string {
			return append(ops, "list-stacks", "--stack-status-filter", "file://"+p)
		}, "Error parsing parameter '--stack-status-filter': Unable to load paramfile file://{path}: {path} {size}" + paramMsg, false},
		{"--faults", func(p string) []string {
			return append(ops, "update-stack", "--stack-name", "app", "--use-previous-template", "--faults", p)
		}, "read fault file: {path} {size}" + faultMsg, false},
		{"run SCENARIO", func(p string) []string {
			return []string{"run", p}
		}, "{path} {size} the 4,194,304 bytes a scenario file may hold: keep large templates in files of their own (TemplateBody: file://PATH); check the path", false},
		{"a scenario's TemplateBody: file://", func(p string) []string {
			return []string{"run", scenarioFile("names-template.yaml", "name: t\nsteps:\n  - CreateStack: {StackName: a, TemplateBody: file://"+p+"}\n")}
		}, "names-template.yaml:3:47: TemplateBody: {path}" + templateMsg, false},
		{"a scenario's faults: file", func(p string) []string {
			return []string{"run", scenarioFile("names-faults.yaml", "name: t\nsteps:\n  - CreateStack: {StackName: a, TemplateBody: file://topic.yaml}\n    faults: "+p+"\n")}
		}, "names-faults.yaml:4:13: faults: cannot read {path}: {path} {size}" + faultMsg, false},
		{"run --golden", func(p string) []string {
			return []string{"run", okScenario, "--golden", p}
		}, "{path} {size} the 8,388,608 bytes a golden event log may hold: a golden log is the event log of one scenario; check the path", true},
	}
	inputs := []struct {
		name, path, size, templateSize string
	}{
		{"/dev/zero", "/dev/zero", "holds more than", "more than 51200 bytes"},
		{"50 MB", big, "is 52,428,800 bytes, more than", "52428800 bytes"},
	}
	for _, tc := range tests {
		for _, in := range inputs {
			t.Run(tc.flag+"/"+in.name, func(t *testing.T) {
				want := strings.NewReplacer("{tsize}", in.templateSize, "{path}", in.path, "{size}", in.size).Replace(tc.want)
				res := m.run(t, nil, tc.args(in.path)...)
				if res.code != exitBadInput || res.stdout != "" && !tc.stdoutOK || !strings.Contains(res.stderr, want) {
					t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and a message with:\n%s", res.code, res.stdout, res.stderr, want)
				}
				checkRefusal(t, res)
			})
		}
	}

	// --schemas DIR: a schema is read when its type is first used; one
	// too large refuses the template that uses the type (exit 2), as a
	// schema that does not parse or compile does.
	for _, in := range inputs {
		t.Run("--schemas/"+in.name, func(t *testing.T) {
			res := m.run(t, nil, "--schemas", schemaDir(in.path), "--state", filepath.Join(t.TempDir(), "state.json"),
				"create-stack", "--stack-name", "x", "--template-body", "file://"+thing)
			want := string(filepath.Separator) + filepath.Join("schemas", "acme-test-thing.json") + " " + in.size +
				" the 4,194,304 bytes a resource schema may hold: a registry schema is a few hundred KB at most; check the file"
			if res.code != exitBadInput || !strings.Contains(res.stderr, "(ValidationError) when calling the CreateStack operation: The schema of resource type Acme::Test::Thing cannot be used: read schema: ") || !strings.Contains(res.stderr, want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit 2 and a message with:\n%s", res.code, res.stderr, want)
			}
			checkRefusal(t, res)
		})
	}

	// stdin, where a flag reads it (file:///dev/stdin).
	t.Run("--parameters file:///dev/stdin", func(t *testing.T) {
		zero, err := os.Open("/dev/zero")
		if err != nil {
			t.Fatal(err)
		}
		defer zero.Close()
		res := m.run(t, zero, append(ops, "update-stack", "--stack-name", "app", "--use-previous-template", "--parameters", "file:///dev/stdin")...)
		if want := "Unable to load paramfile file:///dev/stdin: /dev/stdin holds more than" + paramMsg; res.code != exitBadInput || !strings.Contains(res.stderr, want) {
			t.Fatalf("exit %d, stderr:\n%s\nwant %s", res.code, res.stderr, want)
		}
		checkRefusal(t, res)
	})

	// The state file: one that is not a regular file is refused unread; a
	// large one is read (its cap is 256 MiB) and refused for what it holds.
	t.Run("--state", func(t *testing.T) {
		for _, args := range [][]string{{"describe-stacks"}, {"delete-stack", "--stack-name", "x"}} {
			res := m.run(t, nil, append([]string{"--state", "/dev/zero"}, args...)...)
			if want := "state file /dev/zero: it is not a regular file (a device)"; res.code != exitBadInput || !strings.Contains(res.stderr, want) {
				t.Fatalf("%v: exit %d, stderr:\n%s\nwant %s", args, res.code, res.stderr, want)
			}
			checkRefusal(t, res)
			res = m.run(t, nil, append([]string{"--state", big}, args...)...)
			if want := "state file " + big + ":1:4: JSON syntax error"; res.code != exitBadInput || !strings.Contains(res.stderr, want) {
				t.Fatalf("%v: exit %d, stderr:\n%s\nwant %s", args, res.code, res.stderr, want)
			}
			checkRefusal(t, res)
		}
	})
}

// writeBig writes a file of size bytes of YAML-looking lines (a fault
// list, which a reader without a limit would try to parse whole).
func writeBig(t *testing.T, path string, size int) {
	t.Helper()
	line := "  - {match: {logicalId: Queue}, fail: NotFound}\n"
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString("faults:\n")
	for b.Len()+len(line) <= size {
		b.WriteString(line)
	}
	b.WriteString(strings.Repeat("#", size-b.Len()))
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

type measured struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
	maxRSS         int64 // bytes
}

// measurer runs the binary through testdata/maxrss, which reports the
// binary's own peak memory (a test binary's child would report the test
// binary's).
type measurer struct {
	bin, maxrss string
}

func newMeasurer(t *testing.T, bin string) *measurer {
	t.Helper()
	helper := filepath.Join(t.TempDir(), "maxrss")
	if out, err := exec.Command("go", "build", "-o", helper, "./testdata/maxrss").CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/maxrss: %v\n%s", err, out)
	}
	return &measurer{bin: bin, maxrss: helper}
}

// run runs the binary and returns its exit status, output, wall time and
// peak resident memory. A run that does not end within a minute is killed
// (the guard of a reader without a limit, not a timing).
func (m *measurer) run(t *testing.T, stdin *os.File, args ...string) measured {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rssFile := filepath.Join(t.TempDir(), "rss")
	cmd := exec.CommandContext(ctx, m.maxrss, append([]string{rssFile, m.bin}, args...)...)
	cmd.Dir = t.TempDir()
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	res := measured{stdout: out.String(), stderr: errOut.String(), elapsed: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(rssFile)
	if err != nil {
		t.Fatalf("no peak memory measured: %v\n%s", err, res.stderr)
	}
	if res.maxRSS, err = strconv.ParseInt(string(data), 10, 64); err != nil {
		t.Fatal(err)
	}
	return res
}

// checkRefusal: a refusal stays within maxInputRSS, and its message does
// not echo the input.
func checkRefusal(t *testing.T, res measured) {
	t.Helper()
	t.Logf("refused in %v, peak RSS %.1f MB", res.elapsed.Round(time.Millisecond), float64(res.maxRSS)/(1<<20))
	if res.maxRSS > maxInputRSS {
		t.Errorf("peak RSS %d MB, more than %d MB", res.maxRSS>>20, maxInputRSS>>20)
	}
	if len(res.stderr) > 2000 {
		t.Errorf("the message is %d bytes long: it echoes the input", len(res.stderr))
	}
}
