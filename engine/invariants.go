package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// Invariants: what must hold of the simulated world whatever happened. The
// tests check them after every operation; users and the CLI can too
// (`stacksim check`).

// InvariantError lists what does not hold.
type InvariantError struct {
	Problems []string
}

func (e *InvariantError) Error() string {
	return fmt.Sprintf("%d invariant(s) broken:\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// CheckInvariants checks the world:
//
//   - every stack's events follow legal transitions of the stack machine,
//     from the first (NotExist) to its status now;
//   - a stack at rest has no operation in motion, and no resource in
//     motion; a stack in motion has its operation;
//   - no simulated object leaks: every object a stack made belongs to a
//     resource of a stack (current, or an old physical resource awaiting
//     its cleanup), or was released — retained and reported DELETE_SKIPPED,
//     or orphaned by a delete that failed in a cleanup phase (reported
//     DELETE_FAILED; AWS leaves those behind too);
//   - a stack at rest in CREATE_COMPLETE, UPDATE_COMPLETE or
//     UPDATE_ROLLBACK_COMPLETE matches its template: every resource of the
//     template exists, complete, with the properties the template resolves
//     to now (so a completed rollback has put back the previous properties
//     of every resource it touched), and the stack holds nothing else —
//     except resources ContinueUpdateRollback was told to skip, which are
//     out of step with the template by design (and a stack whose update
//     started from CREATE_FAILED or UPDATE_FAILED and rolled back: it went
//     back to where it was, which no template describes).
//
// It returns an *InvariantError, or nil.
func (e *Engine) CheckInvariants(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	err := e.view(func(tx *txn) error {
		owned := map[string]bool{}
		for _, st := range tx.AllStacks() {
			e.checkStackEvents(tx, st, add)
			e.checkStackRest(tx, st, add)
			for _, rec := range tx.ResourcesOf(st.Num) {
				if rec.PhysicalResourceId != "" && rec.ResourceStatus != statemachine.ResourceStatusDeleteComplete {
					owned[store.ObjectKey(rec.ResourceType, rec.PhysicalResourceId)] = true
				}
			}
			for _, rec := range tx.RetiredOf(st.Num) {
				if rec.ResourceStatus != statemachine.ResourceStatusDeleteComplete {
					owned[store.ObjectKey(rec.ResourceType, rec.PhysicalResourceId)] = true
				}
			}
		}
		tx.Scan(store.TObjects, store.IxID, "", func(r store.Record) bool {
			o := r.(*store.ObjectRecord).Obj
			if o.StackID == "" {
				return true // not made by a stack
			}
			k := store.ObjectKey(o.Type, o.ID)
			if !owned[k] && tx.Released(o.Type, o.ID) == nil {
				add("leak: %s %s (made for %s in stack %s) belongs to no resource and was not released", o.Type, o.ID, o.LogicalID, resources.StackName(o.StackID))
			}
			return true
		})
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

// checkStackEvents replays a stack's own events through the stack machine.
func (e *Engine) checkStackEvents(tx *txn, st *store.StackRecord, add func(string, ...any)) {
	from := statemachine.StackStatus(statemachine.NotExist)
	tx.EventsForward(st.Num, func(seq uint64, ev *store.EventRecord) bool {
		if !ev.OfStack {
			return true
		}
		to := statemachine.StackStatus(ev.Status)
		if !legalStackMove(from, to) {
			add("stack %s: event %d moves it from %s to %s, which no transition allows", st.StackName, seq, from, to)
		}
		from = to
		return true
	})
	if from != st.StackStatus {
		add("stack %s: its last event says %s, its record %s", st.StackName, from, st.StackStatus)
	}
}

// legalStackMove tells whether some event of the stack machine moves a stack
// from one status to another.
func legalStackMove(from, to statemachine.StackStatus) bool {
	for _, ev := range statemachine.StackEvents() {
		if next, ok := statemachine.NextStack(from, ev); ok && next == to {
			return true
		}
	}
	return false
}

// checkStackRest checks a stack's operation and, at rest, its resources.
func (e *Engine) checkStackRest(tx *txn, st *store.StackRecord, add func(string, ...any)) {
	inMotion := st.StackStatus.InMotion() && st.StackStatus != statemachine.StackStatusReviewInProgress
	var op *store.OperationRecord
	if st.OperationId != "" {
		op = tx.Operation(st.OperationId)
	}
	switch {
	case inMotion && (op == nil || !op.InMotion):
		add("stack %s is %s but has no operation in motion", st.StackName, st.StackStatus)
	case !inMotion && op != nil && op.InMotion:
		add("stack %s is at rest (%s) but its operation %s is in motion", st.StackName, st.StackStatus, op.Id)
	}
	if inMotion {
		return
	}
	for _, rec := range tx.ResourcesOf(st.Num) {
		if rec.ResourceStatus.InMotion() {
			add("stack %s is at rest (%s) but %s is %s", st.StackName, st.StackStatus, rec.LogicalResourceId, rec.ResourceStatus)
		}
	}
	switch st.StackStatus {
	case statemachine.StackStatusCreateComplete, statemachine.StackStatusUpdateComplete, statemachine.StackStatusUpdateRollbackComplete:
		if !st.Unstable {
			e.checkMatchesTemplate(tx, st, add)
		}
	}
}

// checkMatchesTemplate checks that a stack at rest after a successful
// operation is what its template says.
func (e *Engine) checkMatchesTemplate(tx *txn, st *store.StackRecord, add func(string, ...any)) {
	b, err := e.currentTemplate(st)
	if err != nil {
		add("stack %s: its template does not bind: %v", st.StackName, err)
		return
	}
	live := weakUnchecked{liveResolver{e: e, tx: tx, st: st}}
	want := map[string]bool{}
	for _, res := range b.Resources() {
		id := res.LogicalID
		want[id] = true
		rec := tx.Resource(st.Num, id)
		if rec == nil {
			add("stack %s (%s): %s of the template has no resource", st.StackName, st.StackStatus, id)
			continue
		}
		switch rec.ResourceStatus {
		case statemachine.ResourceStatusCreateComplete, statemachine.ResourceStatusUpdateComplete:
		default:
			add("stack %s (%s): %s is %s", st.StackName, st.StackStatus, id, rec.ResourceStatus)
			continue
		}
		if rec.Skipped {
			continue
		}
		props, err := b.Properties(id, live)
		if err != nil || !template.IsKnown(props) {
			add("stack %s (%s): the properties of %s do not resolve: %v", st.StackName, st.StackStatus, id, err)
			continue
		}
		if holdsWeak(props) {
			// Fn::GetStackOutput read the producer when the resource was
			// made; the producer may have moved on since (a weak
			// reference): nothing to compare with.
			continue
		}
		if !resources.LooseEqual(normalize(props), normalize(rec.Properties)) {
			add("stack %s (%s): %s has the properties %v, its template says %v", st.StackName, st.StackStatus, id, rec.Properties, props)
		}
	}
	var extra []string
	for _, rec := range tx.ResourcesOf(st.Num) {
		if !want[rec.LogicalResourceId] {
			extra = append(extra, rec.LogicalResourceId)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		add("stack %s (%s) holds resources its template does not have: %v", st.StackName, st.StackStatus, extra)
	}
	if old := tx.RetiredOf(st.Num); len(old) > 0 {
		add("stack %s (%s) still holds %d old physical resources (first: %s %s)", st.StackName, st.StackStatus, len(old), old[0].LogicalResourceId, old[0].PhysicalResourceId)
	}
}

// normalize makes an absent property set and an empty one the same.
func normalize(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
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
