package scenario

import (
	"context"
	"time"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
)

// Scenario is a story to replay: operations on stacks with their templates,
// parameters, faults and service tokens, and what must hold after each
// step. The file format is documented in docs/scenarios.md.
type Scenario struct {
	// File is the scenario file's path; templates, fault files and
	// commands are found relative to its directory.
	File        string
	Name        string
	Description string
	Seed        int64
	// Contract is the handler contract checker's mode: off, report (the
	// default: violations are counted, expect contractViolations) or
	// strict.
	Contract engine.ContractMode
	// Signals says who signals a resource waiting for signals
	// (engine.Options.Signals): auto (the default) or manual (the
	// scenario's SignalResource steps).
	Signals string
	// ServiceTokens maps custom resource ServiceTokens to their targets.
	ServiceTokens map[string]resources.CustomTarget
	// SSMParameters and Secrets are what the account's parameter store
	// and Secrets Manager hold outside any stack; S3Dir stands for S3
	// (engine.Options).
	SSMParameters map[string]string
	// Alarms are the states of CloudWatch alarms of the account, by name,
	// which rollback triggers watch (engine.Options.Alarms).
	Alarms  map[string]string
	Secrets map[string]string
	S3Dir   string
	// Handlers serve resource types with handler processes.
	Handlers []HandlerSpec
	// responders are the built-in targets, whose requests the log shows.
	responders []*Responder
	Steps      []*Step
}

// Step is one entry of the steps list.
type Step struct {
	// Pos is the step's position in the file ("scenario.yaml:12:5").
	Pos  string
	line int
	// Op is an API call (its Name is CreateStack, UpdateStack...), or nil.
	Op *Operation
	// Step advances a stack in motion by Events of its events (0: to rest).
	Step *StepSpec
	// Advance moves virtual time forward, running what is due.
	Advance time.Duration
	// Note is written into the log as it is.
	Note string
	// Expect is checked after the step.
	Expect *Expect
}

// Operation is an API call of a step.
type Operation struct {
	Name      string
	StackName string
	// Input is the engine's input struct (*engine.CreateStackInput...),
	// Extensions included.
	Input any
	// StopAt stops the operation right after the event LOGICAL_ID:STATUS
	// (the stack's name for a stack status), leaving it in motion.
	StopAt string
	stopAt *Until
	Faults []faults.Fault
	call   func(ctx context.Context, e *engine.Engine) error
	runs   bool // the call starts an operation to run
}

// StepSpec is a `step:` entry.
type StepSpec struct {
	Stack  string
	Events int // 0: to rest
}
