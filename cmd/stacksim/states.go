package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/statemachine"
)

func (a *app) statesCommand() *cobra.Command {
	var (
		resource bool
		format   string
	)
	cmd := &cobra.Command{
		Use:   "states",
		Short: "Print the stack (or resource) state machine",
		Long: `Print CloudFormation's stack state machine, or with --resource the machine of
one physical resource: every status, every event that moves it, and for the
stack the API operations accepted in each status.

Formats (--output): table (the default), mermaid (stateDiagram-v2), dot (Graphviz), json,
and markdown (both machines with all their documentation: docs/states.md).`,
		Example: `  stacksim states
  stacksim states --resource --output mermaid
  stacksim states --output dot | dot -Tsvg > stack.svg`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := statemachine.Format(format)
			if !validFormat(f) {
				return badInput(fmt.Errorf("--output %q: want %s", format, formatNames()))
			}
			if f == statemachine.FormatMarkdown && resource {
				return badInput(fmt.Errorf("--output markdown renders both machines: drop --resource"))
			}
			m := statemachine.StackMachine
			if resource {
				m = statemachine.ResourceMachine
			}
			return statemachine.Render(a.stdout, m, f)
		},
	}
	cmd.Flags().BoolVar(&resource, "resource", false, "the resource machine instead of the stack's")
	// --output, as every command names its output format; --format, its
	// name before, still works.
	cmd.Flags().StringVar(&format, "output", string(statemachine.FormatTable), "output format: "+formatNames())
	cmd.Flags().StringVar(&format, "format", string(statemachine.FormatTable), "the same as --output")
	_ = cmd.Flags().MarkHidden("format")
	return cmd
}

func validFormat(f statemachine.Format) bool {
	for _, g := range statemachine.Formats() {
		if f == g {
			return true
		}
	}
	return false
}

func formatNames() string {
	var names []string
	for _, f := range statemachine.Formats() {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}
