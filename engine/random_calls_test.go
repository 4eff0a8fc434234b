package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/statemachine"
)

// The random worlds' further calls (random_test.go makes them): OnFailure
// DO_NOTHING and an explicit ROLLBACK on the create; termination
// protection turned on and off (a delete refused while it is on); updates
// tried where AWS refuses them; RollbackStack after an update that failed
// with rollback disabled; a failed update rollback continued skipping some
// of its failures, or deleted instead; DeleteStack's RetainResources
// refused outside DELETE_FAILED and given a part of the failures in it;
// and the next call made as soon as the stack comes to rest, while its
// nested stacks may still clean up. Their choices come from the world's
// nr, a source of their own, so that w.r and w.xr draw what they drew.

// call tells whether the world makes one of these calls, one time in n
// (never in a plain world: the pinned regressions found before these
// calls were added replay as they did).
func (w *world) call(n int) bool { return w.kind != plain && w.nr.IntN(n) == 0 }

// createVariant changes how the create handles a failure: OnFailure
// DO_NOTHING in place of half the DisableRollbacks (the same, except that
// the stack cannot then be updated from CREATE_FAILED), or ROLLBACK said
// outright.
func (w *world) createVariant(in *CreateStackInput) {
	switch {
	case in.DisableRollback && w.call(2):
		in.DisableRollback, in.OnFailure = false, OnFailureDoNothing
		w.doNothing = true
	case !in.DisableRollback && in.OnFailure == "" && w.call(4):
		in.OnFailure = OnFailureRollback
	}
}

// refusedUpdate checks, now and then, that an update of a stack in a
// status AWS updates nothing from is refused with AWS's message, and
// changes nothing.
func (w *world) refusedUpdate(st Stack) {
	w.t.Helper()
	status := statemachine.StackStatus(st.StackStatus)
	switch status {
	case statemachine.StackStatusRollbackComplete, statemachine.StackStatusRollbackFailed,
		statemachine.StackStatusUpdateRollbackFailed, statemachine.StackStatusDeleteComplete,
		statemachine.StackStatusDeleteFailed:
	default:
		return
	}
	if !w.call(2) {
		return
	}
	w.logf("UpdateStack (UsePreviousTemplate) from %s", status)
	_, err := w.e.UpdateStack(ctx(), UpdateStackInput{StackName: st.StackId, UsePreviousTemplate: true})
	want := fmt.Sprintf("Stack:%s is in %s state and can not be updated.", st.StackId, status)
	if err == nil || !IsCode(err, CodeValidationError) || err.Error() != want && !strings.HasSuffix(err.Error(), ": "+want) {
		w.t.Fatalf("UpdateStack from %s: got %v, want %q", status, err, want)
	}
	w.sameStatus(st)
}

// doNothingRefusal checks the refusal of an update of a stack that a
// create with OnFailure DO_NOTHING left CREATE_FAILED.
func (w *world) doNothingRefusal(err error) {
	w.t.Helper()
	const want = "This stack cannot be updated from [CREATE_FAILED] state because it contains [on-failure: DO_NOTHING]. Please use disable-rollback option instead"
	if !IsCode(err, CodeValidationError) || !strings.Contains(err.Error(), want) {
		w.t.Fatalf("the update of a CREATE_FAILED stack made with OnFailure DO_NOTHING: got %v, want %q", err, want)
	}
}

// sameStatus checks that a refused call left the stack as it was.
func (w *world) sameStatus(before Stack) {
	w.t.Helper()
	if now := w.stack(before.StackId); now.StackStatus != before.StackStatus || now.StackStatusReason != before.StackStatusReason {
		w.t.Fatalf("a refused call moved the stack from %s %q to %s %q", before.StackStatus, before.StackStatusReason, now.StackStatus, now.StackStatusReason)
	}
}

// protect turns the stack's termination protection on (one world in
// four, once): it passes to the stack's nested stacks, a direct delete of
// one of them is refused, and updates that remove a nested stack still
// delete it (User Guide, using-cfn-protect-stacks).
func (w *world) protect(id string) {
	w.t.Helper()
	st := w.stack(id)
	if w.protected || !w.call(4) || statemachine.StackStatus(st.StackStatus).InMotion() ||
		st.StackStatus == string(statemachine.StackStatusDeleteComplete) {
		return
	}
	w.setProtection(id, true)
	for _, child := range w.liveChildren(id) {
		if statemachine.StackStatus(child.StackStatus).InMotion() {
			continue // (refused for its status, calls made early)
		}
		w.logf("DeleteStack %s (nested, protected)", child.StackName)
		_, err := w.e.DeleteStack(ctx(), DeleteStackInput{StackName: child.StackId})
		if want := terminationProtected(child.StackName).Error(); err == nil || err.Error() != want {
			w.t.Fatalf("DeleteStack of a nested stack of a protected stack: got %v, want %q", err, want)
		}
		w.sameStatus(child)
		break
	}
}

// setProtection turns the protection on or off and checks the stack and
// its nested stacks report it.
func (w *world) setProtection(id string, on bool) {
	w.t.Helper()
	w.logf("UpdateTerminationProtection %v", on)
	if _, err := w.e.UpdateTerminationProtection(ctx(), UpdateTerminationProtectionInput{StackName: id, EnableTerminationProtection: &on}); err != nil {
		w.t.Fatalf("UpdateTerminationProtection refused: %v", err)
	}
	w.protected = on
	w.checkProtection(id)
}

// checkProtection checks that the stack and every live nested stack of it
// report the protection the world gave it.
func (w *world) checkProtection(id string) {
	w.t.Helper()
	for _, st := range append([]Stack{w.stack(id)}, w.liveChildren(id)...) {
		if st.StackStatus == string(statemachine.StackStatusDeleteComplete) {
			continue
		}
		if st.EnableTerminationProtection == nil {
			w.t.Fatalf("%s (%s) reports no termination protection, its root's is %v", st.StackName, st.StackStatus, w.protected)
		}
		if *st.EnableTerminationProtection != w.protected {
			w.t.Fatalf("%s (%s) reports termination protection %v, its root's is %v", st.StackName, st.StackStatus, *st.EnableTerminationProtection, w.protected)
		}
	}
}

// unprotect, before the stack is deleted, checks that a delete of the
// protected stack is refused and changes nothing, then turns protection
// off.
func (w *world) unprotect(id string) {
	w.t.Helper()
	if !w.protected {
		return
	}
	st := w.stack(id)
	w.logf("DeleteStack (protected)")
	_, err := w.e.DeleteStack(ctx(), DeleteStackInput{StackName: id})
	if want := terminationProtected("rnd").Error(); err == nil || err.Error() != want {
		w.t.Fatalf("DeleteStack of a protected stack: got %v, want %q", err, want)
	}
	w.sameStatus(st)
	w.setProtection(id, false)
}

// liveChildren is every nested stack under the stack, at any depth, not
// deleted.
func (w *world) liveChildren(id string) []Stack {
	w.t.Helper()
	out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{})
	if err != nil {
		w.t.Fatal(err)
	}
	var children []Stack
	for _, st := range out.Stacks {
		if st.RootId == id && st.StackStatus != string(statemachine.StackStatusDeleteComplete) {
			children = append(children, st)
		}
	}
	return children
}

// rollbackFailedUpdate, for an update that failed with rollback disabled
// from a stable status, now and then rolls it back with RollbackStack and
// checks the stack is back as it was before the update.
func (w *world) rollbackFailedUpdate(id string, from string, before map[string]snap) {
	w.t.Helper()
	if w.stack(id).StackStatus != string(statemachine.StackStatusUpdateFailed) || !w.call(2) {
		return
	}
	w.logf("RollbackStack (from UPDATE_FAILED)")
	w.reopen()
	if _, err := w.e.RollbackStack(ctx(), RollbackStackInput{StackName: id}); err != nil {
		w.t.Fatalf("RollbackStack refused in UPDATE_FAILED: %v", err)
	}
	w.settle()
	st := statemachine.StackStatus(from)
	if w.stack(id).StackStatus == string(statemachine.StackStatusUpdateRollbackComplete) && st != statemachine.StackStatusUpdateFailed && st != statemachine.StackStatusCreateFailed {
		w.checkRestored(id, before)
	}
}

// skipSome picks the ResourcesToSkip of a ContinueUpdateRollback: now and
// then only some of the failures (the rest are tried again).
func (w *world) skipSome(failures []string) []string {
	if len(failures) < 2 || !w.call(3) {
		return failures
	}
	var out []string
	for _, f := range failures {
		if w.nr.IntN(2) == 0 {
			out = append(out, f)
		}
	}
	return out
}

// retainProbe, before a stack not in DELETE_FAILED is deleted, now and
// then asks to retain one of its resources: AWS refuses RetainResources
// outside DELETE_FAILED, and nothing changes.
func (w *world) retainProbe(id string) {
	w.t.Helper()
	st := w.stack(id)
	recs := w.records(id)
	if st.StackStatus == string(statemachine.StackStatusDeleteFailed) || st.StackStatus == string(statemachine.StackStatusDeleteComplete) ||
		len(recs) == 0 || !w.call(3) {
		return
	}
	lid := recs[w.nr.IntN(len(recs))].LogicalResourceId
	w.logf("DeleteStack retain=[%s] from %s", lid, st.StackStatus)
	_, err := w.e.DeleteStack(ctx(), DeleteStackInput{StackName: id, RetainResources: []string{lid}})
	if err == nil || !IsCode(err, CodeValidationError) || !strings.Contains(err.Error(), "RetainResources can only be specified when the stack is in the DELETE_FAILED state") {
		w.t.Fatalf("DeleteStack with RetainResources from %s: got %v", st.StackStatus, err)
	}
	w.sameStatus(st)
}

// retainSome picks the RetainResources of a delete from DELETE_FAILED:
// all the failures, or now and then a part of them (what is not retained
// is tried again), perhaps with a resource not deleted that did not fail,
// and, in the last round, all. A resource already DELETE_COMPLETE is
// refused first, and nothing changes.
func (w *world) retainSome(id string, last bool) []string {
	w.t.Helper()
	failures := w.deleteFailures(id)
	if last || !w.call(2) {
		return failures
	}
	var out, gone, kept []string
	for _, r := range w.records(id) {
		switch r.ResourceStatus {
		case statemachine.ResourceStatusDeleteFailed:
			if w.nr.IntN(2) == 0 {
				out = append(out, r.LogicalResourceId)
			}
		case statemachine.ResourceStatusDeleteComplete:
			gone = append(gone, r.LogicalResourceId)
		case statemachine.ResourceStatusDeleteSkipped:
		default:
			kept = append(kept, r.LogicalResourceId)
		}
	}
	if len(gone) > 0 && w.nr.IntN(2) == 0 {
		st := w.stack(id)
		lid := gone[w.nr.IntN(len(gone))]
		w.logf("DeleteStack retain=[%s] (DELETE_COMPLETE)", lid)
		_, err := w.e.DeleteStack(ctx(), DeleteStackInput{StackName: id, RetainResources: append(slices.Clone(out), lid)})
		const want = "The specified resources to retain must be in a valid state. Do not specify resources that are in the DELETE_COMPLETE state."
		if err == nil || err.Error() != want && !strings.HasSuffix(err.Error(), ": "+want) {
			w.t.Fatalf("DeleteStack retaining a DELETE_COMPLETE resource: got %v, want %q", err, want)
		}
		w.sameStatus(st)
	}
	if len(kept) > 0 && w.nr.IntN(3) == 0 {
		out = append(out, kept[w.nr.IntN(len(kept))])
	}
	return out
}

// checkDeleted checks, once the stack is deleted, that every resource a
// delete named in RetainResources (none DELETE_COMPLETE then: that is
// refused) ended DELETE_SKIPPED. (That every resource of a deleted stack
// is DELETE_COMPLETE or DELETE_SKIPPED is an invariant: CheckInvariants.)
func (w *world) checkDeleted(id string, retained map[string]bool) {
	w.t.Helper()
	for _, r := range w.records(id) {
		if retained[r.LogicalResourceId] && r.ResourceStatus != statemachine.ResourceStatusDeleteSkipped {
			w.t.Fatalf("%s was retained by DeleteStack, and is %s", r.LogicalResourceId, r.ResourceStatus)
		}
	}
}

// restEarly tells whether the world makes its next call as soon as the
// stack comes to rest, not once everything does: in worlds with nested
// stacks, one call in three (their cleanup may go on after the parent's).
func (w *world) restEarly() bool {
	return len(w.nested) > 0 && w.call(3)
}

// waitStack runs until the stack comes to rest (unless it just came to
// rest), and logs what of its nested stacks is still in motion then.
func (w *world) waitStack(id string, atRest bool) (*Stack, error) {
	var st *Stack
	if atRest {
		s := w.stack(id)
		st = &s
	} else {
		var err error
		if st, err = w.e.WaitForStack(ctx(), id); err != nil {
			return nil, err
		}
	}
	var busy []string
	for _, child := range w.liveChildren(st.StackId) {
		if statemachine.StackStatus(child.StackStatus).InMotion() {
			busy = append(busy, child.StackName+" "+child.StackStatus)
		}
	}
	w.logf("(the next call as soon as the stack is at rest; in motion: %v)", busy)
	return st, nil
}

// finish runs everything left to rest (what the calls made early left
// running) and checks the invariants at the end of the world.
func (w *world) finish() {
	w.t.Helper()
	if _, err := w.e.Run(ctx()); err != nil {
		w.t.Fatal(err)
	}
	w.checkInvariants()
	w.checkPublications()
	out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{})
	if err != nil {
		w.t.Fatal(err)
	}
	for _, st := range out.Stacks {
		if statemachine.StackStatus(st.StackStatus).InMotion() {
			w.t.Fatalf("%s is %s with nothing left to run", st.StackName, st.StackStatus)
		}
	}
}

// stopWatch follows the world's events to check that a stopped create or
// update starts nothing more: after CancelUpdateStack, or once a nested
// stack's step of its parent's is cancelled ("Resource creation
// cancelled", "Resource update cancelled") while the child is creating or
// updating, no resource of the stack (the child) goes *_IN_PROGRESS until
// the stack leaves CREATE_IN_PROGRESS or UPDATE_IN_PROGRESS.
type stopWatch struct {
	status  map[string]string // the last status of each stack
	stopped map[string]string // the stacks stopped, and why
	problem string
}

func (s *stopWatch) event(ev StackEvent) {
	if s.status == nil {
		s.status, s.stopped = map[string]string{}, map[string]string{}
	}
	if ev.IsStackEvent() {
		s.status[ev.StackId] = ev.ResourceStatus
		if !isForward(ev.ResourceStatus) {
			delete(s.stopped, ev.StackId)
		}
		return
	}
	if why, ok := s.stopped[ev.StackId]; ok && strings.HasSuffix(ev.ResourceStatus, "_IN_PROGRESS") && s.problem == "" {
		s.problem = fmt.Sprintf("%s of %s went %s %q after %s", ev.LogicalResourceId, ev.StackName, ev.ResourceStatus, ev.ResourceStatusReason, why)
	}
	if ev.ResourceType == "AWS::CloudFormation::Stack" && (ev.ResourceStatusReason == reasonCreateCancelled || ev.ResourceStatusReason == reasonUpdateCancelled) &&
		isForward(s.status[ev.PhysicalResourceId]) {
		s.stopped[ev.PhysicalResourceId] = fmt.Sprintf("its parent's step %s was cancelled (%s)", ev.LogicalResourceId, ev.ResourceStatus)
	}
}

// cancelled notes a CancelUpdateStack the update accepted.
func (s *stopWatch) cancelled(id string) {
	if s.stopped == nil {
		s.status, s.stopped = map[string]string{}, map[string]string{}
	}
	s.stopped[id] = "CancelUpdateStack"
}

func isForward(status string) bool {
	return status == string(statemachine.StackStatusCreateInProgress) || status == string(statemachine.StackStatusUpdateInProgress)
}
