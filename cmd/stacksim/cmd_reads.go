package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
)

// The commands that only read the state: opened without its lock, answered
// as the AWS CLI answers them (every page fetched, as the CLI does).

// read runs a read call and prints its answer.
func (a *app) read(ctx context.Context, op string, call func(ctx context.Context, e *engine.Engine) (any, error)) error {
	e, err := a.openRead()
	if err != nil {
		return err
	}
	defer e.Close()
	resp, err := call(ctx, e)
	if err != nil {
		return a.apiError(op, err)
	}
	return a.print(op, resp)
}

func (a *app) readCommands() []*cobra.Command {
	return []*cobra.Command{
		a.describeStacksCommand(), a.listStacksCommand(), a.describeStackEventsCommand(), a.describeEventsCommand(),
		a.describeStackResourceCommand(), a.describeStackResourcesCommand(), a.listStackResourcesCommand(),
		a.getTemplateCommand(), a.getTemplateSummaryCommand(), a.listExportsCommand(), a.listImportsCommand(),
		a.describeStackOperationCommand(), a.describeAccountLimitsCommand(),
	}
}

func requireFlags(pairs ...string) error {
	var missing []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			missing = append(missing, "--"+pairs[i])
		}
	}
	if len(missing) > 0 {
		return badInput(fmt.Errorf("the following arguments are required: %s", strings.Join(missing, ", ")))
	}
	return nil
}

func (a *app) describeStacksCommand() *cobra.Command {
	var stack string
	cmd := &cobra.Command{
		Use:   "describe-stacks [--stack-name NAME]",
		Short: "Describe one stack, or every stack that is not deleted",
		Example: `  stacksim describe-stacks --stack-name app
  stacksim describe-stacks --output table`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.read(cmd.Context(), "DescribeStacks", func(ctx context.Context, e *engine.Engine) (any, error) {
				in := engine.DescribeStacksInput{StackName: stack}
				items, next, err := allPages(a.firstPageOnly(), func(token string) ([]engine.Stack, string, error) {
					in.NextToken = token
					out, err := e.DescribeStacks(ctx, in)
					if err != nil {
						return nil, "", err
					}
					return out.Stacks, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				return &engine.DescribeStacksOutput{Stacks: items, NextToken: next}, nil
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name, or ARN (a deleted stack by ARN only)")
	return cmd
}

func (a *app) listStacksCommand() *cobra.Command {
	var filter []string
	cmd := &cobra.Command{
		Use:   "list-stacks [--stack-status-filter STATUS ...]",
		Short: "List every stack, deleted ones included",
		Example: `  stacksim list-stacks
  stacksim list-stacks --stack-status-filter UPDATE_ROLLBACK_FAILED ROLLBACK_FAILED --output text`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			list, err := parseStringList("stack-status-filter", filter)
			if err != nil {
				return badInput(err)
			}
			return a.read(cmd.Context(), "ListStacks", func(ctx context.Context, e *engine.Engine) (any, error) {
				in := engine.ListStacksInput{StackStatusFilter: list}
				items, next, err := allPages(a.firstPageOnly(), func(token string) ([]engine.StackSummary, string, error) {
					in.NextToken = token
					out, err := e.ListStacks(ctx, in)
					if err != nil {
						return nil, "", err
					}
					return out.StackSummaries, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				return &engine.ListStacksOutput{StackSummaries: items, NextToken: next}, nil
			})
		},
	}
	cmd.Flags().StringArrayVar(&filter, "stack-status-filter", nil, "keep the stacks in these statuses")
	return cmd
}

func (a *app) describeStackEventsCommand() *cobra.Command {
	var stack string
	cmd := &cobra.Command{
		Use:   "describe-stack-events --stack-name NAME",
		Short: "A stack's events, newest first",
		Example: `  stacksim describe-stack-events --stack-name app
  stacksim describe-stack-events --stack-name app --output text`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack); err != nil {
				return err
			}
			return a.read(cmd.Context(), "DescribeStackEvents", func(ctx context.Context, e *engine.Engine) (any, error) {
				return allEvents(ctx, e, stack, a.firstPageOnly())
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name, or ARN (a deleted stack by ARN only)")
	return cmd
}

// allEvents reads every page of a stack's events, newest first (the first
// only, and its NextToken, when firstOnly).
func allEvents(ctx context.Context, e *engine.Engine, stack string, firstOnly bool) (*engine.DescribeStackEventsOutput, error) {
	in := engine.DescribeStackEventsInput{StackName: stack}
	items, next, err := allPages(firstOnly, func(token string) ([]engine.StackEvent, string, error) {
		in.NextToken = token
		out, err := e.DescribeStackEvents(ctx, in)
		if err != nil {
			return nil, "", err
		}
		return out.StackEvents, out.NextToken, nil
	})
	if err != nil {
		return nil, err
	}
	return &engine.DescribeStackEventsOutput{StackEvents: items, NextToken: next}, nil
}

func (a *app) describeStackResourceCommand() *cobra.Command {
	var stack, logical string
	cmd := &cobra.Command{
		Use:     "describe-stack-resource --stack-name NAME --logical-resource-id ID",
		Short:   "Describe one resource of a stack",
		Example: `  stacksim describe-stack-resource --stack-name app --logical-resource-id Queue`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack, "logical-resource-id", logical); err != nil {
				return err
			}
			return a.read(cmd.Context(), "DescribeStackResource", func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.DescribeStackResource(ctx, engine.DescribeStackResourceInput{StackName: stack, LogicalResourceId: logical})
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&logical, "logical-resource-id", "", "the resource's logical id")
	return cmd
}

func (a *app) describeStackResourcesCommand() *cobra.Command {
	var stack, logical, physical string
	cmd := &cobra.Command{
		Use:   "describe-stack-resources (--stack-name NAME | --physical-resource-id ID) [--logical-resource-id ID]",
		Short: "Describe the resources of a stack",
		Example: `  stacksim describe-stack-resources --stack-name app --output table
  stacksim describe-stack-resources --physical-resource-id arn:aws:sns:us-east-1:123456789012:orders`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.read(cmd.Context(), "DescribeStackResources", func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.DescribeStackResources(ctx, engine.DescribeStackResourcesInput{StackName: stack, LogicalResourceId: logical, PhysicalResourceId: physical})
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&logical, "logical-resource-id", "", "only this resource")
	cmd.Flags().StringVar(&physical, "physical-resource-id", "", "the stack that holds the resource of this physical id")
	return cmd
}

func (a *app) listStackResourcesCommand() *cobra.Command {
	var stack string
	cmd := &cobra.Command{
		Use:     "list-stack-resources --stack-name NAME",
		Short:   "List the resources of a stack",
		Example: `  stacksim list-stack-resources --stack-name app --output table`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack); err != nil {
				return err
			}
			return a.read(cmd.Context(), "ListStackResources", func(ctx context.Context, e *engine.Engine) (any, error) {
				in := engine.ListStackResourcesInput{StackName: stack}
				items, next, err := allPages(a.firstPageOnly(), func(token string) ([]engine.StackResourceSummary, string, error) {
					in.NextToken = token
					out, err := e.ListStackResources(ctx, in)
					if err != nil {
						return nil, "", err
					}
					return out.StackResourceSummaries, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				return &engine.ListStackResourcesOutput{StackResourceSummaries: items, NextToken: next}, nil
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	return cmd
}

func (a *app) getTemplateCommand() *cobra.Command {
	var stack, cs, stage string
	cmd := &cobra.Command{
		Use:   "get-template --stack-name NAME [--change-set-name CS] [--template-stage Original|Processed]",
		Short: "The template of a stack (or of a change set)",
		Long: `The template of a stack, as aws cloudformation get-template prints it: a YAML
template as a string, a JSON one as an object.`,
		Example: `  stacksim get-template --stack-name app
  stacksim get-template --stack-name app --output text`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.read(cmd.Context(), "GetTemplate", func(ctx context.Context, e *engine.Engine) (any, error) {
				out, err := e.GetTemplate(ctx, engine.GetTemplateInput{StackName: stack, ChangeSetName: cs, TemplateStage: stage})
				if err != nil {
					return nil, err
				}
				// The AWS CLI decodes a JSON template body (botocore's
				// json_decode_template_body), keeping its key order.
				var body any = out.TemplateBody
				if t := bytes.TrimSpace([]byte(out.TemplateBody)); len(t) > 0 && t[0] == '{' && json.Valid(t) {
					if v, err := parseOrdered(t); err == nil {
						body = v
					}
				}
				return object{{"TemplateBody", body}, {"StagesAvailable", stringsToAny(out.StagesAvailable)}}, nil
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name, or ARN (a deleted stack by ARN only)")
	cmd.Flags().StringVar(&cs, "change-set-name", "", "a change set's template instead of the stack's")
	cmd.Flags().StringVar(&stage, "template-stage", "", "Original (the default) or Processed")
	return cmd
}

func (a *app) listExportsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "list-exports",
		Short:   "The exported output values of the account",
		Example: `  stacksim list-exports --output table`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.read(cmd.Context(), "ListExports", func(ctx context.Context, e *engine.Engine) (any, error) {
				in := engine.ListExportsInput{}
				items, next, err := allPages(a.firstPageOnly(), func(token string) ([]engine.Export, string, error) {
					in.NextToken = token
					out, err := e.ListExports(ctx, in)
					if err != nil {
						return nil, "", err
					}
					return out.Exports, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				return &engine.ListExportsOutput{Exports: items, NextToken: next}, nil
			})
		},
	}
	return cmd
}

func (a *app) listImportsCommand() *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:     "list-imports --export-name NAME",
		Short:   "The stacks that import an exported value",
		Example: `  stacksim list-imports --export-name app-QueueUrl`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("export-name", name); err != nil {
				return err
			}
			return a.read(cmd.Context(), "ListImports", func(ctx context.Context, e *engine.Engine) (any, error) {
				in := engine.ListImportsInput{ExportName: name}
				items, next, err := allPages(a.firstPageOnly(), func(token string) ([]string, string, error) {
					in.NextToken = token
					out, err := e.ListImports(ctx, in)
					if err != nil {
						return nil, "", err
					}
					return out.Imports, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				return &engine.ListImportsOutput{Imports: items, NextToken: next}, nil
			})
		},
	}
	cmd.Flags().StringVar(&name, "export-name", "", "the export's name")
	return cmd
}

func (a *app) describeAccountLimitsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "describe-account-limits",
		Short: "The account's CloudFormation quotas: stacks (--stack-limit), outputs of a template, resources provisioned at once",
		Example: `  stacksim describe-account-limits --output table
  stacksim --stack-limit 3 describe-account-limits --query 'AccountLimits[?Name==` + "`StackLimit`" + `].Value' --output text`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.read(cmd.Context(), "DescribeAccountLimits", func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.DescribeAccountLimits(ctx, engine.DescribeAccountLimitsInput{})
			})
		},
	}
}

func (a *app) describeStackOperationCommand() *cobra.Command {
	var stack, id string
	cmd := &cobra.Command{
		Use:   "describe-stack-operation --stack-name NAME [--operation-id ID]",
		Short: "stacksim's own: a stack's last operation, its plan, contract violations and faults fired",
		Example: `  stacksim describe-stack-operation --stack-name app
  stacksim --contract report update-stack --stack-name app --template-body file://v2.yaml && stacksim describe-stack-operation --stack-name app`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags("stack-name", stack); err != nil {
				return err
			}
			return a.read(cmd.Context(), "DescribeStackOperation", func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.DescribeStackOperation(ctx, engine.DescribeStackOperationInput{StackName: stack, OperationId: id})
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&id, "operation-id", "", "an operation of the stack (its last one by default)")
	return cmd
}
