package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// golden compares got with testdata/golden/NAME, or rewrites the file with
// -update. The failure shows a line diff a person can read.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file %s: %v (run go test -update to write it)", path, err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (run go test -update to accept):\n%s", path, lineDiff(string(want), got))
	}
}

// lineDiff shows the lines that differ, prefixed - (want) and + (got).
func lineDiff(want, got string) string {
	w := strings.Split(want, "\n")
	g := strings.Split(got, "\n")
	var b strings.Builder
	n := max(len(w), len(g))
	for i := 0; i < n; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl == gl {
			continue
		}
		if i < len(w) {
			b.WriteString("-" + wl + "\n")
		}
		if i < len(g) {
			b.WriteString("+" + gl + "\n")
		}
	}
	return b.String()
}
