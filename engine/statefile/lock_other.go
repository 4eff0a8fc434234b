//go:build !unix

package statefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// stateLock, where flock is not available: PATH.lock is created
// exclusively (O_EXCL: never through a symbolic link, never over a file
// that exists, so never truncating one), holds its holder's record, and
// is removed on release. A process that dies holding it leaves it behind;
// the error then says to remove it. Here the file itself is the lock, so
// removing it on release is what lets the next writer in; nobody else
// removes it.
type stateLock struct {
	path string
}

// tryLock tries the lock once. It returns the lock; or nil and the holder
// when another process holds it; or an error that waiting would not cure.
func tryLock(path, lockPath string, me Holder) (*stateLock, Holder, error) {
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		var holder Holder
		if g, err := os.Open(lockPath); err == nil {
			buf := make([]byte, maxRecordBytes+1)
			n, _ := g.ReadAt(buf, 0)
			_ = g.Close()
			holder = parseRecord(buf[:n])
		}
		return nil, holder, nil
	}
	if err != nil {
		return nil, Holder{}, fmt.Errorf("state file %s: cannot create its lock file: %w", path, err)
	}
	_, _ = f.Write(encodeRecord(me))
	if err := f.Close(); err != nil {
		_ = os.Remove(lockPath)
		return nil, Holder{}, err
	}
	return &stateLock{path: lockPath}, Holder{}, nil
}

func lockedError(path, lockPath string, h Holder, waited time.Duration) error {
	return &LockedError{Path: path, LockPath: lockPath, Holder: h, PID: h.PID, Waited: waited,
		Hint: "wait for it to finish; if no stacksim process is running, the lock was left by one that died: delete " + lockPath}
}

func (l *stateLock) release() error { return os.Remove(l.path) }
