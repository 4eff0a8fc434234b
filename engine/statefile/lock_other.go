//go:build !unix

package statefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// stateLock, where flock is not available: PATH.lock is created
// exclusively and removed on release. A process that dies holding it leaves
// it behind; the error then says to remove it.
type stateLock struct {
	path string
}

func acquireLock(path string) (*stateLock, error) {
	lockPath := path + ".lock"
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		pid := 0
		if data, rerr := os.ReadFile(lockPath); rerr == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		}
		return nil, &LockedError{Path: path, LockPath: lockPath, PID: pid,
			Hint: "wait for it to finish; if no stacksim process is running, the lock was left by one that died: delete " + lockPath}
	}
	if err != nil {
		return nil, fmt.Errorf("state file %s: cannot create its lock file: %w", path, err)
	}
	_, _ = f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	if err := f.Close(); err != nil {
		return nil, err
	}
	return &stateLock{path: lockPath}, nil
}

func (l *stateLock) release() error { return os.Remove(l.path) }
