package engine

import (
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/stackpolicy"
	"github.com/stacksim/stacksim/statemachine"
)

// The stack policy's check of an update. Before any resource of an update
// starts, every resource it would modify, replace or remove is asked of
// the policy the update runs under (StackPolicyDuringUpdateBody, else the
// stack's). A resource the policy does not allow goes UPDATE_FAILED with
// AWS's reason, no handler is called, nothing else starts, and the update
// fails: "The following resource(s) failed to update: [X]." and its
// rollback, which marks the denied resources UPDATE_COMPLETE (they never
// changed). AWS's log (awscfncli README, 2017, a stack policy denying
// Update:*): UPDATE_IN_PROGRESS "User Initiated"; CFNUser UPDATE_FAILED
// "Action denied by stack policy: Statement [#1] does not allow [Update:*]
// for resource [*];"; UPDATE_ROLLBACK_IN_PROGRESS "The following
// resource(s) failed to update: [CFNUser]."; CFNUser UPDATE_COMPLETE;
// UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS; UPDATE_ROLLBACK_COMPLETE.
// An update whose Conditional replacement turns out, when the step starts,
// to replace is asked again (Update:Replace) then (startUpdate).

// updatePolicy is the policy the running update runs under, nil when the
// stack has none ({} protects nothing: stackpolicy.Evaluate).
func (r *run) updatePolicy() (*stackpolicy.Policy, error) {
	body := r.op.StackPolicyDuringUpdate
	if body == "" {
		body = r.st.StackPolicyBody
	}
	if body == "" {
		return nil, nil
	}
	p, err := stackpolicy.Parse(body)
	if err != nil {
		return nil, internalf("stack %s: its stack policy, accepted when it was set, does not parse: %v", r.st.StackName, err)
	}
	return p, nil
}

// policyAction is the update action a step of an update takes on its
// resource, "" when it takes none a policy governs (a create, a no-op, the
// delete of a replaced resource's old physical resource).
func policyAction(s *plan.Step) stackpolicy.Action {
	switch s.Phase {
	case plan.PhaseUpdate:
		switch s.Action {
		case plan.Update:
			return stackpolicy.Modify
		case plan.CreateThenDelete, plan.DeleteThenCreate:
			return stackpolicy.Replace
		}
	case plan.PhaseUpdateCleanup:
		switch s.Action {
		case plan.Delete, plan.Retain, plan.Snapshot:
			if s.Replaces == 0 {
				return stackpolicy.Delete
			}
		}
	}
	return ""
}

// checkStackPolicy runs at the start of an update: it fails the resources
// the policy denies, and reports whether any was.
func (r *run) checkStackPolicy() (bool, error) {
	p, err := r.updatePolicy()
	if err != nil || p == nil {
		return false, err
	}
	denied := false
	for i := range r.op.Plan.Steps {
		s := &r.op.Plan.Steps[i]
		a := policyAction(s)
		if a == "" {
			continue
		}
		if d := p.Evaluate(a, s.LogicalID, s.ResourceType); !d.Allowed {
			ok, err := r.denyByPolicy(s.LogicalID, d.Reason)
			if err != nil {
				return false, err
			}
			// A resource with nothing to deny (its create failed) is
			// left to the update, which retries it: it does not stop it.
			denied = denied || ok
		}
	}
	if denied {
		op := r.oper()
		op.Stopping = true
		r.schedulePhaseEnd()
	}
	return denied, nil
}

// denyByPolicy fails a resource the stack policy keeps from updating; it
// reports whether it did.
func (r *run) denyByPolicy(logicalID, reason string) (bool, error) {
	cur := r.current(logicalID)
	if cur == nil {
		return false, internalf("stack %s: the stack policy denies the update of %s, which has no record", r.st.StackName, logicalID)
	}
	switch _, ok := statemachine.NextResource(cur.ResourceStatus, statemachine.ResourceDeny); {
	case ok:
		if _, err := r.moveTo(cur, logicalID, statemachine.ResourceDeny, reason, cur.Properties); err != nil {
			return false, err
		}
	case cur.ResourceStatus == statemachine.ResourceStatusUpdateFailed:
		// Left UPDATE_FAILED by a failed update (rollback disabled) and
		// denied again: it stays UPDATE_FAILED, with the reason (no
		// transition: the state machine has no self-transitions).
		c := cur.Clone()
		r.event(c, reason, c.Properties)
		r.put(c)
	default:
		// Nothing complete to deny (a resource whose create failed with
		// rollback disabled): the update itself retries it.
		return false, nil
	}
	op := r.oper()
	op.PolicyDenied = append(append([]string(nil), op.PolicyDenied...), logicalID)
	r.recordFailure(logicalID, "update")
	return true, nil
}

// replaceDenied reports whether a step that is about to replace its
// resource at run time (a Conditional replacement) is denied Update:Replace;
// if so the resource has failed and the phase stops.
func (r *run) replaceDenied(s *plan.Step) (bool, error) {
	p, err := r.updatePolicy()
	if err != nil || p == nil || r.phase() != plan.PhaseUpdate {
		return false, err
	}
	d := p.Evaluate(stackpolicy.Replace, s.LogicalID, s.ResourceType)
	if d.Allowed {
		return false, nil
	}
	ok, err := r.denyByPolicy(s.LogicalID, d.Reason)
	if err != nil || !ok {
		return false, err
	}
	return true, r.stopPhase("")
}

// keepDenied ends, at the start of an update's rollback, the failure of
// the resources refused before their handler ran (the stack policy,
// validation: operation's PolicyDenied): an existing one UPDATE_COMPLETE
// (keep), a new one DELETE_COMPLETE (discard); no handler is called.
func (r *run) keepDenied() error {
	for _, id := range r.op.PolicyDenied {
		cur := r.current(id)
		if cur == nil {
			continue
		}
		ev := statemachine.ResourceKeep
		switch cur.ResourceStatus {
		case statemachine.ResourceStatusUpdateFailed:
		case statemachine.ResourceStatusCreateFailed:
			ev = statemachine.ResourceDiscard
		default:
			continue
		}
		if _, err := r.moveTo(cur, id, ev, "", cur.Properties); err != nil {
			return err
		}
	}
	r.oper().PolicyDenied = nil
	return nil
}
