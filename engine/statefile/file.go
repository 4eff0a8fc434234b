package statefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
)

// File is a state file an engine was opened from.
type File struct {
	Path     string
	ReadOnly bool
	lock     *stateLock
	FS       FileSystem
}

// Open opens the state file at path: unless readOnly, it takes the file's
// lock (a sibling PATH.lock, held until Close) and removes what interrupted
// saves left behind; then it reads the state. The store is nil when no
// file exists yet (the first save writes it). A file that cannot be read or
// is refused leaves nothing held.
func Open(path string, readOnly bool, fsys FileSystem) (*File, *store.Store, error) {
	if path == "" {
		return nil, nil, fmt.Errorf("state file: no path given")
	}
	sf := &File{Path: path, ReadOnly: readOnly, FS: fsys}
	if !readOnly {
		lock, err := acquireLock(path)
		if err != nil {
			return nil, nil, err
		}
		sf.lock = lock
		sf.removeStaleTemps()
	}
	st, err := sf.read()
	if err != nil {
		_ = sf.Close()
		return nil, nil, err
	}
	return sf, st, nil
}

func (sf *File) read() (*store.Store, error) {
	data, err := os.ReadFile(sf.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Path: sf.Path, Problem: "cannot read it: " + err.Error(), Err: err,
			Hint: "check the path and its permissions"}
	}
	return Decode(sf.Path, data)
}

// Close releases the lock (a no-op for a file opened read-only).
func (sf *File) Close() error {
	if sf.lock == nil {
		return nil
	}
	err := sf.lock.release()
	sf.lock = nil
	return err
}

// tempPattern is the name of the temporary files of saves.
func (sf *File) tempPattern() string { return "." + filepath.Base(sf.Path) + ".tmp-*" }

// removeStaleTemps removes the temporary files a save interrupted left
// behind (a process killed during Save). Only the holder of the lock calls
// it, so no save is running.
func (sf *File) removeStaleTemps() {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(sf.Path), sf.tempPattern()))
	for _, m := range matches {
		_ = os.Remove(m)
	}
}

// Write writes data as the state file, atomically: a temporary file in the
// same directory is written, flushed to disk and renamed over the state
// file, and the directory is flushed. A write that fails at any point
// leaves the previous state file as it was.
func (sf *File) Write(data []byte) (err error) {
	dir := filepath.Dir(sf.Path)
	f, err := sf.FS.createTemp(dir, sf.tempPattern())
	if err != nil {
		return fmt.Errorf("state file %s: cannot create a temporary file beside it: %w", sf.Path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
			err = fmt.Errorf("state file %s: save failed, the previous state is intact: %w", sf.Path, err)
		}
	}()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := sf.FS.Rename(tmp, sf.Path); err != nil {
		return err
	}
	return sf.FS.syncDir(dir)
}

// FileSystem is what a save does to the disk, replaceable in tests to make
// a save fail (or stop) at a chosen point.
type FileSystem struct {
	createTemp func(dir, pattern string) (*os.File, error)
	Rename     func(oldpath, newpath string) error
	syncDir    func(dir string) error
}

func OSFS() FileSystem {
	return FileSystem{createTemp: os.CreateTemp, Rename: os.Rename, syncDir: syncDir}
}

// syncDir flushes a directory, so that a rename in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !isUnsupportedSync(err) {
		return err
	}
	return nil
}

// isUnsupportedSync: some systems cannot fsync a directory; the rename is
// then as durable as they make it.
func isUnsupportedSync(err error) bool {
	return errors.Is(err, os.ErrInvalid) || strings.Contains(err.Error(), "not supported") ||
		strings.Contains(err.Error(), "invalid argument")
}

// LockedError: another process holds the state file.
type LockedError struct {
	Path     string
	LockPath string
	// PID is the process that holds the lock, when it wrote it (0 when
	// unknown).
	PID int
	// Hint replaces the advice of the message, when the lock can outlive
	// its process.
	Hint string
}

func (e *LockedError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = fmt.Sprintf("process %d", e.PID)
	}
	hint := e.Hint
	if hint == "" {
		hint = "wait for it to finish, or use another state file"
	}
	return fmt.Sprintf("state file %s is in use: %s holds its lock %s; %s", e.Path, holder, e.LockPath, hint)
}
