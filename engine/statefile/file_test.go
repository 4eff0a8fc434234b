package statefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A state path that is not a regular file is refused before anything is
// read or locked.
func TestOpenNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	for _, readOnly := range []bool{false, true} {
		_, _, err := Open(dir, Options{ReadOnly: readOnly})
		var se *Error
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "it is not a regular file (a directory)") {
			t.Fatalf("Open of a directory (read-only %v): %v", readOnly, err)
		}
		if _, err := os.Stat(dir + ".lock"); !os.IsNotExist(err) {
			t.Fatalf("a lock file was made beside a path that was refused")
		}
	}
}

// A state file larger than MaxFileBytes is refused by its size, unread.
func TestOpenTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: no disk is used.
	if err := f.Truncate(MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	_, _, err = Open(path, Options{ReadOnly: true})
	var se *Error
	want := "state file " + path + ": it is 268,435,457 bytes; a state file may hold at most 268,435,456 bytes (256 MiB); it was left as it is"
	if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Open: %v\nwant it to start %s", err, want)
	}
}
