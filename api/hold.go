package api

import (
	"context"
	"fmt"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/statemachine"
)

// Holding the loop: a teacher walks a class through a stack's events one
// at a time (the web view's controls, serve --hold). While the loop is
// held nothing runs by itself: calls that start an operation answer with
// the stack IN_PROGRESS, paced virtual time stops, and only Step moves
// the loop. Release lets it go again: paced, virtual time goes on from
// where it stands (it does not jump to catch up with the wall clock);
// instant, the loop runs to rest, as the calls made meanwhile would have.

// Pace is the server's pacing mode.
func (s *Server) Pace() Pace { return s.opts.Pace }

// Held reports whether the loop is held.
func (s *Server) Held() bool { return s.pacer.isHeld() }

// Hold holds the loop. Paced, what is due by now runs first, so that the
// loop stops where the wall clock says; what ran is saved.
func (s *Server) Hold(_ context.Context) error {
	ran, err := s.pacer.hold(loopContext())
	return s.saveAfter(ran, err)
}

// Release lets a held loop go (see above); what ran is saved.
func (s *Server) Release(_ context.Context) error {
	ran, err := s.pacer.release(loopContext())
	return s.saveAfter(ran, err)
}

func (s *Server) saveAfter(ran bool, err error) error {
	if ran {
		if serr := s.save(); serr != nil && err == nil {
			err = fmt.Errorf("the loop ran, but the state could not be saved: %w", serr)
		}
	}
	return err
}

// StepResult is what a Step did.
type StepResult struct {
	// Stack is the stack as DescribeStacks shows it after the step.
	Stack engine.Stack
	// Events counts the stack's events the step wrote.
	Events int
}

// Step moves a stack in motion on by events of its own events (to rest
// when events is 0), as `stacksim step` does; other stacks' tasks due
// meanwhile run too. It is for a held loop, or an instant one (where a
// stack stopped by --until waits for it); a paced loop that is not held
// moves by itself and is refused. What ran is saved.
func (s *Server) Step(_ context.Context, stackName string, events int) (StepResult, error) {
	res, err := s.pacer.step(loopContext(), stackName, events)
	return res, s.saveAfter(res.Events > 0, err)
}

func (p *pacer) isHeld() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

func (p *pacer) hold(ctx context.Context) (bool, error) {
	ran, err := p.catchUp(ctx)
	p.mu.Lock()
	p.held = true
	p.mu.Unlock()
	return ran, err
}

func (p *pacer) release(ctx context.Context) (bool, error) {
	p.mu.Lock()
	if !p.held {
		p.mu.Unlock()
		return false, nil
	}
	p.held = false
	if p.pace.Instant() {
		defer p.mu.Unlock()
		res, err := p.e.Drive(ctx, engine.RunOptions{StopAtSignals: true})
		return res.Tasks > 0, err
	}
	p.wallBase, p.virtBase = p.clock.Now(), p.e.Now()
	p.mu.Unlock()
	p.wakeDriver()
	return false, nil
}

func (p *pacer) step(ctx context.Context, stackName string, events int) (StepResult, error) {
	var res StepResult
	if events < 0 {
		return res, engine.ValidationError("Give a number of events to step, 1 or more (0 runs the stack to rest), not %d", events)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.pace.Instant() && !p.held {
		return res, engine.ValidationError("The loop is running at pace %s: hold it first, then step", p.pace)
	}
	out, err := p.e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: stackName})
	if err != nil {
		return res, err
	}
	res.Stack = out.Stacks[0]
	id := res.Stack.StackId
	if !statemachine.StackStatus(res.Stack.StackStatus).InMotion() {
		return res, engine.ValidationError("Stack %s is %s, at rest: nothing to step", res.Stack.StackName, res.Stack.StackStatus)
	}
	// One task may write several events at one instant: all of them are
	// counted (as stacksim step shows them all).
	defer p.e.Subscribe(func(ev engine.StackEvent) {
		if ev.StackId == id {
			res.Events++
		}
	})()
	seen := 0
	for {
		run, err := p.e.RunUntil(ctx, func(ev engine.StackEvent) bool {
			if ev.StackId != id {
				return false
			}
			seen++
			if events > 0 && seen >= events {
				return true
			}
			return ev.IsStackEvent() && statemachine.StackStatus(ev.ResourceStatus).AtRest()
		})
		if err != nil {
			return res, err
		}
		out, err := p.e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: id})
		if err != nil {
			return res, err
		}
		res.Stack = out.Stacks[0]
		if run.Stopped != engine.StopUntil || !statemachine.StackStatus(res.Stack.StackStatus).InMotion() || (events > 0 && seen >= events) {
			return res, nil
		}
	}
}
