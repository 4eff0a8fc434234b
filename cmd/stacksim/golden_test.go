package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
			path, lineDiff(string(want), string(got)))
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

// lineDiff returns a unified-style diff of two texts by lines, with three
// lines of context around each change: "-" for want, "+" for got.
func lineDiff(want, got string) string {
	a, b := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	// lcs[i][j]: length of the longest common subsequence of a[i:], b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var lines []diffLine
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			lines = append(lines, diffLine{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, diffLine{'-', a[i]})
			i++
		default:
			lines = append(lines, diffLine{'+', b[j]})
			j++
		}
	}
	const context = 3
	var out strings.Builder
	last := -1 // the last line written
	for k, l := range lines {
		if l.op == ' ' {
			continue
		}
		from := max(k-context, last+1)
		if last >= 0 && from > last+1 {
			out.WriteString("...\n")
		}
		for c := from; c < k; c++ {
			fmt.Fprintf(&out, "  %s", strings.TrimSuffix(lines[c].text, "\n")+"\n")
		}
		fmt.Fprintf(&out, "%c %s", l.op, strings.TrimSuffix(l.text, "\n")+"\n")
		last = k
		// Trailing context is written as the leading context of the next
		// change, or below.
		if next := nextChange(lines, k+1); next < 0 || next > k+2*context {
			for c := k + 1; c < len(lines) && c <= k+context && lines[c].op == ' '; c++ {
				fmt.Fprintf(&out, "  %s", strings.TrimSuffix(lines[c].text, "\n")+"\n")
				last = c
			}
		}
	}
	return out.String()
}

// diffLine is one line of a diff: op is ' ' (both), '-' (want) or '+' (got).
type diffLine struct {
	op   byte
	text string
}

// nextChange returns the index of the first changed line at or after from,
// or -1.
func nextChange(lines []diffLine, from int) int {
	for k := from; k < len(lines); k++ {
		if lines[k].op != ' ' {
			return k
		}
	}
	return -1
}

func TestLineDiff(t *testing.T) {
	got := lineDiff("a\nb\nc\nd\ne\nf\ng\nh\ni\n", "a\nb\nc\nd\nE\nf\ng\nh\ni\n")
	want := "  b\n  c\n  d\n- e\n+ E\n  f\n  g\n  h\n"
	if got != want {
		t.Errorf("lineDiff:\n%s\nwant:\n%s", got, want)
	}
}
