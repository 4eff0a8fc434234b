package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/plan"
)

func (a *app) changeSetCommands() []*cobra.Command {
	return []*cobra.Command{
		a.createChangeSetCommand(), a.describeChangeSetCommand(), a.executeChangeSetCommand(),
		a.deleteChangeSetCommand(), a.listChangeSetsCommand(),
	}
}

func (a *app) createChangeSetCommand() *cobra.Command {
	var stack, csName, csType, description, roleARN, clientToken, onStackFailure, toImport, rollbackConfig string
	var t templateFlags
	var params, tags, caps, notifications []string
	var nested, importExisting bool
	cmd := &cobra.Command{
		Use:   "create-change-set --stack-name NAME --change-set-name CS (--template-body file://PATH | --use-previous-template)",
		Short: "Create a change set: what an update (or a creation) would do",
		Long: `Create a change set, as aws cloudformation create-change-set does. With
--change-set-type CREATE the stack is new and waits in REVIEW_IN_PROGRESS.
With --change-set-type IMPORT and --resources-to-import, existing resources
(a stack's retained ones, say) come into the stack, new or existing: the
template is the whole stack with them added, each with a DeletionPolicy,
and changes nothing else. With --import-existing-resources, a CREATE or
UPDATE change set imports the resources of its template that exist already
(a static name, DeletionPolicy Retain or RetainExceptOnCreate, in no stack)
and creates the rest. A change set with no changes is FAILED ("The submitted information didn't
contain changes..."), and the command exits with status 1.`,
		Example: `  stacksim create-change-set --stack-name app --change-set-name v2 --template-body file://app-v2.yaml
  stacksim describe-change-set --stack-name app --change-set-name v2 --output table
  stacksim create-change-set --stack-name new --change-set-name first --change-set-type CREATE --template-body file://app.yaml
  stacksim create-change-set --stack-name app --change-set-name adopt --change-set-type IMPORT --template-body file://app-with-bucket.yaml \
    --resources-to-import '[{"ResourceType":"AWS::S3::Bucket","LogicalResourceId":"Bucket","ResourceIdentifier":{"BucketName":"my-bucket"}}]'
  stacksim create-change-set --stack-name app --change-set-name v3 --template-body file://app-v3.yaml --import-existing-resources`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if stack == "" || csName == "" {
				return badInput(fmt.Errorf("the following arguments are required: --stack-name, --change-set-name"))
			}
			src, err := t.load(cmd, true)
			if err != nil {
				return err
			}
			in := engine.CreateChangeSetInput{StackName: stack, ChangeSetName: csName, TemplateBody: src.body, TemplateURL: src.url, UsePreviousTemplate: t.usePrevious,
				ChangeSetType: csType, Description: description, RoleARN: roleARN, ClientToken: clientToken,
				IncludeNestedStacks: nested, OnStackFailure: onStackFailure, ImportExistingResources: importExisting}
			if in.Parameters, err = parseParameters(params); err != nil {
				return badInput(err)
			}
			if toImport != "" {
				if in.ResourcesToImport, err = parseResourcesToImport(toImport); err != nil {
					return badInput(err)
				}
			}
			if cmd.Flags().Changed("tags") {
				if in.Tags, err = parseTags(tags); err != nil {
					return badInput(err)
				}
			}
			if in.Capabilities, err = parseStringList("capabilities", caps); err != nil {
				return badInput(err)
			}
			if in.NotificationARNs, err = parseStringList("notification-arns", notifications); err != nil {
				return badInput(err)
			}
			if in.RollbackConfiguration, err = rollbackConfigFlag(cmd, rollbackConfig); err != nil {
				return badInput(err)
			}
			var id string
			return a.mutate(cmd.Context(), mutation{op: "CreateChangeSet", stack: stack, templateFile: src.name, template: src.parsed, noOperation: true,
				call: func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error) {
					in.Extensions = ext
					out, err := e.CreateChangeSet(ctx, in)
					if out != nil {
						id = out.Id
					}
					return out, err
				},
				after: func(ctx context.Context, e *engine.Engine) error {
					cs, err := e.DescribeChangeSet(ctx, engine.DescribeChangeSetInput{ChangeSetName: id})
					if err != nil {
						return err
					}
					line := fmt.Sprintf("%s: change set %s %s, %s, %d change(s)", cs.StackName, cs.ChangeSetName, cs.Status, cs.ExecutionStatus, len(cs.Changes))
					if cs.StatusReason != "" {
						line = fmt.Sprintf("%s: change set %s %s — %s", cs.StackName, cs.ChangeSetName, cs.Status, cs.StatusReason)
					}
					fmt.Fprintln(a.stderr, line)
					if cs.Status == engine.ChangeSetStatusFailed {
						return exitWith(exitFailed)
					}
					fmt.Fprintf(a.stderr, "Next: stacksim describe-change-set --stack-name %s --change-set-name %s; stacksim execute-change-set --stack-name %s --change-set-name %s\n", cs.StackName, cs.ChangeSetName, cs.StackName, cs.ChangeSetName)
					return nil
				}})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&csName, "change-set-name", "", "the change set's name")
	cmd.Flags().StringVar(&csType, "change-set-type", "", "CREATE (a new stack), UPDATE (the default) or IMPORT (existing resources)")
	cmd.Flags().StringVar(&toImport, "resources-to-import", "", "the resources an IMPORT change set imports: a JSON list (ResourceType, LogicalResourceId, ResourceIdentifier), or file://PATH")
	cmd.Flags().StringVar(&description, "description", "", "a description of the change set")
	cmd.Flags().StringVar(&roleARN, "role-arn", "", "the service role (recorded, not used)")
	cmd.Flags().StringVar(&clientToken, "client-token", "", "a unique token for this request")
	cmd.Flags().StringVar(&onStackFailure, "on-stack-failure", "", "ROLLBACK, DO_NOTHING or DELETE: what executing the change set does on failure")
	addRollbackConfigFlag(cmd, &rollbackConfig)
	cmd.Flags().BoolVar(&importExisting, "import-existing-resources", false, "import (not create) the template's resources that exist already: a static name, DeletionPolicy Retain or RetainExceptOnCreate, in no stack")
	cmd.Flags().BoolVar(&nested, "include-nested-stacks", false, "make change sets of the nested stacks too (DescribeChangeSet shows each nested stack's ChangeSetId)")
	addTemplateFlags(cmd, &t, true)
	addParamFlags(cmd, &params, &tags, &caps, &notifications)
	return cmd
}

func (a *app) describeChangeSetCommand() *cobra.Command {
	var stack, csName string
	var values bool
	cmd := &cobra.Command{
		Use:     "describe-change-set --change-set-name CS [--stack-name NAME]",
		Short:   "Describe a change set and its changes",
		Example: `  stacksim describe-change-set --stack-name app --change-set-name v2 --include-property-values`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if csName == "" {
				return badInput(fmt.Errorf("the following arguments are required: --change-set-name"))
			}
			return a.read(cmd.Context(), "DescribeChangeSet", func(ctx context.Context, e *engine.Engine) (any, error) {
				in := engine.DescribeChangeSetInput{ChangeSetName: csName, StackName: stack, IncludePropertyValues: values}
				var first *engine.DescribeChangeSetOutput // the change set, with every page's changes
				changes, next, err := allPages(a.firstPageOnly(), func(token string) ([]plan.Change, string, error) {
					in.NextToken = token
					out, err := e.DescribeChangeSet(ctx, in)
					if err != nil {
						return nil, "", err
					}
					if first == nil {
						first = out
					}
					return out.Changes, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				first.Changes, first.NextToken = changes, next
				return first, nil
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN), when --change-set-name is a name")
	cmd.Flags().StringVar(&csName, "change-set-name", "", "the change set's name or ARN")
	cmd.Flags().BoolVar(&values, "include-property-values", false, "show each changed property's BeforeValue and AfterValue")
	return cmd
}

func (a *app) executeChangeSetCommand() *cobra.Command {
	var f opFlags
	var csName string
	var disableRollback, noDisableRollback bool
	cmd := &cobra.Command{
		Use:   "execute-change-set --change-set-name CS [--stack-name NAME]",
		Short: "Execute a change set: run the creation or update it describes",
		Long:  "Execute a change set, as aws cloudformation execute-change-set does, and run the operation to rest." + mutatingHelp,
		Example: `  stacksim execute-change-set --stack-name app --change-set-name v2
  stacksim execute-change-set --stack-name app --change-set-name v2 --disable-rollback --faults faults.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if csName == "" {
				return badInput(fmt.Errorf("the following arguments are required: --change-set-name"))
			}
			if disableRollback && noDisableRollback {
				return badInput(fmt.Errorf("argument --no-disable-rollback: not allowed with argument --disable-rollback"))
			}
			stack := f.stack
			if stack == "" {
				// A change set by ARN: its stack.
				e, err := a.openRead()
				if err != nil {
					return err
				}
				cs, err := e.DescribeChangeSet(cmd.Context(), engine.DescribeChangeSetInput{ChangeSetName: csName})
				_ = e.Close()
				if err != nil {
					return a.apiError("ExecuteChangeSet", err)
				}
				stack = cs.StackName
			}
			in := engine.ExecuteChangeSetInput{ChangeSetName: csName, StackName: f.stack, ClientRequestToken: f.token, DisableRollback: disableRollback}
			return a.mutate(cmd.Context(), mutation{op: "ExecuteChangeSet", stack: stack, until: f.until, faultsFile: f.faults,
				call: func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error) {
					in.Extensions = ext
					_, err := e.ExecuteChangeSet(ctx, in)
					return nil, err
				}})
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&csName, "change-set-name", "", "the change set's name or ARN")
	cmd.Flags().BoolVar(&disableRollback, "disable-rollback", false, "leave a failed operation in CREATE_FAILED or UPDATE_FAILED")
	cmd.Flags().BoolVar(&noDisableRollback, "no-disable-rollback", false, "roll a failed operation back (the default)")
	return cmd
}

func (a *app) deleteChangeSetCommand() *cobra.Command {
	var stack, csName string
	cmd := &cobra.Command{
		Use:     "delete-change-set --change-set-name CS [--stack-name NAME]",
		Short:   "Delete a change set",
		Example: `  stacksim delete-change-set --stack-name app --change-set-name v2`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if csName == "" {
				return badInput(fmt.Errorf("the following arguments are required: --change-set-name"))
			}
			in := engine.DeleteChangeSetInput{ChangeSetName: csName, StackName: stack}
			return a.mutate(cmd.Context(), mutation{op: "DeleteChangeSet", stack: stack, noOperation: true,
				call: func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error) {
					in.Extensions = ext
					_, err := e.DeleteChangeSet(ctx, in)
					return nil, err
				}})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN), when --change-set-name is a name")
	cmd.Flags().StringVar(&csName, "change-set-name", "", "the change set's name or ARN")
	return cmd
}

func (a *app) listChangeSetsCommand() *cobra.Command {
	var stack string
	cmd := &cobra.Command{
		Use:     "list-change-sets --stack-name NAME",
		Short:   "List a stack's change sets",
		Example: `  stacksim list-change-sets --stack-name app --output table`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if stack == "" {
				return badInput(fmt.Errorf("the following arguments are required: --stack-name"))
			}
			return a.read(cmd.Context(), "ListChangeSets", func(ctx context.Context, e *engine.Engine) (any, error) {
				in := engine.ListChangeSetsInput{StackName: stack}
				items, next, err := allPages(a.firstPageOnly(), func(token string) ([]engine.ChangeSetSummary, string, error) {
					in.NextToken = token
					out, err := e.ListChangeSets(ctx, in)
					if err != nil {
						return nil, "", err
					}
					return out.Summaries, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				return &engine.ListChangeSetsOutput{Summaries: items, NextToken: next}, nil
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	return cmd
}
