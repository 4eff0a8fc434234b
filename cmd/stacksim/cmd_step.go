package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/statemachine"
)

// stepCommand is `stacksim step`: advance a stack in motion (stopped by
// --until, or by an earlier step) by K of its events, or to rest.
func (a *app) stepCommand() *cobra.Command {
	var stack string
	var events int
	var toRest bool
	cmd := &cobra.Command{
		Use:   "step --stack-name NAME [--events K | --to-rest]",
		Short: "Advance a stack in motion by K events (1 by default), or to rest",
		Long: `Advance the operation of a stack in motion — stopped part way by --until, or
by an earlier step — by K of the stack's events (1 by default), or with
--to-rest until it comes to rest. The events are shown as they happen.

Exit status: 0 while the stack is still in motion, or when it came to rest
where its operation meant it to; 1 when it came to rest failed or rolled
back; 2 when there is nothing to step.`,
		Example: `  stacksim update-stack --stack-name app --template-body file://v2.yaml --until app:UPDATE_IN_PROGRESS
  stacksim step --stack-name app
  stacksim step --stack-name app --events 5
  stacksim step --stack-name app --to-rest`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack); err != nil {
				return err
			}
			if toRest && cmd.Flags().Changed("events") {
				return badInput(fmt.Errorf("--events and --to-rest: give one of them"))
			}
			if events < 1 {
				return badInput(fmt.Errorf("--events %d: give a number of events, 1 or more", events))
			}
			if toRest {
				events = 0
			}
			s, err := a.openWrite()
			if err != nil {
				return err
			}
			defer s.close()
			ctx := cmd.Context()
			out, err := s.e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: stack})
			if err != nil {
				return a.apiError("DescribeStacks", err)
			}
			st := out.Stacks[0]
			if !statemachine.StackStatus(st.StackStatus).InMotion() {
				return badInput(fmt.Errorf("stack %s is %s, at rest: nothing to step (step advances a stack stopped by --until)", st.StackName, st.StackStatus))
			}
			d := newDisplay(a.stderr, a.colorFor(a.stderr), st.StackName)
			if ids, types := stackNames(ctx, s.e, st.StackId); len(ids) > 0 {
				d.seed(append(ids, st.StackName), types)
			}
			shown := 0
			defer s.e.Subscribe(func(ev engine.StackEvent) {
				if ev.StackId == st.StackId {
					shown++
				}
				if !a.quiet {
					d.event(ev)
				}
			})()
			res, driveErr := driveThroughSignals(ctx, s.e, st.StackId, events)
			// One task may write several events at one instant: all of them
			// are shown, and counted.
			res.Events = shown
			if err := s.saveUnlessInternal(driveErr); err != nil {
				return err
			}
			return a.finish(ctx, s.e, res, nil, "")
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack in motion")
	cmd.Flags().IntVar(&events, "events", 1, "how many of the stack's events to advance by")
	cmd.Flags().BoolVar(&toRest, "to-rest", false, "run the operation until the stack comes to rest")
	return cmd
}
