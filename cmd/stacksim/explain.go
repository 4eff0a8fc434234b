package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/statemachine"
)

// textWidth is where explain wraps its prose.
const textWidth = 80

func (a *app) explainCommand() *cobra.Command {
	var resource bool
	cmd := &cobra.Command{
		Use:   "explain STATUS",
		Short: "Explain a stack (or resource) status: how it comes about, what happens in it, what to do next",
		Long: `Explain one CloudFormation status: how a stack (or, with --resource, a
resource) gets there, what happens while it is in it, what can be done next,
and for a stack which API operations are accepted and what AWS answers to the
others.

STATUS is spelt as AWS spells it; lower case and hyphens are accepted too
(update-rollback-failed).`,
		Example: `  stacksim explain UPDATE_ROLLBACK_FAILED
  stacksim explain update-rollback-failed
  stacksim explain --resource DELETE_SKIPPED`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			x, err := explain(args[0], resource)
			if err != nil {
				return badInput(err)
			}
			return writeExplanation(a.stdout, x)
		},
	}
	cmd.Flags().BoolVar(&resource, "resource", false, "STATUS is a resource status")
	return cmd
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

// writeExplanation renders an explanation as text for a terminal.
func writeExplanation(w io.Writer, x statemachine.Explanation) error {
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
			b.WriteString("  Refused (for a stack NAME with ID STACK_ID):\n")
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
