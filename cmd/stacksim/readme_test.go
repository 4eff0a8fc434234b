package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/scenario"
)

// readmeCommand is one "$ stacksim ..." line of a README example, with the
// lines shown after it and, when the README shows it, the exit status.
type readmeCommand struct {
	line   int
	args   []string
	want   []string
	status int // -1: not shown
	// mkdir are the directories of a "$ mkdir -p DIR ..." line, which the
	// test makes (an S3 bucket of --s3-dir); args is empty then.
	mkdir []string
}

// readmeCommands returns the stacksim commands of the README's fenced
// examples, in order. A trailing backslash continues a command; "$ echo $?"
// followed by a number gives the exit status of the command before it.
func readmeCommands(t *testing.T, path string) []readmeCommand {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []readmeCommand
	var cur *readmeCommand
	inFence, inEcho := false, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "```") {
			inFence, cur, inEcho = !inFence, nil, false
			continue
		}
		if !inFence {
			continue
		}
		switch {
		case strings.HasPrefix(l, "$ stacksim "):
			text := strings.TrimPrefix(l, "$ ")
			for strings.HasSuffix(text, "\\") && sc.Scan() {
				n++
				text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(sc.Text())
			}
			words, err := scenario.SplitCommand(text)
			if err != nil {
				t.Fatalf("README.md:%d: %v", n, err)
			}
			cmds = append(cmds, readmeCommand{line: n, args: words[1:], status: -1})
			cur, inEcho = &cmds[len(cmds)-1], false
		case strings.HasPrefix(l, "$ mkdir -p "):
			cmds = append(cmds, readmeCommand{line: n, status: -1, mkdir: strings.Fields(strings.TrimPrefix(l, "$ mkdir -p "))})
			cur, inEcho = nil, false
		case l == "$ echo $?":
			inEcho = true
		case strings.HasPrefix(l, "$ "):
			cur, inEcho = nil, false
		case inEcho && cur != nil:
			code, err := strconv.Atoi(strings.TrimSpace(l))
			if err != nil {
				t.Fatalf("README.md:%d: exit status %q is not a number", n, l)
			}
			cur.status, inEcho = code, false
		case cur != nil && strings.TrimSpace(l) != "" && strings.TrimSpace(l) != "...":
			cur.want = append(cur.want, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// TestREADME runs the README's examples in order, as a new user would from
// the repository's root with an empty state, and checks that every line
// they show is printed (stdout and stderr together; "..." elides lines).
func TestREADME(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, filepath.Join(root, "README.md"))
	if len(cmds) < 10 {
		t.Fatalf("found %d stacksim examples in README.md; the parser lost them", len(cmds))
	}
	dir := t.TempDir()
	for _, d := range []string{"fixtures", "docs", "examples"} {
		if err := os.Symlink(filepath.Join(root, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for _, c := range cmds {
		if len(c.mkdir) > 0 {
			for _, d := range c.mkdir {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatalf("README.md:%d: %v", c.line, err)
				}
			}
			continue
		}
		stdout, stderr, code := runCLI(t, c.args...)
		out := stdout + stderr
		for _, w := range c.want {
			if !strings.Contains(out, strings.TrimRight(w, " ")) {
				t.Errorf("README.md:%d: stacksim %s: the README shows\n  %s\nwhich it did not print; it printed:\n%s",
					c.line, strings.Join(c.args, " "), w, out)
				break
			}
		}
		if c.status >= 0 && code != c.status {
			t.Errorf("README.md:%d: stacksim %s: exit status %d, the README says %d", c.line, strings.Join(c.args, " "), code, c.status)
		}
	}
}

// TestREADMEMainJob checks the event log README's "Set up and run" shows
// for the main job against what the job prints: every line of the excerpt,
// in order.
func TestREADMEMainJob(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const job = "fixtures/update-rollback-failed/scenario.yaml"
	text := string(readme)
	if !strings.Contains(text, "go run ./cmd/stacksim run "+job) {
		t.Fatalf("README.md no longer names %s as the main job; update this test", job)
	}
	_, after, ok := strings.Cut(text, "The event log (excerpt;")
	if !ok {
		t.Fatal(`README.md has no "The event log (excerpt;" paragraph`)
	}
	_, block, _ := strings.Cut(after, "```\n")
	block, _, _ = strings.Cut(block, "```")
	excerpt := strings.Split(strings.TrimRight(block, "\n"), "\n")
	if len(excerpt) < 10 {
		t.Fatalf("the README's excerpt has %d lines; the parser lost it", len(excerpt))
	}
	t.Chdir(root)
	stdout, stderr, code := runCLI(t, "run", job)
	if code != exitOK {
		t.Fatalf("stacksim run %s: exit %d\n%s%s", job, code, stdout, stderr)
	}
	rest := stdout + stderr // the verdict ("ok   ...") is on stderr, last
	for _, l := range excerpt {
		i := strings.Index(rest, l+"\n")
		if i < 0 {
			t.Fatalf("README.md shows\n  %s\nwhich stacksim run %s does not print (in that order); it printed:\n%s", l, job, stdout)
		}
		rest = rest[i+len(l)+1:]
	}
}
