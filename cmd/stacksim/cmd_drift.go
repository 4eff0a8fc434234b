package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
)

// Drift detection: detect-stack-drift, detect-stack-resource-drift,
// describe-stack-drift-detection-status, describe-stack-resource-drifts
// (as the AWS CLI), and drift-resource, stacksim's own, which changes a
// simulated resource behind its stack's back so that there is drift to
// find.

func (a *app) driftCommands() []*cobra.Command {
	return []*cobra.Command{a.detectStackDriftCommand(), a.detectStackResourceDriftCommand(),
		a.describeStackDriftDetectionStatusCommand(), a.describeStackResourceDriftsCommand(), a.driftResourceCommand()}
}

func (a *app) detectStackDriftCommand() *cobra.Command {
	var stack string
	var ids []string
	cmd := &cobra.Command{
		Use:   "detect-stack-drift --stack-name NAME [--logical-resource-ids ID ...]",
		Short: "Detect drift: compare each resource with what its template set",
		Long: `Detect drift, as aws cloudformation detect-stack-drift does: every
resource of the stack that supports it (custom resources and nested stacks
do not) is read through its handler and compared with the properties its
template set. The detection completes at once in virtual time; its id reads
the result with describe-stack-drift-detection-status, and
describe-stack-resource-drifts lists what it found. In the simulated cloud
nothing drifts unless drift-resource changes it; your own handler's Read
answers what it sees.`,
		Example: `  stacksim detect-stack-drift --stack-name app
  stacksim detect-stack-drift --stack-name app --logical-resource-ids Queue Topic`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack); err != nil {
				return err
			}
			list, err := parseStringList("logical-resource-ids", ids)
			if err != nil {
				return badInput(err)
			}
			in := engine.DetectStackDriftInput{StackName: stack, LogicalResourceIds: list}
			return a.mutate(cmd.Context(), mutation{op: "DetectStackDrift", stack: stack, noOperation: true,
				call: func(ctx context.Context, e *engine.Engine, _ engine.Extensions) (any, error) {
					return e.DetectStackDrift(ctx, in)
				}})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringArrayVar(&ids, "logical-resource-ids", nil, "check only these resources (space-separated, or a JSON list)")
	return cmd
}

func (a *app) detectStackResourceDriftCommand() *cobra.Command {
	var stack, logical string
	cmd := &cobra.Command{
		Use:     "detect-stack-resource-drift --stack-name NAME --logical-resource-id ID",
		Short:   "Detect the drift of one resource",
		Example: `  stacksim detect-stack-resource-drift --stack-name app --logical-resource-id Queue`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack, "logical-resource-id", logical); err != nil {
				return err
			}
			in := engine.DetectStackResourceDriftInput{StackName: stack, LogicalResourceId: logical}
			return a.mutate(cmd.Context(), mutation{op: "DetectStackResourceDrift", stack: stack, noOperation: true,
				call: func(ctx context.Context, e *engine.Engine, _ engine.Extensions) (any, error) {
					return e.DetectStackResourceDrift(ctx, in)
				}})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&logical, "logical-resource-id", "", "the resource's logical id")
	return cmd
}

func (a *app) describeStackDriftDetectionStatusCommand() *cobra.Command {
	var id string
	cmd := &cobra.Command{
		Use:     "describe-stack-drift-detection-status --stack-drift-detection-id ID",
		Short:   "The result of a drift detection",
		Example: `  stacksim describe-stack-drift-detection-status --stack-drift-detection-id 3c8f0e8a-...`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-drift-detection-id", id); err != nil {
				return err
			}
			return a.read(cmd.Context(), "DescribeStackDriftDetectionStatus", func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.DescribeStackDriftDetectionStatus(ctx, engine.DescribeStackDriftDetectionStatusInput{StackDriftDetectionId: id})
			})
		},
	}
	cmd.Flags().StringVar(&id, "stack-drift-detection-id", "", "the id detect-stack-drift answered")
	return cmd
}

func (a *app) describeStackResourceDriftsCommand() *cobra.Command {
	var stack string
	var filters []string
	cmd := &cobra.Command{
		Use:   "describe-stack-resource-drifts --stack-name NAME [--stack-resource-drift-status-filters STATUS ...]",
		Short: "What the last drift detection found of each resource",
		Example: `  stacksim describe-stack-resource-drifts --stack-name app
  stacksim describe-stack-resource-drifts --stack-name app --stack-resource-drift-status-filters MODIFIED DELETED`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack); err != nil {
				return err
			}
			list, err := parseStringList("stack-resource-drift-status-filters", filters)
			if err != nil {
				return badInput(err)
			}
			return a.read(cmd.Context(), "DescribeStackResourceDrifts", func(ctx context.Context, e *engine.Engine) (any, error) {
				in := engine.DescribeStackResourceDriftsInput{StackName: stack, StackResourceDriftStatusFilters: list}
				items, next, err := allPages(a.firstPageOnly(), func(token string) ([]engine.StackResourceDrift, string, error) {
					in.NextToken = token
					out, err := e.DescribeStackResourceDrifts(ctx, in)
					if err != nil {
						return nil, "", err
					}
					return out.StackResourceDrifts, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				return &engine.DescribeStackResourceDriftsOutput{StackResourceDrifts: items, NextToken: next}, nil
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringArrayVar(&filters, "stack-resource-drift-status-filters", nil, "only resources of these statuses: IN_SYNC, MODIFIED, DELETED, NOT_CHECKED, UNKNOWN (space-separated, or a JSON list)")
	return cmd
}

func (a *app) driftResourceCommand() *cobra.Command {
	var stack, logical string
	var set, remove []string
	var del bool
	cmd := &cobra.Command{
		Use:   "drift-resource --stack-name NAME --logical-resource-id ID (--set PROP=VALUE ... | --remove PROP ... | --delete)",
		Short: "Change a simulated resource behind its stack's back (stacksim's own)",
		Long: `Change the simulated physical resource of a stack's resource as someone
editing it in the console would, or delete it, so that detect-stack-drift
finds drift. The stack does not change. A VALUE that parses as JSON is that
JSON (a number, a list, an object), else it is the text. Only resources of
the simulated cloud can be changed (not custom resources, nested stacks, or
types your own handler serves: their Read says what drifted).`,
		Example: `  stacksim drift-resource --stack-name app --logical-resource-id Queue --set VisibilityTimeout=60
  stacksim drift-resource --stack-name app --logical-resource-id Topic --delete`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack, "logical-resource-id", logical); err != nil {
				return err
			}
			switch {
			case del && (len(set) > 0 || len(remove) > 0):
				return badInput(fmt.Errorf("give --delete, or --set and --remove, not both"))
			case !del && len(set) == 0 && len(remove) == 0:
				return badInput(fmt.Errorf("say what changes: --set PROP=VALUE, --remove PROP (each repeatable) or --delete"))
			}
			in := engine.DriftResourceInput{StackName: stack, LogicalResourceId: logical, RemoveProperties: remove, Delete: del}
			for _, kv := range set {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return badInput(fmt.Errorf("--set %q: give PROPERTY=VALUE", kv))
				}
				if in.Properties == nil {
					in.Properties = map[string]any{}
				}
				in.Properties[k] = jsonOrText(v)
			}
			return a.mutate(cmd.Context(), mutation{op: "DriftResource", stack: stack, noOperation: true,
				call: func(ctx context.Context, e *engine.Engine, _ engine.Extensions) (any, error) {
					return e.DriftResource(ctx, in)
				}})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&logical, "logical-resource-id", "", "the resource's logical id")
	cmd.Flags().StringArrayVar(&set, "set", nil, "set a top-level property: PROP=VALUE (repeatable)")
	cmd.Flags().StringArrayVar(&remove, "remove", nil, "take a top-level property off (repeatable)")
	cmd.Flags().BoolVar(&del, "delete", false, "delete the physical resource")
	return cmd
}

// jsonOrText is a flag's value: the JSON it parses as, else its text.
func jsonOrText(text string) any {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err == nil {
		return v
	}
	return text
}
