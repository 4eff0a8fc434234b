package scenario

import (
	"context"
	"fmt"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/statemachine"
)

// DriveResult is where Drive stopped.
type DriveResult struct {
	// Stack is the stack as DescribeStacks shows it then.
	Stack engine.Stack
	// Matched is the event that matched the stop condition, or nil.
	Matched *engine.StackEvent
	// Events counts the stack's events written; Stepped says the drive
	// stopped after the number of events asked for.
	Events  int
	Stepped bool
	// Waiting says the drive stopped before the timeout of a resource
	// waiting for signals only the user sends (engine.SignalsManual).
	Waiting bool
	// Reason is the last reason of the stack's own events other than
	// "User Initiated" (why a rollback began), for summaries.
	Reason string
}

// Drive runs the engine's loop until the stack comes to rest, or one of its
// events (or of any stack's: stop is given them all, Until.For matches
// those of the stack's nested stacks too) matches stop (nil: none), or,
// when events > 0, the stack wrote that many events. Other stacks' tasks
// due meanwhile run too: virtual time is the same for every stack.
func Drive(ctx context.Context, e *engine.Engine, stackID string, stop func(engine.StackEvent) bool, events int) (DriveResult, error) {
	return driveWith(ctx, e, stackID, stop, events, nil, true)
}

// DriveThroughSignals is Drive that lets virtual time pass while a
// resource waits for signals only the user sends: unsignalled, it times
// out (stacksim step).
func DriveThroughSignals(ctx context.Context, e *engine.Engine, stackID string, stop func(engine.StackEvent) bool, events int) (DriveResult, error) {
	return driveWith(ctx, e, stackID, stop, events, nil, false)
}

// DriveAfter is Drive after a call that wrote written (the events the
// engine delivered while the call ran). The call itself writes the stack's
// first event of the operation it starts (STACK:CREATE_IN_PROGRESS,
// UPDATE_IN_PROGRESS, DELETE_IN_PROGRESS, ...), before the loop runs: when
// one of them matches stop, the drive stops there, before anything runs.
//
// With engine.SignalsManual it stops, Waiting, before a resource waiting
// for signals times out.
func DriveAfter(ctx context.Context, e *engine.Engine, stackID string, stop func(engine.StackEvent) bool, events int, written []engine.StackEvent) (DriveResult, error) {
	return driveWith(ctx, e, stackID, stop, events, written, true)
}

func driveWith(ctx context.Context, e *engine.Engine, stackID string, stop func(engine.StackEvent) bool, events int, written []engine.StackEvent, atSignals bool) (DriveResult, error) {
	var res DriveResult
	if stop != nil {
		for _, ev := range written {
			if !stop(ev) {
				continue
			}
			evCopy := ev
			res.Matched = &evCopy
			out, err := e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: stackID})
			if err != nil {
				return res, err
			}
			res.Stack = out.Stacks[0]
			return res, nil
		}
	}
	for {
		run, err := e.Drive(ctx, engine.RunOptions{StopAtSignals: atSignals, Until: func(ev engine.StackEvent) bool {
			if ev.StackId != stackID {
				if stop != nil && stop(ev) {
					evCopy := ev
					res.Matched = &evCopy
					return true
				}
				return false
			}
			res.Events++
			if ev.IsStackEvent() && ev.ResourceStatusReason != "" && ev.ResourceStatusReason != "User Initiated" {
				res.Reason = ev.ResourceStatusReason
			}
			if stop != nil && stop(ev) {
				evCopy := ev
				res.Matched = &evCopy
				return true
			}
			if events > 0 && res.Events >= events {
				res.Stepped = true
				return true
			}
			return ev.IsStackEvent() && statemachine.StackStatus(ev.ResourceStatus).AtRest()
		}})
		if err != nil {
			return res, fmt.Errorf("internal error (a bug in stacksim, please report it): %w", err)
		}
		out, err := e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: stackID})
		if err != nil {
			return res, err
		}
		res.Stack = out.Stacks[0]
		if res.Matched != nil || res.Stepped || !statemachine.StackStatus(res.Stack.StackStatus).InMotion() {
			return res, nil
		}
		if run.Stopped == engine.StopSignals {
			res.Waiting = true
			return res, nil
		}
		if run.Stopped == engine.StopRest {
			return res, fmt.Errorf("internal error (a bug in stacksim, please report it): stack %s is %s and nothing is left to run", res.Stack.StackName, res.Stack.StackStatus)
		}
	}
}
