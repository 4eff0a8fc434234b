package engine

import (
	"fmt"

	"github.com/stacksim/stacksim/engine/statefile"
	"github.com/stacksim/stacksim/engine/store"
)

// Open opens the state file at path for writing: it takes the file's lock
// (a sibling PATH.lock, held until Close, so that a second process cannot
// write the same state), then opens the state, or starts an empty world
// when no file exists yet (the file is written by the first Save).
//
// A state file (format 2, docs/state-format.md) is read by need: a call
// reads the rows it uses, and Save writes the rows that changed. A file of
// format 1 (the JSON of stacksim before it) is read whole, checked against
// every invariant, and upgraded by the first Save (the old file is kept
// beside it as PATH.v1.json).
//
// The state's identity (region, account, partition, seed) wins over opts':
// a world keeps the account and seed it was made with. A file that is not a
// state file of this version, or is damaged, is refused with a *StateError
// and left as it is; a file another process holds is refused with a
// *StateLockedError naming it, once opts.StateLock.Wait has passed.
func Open(path string, opts Options) (*Engine, error) {
	return openState(path, opts, false, statefile.OSFS())
}

// OpenReadOnly opens the state file at path without taking its lock: it
// waits (up to opts.StateLock.Wait) while a writer has the file open, and
// keeps the writers out while it reads. Save refuses.
func OpenReadOnly(path string, opts Options) (*Engine, error) {
	return openState(path, opts, true, statefile.OSFS())
}

func openState(path string, opts Options, readOnly bool, fsys statefile.FileSystem) (*Engine, error) {
	sf, st, err := statefile.Open(path, statefile.Options{ReadOnly: readOnly, FS: fsys, Lock: opts.StateLock})
	if err != nil {
		return nil, err
	}
	var e *Engine
	switch {
	case st == nil:
		e, err = New(opts)
	case sf.Format == 1:
		e, err = loadEngine(path, opts, st)
	default:
		// A database is read by need: its rows are checked (checksums)
		// when they are read, and a call that meets a damaged one fails
		// and saves nothing (Store.Err). Its rows were written by
		// stacksim from states that passed its checks; a JSON state
		// (format 1, state import) is checked in full when it is read.
		e, err = newEngine(opts.withDefaults(), st)
	}
	if err != nil {
		_ = sf.Close()
		return nil, err
	}
	e.file = sf
	return e, nil
}

// Save writes what changed since the state was opened (or last saved) to
// the file the engine was opened from, in one transaction: all of it, or —
// when the save fails at any point, or the process dies during it —
// nothing. The first save of a new state writes the whole file.
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
	if err := e.file.Save(e.st); err != nil {
		return err
	}
	// Every row is in the file now: the deleted stacks' rows can leave
	// memory (a read that needs them reads them from the file).
	if _, err := e.st.ShedDeleted(); err != nil {
		e.broken = err
		return err
	}
	e.publishSaved()
	return nil
}

// UpgradedFrom names the copy of a state file of format 1 that the first
// Save kept when it upgraded the file ("" when it did not).
func (e *Engine) UpgradedFrom() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.file == nil {
		return ""
	}
	return e.file.Upgraded
}

// StatePath is the state file the engine was opened from ("" when none).
func (e *Engine) StatePath() string {
	if e.file == nil {
		return ""
	}
	return e.file.Path
}

// MarshalState returns the whole state as readable, stable JSON (format
// 1: what `stacksim state export` writes; NewFromState and `stacksim state
// import` read it back). A state read by need is read whole first.
func (e *Engine) MarshalState() ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return nil, e.broken
	}
	if err := e.st.LoadAll(); err != nil {
		return nil, err
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

// ImportState writes a state given as JSON (MarshalState's, `stacksim
// state export`'s, or a state file of format 1) as the state file at path.
// The JSON is checked in full (format, then every invariant) before
// anything is written; a file at path is refused unless replace. source
// names the JSON in errors: a refusal of its content (a *StateError with
// Import set) names it, not the state file, which it leaves untouched.
func ImportState(path, source string, data []byte, replace bool, opts Options) error {
	st, err := statefile.DecodeExport(source, data)
	if err != nil {
		return err
	}
	e, err := loadEngine(source, opts, st)
	if err != nil {
		return statefile.AsImportError(err)
	}
	defer e.Close()
	return statefile.Create(path, st, replace, statefile.Options{Lock: opts.StateLock})
}

// StateVersionFrom is the database version (2 or 3) that a Save of this
// engine moved the state file from to the version this stacksim writes
// (StateVersion), or 0 when none did: a stacksim of the older version
// cannot read the file since.
func (e *Engine) StateVersionFrom() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.file == nil {
		return 0
	}
	return e.file.VersionFrom()
}

// StateVersion is the database version of the state files this stacksim
// writes.
const StateVersion = statefile.DBVersion

// StateVersionChange says what a state file of version from gained when a
// save moved it to StateVersion.
func StateVersionChange(from int) string {
	if from <= 2 {
		return "cloud objects under their stacks, so that saves in large accounts write less; events record the operation that wrote them"
	}
	return "events record the operation that wrote them"
}
