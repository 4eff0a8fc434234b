package engine

import (
	"fmt"

	"github.com/stacksim/stacksim/engine/statefile"
	"github.com/stacksim/stacksim/engine/store"
)

// Open opens the state file at path for writing: it takes the file's lock
// (a sibling PATH.lock, held until Close, so that a second process cannot
// write the same state), then loads the state, or starts an empty world
// when no file exists yet (the file is written by the first Save).
//
// The state's identity (region, account, partition, seed) wins over opts':
// a world keeps the account and seed it was made with. A file that is not a
// state file of this version, or is damaged, is refused with a *StateError
// and left as it is; a file another process holds is refused with a
// *StateLockedError naming it, once opts.StateLock.Wait has passed.
func Open(path string, opts Options) (*Engine, error) {
	return openState(path, opts, false, statefile.OSFS())
}

// OpenReadOnly loads the state file at path without taking its lock (saves
// are atomic renames, so a reader sees a whole state). Save refuses.
func OpenReadOnly(path string, opts Options) (*Engine, error) {
	return openState(path, opts, true, statefile.OSFS())
}

func openState(path string, opts Options, readOnly bool, fsys statefile.FileSystem) (*Engine, error) {
	sf, st, err := statefile.Open(path, statefile.Options{ReadOnly: readOnly, FS: fsys, Lock: opts.StateLock})
	if err != nil {
		return nil, err
	}
	var e *Engine
	if st == nil {
		e, err = New(opts)
	} else {
		e, err = loadEngine(path, opts, st)
	}
	if err != nil {
		_ = sf.Close()
		return nil, err
	}
	e.file = sf
	return e, nil
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
	if e.file.ReadOnly {
		return fmt.Errorf("state file %s: opened read-only (OpenReadOnly): open it with Open to save", e.file.Path)
	}
	if e.broken != nil {
		return e.broken
	}
	data, err := statefile.Encode(e.st)
	if err != nil {
		return fmt.Errorf("state file %s: %w", e.file.Path, err)
	}
	return e.file.Write(data)
}

// StatePath is the state file the engine was opened from ("" when none).
func (e *Engine) StatePath() string {
	if e.file == nil {
		return ""
	}
	return e.file.Path
}

// MarshalState returns the state as the state file holds it.
func (e *Engine) MarshalState() ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return nil, e.broken
	}
	return statefile.Encode(e.st)
}

// NewFromState returns an engine with the state MarshalState returned. The
// state's identity wins over opts'.
func NewFromState(data []byte, opts Options) (*Engine, error) {
	const path = "(in memory)"
	st, err := statefile.Decode(path, data)
	if err != nil {
		return nil, err
	}
	return loadEngine(path, opts, st)
}

// loadEngine builds the engine around a store read from a state file, and
// refuses a store that breaks the engine's invariants: a file that was
// damaged or edited into a world the engine could not have made, which
// would fail later commands with internal errors (or leave a stack stuck
// in motion) instead of being refused now.
func loadEngine(path string, opts Options, st *store.Store) (*Engine, error) {
	e, err := newEngine(opts.withDefaults(), st)
	if err != nil {
		return nil, err
	}
	var problems []string
	err = e.view(func(tx *txn) error {
		problems = e.invariants(tx)
		return nil
	})
	if err == nil && len(problems) > 0 {
		err = statefile.Inconsistent(path, problems)
	}
	if err != nil {
		_ = e.reg.Close()
		return nil, err
	}
	return e, nil
}

// StateError says why a state file was refused: what is wrong, where, and
// what to do (engine/statefile).
type StateError = statefile.Error

// StateLockedError: another process holds the state file (engine/statefile).
type StateLockedError = statefile.LockedError

// StateLockOptions say how Open waits for a state file's lock and how the
// process describes itself to others (Options.StateLock).
type StateLockOptions = statefile.LockOptions

// StateLockHolder describes the process that holds a state file's lock
// (StateLockedError.Holder).
type StateLockHolder = statefile.Holder
