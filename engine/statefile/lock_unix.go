//go:build unix

package statefile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// stateLock is an advisory lock (flock) on PATH.lock, held while an engine
// may write the state file. The kernel releases it when the process dies,
// so a crash never leaves a stale lock.
//
// The lock file is made once and never removed: a lock is a lock on an
// inode, and a process that removed the file would let the next one lock
// a new inode while a waiting one locks the old (two writers at once).
// For the same reason a process that took the lock checks that the file
// it locked is still the one at PATH.lock (someone may have removed it),
// and tries again when it is not.
//
// It is opened without following a symbolic link and without truncating,
// and written only when it is a plain file (one link) holding nothing or
// a record of stacksim's: a file planted there is refused, never changed.
// While the lock is held the file holds its holder's record; on release
// it is emptied.
type stateLock struct {
	f *os.File
}

// lockFlags open a lock file: never through a symbolic link, never
// truncated, never blocking on a FIFO.
const lockFlags = os.O_RDWR | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// tryLock tries the lock once. It returns the lock; or nil and the holder
// when another process holds it; or an error that waiting would not cure.
func tryLock(path, lockPath string, me Holder) (*stateLock, Holder, error) {
	for range maxReplaced {
		f, err := os.OpenFile(lockPath, lockFlags, 0o600)
		if errors.Is(err, syscall.ELOOP) {
			return nil, Holder{}, notOurs(path, lockPath, "is a symbolic link")
		}
		if err != nil {
			return nil, Holder{}, fmt.Errorf("state file %s: cannot open its lock file: %w", path, err)
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder := parseRecord(readRecord(f))
			_ = f.Close()
			return nil, holder, nil
		}
		if err != nil {
			_ = f.Close()
			return nil, Holder{}, fmt.Errorf("state file %s: cannot lock %s: %w", path, lockPath, err)
		}
		same, err := stillAt(f, lockPath)
		if err != nil {
			_ = f.Close()
			return nil, Holder{}, err
		}
		if !same {
			_ = f.Close() // it was removed or replaced: lock the one there now
			continue
		}
		if err := claim(f, path, lockPath, me); err != nil {
			_ = f.Close()
			return nil, Holder{}, err
		}
		return &stateLock{f: f}, Holder{}, nil
	}
	return nil, Holder{}, fmt.Errorf("state file %s: its lock file %s was replaced %d times while it was being locked; find what removes it", path, lockPath, maxReplaced)
}

// maxReplaced bounds the tries of a lock file that is removed or replaced
// each time it is locked (by something other than stacksim).
const maxReplaced = 100

// stillAt says whether the open file f is the file at lockPath.
func stillAt(f *os.File, lockPath string) (bool, error) {
	held, err := f.Stat()
	if err != nil {
		return false, err
	}
	there, err := os.Lstat(lockPath)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(held, there), nil
}

// claim writes the holder's record into a lock file just locked, once it
// is known to be stacksim's.
func claim(f *os.File, path, lockPath string, me Holder) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return notOurs(path, lockPath, "is not a regular file")
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return notOurs(path, lockPath, fmt.Sprintf("has %d names (hard links): writing it would change another file", st.Nlink))
	}
	if fi.Size() > maxRecordBytes || !isOurs(readRecord(f)) {
		return notOurs(path, lockPath, "holds something stacksim did not write")
	}
	if fi.Size() > 0 {
		if err := f.Truncate(0); err != nil {
			return err
		}
	}
	_, _ = f.WriteAt(encodeRecord(me), 0)
	return nil
}

// readRecord reads a lock file's record (at most maxRecordBytes+1 bytes).
func readRecord(f *os.File) []byte {
	buf := make([]byte, maxRecordBytes+1)
	n, _ := f.ReadAt(buf, 0)
	return buf[:n]
}

func lockedError(path, lockPath string, h Holder, waited time.Duration) error {
	return &LockedError{Path: path, LockPath: lockPath, Holder: h, PID: h.PID, Waited: waited}
}

// release empties the record (the file is ours: it was checked when the
// lock was taken) and unlocks; the file stays.
func (l *stateLock) release() error {
	_ = l.f.Truncate(0)
	err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	return errors.Join(err, l.f.Close())
}
