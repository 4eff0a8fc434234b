//go:build unix

package statefile

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// stateLock is an advisory lock (flock) on PATH.lock, held while an engine
// may write the state file. The kernel releases it when the process dies,
// so a crash never leaves a stale lock. The lock file stays on disk; it
// holds the pid of the process that holds the lock.
type stateLock struct {
	f *os.File
}

func acquireLock(path string) (*stateLock, error) {
	lockPath := path + ".lock"
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("state file %s: cannot open its lock file: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		pid := readPID(f)
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Path: path, LockPath: lockPath, PID: pid}
		}
		return nil, fmt.Errorf("state file %s: cannot lock %s: %w", path, lockPath, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &stateLock{f: f}, nil
}

func readPID(f *os.File) int {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		return 0
	}
	return pid
}

func (l *stateLock) release() error {
	_ = l.f.Truncate(0)
	err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	return errors.Join(err, l.f.Close())
}
