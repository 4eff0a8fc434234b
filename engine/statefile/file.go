package statefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/internal/readfile"
)

// File is a state file an engine was opened from.
type File struct {
	Path     string
	ReadOnly bool
	lock     *stateLock
	FS       FileSystem
}

// Options say how Open opens a state file.
type Options struct {
	// ReadOnly: no lock is taken, and Write is refused by the engine.
	ReadOnly bool
	// FS is what a save does to the disk: OSFS() when zero.
	FS FileSystem
	// Lock says how long to wait for the lock and how this process
	// describes itself to the others (not used when ReadOnly).
	Lock LockOptions
}

// MaxFileBytes is the largest state file Open reads (256 MiB; a large
// account is tens of MB): a larger one is refused before it is read.
const MaxFileBytes = 256 << 20

var stateLimit = readfile.Limit{Max: MaxFileBytes, What: "a state file",
	Hint: "it was left as it is; a state this large is not one stacksim wrote: check the path"}

// Open opens the state file at path: unless opts.ReadOnly, it takes the
// file's lock (a sibling PATH.lock, held until Close; waiting for it as
// opts.Lock says) and removes what interrupted saves left behind; then it
// reads the state. The store is nil when no file exists yet (the first
// save writes it). A file that cannot be read or is refused leaves nothing
// held. The lock file, once made, stays (see lock_unix.go).
func Open(path string, opts Options) (*File, *store.Store, error) {
	if path == "" {
		return nil, nil, fmt.Errorf("state file: no path given")
	}
	if opts.FS.createTemp == nil {
		opts.FS = OSFS()
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, &Error{Path: path, Problem: "it is not a regular file (" + fileKind(fi.Mode()) + ")",
			Hint: "it was left as it is: give the path of a state file, or a path where none exists yet"}
	}
	sf := &File{Path: path, ReadOnly: opts.ReadOnly, FS: opts.FS}
	if !opts.ReadOnly {
		lock, err := acquireLock(path, opts.Lock)
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
	data, err := readfile.Read(sf.Path, stateLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var tl *readfile.TooLargeError
	if errors.As(err, &tl) {
		size := "more than " + readfile.Bytes(MaxFileBytes)
		if tl.Size >= 0 {
			size = readfile.Bytes(tl.Size)
		}
		return nil, &Error{Path: sf.Path, Err: err, Hint: stateLimit.Hint,
			Problem: fmt.Sprintf("it is %s bytes; a state file may hold at most %s bytes (256 MiB)", size, readfile.Bytes(MaxFileBytes))}
	}
	if err != nil {
		return nil, &Error{Path: sf.Path, Problem: "cannot read it: " + err.Error(), Err: err,
			Hint: "check the path and its permissions"}
	}
	return Decode(sf.Path, data)
}

// fileKind names what a path that is not a regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
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
