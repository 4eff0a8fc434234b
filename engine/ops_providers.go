package engine

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
	"github.com/stacksim/stacksim/resources/faults"
)

// Providers as an operation calls them: the registry's provider, inside the
// contract checker (Options.Contract), inside the operation's faults. The
// faults that act on the call (fail, throttle, stall, noResponse...) are
// outermost, so that the checker judges the handler and not the faults
// injected on purpose; those that make the handler itself misbehave
// (newPhysicalId) act inside the checker (faults.HandlerFaults, with the
// operation's injector in the call's context: r.invokeContext), so that it
// reports them as it would a real handler (primary-identifier-changed on a
// registry type, docs/faults.md).

// maxViolations bounds the violations an operation keeps (all are counted).
const maxViolations = 100

// provider returns the provider of a type as the running operation calls
// it.
func (r *run) provider(typeName string) (resources.Provider, error) {
	p, err := r.e.reg.Provider(typeName)
	if err != nil {
		return nil, err
	}
	inj, err := r.injector()
	if err != nil {
		return nil, err
	}
	if r.e.opts.Contract != ContractOff {
		p = r.e.checkerOf(p)
		if inj != nil {
			p = inj.WrapCalls(p)
		}
	} else if inj != nil {
		p = inj.Wrap(p)
	}
	return p, nil
}

// invokeContext is the context of a handler call: the run's, carrying the
// operation's fault injector for the faults that act inside the checker.
func (r *run) invokeContext() context.Context {
	if r.e.opts.Contract == ContractOff || len(r.op.Faults) == 0 {
		return r.ctx
	}
	inj, err := r.injector()
	if err != nil || inj == nil {
		return r.ctx
	}
	return faults.WithInjector(r.ctx, inj)
}

// checkerOf returns the contract checker around a provider (one per
// provider, kept for the engine's life: it follows identifiers from one
// operation to the next).
func (e *Engine) checkerOf(p resources.Provider) resources.Provider {
	if c, ok := e.checkers[p]; ok {
		return c
	}
	mode := contract.Report
	if e.opts.Contract == ContractStrict {
		mode = contract.Strict
	}
	c := contract.Wrap(faults.HandlerFaults(p), contract.Options{Mode: mode, OnViolation: func(v contract.Violation) {
		e.violations = append(e.violations, v)
	}})
	e.checkers[p] = c
	return c
}

// opInjector is an operation's fault injector as this process holds it.
type opInjector struct {
	gen     int
	inj     *faults.Injector
	version uint64
}

// injector returns the running operation's fault injector, made from what
// its record holds (nil when it has no faults).
func (r *run) injector() (*faults.Injector, error) {
	if len(r.op.Faults) == 0 {
		return nil, nil
	}
	if oi, ok := r.e.injectors[r.op.Id]; ok && oi.gen == r.op.FaultsGen {
		return oi.inj, nil
	}
	var st faults.State
	if r.op.FaultState != nil {
		st = *r.op.FaultState
	}
	inj, err := faults.NewWithState(r.op.Faults, st)
	if err != nil {
		return nil, err
	}
	r.e.injectors[r.op.Id] = &opInjector{gen: r.op.FaultsGen, inj: inj, version: inj.Version()}
	return inj, nil
}

// dropInjector forgets an operation's injector.
func (e *Engine) dropInjector(opID string) { delete(e.injectors, opID) }

// collect moves what a handler call left behind into the operation's
// record: the contract violations found and the faults' new state.
func (r *run) collect() {
	if len(r.e.violations) > 0 {
		op := r.oper()
		vs := append([]ContractViolation(nil), op.Violations...)
		for _, v := range r.e.violations {
			op.ViolationCount++
			if len(vs) >= maxViolations {
				continue
			}
			cv := ContractViolation{Rule: v.Rule, Message: v.Message, Timestamp: r.tx.now()}
			if v.Request != nil {
				cv.LogicalResourceId = v.Request.LogicalResourceIdentifier
				cv.ResourceType = v.Request.ResourceType
				cv.Action = string(v.Request.Action)
			}
			r.e.log.Debug("contract violation", zap.String("rule", v.Rule), zap.String("logicalId", cv.LogicalResourceId), zap.String("message", v.Message))
			vs = append(vs, cv)
		}
		op.Violations = vs
		r.e.violations = r.e.violations[:0]
	}
	if oi, ok := r.e.injectors[r.op.Id]; ok && oi.gen == r.op.FaultsGen {
		if v := oi.inj.Version(); v != oi.version {
			oi.version = v
			st := oi.inj.State()
			r.oper().FaultState = &st
		}
	}
}

// planSchema is the planner's view of a type's schema (nil: permissive).
func (e *Engine) planSchema(typeName string) plan.Schema {
	if plan.IsCustom(typeName) {
		return nil
	}
	s, err := e.reg.Schema(typeName)
	if err != nil || s == nil {
		return nil
	}
	return s
}

// planSchemas is planSchema as the planner takes it.
func (e *Engine) planSchemas() plan.Schemas { return e.planSchema }

var _ = time.Second
