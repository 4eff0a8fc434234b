//go:build unix

package statefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func mustOpen(t *testing.T, path string, lock LockOptions) *File {
	t.Helper()
	sf, _, err := Open(path, Options{Lock: lock})
	if err != nil {
		t.Fatal(err)
	}
	return sf
}

// The lock file names its holder while it is held, and is emptied, never
// removed, when it is released.
func TestLockRecordsItsHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first := mustOpen(t, path, LockOptions{Command: "stacksim serve", Detail: "on 127.0.0.1:4599"})
	_, _, err := Open(path, Options{})
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("a second writer was let in: %v", err)
	}
	want := Holder{PID: os.Getpid(), Command: "stacksim serve", Detail: "on 127.0.0.1:4599"}
	if got := le.Holder; got.PID != want.PID || got.Command != want.Command || got.Detail != want.Detail || got.Since.IsZero() || le.PID != want.PID {
		t.Fatalf("holder %+v, want %+v", got, want)
	}
	prefix := fmt.Sprintf("state file %s is in use by stacksim serve (pid %d, on 127.0.0.1:4599, since ", path, os.Getpid())
	if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, "it holds its lock "+path+".lock; wait for it to finish") {
		t.Fatalf("message %q, want it to start %q", msg, prefix)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path + ".lock")
	if err != nil || len(data) != 0 {
		t.Fatalf("after Close the lock file holds %q (%v), want it empty and still there", data, err)
	}
	// Without a Command, the program's name.
	second := mustOpen(t, path, LockOptions{})
	defer second.Close()
	data, _ = os.ReadFile(path + ".lock")
	if h := parseRecord(data); h.Command != filepath.Base(os.Args[0]) || h.PID != os.Getpid() {
		t.Fatalf("record %q read as %+v", data, h)
	}
}

// A second writer waits for the first, and gets the lock when it is
// released.
func TestLockWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first := mustOpen(t, path, LockOptions{Command: "first"})
	waiting := make(chan Holder, 1)
	done := make(chan error, 1)
	go func() {
		sf, _, err := Open(path, Options{Lock: LockOptions{Wait: time.Hour, Command: "second",
			OnWait: func(h Holder) { waiting <- h }}})
		if err == nil {
			err = sf.Close()
		}
		done <- err
	}()
	if h := <-waiting; h.Command != "first" {
		t.Fatalf("the waiter saw the holder %+v", h)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the waiting writer: %v", err)
	}
}

// A writer that waited as long as it was told gives up naming the holder
// and how long it waited.
func TestLockTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first := mustOpen(t, path, LockOptions{Command: "stacksim create-stack"})
	defer first.Close()
	waits := 0
	_, _, err := Open(path, Options{Lock: LockOptions{Wait: 20 * time.Millisecond, OnWait: func(Holder) { waits++ }}})
	var le *LockedError
	if !errors.As(err, &le) || le.Waited != 20*time.Millisecond || le.Holder.Command != "stacksim create-stack" {
		t.Fatalf("Open: %v", err)
	}
	if waits != 1 {
		t.Errorf("OnWait called %d times, want once", waits)
	}
	if !strings.Contains(err.Error(), "waited 20ms for its lock "+path+".lock") {
		t.Errorf("message %q", err)
	}
}

// What is planted at PATH.lock is refused and left as it is: a symbolic
// link is not followed, a file with another name (a hard link) or
// content not stacksim's is not written.
func TestLockFileNotOurs(t *testing.T) {
	const precious = "precious data\n"
	tests := []struct {
		name  string
		plant func(t *testing.T, lockPath, target string)
		want  string
	}{
		{"symbolic link", func(t *testing.T, lockPath, target string) {
			if err := os.Symlink(target, lockPath); err != nil {
				t.Fatal(err)
			}
		}, "is a symbolic link"},
		{"dangling symbolic link", func(t *testing.T, lockPath, target string) {
			if err := os.Symlink(target+".missing", lockPath); err != nil {
				t.Fatal(err)
			}
		}, "is a symbolic link"},
		{"hard link", func(t *testing.T, lockPath, target string) {
			if err := os.Link(target, lockPath); err != nil {
				t.Fatal(err)
			}
		}, "has 2 names (hard links)"},
		{"someone's file", func(t *testing.T, lockPath, _ string) {
			if err := os.WriteFile(lockPath, []byte(precious), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "holds something stacksim did not write"},
		{"a large file", func(t *testing.T, lockPath, _ string) {
			if err := os.WriteFile(lockPath, []byte(strings.Repeat("1", maxRecordBytes+1)), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "holds something stacksim did not write"},
		{"a named pipe", func(t *testing.T, lockPath, _ string) {
			if err := syscall.Mkfifo(lockPath, 0o600); err != nil {
				t.Skip(err)
			}
		}, "is not a regular file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state.json")
			target := filepath.Join(dir, "target")
			if err := os.WriteFile(target, []byte(precious), 0o600); err != nil {
				t.Fatal(err)
			}
			tc.plant(t, path+".lock", target)
			before, _ := os.Lstat(path + ".lock")
			sf, _, err := Open(path, Options{Lock: LockOptions{Wait: time.Hour}})
			if err == nil {
				_ = sf.Close()
				t.Fatal("Open took a lock on a file planted at PATH.lock")
			}
			var se *Error
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "move it away") {
				t.Fatalf("Open: %v; want a *statefile.Error saying %q", err, tc.want)
			}
			if data, _ := os.ReadFile(target); string(data) != precious {
				t.Errorf("the target of the planted file was changed to %q", data)
			}
			if after, _ := os.Lstat(path + ".lock"); !os.SameFile(before, after) || after.Size() != before.Size() {
				t.Errorf("the planted file was changed or replaced")
			}
			if _, err := os.Stat(target + ".missing"); !os.IsNotExist(err) {
				t.Errorf("the dangling link's target was created")
			}
		})
	}
}

// What earlier versions left in a lock file (a bare pid), or a holder
// that died after it emptied the file or before it wrote, is stacksim's
// and taken over.
func TestLockFileLeftByEarlierHolders(t *testing.T) {
	for _, left := range []string{"", "12345\n", "\x00\x00\x00", `{"stacksim-lock":1,"pid":99999,"command":"stacksim create-stack","since":"2025-01-01T00:00:00Z"}` + "\n"} {
		path := filepath.Join(t.TempDir(), "state.json")
		if err := os.WriteFile(path+".lock", []byte(left), 0o600); err != nil {
			t.Fatal(err)
		}
		sf := mustOpen(t, path, LockOptions{Command: "me"})
		data, _ := os.ReadFile(path + ".lock")
		if h := parseRecord(data); h.Command != "me" || h.PID != os.Getpid() {
			t.Errorf("left %q: the record is %q", left, data)
		}
		_ = sf.Close()
	}
}

// The locked file is checked to be the one at PATH.lock: one removed or
// replaced after it was opened is not.
func TestLockStillAt(t *testing.T) {
	lockPath := filepath.Join(t.TempDir(), "state.json.lock")
	f, err := os.OpenFile(lockPath, lockFlags, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if same, err := stillAt(f, lockPath); !same || err != nil {
		t.Fatalf("stillAt of the file there: %v %v", same, err)
	}
	if err := os.Remove(lockPath); err != nil {
		t.Fatal(err)
	}
	if same, err := stillAt(f, lockPath); same || err != nil {
		t.Fatalf("stillAt of a removed file: %v %v", same, err)
	}
	if err := os.WriteFile(lockPath, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if same, err := stillAt(f, lockPath); same || err != nil {
		t.Fatalf("stillAt of a replaced file: %v %v", same, err)
	}
}

func TestHolderString(t *testing.T) {
	since := time.Date(2025, 12, 1, 20, 1, 3, 0, time.UTC)
	for h, want := range map[Holder]string{
		{}:                          "another process",
		{PID: 42}:                   "process 42",
		{PID: 42, Command: "x"}:     "x (pid 42)",
		{Command: "stacksim serve"}: "stacksim serve",
		{PID: 42, Command: "stacksim serve", Detail: "on 127.0.0.1:4599", Since: since}: "stacksim serve (pid 42, on 127.0.0.1:4599, since 2025-12-01T20:01:03Z)",
	} {
		if got := h.String(); got != want {
			t.Errorf("%+v: %q, want %q", h, got, want)
		}
	}
}
