package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/statemachine"
)

// What happens when every step of a phase has ended: the next phase, a
// rollback, or rest, with the stack events AWS writes.

// Stack reasons (BEHAVIOUR.md §4, /work/notes/aws-facts.md).
const (
	reasonUserInitiated = "User Initiated"
	// Appended to a create's failure reason when it rolls back, or when
	// OnFailure DELETE deletes the stack ("Stack creation time exceeded the
	// specified timeout. Delete requested by user.", flynn/flynn#3200).
	reasonRollbackRequested = "Rollback requested by user."
	reasonDeleteRequested   = "Delete requested by user."
	// The stack reason when the create runs past TimeoutInMinutes
	// (PaloAltoNetworks/aws-transit-vpc#5, flynn/flynn#3200).
	reasonStackTimeout = "Stack creation time exceeded the specified timeout."
	// UPDATE_COMPLETE after a cleanup delete failed
	// (rvedotrc/aws-cloudformation-stack-states#2).
	reasonCleanupFailed = "Update successful. One or more resources could not be deleted."
	// UNVERIFIED: the reason of UPDATE_ROLLBACK_IN_PROGRESS after
	// CancelUpdateStack; no recorded event was found.
	// Searched (issue 15): the code corpus (LocalStack's *.snapshot.json and recorded event logs) and the docs and issues corpora for
	// "Stack update cancelled": only other simulators' copies turned up.
	reasonStackUpdateCancelled = "Stack update cancelled"
)

// failureReason words why the phase failed: the stop cause, or the
// resources that failed by verb ("The following resource(s) failed to
// create: [A, B]. The following resource(s) failed to update: [C]. ", as
// serverless/serverless#1745 quotes AWS), then the suffix.
func (r *run) failureReason(suffix string) string {
	var b strings.Builder
	if r.op.StopCause != "" {
		b.WriteString(r.op.StopCause)
		if suffix != "" {
			if !strings.HasSuffix(r.op.StopCause, ".") {
				b.WriteString(".")
			}
			b.WriteString(" ")
		}
	} else {
		for _, verb := range []string{"create", "update", "delete", "import"} {
			var names []string
			for _, f := range r.op.Failures {
				if f.Verb == verb {
					names = append(names, f.LogicalId)
				}
			}
			if len(names) > 0 {
				b.WriteString("The following resource(s) failed to " + verb + ": [" + strings.Join(names, ", ") + "]. ")
			}
		}
	}
	b.WriteString(suffix)
	return b.String()
}

// failed tells whether the running phase failed.
func (r *run) failed() bool { return r.op.StopCause != "" || len(r.op.Failures) > 0 }

// runPhaseEnd ends the running phase.
func (e *Engine) runPhaseEnd(ctx context.Context, tx *txn, t *Task) error {
	r, ok, err := e.newRun(ctx, tx, t)
	if err != nil || !ok {
		return err
	}
	if string(t.Data) != strconv.Itoa(r.op.PhaseGen) || r.op.Running > 0 {
		return nil // stale: the phase moved on, or something runs again
	}
	if r.op.Held || (r.phase().IsCleanup() && r.childrenBusy()) {
		return nil // its nested stacks' cleanups run: the last one ends it
	}
	if err := r.endPhase(); err != nil {
		return err
	}
	return r.flush()
}

func (r *run) endPhase() error {
	failed := r.failed()
	if !failed && r.monitor() {
		return nil // the monitoring time: the monitoring-end task ends the phase
	}
	switch r.phase() {
	case plan.PhaseCreate:
		return r.endCreate(failed)
	case plan.PhaseRollback:
		if failed {
			if err := r.fireStack(statemachine.StackRollbackFailed, r.failureReason("")); err != nil {
				return err
			}
		} else if err := r.fireStack(statemachine.StackRollbackSucceeded, ""); err != nil {
			return err
		}
		if r.op.OnFailure == OnFailureDelete {
			return r.deleteAfterRollback()
		}
		return r.finish(false)
	case plan.PhaseUpdate:
		return r.endUpdate(failed)
	case plan.PhaseUpdateCleanup:
		reason := ""
		if r.op.CleanupFailed {
			reason = reasonCleanupFailed
		}
		if err := r.fireStack(statemachine.StackCleanupSucceeded, reason); err != nil {
			return err
		}
		return r.finish(true)
	case plan.PhaseUpdateRollback:
		return r.endUpdateRollback(failed)
	case plan.PhaseUpdateRollbackCleanup:
		if _, err := r.settleOutputs(outputsRestore); err != nil {
			return err
		}
		if err := r.fireStack(statemachine.StackCleanupSucceeded, ""); err != nil {
			return err
		}
		return r.finish(false)
	case plan.PhaseImport:
		return r.endImport(failed)
	case plan.PhaseImportRollback:
		return r.endImportRollback(failed)
	case plan.PhaseDelete:
		if failed {
			if err := r.fireStack(statemachine.StackDeleteFailed, r.failureReason("")); err != nil {
				return err
			}
			return r.finish(false)
		}
		if err := r.fireStack(statemachine.StackDeleteSucceeded, ""); err != nil {
			return err
		}
		return r.stackDeleted()
	}
	return internalf("operation %s: no phase %d in its %s plan", r.op.Id, r.op.Phase, r.op.Plan.Operation)
}

// settled reports whether a phase whose steps all succeeded also settles
// its outputs; an output that fails (its value does not resolve, an export
// taken) fails the phase with its cause.
func (r *run) settled(failed bool, kind outputsMode) (bool, error) {
	if failed {
		return false, nil
	}
	cause, err := r.settleOutputs(kind)
	if err != nil {
		return false, err
	}
	if cause != "" {
		r.oper().StopCause = cause
		return false, nil
	}
	return true, nil
}

// endCreate ends the create phase: CREATE_COMPLETE, or the create failed.
func (r *run) endCreate(failed bool) error {
	ok, err := r.settled(failed, outputsCreate)
	if err != nil {
		return err
	}
	if !ok {
		return r.createFailed()
	}
	if err := r.fireStack(statemachine.StackCreateSucceeded, ""); err != nil {
		return err
	}
	return r.finish(true)
}

// endUpdate ends the update phase: on to the cleanup, or the update
// failed (or was cancelled) and rolls back, or stops in UPDATE_FAILED when
// rollback is disabled.
func (r *run) endUpdate(failed bool) error {
	if r.op.Cancelled {
		return r.rollbackUpdate(statemachine.StackCancelUpdate, reasonStackUpdateCancelled)
	}
	ok, err := r.settled(failed, outputsUpdate)
	if err != nil {
		return err
	}
	if ok {
		if err := r.fireStack(statemachine.StackUpdateSucceeded, ""); err != nil {
			return err
		}
		if r.op.NewStackPolicy != "" {
			// UpdateStack's StackPolicyBody: the stack's policy from the
			// update's success on, not during it (LocalStack's AWS-validated
			// test_set_policy_with_update_operation: a deny-all policy given
			// with the update does not stop it).
			r.stack().StackPolicyBody = r.op.NewStackPolicy
		}
		return r.nextPhase()
	}
	if r.op.DisableRollback {
		if err := r.fireStack(statemachine.StackUpdateFailed, r.failureReason("")); err != nil {
			return err
		}
		r.stack().RollbackDisabledFailure = true
		r.stack().Unstable = true
		r.reinstateFailedReplacements()
		return r.rest(true)
	}
	return r.rollbackUpdate(statemachine.StackRollbackBegun, r.failureReason(""))
}

// endUpdateRollback ends an update's rollback: on to its cleanup, or
// UPDATE_ROLLBACK_FAILED.
func (r *run) endUpdateRollback(failed bool) error {
	if failed {
		if err := r.markRollbackFailures(); err != nil {
			return err
		}
		if err := r.fireStack(statemachine.StackRollbackFailed, r.failureReason("")); err != nil {
			return err
		}
		return r.rest(true)
	}
	if r.op.ForParent && r.parentInMotion() {
		// A nested stack's cleanup waits for its parent's, which reads
		// its outputs before: they are back now.
		if _, err := r.settleOutputs(outputsRestore); err != nil {
			return err
		}
	}
	if err := r.fireStack(statemachine.StackRollbackSucceeded, ""); err != nil {
		return err
	}
	return r.nextPhase()
}

// nextPhase starts the next phase of the plan.
func (r *run) nextPhase() error {
	op := r.oper()
	op.Phase++
	op.PhaseGen++
	if op.ForParent && r.phase().IsCleanup() && r.parentInMotion() {
		// A nested stack's cleanup waits for its parent's
		// (nested_update.go).
		op.Held = true
		op.Running, op.Stopping, op.Failures, op.StopCause = 0, false, nil, ""
		return nil
	}
	return r.beginPhase()
}

// createFailed ends a create's failed phase: CREATE_FAILED when rollback
// is disabled, else the rollback.
func (r *run) createFailed() error {
	if r.op.DisableRollback || r.op.OnFailure == OnFailureDoNothing {
		if err := r.fireStack(statemachine.StackCreateFailed, r.failureReason("")); err != nil {
			return err
		}
		r.stack().RollbackDisabledFailure = r.op.DisableRollback
		r.stack().Unstable = true
		return r.rest(true)
	}
	suffix := reasonRollbackRequested
	if r.op.OnFailure == OnFailureDelete {
		suffix = reasonDeleteRequested
	}
	if err := r.fireStack(statemachine.StackRollbackBegun, r.failureReason(suffix)); err != nil {
		return err
	}
	return r.rollbackCreate()
}

// rollbackCreate plans the rollback of the create from its journal and
// runs it (the stack is ROLLBACK_IN_PROGRESS already).
func (r *run) rollbackCreate() error {
	rb, err := plan.Rollback(r.op.Plan, r.journal(), plan.RollbackOptions{RetainExceptOnCreate: r.op.RetainExceptOnCreate})
	if err != nil {
		return internalf("stack %s: planning the rollback of the create: %w", r.st.StackName, err)
	}
	r.switchPlan(rb)
	return r.beginPhase()
}

// rollbackUpdate moves the stack to UPDATE_ROLLBACK_IN_PROGRESS (by ev)
// and runs the rollback of the update, on the template the stack had
// before it.
func (r *run) rollbackUpdate(ev statemachine.StackEvent, reason string) error {
	rb, err := r.e.updateRollbackPlan(r.tx, r.st, r.op.Plan, r.journal(), r.op.RetainExceptOnCreate)
	if err != nil {
		return err
	}
	if err := r.fireStack(ev, reason); err != nil {
		return err
	}
	if err := r.keepDenied(); err != nil {
		return err
	}
	r.swapTemplates()
	if debugPlans {
		fmt.Println("FORWARD\n" + r.op.Plan.String() + "\nJOURNAL")
		for _, e := range r.journal() {
			fmt.Printf("%+v\n", e)
		}
		fmt.Println("ROLLBACK\n" + rb.String())
	}
	r.oper().Cancelled = false
	r.switchPlan(rb)
	return r.beginPhase()
}

// swapTemplates puts the stack back on the template it had before the
// update (GetTemplate shows the template rolled back to), keeping the
// failed one as the previous; its tags and notification ARNs go back too
// (CancelUpdateStack: "the stack rolls back the update and reverts to the
// previous stack configuration"), so the rollback's handler requests carry
// the old tags.
func (r *run) swapTemplates() {
	st := r.stack()
	if prev := st.PreviousSettings; prev != nil {
		st.PreviousSettings = &store.StackSettings{Tags: st.Tags, NotificationARNs: st.NotificationARNs, RollbackConfiguration: st.RollbackConfiguration}
		st.Tags, st.NotificationARNs, st.RollbackConfiguration = prev.Tags, prev.NotificationARNs, prev.RollbackConfiguration
	}
	st.TemplateBody, st.PreviousTemplateBody = st.PreviousTemplateBody, st.TemplateBody
	st.ProcessedTemplateBody, st.PreviousProcessedTemplateBody = st.PreviousProcessedTemplateBody, st.ProcessedTemplateBody
	st.Parameters, st.PreviousParameters = st.PreviousParameters, st.Parameters
	st.TemplateFile, st.PreviousTemplateFile = st.PreviousTemplateFile, st.TemplateFile
	st.Description = r.e.descriptionOf(st)
	r.tpl = nil
}

// deleteAfterRollback deletes the stack once the rollback of its create
// ended (OnFailure DELETE).
func (r *run) deleteAfterRollback() error {
	if err := r.fireStack(statemachine.StackDelete, ""); err != nil {
		return err
	}
	p, err := r.e.deletePlan(r.tx, r.st, nil)
	if err != nil {
		return err
	}
	r.switchPlan(p)
	return r.beginPhase()
}

// markRollbackFailures marks the resources whose rollback failed: only
// they may be named in ContinueUpdateRollback's ResourcesToSkip.
func (r *run) markRollbackFailures() error {
	for _, f := range r.op.Failures {
		rec := r.tx.Resource(r.st.Num, f.LogicalId)
		if rec == nil || rec.ResourceStatus != statemachine.ResourceStatusUpdateFailed {
			continue
		}
		c := rec.Clone()
		c.RollbackFailed = true
		r.tx.PutResource(c)
	}
	return nil
}

// rest stops the operation at rest; continuable says it may be continued
// (RollbackStack, ContinueUpdateRollback), so its plan and steps stay.
func (r *run) rest(continuable bool) error {
	op := r.oper()
	op.InMotion = false
	r.e.dropPlanIndex(op.Plan)
	op.EndTime = r.tx.now()
	op.Outcome = string(r.st.StackStatus)
	r.cancelStackTimeout()
	r.cancelMonitoring()
	r.releaseChildren()
	r.e.settleChangeSet(r.tx, r.st, op)
	if !continuable {
		if err := r.flush(); err != nil {
			return err
		}
		r.e.closeOperation(r.tx, r.st)
		r.stack().OperationId = ""
		r.op = r.tx.Operation(r.op.Id)
		r.opMine = false
	}
	return nil
}

// finish ends the operation at rest, tidying the stack's resources: those
// the template no longer has leave the stack, and so do the retired
// physical resources (deleted, retained or orphaned by now).
func (r *run) finish(succeeded bool) error {
	if err := r.tidyResources(); err != nil {
		return err
	}
	if succeeded && r.st.Unstable {
		r.stack().Unstable = false
	}
	return r.rest(false)
}

// cancelStackTimeout drops the stack-timeout task of a create.
func (r *run) cancelStackTimeout() {
	if r.op.Deadline.IsZero() {
		return
	}
	id := r.op.Id
	r.tx.CancelTasks(func(t *Task) bool { return t.Kind == taskStackTimeout && t.OperationId == id })
}

// runStackTimeout fails a create that ran past TimeoutInMinutes.
func (e *Engine) runStackTimeout(ctx context.Context, tx *txn, t *Task) error {
	r, ok, err := e.newRun(ctx, tx, t)
	if err != nil || !ok {
		return err
	}
	if r.op.Plan.Operation != plan.OpCreate {
		return nil
	}
	if err := r.stopPhase(reasonStackTimeout); err != nil {
		return err
	}
	if r.op.Running == 0 {
		r.schedulePhaseEnd()
	}
	return r.flush()
}

// updateRollbackPlan plans the rollback of an update, with the cleanup of
// old physical resources earlier operations left.
func (e *Engine) updateRollbackPlan(tx *txn, st *store.StackRecord, forward *plan.Plan, j plan.Journal, retainExceptOnCreate bool) (*plan.Plan, error) {
	rb, err := plan.Rollback(forward, j, plan.RollbackOptions{RetainExceptOnCreate: retainExceptOnCreate})
	if err != nil {
		return nil, internalf("stack %s: planning the rollback of the update: %w", st.StackName, err)
	}
	return e.withStaleRetired(tx, st, rb, plan.PhaseUpdateRollbackCleanup)
}

var debugPlans = false

// reinstateFailedReplacements, when an update stops with rollback
// disabled, points each resource whose replacement failed before a new
// physical resource existed back at its old one: that is the resource the
// stack still has (a later update replaces it again; RollbackStack finds
// it in place).
func (r *run) reinstateFailedReplacements() {
	for _, old := range r.tx.RetiredOf(r.st.Num) {
		cur := r.current(old.LogicalResourceId)
		if cur == nil || cur.PhysicalResourceId != "" || cur.ResourceStatus != statemachine.ResourceStatusUpdateFailed {
			continue
		}
		r.tx.DeleteResource(cur.Num, cur.LogicalResourceId)
		r.tx.DeleteRetired(old)
		back := old.Clone()
		back.Retired = ""
		r.tx.PutResource(back)
	}
}
