package faults

import (
	"fmt"
	"path"

	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/resources"
)

// Always is Times for a fault that never wears out.
const Always = -1

// Kind names a fault's effect.
type Kind string

// The effects a fault can have.
const (
	// Fail answers FAILED with Code and Message, before the handler runs
	// (or, with After, in place of the handler's SUCCESS: the resource
	// exists but the engine is told it failed).
	Fail Kind = "fail"
	// Throttle answers FAILED Throttling ("Rate exceeded"), a retriable
	// code, Count times.
	Throttle Kind = "throttle"
	// Stall holds the handler's SUCCESS back for Callbacks IN_PROGRESS
	// events of DelaySeconds each.
	Stall Kind = "stall"
	// EventualConsistency answers NotFound to the first Reads reads after
	// each create that succeeds.
	EventualConsistency Kind = "eventualConsistency"
	// NoResponse never answers: the provider returns resources.ErrNoResponse
	// and the engine waits for the action's timeout.
	NoResponse Kind = "noResponse"
	// Panic makes the handler panic with Message.
	Panic Kind = "panic"
	// NewPhysicalID answers an update's SUCCESS with another physical id
	// (the cfn-response log stream bug of seed 004: the engine replaces the
	// resource and deletes the old id in cleanup).
	NewPhysicalID Kind = "newPhysicalId"
)

// Match selects the invocations a fault applies to. Empty fields match
// everything.
type Match struct {
	// LogicalID and Type are globs (path.Match: "*", "?", "[a-z]").
	LogicalID string
	Type      string
	Actions   []resources.Action
	Phases    []resources.Phase
	// Attempt, when not 0, matches only that attempt (1 is the first call
	// of an action; each retry after a retriable failure adds one).
	Attempt int
}

// Fault is one entry of a fault file.
type Fault struct {
	// Name identifies the fault in logs and messages ("fault 2" when empty).
	Name  string
	Match Match
	Kind  Kind
	// Times is how many matching invocations the fault affects (Always for
	// every one). Counts are kept per logical id, action and phase.
	Times int

	Code         resources.HandlerErrorCode // Fail
	Message      string                     // Fail, Panic
	After        bool                       // Fail
	Callbacks    int                        // Stall
	DelaySeconds int64                      // Stall
	Reads        int                        // EventualConsistency
	// Service, ServiceCode and StatusCode make a Fail a raw service error
	// (fail.service: the service's name, its error code, the HTTP status),
	// reported without the handler's wrapper.
	Service     string `json:",omitempty"`
	ServiceCode string `json:",omitempty"`
	StatusCode  int    `json:",omitempty"`

	// Pos is where the fault is written ("faults.yaml:12:5"), for messages.
	Pos string
}

func (f *Fault) label() string {
	if f.Name != "" {
		return readfile.Excerpt(f.Name)
	}
	return "fault at " + f.Pos
}

// check validates a fault built in Go (the loader reports positions itself).
func (f *Fault) check() error {
	if f.Match.LogicalID != "" {
		if _, err := path.Match(f.Match.LogicalID, ""); err != nil {
			return fmt.Errorf("%s: logicalId %q is not a valid glob: %v", f.label(), readfile.Capped(f.Match.LogicalID), err)
		}
	}
	if f.Match.Type != "" {
		if _, err := path.Match(f.Match.Type, ""); err != nil {
			return fmt.Errorf("%s: type %q is not a valid glob: %v", f.label(), readfile.Capped(f.Match.Type), err)
		}
	}
	switch f.Kind {
	case Fail:
		if !f.Code.Valid() {
			return fmt.Errorf("%s: fail code %q is not a handler error code; use one of %v", f.label(), readfile.Capped(f.Code), resources.ErrorCodes())
		}
	case Throttle, NoResponse, Panic:
	case Stall:
		if f.Callbacks <= 0 || f.DelaySeconds < 0 {
			return fmt.Errorf("%s: stall needs callbacks ≥ 1 and delaySeconds ≥ 0", f.label())
		}
		for _, a := range f.Match.Actions {
			if a == resources.ActionRead || a == resources.ActionList {
				return fmt.Errorf("%s: stall applies to create, update and delete (read and list never answer IN_PROGRESS)", f.label())
			}
		}
	case EventualConsistency:
		if f.Reads <= 0 {
			return fmt.Errorf("%s: eventualConsistency needs reads ≥ 1", f.label())
		}
	case NewPhysicalID:
	default:
		return fmt.Errorf("%s: unknown effect %q", f.label(), f.Kind)
	}
	if f.Times == 0 || f.Times < Always {
		return fmt.Errorf("%s: times must be a positive count or always", f.label())
	}
	return nil
}

// matches reports whether the fault selects an invocation.
func (f *Fault) matches(typeName string, req *resources.Request) bool {
	m := f.Match
	if m.LogicalID != "" {
		if ok, _ := path.Match(m.LogicalID, req.LogicalResourceIdentifier); !ok {
			return false
		}
	}
	if m.Type != "" {
		if ok, _ := path.Match(m.Type, typeName); !ok {
			return false
		}
	}
	if len(m.Actions) > 0 && !containsAction(m.Actions, req.Action) {
		return false
	}
	if len(m.Phases) > 0 {
		found := false
		for _, p := range m.Phases {
			if p == req.Phase {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	attempt := req.Attempt
	if attempt == 0 {
		attempt = 1
	}
	return m.Attempt == 0 || m.Attempt == attempt
}

func containsAction(list []resources.Action, a resources.Action) bool {
	for _, x := range list {
		if x == a {
			return true
		}
	}
	return false
}
