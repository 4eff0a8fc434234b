package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stacksim/stacksim/internal/readfile"
)

// LockOptions say how Open takes the lock of a state file.
type LockOptions struct {
	// Wait is how long Open waits for another process to release the
	// lock, trying it again and again (every few milliseconds at first,
	// then every maxPoll), before it gives up with a *LockedError. 0: it
	// gives up at once.
	Wait time.Duration
	// Command and Detail describe this process, in the lock file, to the
	// processes that find the state locked: Command "stacksim
	// create-stack", or Command "stacksim serve" with Detail "on
	// 127.0.0.1:4599". Command is the program's name when empty.
	Command string
	Detail  string
	// OnWait, when set, is called once, when Open finds the lock held and
	// starts to wait (never when Wait is 0), with the holder as its lock
	// file describes it.
	OnWait func(Holder)
}

// Holder describes the process that holds a state file's lock, as it
// wrote itself into the lock file. Its zero value is an unknown holder.
type Holder struct {
	PID     int
	Command string
	Detail  string
	// Since is when it took the lock (the wall clock, to the second).
	Since time.Time
}

// String: "stacksim serve (pid 4242, on 127.0.0.1:4599, since
// 2025-12-01T20:01:03Z)"; "process 4242" when only the pid is known;
// "another process" when nothing is.
func (h Holder) String() string {
	if h.Command == "" {
		if h.PID > 0 {
			return fmt.Sprintf("process %d", h.PID)
		}
		return "another process"
	}
	parts := []string{}
	if h.PID > 0 {
		parts = append(parts, fmt.Sprintf("pid %d", h.PID))
	}
	if h.Detail != "" {
		parts = append(parts, h.Detail)
	}
	if !h.Since.IsZero() {
		parts = append(parts, "since "+h.Since.UTC().Format(time.RFC3339))
	}
	if len(parts) == 0 {
		return h.Command
	}
	return h.Command + " (" + strings.Join(parts, ", ") + ")"
}

// LockedError: another process holds the state file.
type LockedError struct {
	Path     string
	LockPath string
	// Holder is the process that holds the lock, as its lock file
	// describes it (zero when it wrote nothing yet).
	Holder Holder
	// PID is Holder.PID.
	PID int
	// Waited is how long Open waited for the lock (LockOptions.Wait).
	Waited time.Duration
	// Hint replaces the advice of the message (the CLI names its flags;
	// where the lock can outlive its process, it says so).
	Hint string
}

func (e *LockedError) Error() string {
	hint := e.Hint
	if hint == "" {
		hint = "wait for it to finish, or use another state file"
	}
	waited := "it holds its lock " + e.LockPath
	if e.Waited > 0 {
		waited = fmt.Sprintf("waited %s for its lock %s", e.Waited, e.LockPath)
	}
	return fmt.Sprintf("state file %s is in use by %s: %s; %s", e.Path, e.Holder, waited, hint)
}

// maxPoll is the longest pause between two tries of a held lock; the
// first pauses are shorter (1 ms, doubling), so that a lock released soon
// is taken soon.
const maxPoll = 50 * time.Millisecond

// maxRecordBytes bounds the record of a lock file: a larger lock file is
// not one stacksim wrote.
const maxRecordBytes = 4096

// acquireLock takes the lock of the state file at path, waiting for it as
// opts say.
func acquireLock(path string, opts LockOptions) (*stateLock, error) {
	lockPath := path + ".lock"
	me := Holder{PID: os.Getpid(), Command: opts.Command, Detail: opts.Detail}
	if me.Command == "" {
		me.Command = filepath.Base(os.Args[0])
	}
	start := time.Now()
	pause := time.Millisecond
	for waiting := false; ; waiting = true {
		me.Since = time.Now().UTC().Truncate(time.Second)
		l, holder, err := tryLock(path, lockPath, me)
		if err != nil || l != nil {
			return l, err
		}
		left := opts.Wait - time.Since(start)
		if left <= 0 {
			return nil, lockedError(path, lockPath, holder, opts.Wait)
		}
		if !waiting && opts.OnWait != nil {
			opts.OnWait(holder)
		}
		time.Sleep(min(pause, left))
		pause = min(2*pause, maxPoll)
	}
}

// lockRecord is what a lock file holds while its lock is held: one line
// of JSON, which starts with recordMark.
type lockRecord struct {
	Mark    int    `json:"stacksim-lock"`
	PID     int    `json:"pid"`
	Command string `json:"command,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Since   string `json:"since,omitempty"`
}

const recordMark = `{"stacksim-lock":`

func encodeRecord(h Holder) []byte {
	data, _ := json.Marshal(lockRecord{Mark: 1, PID: h.PID, Command: h.Command, Detail: h.Detail, Since: h.Since.Format(time.RFC3339)})
	return append(data, '\n')
}

// parseRecord reads the holder from a lock file's bytes: a record, or
// the bare pid that earlier versions wrote. What it cannot read is an
// unknown holder.
func parseRecord(data []byte) Holder {
	text := bytes.TrimSpace(data)
	if pid, err := strconv.Atoi(string(text)); err == nil && pid > 0 {
		return Holder{PID: pid}
	}
	var r lockRecord
	if json.Unmarshal(text, &r) != nil || r.Mark == 0 {
		return Holder{}
	}
	h := Holder{PID: r.PID, Command: r.Command, Detail: r.Detail}
	h.Since, _ = time.Parse(time.RFC3339, r.Since)
	return h
}

// isOurs says whether a lock file's bytes are stacksim's to overwrite:
// nothing (a lock file nobody holds, or one whose holder died before it
// wrote), a record, or the bare pid of earlier versions. Anything else is
// someone's file, and is never changed.
func isOurs(data []byte) bool {
	text := bytes.Trim(data, " \t\r\n\x00")
	if len(text) == 0 {
		return true
	}
	if bytes.HasPrefix(text, []byte(recordMark)) {
		return true
	}
	_, err := strconv.Atoi(string(text))
	return err == nil
}

// notOurs is the error for a lock path that holds what stacksim did not
// write, or that is not a plain file.
func notOurs(path, lockPath, what string) error {
	return &Error{Path: path, Problem: fmt.Sprintf("its lock file %s %s", lockPath, what),
		Hint: "stacksim writes only a lock file of its own there, and leaves this one as it is: move it away, or use another state file"}
}

// holderOf reads who holds a lock from its lock file (an unknown holder
// when it cannot be read).
func holderOf(lockPath string) Holder {
	data, err := readfile.Read(lockPath, readfile.Limit{Max: maxRecordBytes, What: "a lock file"})
	if err != nil {
		return Holder{}
	}
	return parseRecord(data)
}
