package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/paramstore"
)

// defaultStatePath is where the state lives unless --state says otherwise,
// relative to the current directory.
const defaultStatePath = ".stacksim/state.json"

// engineOptions builds the engine's options from the global flags.
func (a *app) engineOptions() (engine.Options, error) {
	opts := engine.Options{Seed: a.seed, Logger: a.log, SchemaDir: a.schemas, CustomResponseWait: 30 * time.Second}
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
	if a.schemas != "" {
		if st, err := os.Stat(a.schemas); err != nil || !st.IsDir() {
			return opts, badInput(fmt.Errorf("--schemas %s: not a directory", a.schemas))
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
	if a.s3Dir != "" {
		if st, err := os.Stat(a.s3Dir); err != nil || !st.IsDir() {
			return opts, badInput(fmt.Errorf("--s3-dir %s: not a directory", a.s3Dir))
		}
		opts.S3Dir = a.s3Dir
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
	if _, err := os.Stat(a.statePath); errors.Is(err, fs.ErrNotExist) {
		return engine.New(opts)
	}
	e, err := engine.OpenReadOnly(a.statePath, opts)
	if err != nil {
		return nil, badInput(err)
	}
	return e, nil
}

// session is a state file opened for writing: locked until close.
type session struct {
	e          *engine.Engine
	path       string
	createdDir string // the directory open made, "" when it existed
	existed    bool   // the state file existed when opened
}

// openWrite opens the state for a command that changes it: the file is
// locked, and its directory made when needed. --seed applies to a new
// state only; a loaded state keeps its seed, and a different --seed is
// reported.
func (a *app) openWrite() (*session, error) {
	opts, err := a.engineOptions()
	if err != nil {
		return nil, err
	}
	s := &session{path: a.statePath}
	_, statErr := os.Stat(a.statePath)
	s.existed = statErr == nil
	dir := filepath.Dir(a.statePath)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, badInput(fmt.Errorf("state file %s: cannot make its directory: %w", a.statePath, err))
		}
		s.createdDir = dir
	}
	e, err := engine.Open(a.statePath, opts)
	if err != nil {
		s.cleanUp()
		return nil, badInput(err)
	}
	s.e = e
	if a.root.PersistentFlags().Changed("seed") && s.existed && e.Seed() != a.seed {
		fmt.Fprintf(a.stderr, "stacksim: --seed %d ignored: the state file %s was made with seed %d, which it keeps\n", a.seed, a.statePath, e.Seed())
	}
	return s, nil
}

// save writes the state file (atomically).
func (s *session) save() error {
	if err := s.e.Save(); err != nil {
		return fmt.Errorf("saving the state: %w", err)
	}
	s.existed = true
	return nil
}

// close releases the lock. A state that was never written leaves nothing
// behind: no lock file, no directory.
func (s *session) close() {
	if s.e != nil {
		_ = s.e.Close()
	}
	s.cleanUp()
}

func (s *session) cleanUp() {
	if _, err := os.Stat(s.path); err == nil {
		return
	}
	_ = os.Remove(s.path + ".lock")
	if s.createdDir != "" {
		_ = os.Remove(s.createdDir)
	}
}
