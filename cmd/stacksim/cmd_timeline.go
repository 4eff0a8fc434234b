package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/timeline"
)

// timelineCommand is `stacksim timeline`: the resource actions of a stack's
// last operation in virtual time, as a Mermaid gantt chart or text, with
// the operation's critical path.
func (a *app) timelineCommand() *cobra.Command {
	var stack, format string
	cmd := &cobra.Command{
		Use:   "timeline --stack-name NAME [--output mermaid|text|json]",
		Short: "A gantt chart of a stack's last operation in virtual time, and its critical path",
		Long: `The resource actions of a stack's last operation (create, update, replace,
delete...), by phase, in virtual time: a Mermaid gantt chart (paste it in a
Markdown file between ` + "```mermaid" + ` fences), text with --output text, or
the same data as JSON with --output json.
The critical path — the chain of actions, each waiting for the one before it,
that decided how long the operation took — is tagged crit in the chart and
written in text below it.`,
		Example: `  stacksim timeline --stack-name app
  stacksim timeline --stack-name app --output text`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack); err != nil {
				return err
			}
			if format != "mermaid" && format != "text" && format != "json" {
				return badInput(fmt.Errorf("--output %q: timeline writes mermaid, text or json", format))
			}
			e, err := a.openRead()
			if err != nil {
				return err
			}
			defer e.Close()
			tl, err := timeline.Of(cmd.Context(), e, stack)
			if err != nil {
				var ce *timeline.CallError
				if errors.As(err, &ce) {
					return a.apiError(ce.Call, ce.Err)
				}
				return err
			}
			switch format {
			case "text":
				tl.Text(a.stdout)
			case "json":
				return tl.WriteJSON(a.stdout)
			default:
				tl.Mermaid(a.stdout)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&format, "output", "mermaid", "mermaid (a gantt chart), text or json (the data of both)")
	return cmd
}
