package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// stateFile is the state file an engine was opened from.
type stateFile struct {
	path     string
	readOnly bool
	lock     *stateLock
	fs       fileSystem
}

// Open opens the state file at path for writing: it takes the file's lock
// (a sibling PATH.lock, held until Close, so that a second process cannot
// write the same state), then loads the state, or starts an empty world
// when no file exists yet (the file is written by the first Save).
//
// The state's identity (region, account, partition, seed) wins over opts':
// a world keeps the account and seed it was made with. A file that is not a
// state file of this version, or is damaged, is refused with a *StateError
// and left as it is; a file another process holds is refused with a
// *StateLockedError.
func Open(path string, opts Options) (*Engine, error) {
	return openState(path, opts, false, osFS())
}

// OpenReadOnly loads the state file at path without taking its lock (saves
// are atomic renames, so a reader sees a whole state). Save refuses.
func OpenReadOnly(path string, opts Options) (*Engine, error) {
	return openState(path, opts, true, osFS())
}

func openState(path string, opts Options, readOnly bool, fsys fileSystem) (*Engine, error) {
	if path == "" {
		return nil, fmt.Errorf("state file: no path given")
	}
	sf := &stateFile{path: path, readOnly: readOnly, fs: fsys}
	if !readOnly {
		lock, err := acquireLock(path)
		if err != nil {
			return nil, err
		}
		sf.lock = lock
		sf.removeStaleTemps()
	}
	e, err := loadStateFile(sf, opts)
	if err != nil {
		if sf.lock != nil {
			_ = sf.lock.release()
		}
		return nil, err
	}
	e.file = sf
	return e, nil
}

func loadStateFile(sf *stateFile, opts Options) (*Engine, error) {
	data, err := os.ReadFile(sf.path)
	if errors.Is(err, fs.ErrNotExist) {
		return New(opts)
	}
	if err != nil {
		return nil, &StateError{Path: sf.path, Problem: "cannot read it: " + err.Error(), Err: err,
			Hint: "check the path and its permissions"}
	}
	st, err := decodeState(sf.path, data)
	if err != nil {
		return nil, err
	}
	return newEngine(opts.withDefaults(), st)
}

// Save writes the state to the file the engine was opened from, atomically:
// a temporary file in the same directory is written, flushed to disk and
// renamed over the state file, and the directory is flushed. A save that
// fails at any point leaves the previous state file as it was.
func (e *Engine) Save() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.file == nil {
		return fmt.Errorf("engine: no state file: open the engine with Open to save it")
	}
	if e.file.readOnly {
		return fmt.Errorf("state file %s: opened read-only (OpenReadOnly): open it with Open to save", e.file.path)
	}
	if e.broken != nil {
		return e.broken
	}
	data, err := encodeState(e.st)
	if err != nil {
		return fmt.Errorf("state file %s: %w", e.file.path, err)
	}
	return e.file.write(data)
}

// StatePath is the state file the engine was opened from ("" when none).
func (e *Engine) StatePath() string {
	if e.file == nil {
		return ""
	}
	return e.file.path
}

// MarshalState returns the state as the state file holds it.
func (e *Engine) MarshalState() ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return nil, e.broken
	}
	return encodeState(e.st)
}

// NewFromState returns an engine with the state MarshalState returned. The
// state's identity wins over opts'.
func NewFromState(data []byte, opts Options) (*Engine, error) {
	st, err := decodeState("(in memory)", data)
	if err != nil {
		return nil, err
	}
	return newEngine(opts.withDefaults(), st)
}

func (sf *stateFile) close() error {
	if sf.lock == nil {
		return nil
	}
	err := sf.lock.release()
	sf.lock = nil
	return err
}

// tempPattern is the name of the temporary files of saves.
func (sf *stateFile) tempPattern() string { return "." + filepath.Base(sf.path) + ".tmp-*" }

// removeStaleTemps removes the temporary files a save interrupted left
// behind (a process killed during Save). Only the holder of the lock calls
// it, so no save is running.
func (sf *stateFile) removeStaleTemps() {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(sf.path), sf.tempPattern()))
	for _, m := range matches {
		_ = os.Remove(m)
	}
}

func (sf *stateFile) write(data []byte) (err error) {
	dir := filepath.Dir(sf.path)
	f, err := sf.fs.createTemp(dir, sf.tempPattern())
	if err != nil {
		return fmt.Errorf("state file %s: cannot create a temporary file beside it: %w", sf.path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
			err = fmt.Errorf("state file %s: save failed, the previous state is intact: %w", sf.path, err)
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
	if err := sf.fs.rename(tmp, sf.path); err != nil {
		return err
	}
	return sf.fs.syncDir(dir)
}

// fileSystem is what a save does to the disk, replaceable in tests to make
// a save fail (or stop) at a chosen point.
type fileSystem struct {
	createTemp func(dir, pattern string) (*os.File, error)
	rename     func(oldpath, newpath string) error
	syncDir    func(dir string) error
}

func osFS() fileSystem {
	return fileSystem{createTemp: os.CreateTemp, rename: os.Rename, syncDir: syncDir}
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

// StateLockedError: another process holds the state file.
type StateLockedError struct {
	Path     string
	LockPath string
	// PID is the process that holds the lock, when it wrote it (0 when
	// unknown).
	PID int
	// Hint replaces the advice of the message, when the lock can outlive
	// its process.
	Hint string
}

func (e *StateLockedError) Error() string {
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
