package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/statemachine"
)

// textWidth is where explain wraps its prose.
const textWidth = 80

func (a *app) explainCommand() *cobra.Command {
	var resource bool
	var stack, logical string
	cmd := &cobra.Command{
		Use:   "explain (STATUS | --stack-name NAME [--logical-resource-id ID])",
		Short: "Explain a stack (or resource) status, or the status a stack is in: how it comes about, what happens in it, what to do next",
		Long: `Explain one CloudFormation status: how a stack (or, with --resource, a
resource) gets there, what happens while it is in it, what can be done next,
and for a stack which API operations are accepted and what AWS answers to the
others.

STATUS is spelt as AWS spells it; lower case and hyphens are accepted too
(update-rollback-failed).

With --stack-name, the status explained is the one the stack is in (with
--logical-resource-id, the one its resource is in), read from the state:
its reason and the resources that failed come first, and what AWS answers
to each operation refused is what it answers for this stack.

The explanation is prose, unless --output json, yaml or yaml-stream is
given on the command line: then it is a document (the vocabulary of
'stacksim states --output json'), which --query can select from.`,
		Example: `  stacksim explain UPDATE_ROLLBACK_FAILED
  stacksim explain update-rollback-failed
  stacksim explain --resource DELETE_SKIPPED
  stacksim explain --stack-name orders
  stacksim explain --stack-name orders --logical-resource-id Config
  stacksim explain --output json --query 'refusals[].operation' UPDATE_ROLLBACK_FAILED`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			structured := a.structuredExplain(cmd)
			if a.aws.query != "" && !structured {
				return badInput(fmt.Errorf("--query selects from explain's document, not its prose: add --output json (or yaml)"))
			}
			switch {
			case stack != "" && len(args) > 0:
				return badInput(fmt.Errorf("give a STATUS or --stack-name, not both"))
			case stack != "" && resource:
				return badInput(fmt.Errorf("--resource explains a STATUS; a stack's resource is named with --logical-resource-id"))
			case stack != "":
				return a.explainStack(cmd.Context(), stack, logical, structured)
			case logical != "":
				return badInput(fmt.Errorf("--logical-resource-id needs --stack-name (the stack the resource is in)"))
			case len(args) == 0:
				return badInput(fmt.Errorf("give the STATUS to explain (stacksim explain UPDATE_ROLLBACK_FAILED), or --stack-name NAME for the status a stack is in"))
			}
			x, err := explain(args[0], resource)
			if err != nil {
				return badInput(err)
			}
			if structured {
				return a.print("Explain", x)
			}
			return writeExplanation(a.stdout, x, false)
		},
	}
	cmd.Flags().BoolVar(&resource, "resource", false, "STATUS is a resource status")
	cmd.Flags().StringVar(&stack, "stack-name", "", "explain the status this stack is in (its name, or its ARN for a deleted one)")
	cmd.Flags().StringVar(&logical, "logical-resource-id", "", "with --stack-name: explain the status this resource of the stack is in")
	return cmd
}

// explainStack explains the status a stack (or one of its resources) is
// in: what it is and why first (the status reason, the resources that
// failed), then the status's explanation, with AWS's answers for this
// stack.
func (a *app) explainStack(ctx context.Context, stack, logical string, structured bool) error {
	e, err := a.openRead()
	if err != nil {
		return err
	}
	defer e.Close()
	var live liveExplanation
	if logical != "" {
		out, err := e.DescribeStackResource(ctx, engine.DescribeStackResourceInput{StackName: stack, LogicalResourceId: logical})
		if err != nil {
			return a.apiError("DescribeStackResource", err)
		}
		r := out.StackResourceDetail
		live.Resource = &explainedResource{LogicalResourceID: r.LogicalResourceId, ResourceType: r.ResourceType,
			StackName: r.StackName, ResourceStatus: r.ResourceStatus, ResourceStatusReason: r.ResourceStatusReason}
		if live.Explanation, err = explain(r.ResourceStatus, true); err != nil {
			return err
		}
	} else {
		info, err := e.StackInfo(ctx, stack)
		if err != nil {
			return a.apiError("DescribeStacks", err)
		}
		out, err := e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: info.StackID})
		if err != nil {
			return a.apiError("DescribeStacks", err)
		}
		st := out.Stacks[0]
		live.Stack = &explainedStack{StackName: st.StackName, StackID: st.StackId, StackStatus: st.StackStatus, StackStatusReason: st.StackStatusReason}
		if live.FailedResources, err = failedResources(ctx, e, info); err != nil {
			return err
		}
		if live.Explanation, err = statemachine.ExplainStackOf(info); err != nil {
			return err
		}
	}
	if structured {
		return a.print("Explain", live)
	}
	var b strings.Builder
	if r := live.Resource; r != nil {
		fmt.Fprintf(&b, "Resource %s (%s) of stack %s is %s", r.LogicalResourceID, r.ResourceType, r.StackName, r.ResourceStatus)
		writeReason(&b, r.ResourceStatusReason)
	} else {
		fmt.Fprintf(&b, "Stack %s is %s", live.Stack.StackName, live.Stack.StackStatus)
		writeReason(&b, live.Stack.StackStatusReason)
		writeFailedResources(&b, live.FailedResources)
	}
	b.WriteString("\n")
	if _, err := io.WriteString(a.stdout, b.String()); err != nil {
		return err
	}
	return writeExplanation(a.stdout, live.Explanation, true)
}

// writeReason ends the first line of a live explanation with the status
// reason, when there is one.
func writeReason(b *strings.Builder, reason string) {
	if reason == "" {
		b.WriteString(".\n")
		return
	}
	fmt.Fprintf(b, ": %s\n", strings.TrimSpace(reason))
}

// failedResources are the stack's resources in a failed status, with
// their reasons: what ContinueUpdateRollback may skip, what a
// DELETE_FAILED stack's retry must retain.
func failedResources(ctx context.Context, e *engine.Engine, info statemachine.StackInfo) ([]failedResource, error) {
	if info.Status == statemachine.StackStatusDeleteComplete {
		return nil, nil
	}
	out, err := e.DescribeStackResources(ctx, engine.DescribeStackResourcesInput{StackName: info.StackID})
	if err != nil {
		return nil, err
	}
	var failed []failedResource
	for _, r := range out.StackResources {
		if strings.HasSuffix(r.ResourceStatus, "_FAILED") {
			failed = append(failed, failedResource{LogicalResourceID: r.LogicalResourceId, ResourceStatus: r.ResourceStatus, ResourceStatusReason: r.ResourceStatusReason})
		}
	}
	return failed, nil
}

func writeFailedResources(b *strings.Builder, failed []failedResource) {
	if len(failed) == 0 {
		return
	}
	b.WriteString("\nResources that failed:\n")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	for _, r := range failed {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.LogicalResourceID, r.ResourceStatus, r.ResourceStatusReason)
	}
	_ = tw.Flush()
}

// explain parses name as a status of the machine asked for and explains it.
// An unknown name is an error that suggests the closest names, and says so
// when the name belongs to the other machine.
func explain(name string, resource bool) (statemachine.Explanation, error) {
	var err error
	if resource {
		var s statemachine.ResourceStatus
		if s, err = statemachine.ParseResourceStatus(name); err == nil {
			return statemachine.ExplainResource(s)
		}
	} else {
		var s statemachine.StackStatus
		if s, err = statemachine.ParseStackStatus(name); err == nil {
			return statemachine.ExplainStack(s)
		}
	}
	var unknown *statemachine.UnknownStatusError
	if errors.As(err, &unknown) {
		switch {
		case unknown.OtherKind == "resource":
			err = fmt.Errorf("%w: add --resource", err)
		case unknown.OtherKind == "stack":
			err = fmt.Errorf("%w: drop --resource", err)
		case len(unknown.Suggestions) == 0:
			flag := ""
			if resource {
				flag = " --resource"
			}
			err = fmt.Errorf("%w; 'stacksim states%s' lists them all", err, flag)
		}
	}
	return statemachine.Explanation{}, err
}

// writeExplanation renders an explanation as text for a terminal. live:
// the refusals are one stack's (ExplainStackOf), not an example's.
func writeExplanation(w io.Writer, x statemachine.Explanation, live bool) error {
	var b strings.Builder
	subject := "a " + x.Machine

	fmt.Fprintf(&b, "%s: %s status, %s\n\n", x.Status, x.Machine, motion(x))
	wrap(&b, "", x.Summary)

	fmt.Fprintf(&b, "\nHow %s gets here\n", subject)
	for _, e := range x.Arrivals {
		fmt.Fprintf(&b, "  %s --%s--> %s\n", label(e.From), e.Event, e.To)
		wrap(&b, "      ", e.Why)
	}

	b.WriteString("\nWhat happens in it\n")
	if x.During == "" {
		b.WriteString("  Nothing runs: the status is at rest.\n")
	}
	wrap(&b, "  ", x.During)

	if x.Machine == "stack" {
		b.WriteString("\nWhat can be done next\n")
	} else {
		b.WriteString("\nWhat follows\n")
	}
	wrap(&b, "  ", x.Next)
	if x.Machine == "stack" {
		b.WriteString("\n  Accepted:\n")
		if len(x.Permissions) == 0 {
			b.WriteString("    nothing until the operation ends\n")
		}
		for _, p := range x.Permissions {
			fmt.Fprintf(&b, "    %s\n", p)
		}
		if len(x.Refusals) > 0 {
			if live {
				b.WriteString("  Refused, with AWS's answer for this stack:\n")
			} else {
				b.WriteString("  Refused (for a stack NAME with ID STACK_ID):\n")
			}
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
			for _, r := range x.Refusals {
				op := string(r.Err.Operation)
				if r.When != "" {
					op += " (" + r.When + ")"
				}
				fmt.Fprintf(tw, "    %s\t%s: %s\n", op, r.Err.Code, r.Err.Message)
			}
			_ = tw.Flush()
		}
	}

	b.WriteString("\nWhere it leads\n")
	if len(x.Departures) == 0 {
		b.WriteString("  nowhere: the status is final\n")
	}
	for _, e := range x.Departures {
		fmt.Fprintf(&b, "  --%s--> %s\n", e.Event, e.To)
		wrap(&b, "      ", e.Why)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func motion(x statemachine.Explanation) string {
	var m string
	switch {
	case x.Final:
		m = "at rest, final"
	case x.InMotion:
		m = "in motion"
	default:
		m = "at rest"
	}
	if x.Phase != 0 {
		m += fmt.Sprintf("; phase %s (%s)", x.Phase, x.Phase.Words())
	}
	return m
}

func label(status string) string {
	if status == statemachine.NotExist {
		return "NotExist"
	}
	return status
}

// wrap writes text word-wrapped at textWidth, every line indented.
func wrap(b *strings.Builder, indent, text string) {
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(word) > textWidth {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	if len(line) > len(indent) {
		b.WriteString(line + "\n")
	}
}
