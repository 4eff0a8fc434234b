package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.json")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		dir:                          "",
		file:                         "--schemas " + file + ": a file, not a directory",
		filepath.Join(dir, "none"):   "--schemas " + filepath.Join(dir, "none") + ": no such directory",
		filepath.Join(file, "under"): "--schemas " + filepath.Join(file, "under") + ": not a directory",
	} {
		got := ""
		if err := checkDir("--schemas", path); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
}
