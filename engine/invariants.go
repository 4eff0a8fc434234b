package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
)

// Invariants: what must hold of the simulated world whatever happened. The
// tests check them after every operation; users and the CLI can too
// (`stacksim check`); and a state file is checked against them when it is
// loaded, so that a damaged or edited file is refused instead of wedging
// the account.

// InvariantError lists what does not hold. Each problem begins with where
// it is: the table and the key of the row (stacks/app, events/app#12,
// resources/app/Queue, objects/AWS::SQS::Queue/URL, tasks/#7...).
type InvariantError struct {
	Problems []string
}

func (e *InvariantError) Error() string {
	return fmt.Sprintf("%d invariant(s) broken:\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// CheckInvariants checks the world. Of every stack (invariants_stack.go):
//
//   - its events follow legal transitions of the stack machine, from the
//     first (NotExist) to its status now, never back in time;
//   - each resource's status is the one its last event gave it;
//   - a stack at rest has no operation in motion, and no resource in
//     motion; a stack in motion has its operation, with a plan, and a task
//     queued to move it on;
//   - the template of a live stack at rest binds; a stack at rest in
//     CREATE_COMPLETE, UPDATE_COMPLETE or UPDATE_ROLLBACK_COMPLETE matches
//     it: every resource of the template exists, complete, with the
//     properties the template resolves to now (so a completed rollback has
//     put back the previous properties of every resource it touched), and
//     the stack holds nothing else. Two exceptions: a stack whose update
//     started from CREATE_FAILED or UPDATE_FAILED and rolled back went back
//     to where it was, which no template describes; and the properties of
//     a resource ContinueUpdateRollback skipped are not compared (its
//     record holds the rolled-back-to template's properties, its real
//     object what the failed rollback left: docs/planning.md; state files
//     written before that rule recorded the real properties);
//   - a DELETE_COMPLETE stack holds no resource that is not DELETE_COMPLETE
//     or DELETE_SKIPPED (retained), and no old physical resource;
//   - a stack at rest that an update may start from holds no resource
//     without a physical id whose old physical resource still stands (the
//     planner would take it as never created).
//
// Of the account (invariants_account.go):
//
//   - no simulated object leaks: every object a stack made belongs to a
//     resource of a stack (current, or an old physical resource awaiting
//     its cleanup), or was released — retained and reported DELETE_SKIPPED,
//     or orphaned by a delete that failed in a cleanup phase (reported
//     DELETE_FAILED; AWS leaves those behind too);
//   - no simulated object is owned twice: by two live resources, or by one
//     and released too (an import adopts a released object, and releases
//     it again when it rolls back);
//   - every export is an output of the live stack that makes it, and every
//     import names an export that exists;
//   - every queued task is of a kind the engine runs, and names a stack
//     that exists;
//   - the clock is not behind anything that happened.
//
// It returns an *InvariantError, or nil.
func (e *Engine) CheckInvariants(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	var problems []string
	err := e.view(func(tx *txn) error {
		problems = e.invariants(tx)
		return nil
	})
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return &InvariantError{Problems: problems}
	}
	return nil
}

// invariants lists the problems of the world as tx sees it.
func (e *Engine) invariants(tx *txn) []string {
	c := &checker{e: e, tx: tx}
	stacks := tx.AllStacks()
	for _, st := range stacks {
		c.stack(st)
	}
	c.account(stacks)
	return c.problems
}

// checker gathers problems.
type checker struct {
	e        *Engine
	tx       *txn
	problems []string
}

// add records a problem found at where (table/key).
func (c *checker) add(where, format string, args ...any) {
	c.problems = append(c.problems, where+": "+fmt.Sprintf(format, args...))
}

// Where a row is, as problems name it.
func whereStack(st *store.StackRecord) string { return "stacks/" + st.StackName }
func whereEvent(st *store.StackRecord, seq uint64) string {
	return fmt.Sprintf("events/%s#%d", st.StackName, seq)
}
func whereResource(st *store.StackRecord, r *store.ResourceRecord) string {
	if r.Retired != "" {
		return "retired/" + st.StackName + "/" + r.LogicalResourceId + "/" + r.PhysicalResourceId
	}
	return "resources/" + st.StackName + "/" + r.LogicalResourceId
}

// weakUnchecked resolves as the live stack does, except Fn::GetStackOutput,
// whose value is weakMarker.
type weakUnchecked struct{ liveResolver }

// weakMarker stands for a value read by Fn::GetStackOutput.
const weakMarker = "\x00stacksim:weak-reference\x00"

func (weakUnchecked) GetStackOutput(_, _, _, _ string) (any, error) { return weakMarker, nil }

// holdsWeak tells whether a value holds what Fn::GetStackOutput read.
func holdsWeak(v any) bool {
	found := false
	walkStrings(v, nil, func(_ []string, s string) {
		if strings.Contains(s, weakMarker) {
			found = true
		}
	})
	return found
}
