package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/paramstore"
)

// defaultStatePath is where the state lives unless --state says otherwise,
// relative to the current directory. legacyStatePath is where versions of
// stacksim before the state database kept it (JSON, format 1): when only
// it exists, the first command that writes moves it to defaultStatePath,
// where its save upgrades it (useState).
const (
	defaultStatePath = ".stacksim/state.db"
	legacyStatePath  = ".stacksim/state.json"
)

// useState settles the state path when --state was not given and only the
// state of an earlier version exists: a reader reads it where it is; a
// writer moves it to the default path first (its first save upgrades it
// there, keeping the JSON as state.db.v1.json).
func (a *app) useState(write bool) {
	if a.root.PersistentFlags().Changed("state") || a.statePath != defaultStatePath {
		return
	}
	if _, err := os.Stat(defaultStatePath); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	if _, err := os.Stat(legacyStatePath); err != nil {
		return
	}
	if !write {
		a.statePath = legacyStatePath
		return
	}
	if err := os.Rename(legacyStatePath, defaultStatePath); err == nil {
		fmt.Fprintf(a.stderr, "stacksim: moved the state of an earlier version, %s, to %s (it is upgraded when saved)\n", legacyStatePath, defaultStatePath)
	}
}

// defaultLockTimeout is --lock-timeout's default: long enough for the
// other command to finish (most take milliseconds; one waiting for a
// custom resource's answer may take longer), short enough that a state
// held by a process that runs on (stacksim serve) is reported soon.
const defaultLockTimeout = 5 * time.Second

// engineOptions builds the engine's options from the global flags.
func (a *app) engineOptions() (engine.Options, error) {
	opts := engine.Options{Seed: a.seed, Logger: a.log, SchemaDir: a.schemas, PermissiveTypes: a.permissive, CustomResponseWait: 30 * time.Second, Region: a.aws.region}
	if a.stackLimit < 1 {
		return opts, badInput(fmt.Errorf("--stack-limit %d: want a number of stacks of 1 or more (AWS's default quota is %d)", a.stackLimit, engine.DefaultStackLimit))
	}
	opts.StackLimit = a.stackLimit
	switch a.contract {
	case "off", "":
		opts.Contract = engine.ContractOff
	case "report":
		opts.Contract = engine.ContractReport
	case "strict":
		opts.Contract = engine.ContractStrict
	default:
		return opts, badInput(fmt.Errorf("--contract %q: want off, report or strict", a.contract))
	}
	switch a.signals {
	case engine.SignalsAuto, engine.SignalsManual:
		opts.Signals = a.signals
	default:
		return opts, badInput(fmt.Errorf("--signals %q: want auto or manual", a.signals))
	}
	if a.schemas != "" {
		if err := checkDir("--schemas", a.schemas); err != nil {
			return opts, badInput(err)
		}
	}
	tokens, err := parseServiceTokens(a.serviceTokens)
	if err != nil {
		return opts, badInput(err)
	}
	opts.ServiceTokens = tokens
	if opts.SSMParameters, err = paramstore.ParseAssignments("--ssm-parameter", a.ssmParameters, paramstore.CheckUserName); err != nil {
		return opts, badInput(err)
	}
	if opts.Secrets, err = paramstore.ParseAssignments("--secret", a.secrets, paramstore.CheckSecretName); err != nil {
		return opts, badInput(err)
	}
	if opts.Alarms, err = parseAlarms(a.alarms); err != nil {
		return opts, badInput(err)
	}
	opts.S3Endpoints = a.s3Endpoints
	if a.s3Dir != "" {
		if err := checkDir("--s3-dir", a.s3Dir); err != nil {
			return opts, badInput(err)
		}
		opts.S3Dir = a.s3Dir
	}
	if opts.Handlers, err = a.engineHandlers(); err != nil {
		return opts, badInput(err)
	}
	return opts, nil
}

// openRead opens the state for a command that only reads it. Without a
// state file the world is empty.
func (a *app) openRead() (*engine.Engine, error) {
	opts, err := a.engineOptions()
	if err != nil {
		return nil, err
	}
	a.useState(false)
	if _, err := os.Stat(a.statePath); errors.Is(err, fs.ErrNotExist) {
		return engine.New(opts)
	}
	// A reader waits, up to --lock-timeout, only while a writer saves.
	opts.StateLock = engine.StateLockOptions{Wait: max(a.lockTimeout, 0)}
	e, err := engine.OpenReadOnly(a.statePath, opts)
	if err != nil {
		var locked *engine.StateLockedError
		if errors.As(err, &locked) {
			locked.Hint = a.lockHint(locked.Hint)
		}
		return nil, badInput(err)
	}
	if err := a.checkRegion(e.Region()); err != nil {
		_ = e.Close()
		return nil, err
	}
	return e, nil
}

// session is a state file opened for writing: locked until close.
type session struct {
	e       *engine.Engine
	path    string
	existed bool // the state file existed when opened
	stderr  io.Writer
	// pubs receive what CloudFormation publishes of the events saved
	// (--notifications, --eventbridge).
	pubs *publications
}

// openWrite opens the state for a command that changes it: the file is
// locked (waiting --lock-timeout for another writer), and its directory
// made when needed. The directory and the lock file stay, even when the
// command saves nothing: a lock file removed while another process waits
// on it would let two writers in. --seed applies to a new state only; a
// loaded state keeps its seed, and a different --seed is reported.
func (a *app) openWrite() (*session, error) {
	opts, err := a.engineOptions()
	if err != nil {
		return nil, err
	}
	if a.lockTimeout < 0 {
		return nil, badInput(fmt.Errorf("--lock-timeout %s: want a duration of 0 or more (5s, 1m; 0 does not wait)", a.lockTimeout))
	}
	opts.StateLock = engine.StateLockOptions{Wait: a.lockTimeout, Command: a.commandPath,
		OnWait: func(h engine.StateLockHolder) {
			fmt.Fprintf(a.stderr, "stacksim: state file %s is in use by %s; waiting up to %s for it (--lock-timeout)\n", a.statePath, h, a.lockTimeout)
		}}
	a.useState(true)
	s := &session{path: a.statePath, stderr: a.stderr}
	_, statErr := os.Stat(a.statePath)
	s.existed = statErr == nil
	if err := os.MkdirAll(filepath.Dir(a.statePath), 0o755); err != nil {
		return nil, badInput(fmt.Errorf("state file %s: cannot make its directory: %w", a.statePath, err))
	}
	pubs, err := a.openPublications()
	if err != nil {
		return nil, err
	}
	e, err := engine.Open(a.statePath, opts)
	if err != nil {
		_ = pubs.close()
		var locked *engine.StateLockedError
		if errors.As(err, &locked) {
			locked.Hint = a.lockHint(locked.Hint)
		}
		return nil, badInput(err)
	}
	s.e = e
	s.pubs = pubs
	pubs.subscribe(e)
	if err := a.checkRegion(e.Region()); err != nil {
		s.close()
		return nil, err
	}
	if a.root.PersistentFlags().Changed("seed") && s.existed && e.Seed() != a.seed {
		fmt.Fprintf(a.stderr, "stacksim: --seed %d ignored: the state file %s was made with seed %d, which it keeps\n", a.seed, a.statePath, e.Seed())
	}
	return s, nil
}

// openMemory opens an account held in memory only, for serve --in-memory:
// no state file is read, locked or written, and the account is gone when
// the process ends. It takes the engine options every command takes.
func (a *app) openMemory() (*session, error) {
	opts, err := a.engineOptions()
	if err != nil {
		return nil, err
	}
	pubs, err := a.openPublications()
	if err != nil {
		return nil, err
	}
	e, err := engine.New(opts)
	if err != nil {
		_ = pubs.close()
		return nil, badInput(err)
	}
	s := &session{e: e, stderr: a.stderr, pubs: pubs}
	pubs.subscribe(e)
	return s, nil
}

// lockHint is the advice of a *StateLockedError, in the CLI's words; an
// advice of the engine's own (a lock that can outlive its process) is
// kept before it.
func (a *app) lockHint(engineHint string) string {
	hint := fmt.Sprintf("run the command again when it is done, wait longer with --lock-timeout (now %s), or use another --state file", a.lockTimeout)
	if engineHint != "" {
		hint = engineHint + "; or " + hint
	}
	return hint
}

// save writes the state file (atomically).
func (s *session) save() error {
	had, hadFrom := s.e.UpgradedFrom(), s.e.StateVersionFrom()
	if err := s.e.Save(); err != nil {
		// A save is all or nothing: the file is as it was (exit 2,
		// without cobra's usage hint, which is about flags).
		return badInput(fmt.Errorf("saving the state: %w", err))
	}
	if copy := s.e.UpgradedFrom(); copy != "" && had == "" {
		fmt.Fprintf(s.stderr, "stacksim: upgraded the state file %s to format 2 (a database, read by need); the JSON it held is kept as %s ('stacksim state export' writes it again)\n", s.path, copy)
	}
	if v := s.e.StateVersionFrom(); v != 0 && hadFrom == 0 {
		what := fmt.Sprintf("the state file %s is version %d now, from version %d", s.path, engine.StateVersion, v)
		if v == 2 {
			what = fmt.Sprintf("laid the state file %s out anew, from version %d to %d", s.path, v, engine.StateVersion)
		}
		fmt.Fprintf(s.stderr, "stacksim: %s (%s); a stacksim from before 2026-12-02 cannot read it now ('stacksim state export' writes it as JSON, which every version reads)\n",
			what, engine.StateVersionChange(v))
	}
	s.existed = true
	return nil
}

// saveUnlessInternal ends a command that ran the loop: the state is saved,
// unless the run failed with an internal error (a bug of the engine), in
// which case nothing is written — the command changes nothing on disk, as
// its exit status says — and that error is returned. Any other error of
// the run is returned after the save.
func (s *session) saveUnlessInternal(runErr error) error {
	var ie *engine.InternalError
	if errors.As(runErr, &ie) {
		return runErr
	}
	if err := s.save(); err != nil {
		return err
	}
	return runErr
}

// close releases the lock. The lock file and the directory stay (see
// openWrite).
func (s *session) close() {
	if s.e != nil {
		_ = s.e.Close()
	}
	if err := s.pubs.close(); err != nil {
		fmt.Fprintf(s.stderr, "stacksim: %v (the state was saved; what its events publish is not all in the file)\n", err)
	}
}
