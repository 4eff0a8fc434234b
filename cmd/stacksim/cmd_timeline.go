package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/template"
)

// timelineCommand is `stacksim timeline`: the resource actions of a stack's
// last operation in virtual time, as a Mermaid gantt chart or text, with
// the operation's critical path.
func (a *app) timelineCommand() *cobra.Command {
	var stack, format string
	cmd := &cobra.Command{
		Use:   "timeline --stack-name NAME [--output mermaid|text]",
		Short: "A gantt chart of a stack's last operation in virtual time, and its critical path",
		Long: `The resource actions of a stack's last operation (create, update, replace,
delete...), by phase, in virtual time: a Mermaid gantt chart (paste it in a
Markdown file between ` + "```mermaid" + ` fences), or text with --output text.
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
			if format != "mermaid" && format != "text" {
				return badInput(fmt.Errorf("--output %q: timeline writes mermaid or text", format))
			}
			e, err := a.openRead()
			if err != nil {
				return err
			}
			defer e.Close()
			ctx := cmd.Context()
			op, err := e.DescribeStackOperation(ctx, engine.DescribeStackOperationInput{StackName: stack})
			if err != nil {
				return a.apiError("DescribeStackOperation", err)
			}
			all, err := allEvents(ctx, e, op.Operation.StackId, false)
			if err != nil {
				return a.apiError("DescribeStackEvents", err)
			}
			var events []engine.StackEvent
			for i := len(all.StackEvents) - 1; i >= 0; i-- {
				ev := all.StackEvents[i]
				if ev.ClientRequestToken == op.Operation.ClientRequestToken && !ev.Timestamp.Before(op.Operation.StartTime) {
					events = append(events, ev)
				}
			}
			related := templateRelations(ctx, e, op.Operation.StackId)
			tl := buildTimeline(op.Operation.StackName, op.Operation.Operation, events, related)
			if format == "text" {
				tl.text(a.stdout)
			} else {
				tl.mermaid(a.stdout)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&format, "output", "mermaid", "mermaid (a gantt chart) or text")
	return cmd
}

// templateRelations reads the stack's template: two resources are related
// when one refers to the other (DependsOn, Ref, Fn::GetAtt, Fn::Sub).
func templateRelations(ctx context.Context, e *engine.Engine, stack string) func(a, b string) bool {
	out, err := e.GetTemplate(ctx, engine.GetTemplateInput{StackName: stack})
	if err != nil {
		return nil
	}
	t, err := template.Parse("template", []byte(out.TemplateBody))
	if err != nil {
		return nil
	}
	refs := map[[2]string]bool{}
	for _, r := range t.Resources {
		for _, ref := range t.References(r.LogicalID) {
			refs[[2]string{r.LogicalID, ref.Target}] = true
		}
	}
	return func(a, b string) bool { return refs[[2]string{a, b}] || refs[[2]string{b, a}] }
}
