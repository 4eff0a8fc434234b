package statefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/internal/readfile"
)

// File is a state file an engine was opened from: a database of format
// 2 (db), or — until its first save upgrades it — a JSON file of format 1,
// or no file yet.
type File struct {
	Path     string
	ReadOnly bool
	lock     *stateLock
	FS       FileSystem
	// db is the open database (nil before the first save of a new state,
	// and for a file of format 1 until it is upgraded).
	db *DB
	// Format is the file's format when it was opened: 0 (no file yet), 1
	// or 2.
	Format int
	// Upgraded names the copy of the file of format 1 that its upgrade
	// kept ("" when no upgrade happened).
	Upgraded string
	wait     time.Duration
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
	sf := &File{Path: path, ReadOnly: opts.ReadOnly, FS: opts.FS, wait: opts.Lock.Wait}
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
	switch head, err := readHead(sf.Path); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err == nil && isDB(head):
		db, err := openDB(sf.Path, sf.wait)
		if err != nil {
			var le *LockedError
			if errors.As(err, &le) {
				le.LockPath, le.Holder, le.Waited = sf.Path+".lock", holderOf(sf.Path+".lock"), sf.wait
				le.PID = le.Holder.PID
			}
			return nil, err
		}
		st, err := db.load()
		if err != nil {
			_ = db.Close()
			return nil, err
		}
		sf.db, sf.Format = db, dbVersion
		return st, nil
	}
	sf.Format = stateVersion
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

// readHead reads the first bytes of a file: enough to tell a database
// from JSON.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 64)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return head[:n], nil
}

// Close closes the database and releases the lock (no lock is held by a
// file opened read-only).
func (sf *File) Close() error {
	var err error
	if sf.db != nil {
		err = sf.db.Close()
		sf.db = nil
	}
	if sf.lock != nil {
		err = errors.Join(err, sf.lock.release())
		sf.lock = nil
	}
	return err
}

// Save writes what changed in s since it was loaded or last saved: into
// the database, in one transaction. The first save of a new state, and of
// a state read from a file of format 1, writes the whole store as a new
// database beside the file and renames it over the file (a file of format
// 1 is kept as PATH.v1.json). A save that fails at any point leaves the
// file as it was.
func (sf *File) Save(s *store.Store) error {
	if sf.ReadOnly {
		return fmt.Errorf("state file %s: opened read-only: open it for writing to save", sf.Path)
	}
	if err := s.Err(); err != nil {
		return err
	}
	if sf.db != nil {
		if err := sf.db.save(s); err != nil {
			return fmt.Errorf("state file %s: save failed, the previous state is intact: %w", sf.Path, err)
		}
		return nil
	}
	return sf.writeWhole(s)
}

// VersionFrom is the database version a save of this process moved the
// file from to this one's (2, whose objects it laid out anew, or 3), or 0
// when none did.
func (sf *File) VersionFrom() int {
	if sf.db != nil {
		return sf.db.from
	}
	return 0
}

// DBVersion is the version of the database this stacksim writes.
const DBVersion = dbVersion

// writeWhole writes the whole store as a new database at the file's path,
// atomically, and lays the store over it: the next saves write only what
// changes.
func (sf *File) writeWhole(s *store.Store) (err error) {
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
	if err := f.Close(); err != nil {
		return err
	}
	if err := writeNew(tmp, s); err != nil {
		return err
	}
	if sf.Format == stateVersion && sf.Upgraded == "" {
		backup, err := keepCopy(sf.Path)
		if err != nil {
			return fmt.Errorf("cannot keep a copy of the file of format 1 before upgrading it: %w", err)
		}
		sf.Upgraded = backup
	}
	if err := sf.FS.Rename(tmp, sf.Path); err != nil {
		return err
	}
	if err := sf.FS.syncDir(dir); err != nil {
		return err
	}
	db, err := openDB(sf.Path, sf.wait)
	if err != nil {
		return err
	}
	sf.db, sf.Format = db, dbVersion
	s.AttachSaved(db)
	return nil
}

// keepCopy links a file of format 1 to PATH.v1.json (PATH.v1-2.json... if
// that is taken), before its upgrade replaces it.
func keepCopy(path string) (string, error) {
	for i := 1; ; i++ {
		name := path + ".v1.json"
		if i > 1 {
			name = fmt.Sprintf("%s.v1-%d.json", path, i)
		}
		err := os.Link(path, name)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, fs.ErrExist) || i > 100 {
			return "", err
		}
	}
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

// Create writes the store s (held whole in memory: a state read from JSON)
// as a new state file at path, under the file's lock. A file there already
// is refused unless replace; the file is written whole beside the path and
// renamed over it, so a failure leaves what was there as it was.
func Create(path string, s *store.Store, replace bool, opts Options) error {
	if opts.FS.createTemp == nil {
		opts.FS = OSFS()
	}
	lock, err := acquireLock(path, opts.Lock)
	if err != nil {
		return err
	}
	sf := &File{Path: path, FS: opts.FS, lock: lock, wait: opts.Lock.Wait}
	defer sf.Close()
	sf.removeStaleTemps()
	if _, err := os.Lstat(path); err == nil && !replace {
		return &Error{Path: path, Problem: "it exists already",
			Hint: "it was left as it is: give the path of a state file that does not exist yet, or replace it (--force)"}
	}
	return sf.writeWhole(s)
}
