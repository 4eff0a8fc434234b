package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/template"
)

// The commands that start stack operations, flags spelled as in
// `aws cloudformation`, plus --faults, --until and the global flags.

// opFlags are the flags every mutating command has.
type opFlags struct {
	stack  string
	faults string
	until  string
	token  string
}

func (f *opFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&f.faults, "faults", "", "a fault file (YAML or JSON, docs/faults.md) injected into this operation's handler calls")
	cmd.Flags().StringVar(&f.until, "until", "", "stop right after this event, LOGICAL_ID:STATUS (the stack's name for a stack status; NESTED.LOGICAL_ID for a nested stack's resource), leaving the stack in motion")
	cmd.Flags().StringVar(&f.token, "client-request-token", "", "a unique token for this request")
}

func (f *opFlags) need(cmd *cobra.Command) error {
	if f.stack == "" {
		return badInput(fmt.Errorf("the following arguments are required: --stack-name"))
	}
	return nil
}

// templateFlags read --template-body, --template-url and
// --use-previous-template.
type templateFlags struct {
	body        string
	url         string
	usePrevious bool
}

// submitted is the template a command submits: a body read from
// --template-body (with the name its errors carry), or a URL the engine
// reads (--template-url), or neither (--use-previous-template).
type submitted struct {
	name, body, url string
	// parsed is the body parsed, for the display's columns (nil when it
	// does not parse, or comes by URL).
	parsed *template.Template
}

// load reads the template: file://PATH or the template itself (a missing
// file is refused before the state is touched), and parses it for the
// display (nil when it does not parse). A --template-url is read by the
// engine (--s3-dir maps S3 URLs to a directory).
func (t *templateFlags) load(cmd *cobra.Command, allowPrevious bool) (submitted, error) {
	given := cmd.Flags().Changed("template-body")
	byURL := cmd.Flags().Changed("template-url")
	if allowPrevious && t.usePrevious {
		if given || byURL {
			return submitted{}, badInput(fmt.Errorf("An error occurred (ValidationError): You cannot specify both usePreviousTemplate and Template Body"))
		}
		return submitted{}, nil
	}
	if byURL {
		if given {
			return submitted{}, badInput(fmt.Errorf("--template-body and --template-url: give one of them"))
		}
		if t.url == "" {
			return submitted{}, badInput(fmt.Errorf("--template-url is empty: give file://PATH or https://BUCKET.s3.amazonaws.com/KEY"))
		}
		return submitted{url: t.url}, nil
	}
	name, data, err := readTemplateBody(t.body, given)
	if err != nil {
		return submitted{}, badInput(err)
	}
	if err := template.CheckBodySize(name, data); err != nil {
		return submitted{}, badInput(err)
	}
	// A template that does not parse is left to the engine, which refuses
	// it as AWS does, with its positions.
	parsed, _ := template.Parse(name, data)
	return submitted{name: name, body: string(data), parsed: parsed}, nil
}

func (a *app) stackOpCommands() []*cobra.Command {
	return []*cobra.Command{
		a.createStackCommand(), a.updateStackCommand(), a.deleteStackCommand(),
		a.continueUpdateRollbackCommand(), a.cancelUpdateStackCommand(), a.rollbackStackCommand(), a.signalResourceCommand(),
	}
}

const mutatingHelp = `
The stack's events are shown on stderr as they happen (--quiet hides them),
then a one-line summary. Exit status: 0 when the stack ends where the call
meant it to (or stopped as --until asked), 1 when it ended failed or rolled
back, 2 when the call was refused (nothing changed).`

func (a *app) createStackCommand() *cobra.Command {
	var f opFlags
	var t templateFlags
	var params, tags, caps, notifications []string
	var onFailure, roleARN, rollbackConfig string
	var disableRollback, noDisableRollback, protect, retainExceptOnCreate bool
	var timeout int
	policy := policyFlags{name: "stack-policy"}
	cmd := &cobra.Command{
		Use:   "create-stack --stack-name NAME --template-body file://PATH",
		Short: "Create a stack and run its creation in virtual time",
		Long:  "Create a stack, as aws cloudformation create-stack does, and run the creation to rest." + mutatingHelp,
		Example: `  stacksim create-stack --stack-name app --template-body file://app.yaml \
      --parameters ParameterKey=Env,ParameterValue=prod --tags Key=team,Value=core
  stacksim create-stack --stack-name app --template-body file://app.yaml --on-failure DO_NOTHING --faults faults.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.need(cmd); err != nil {
				return err
			}
			src, err := t.load(cmd, false)
			if err != nil {
				return err
			}
			in := engine.CreateStackInput{StackName: f.stack, TemplateBody: src.body, TemplateURL: src.url, OnFailure: onFailure, RoleARN: roleARN,
				TimeoutInMinutes: timeout, ClientRequestToken: f.token, EnableTerminationProtection: protect,
				RetainExceptOnCreate: retainExceptOnCreate}
			if disableRollback && noDisableRollback {
				return badInput(fmt.Errorf("argument --no-disable-rollback: not allowed with argument --disable-rollback"))
			}
			in.DisableRollback = disableRollback
			if in.StackPolicyBody, in.StackPolicyURL, err = policy.load(); err != nil {
				return err
			}
			if in.Parameters, err = parseParameters(params); err != nil {
				return badInput(err)
			}
			if in.Tags, err = parseTags(tags); err != nil {
				return badInput(err)
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
			return a.mutate(cmd.Context(), mutation{op: "CreateStack", stack: f.stack, until: f.until, faultsFile: f.faults, templateFile: src.name, template: src.parsed,
				call: func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error) {
					in.Extensions = ext
					return e.CreateStack(ctx, in)
				}})
		},
	}
	f.add(cmd)
	addTemplateFlags(cmd, &t, false)
	addParamFlags(cmd, &params, &tags, &caps, &notifications)
	cmd.Flags().StringVar(&onFailure, "on-failure", "", "what to do when the creation fails: ROLLBACK (the default), DO_NOTHING or DELETE")
	cmd.Flags().BoolVar(&disableRollback, "disable-rollback", false, "leave a failed creation in CREATE_FAILED (as --on-failure DO_NOTHING, but the stack can then be updated)")
	cmd.Flags().BoolVar(&noDisableRollback, "no-disable-rollback", false, "roll a failed creation back (the default)")
	cmd.Flags().IntVar(&timeout, "timeout-in-minutes", 0, "fail the creation when it takes longer (virtual time)")
	cmd.Flags().StringVar(&roleARN, "role-arn", "", "the service role (recorded, not used)")
	cmd.Flags().BoolVar(&protect, "enable-termination-protection", false, "protect the stack from deletion")
	cmd.Flags().BoolVar(&retainExceptOnCreate, "retain-except-on-create", false, "delete resources with DeletionPolicy Retain when the creation that made them rolls back")
	policy.add(cmd, "the stack policy that governs the stack's updates")
	addRollbackConfigFlag(cmd, &rollbackConfig)
	return cmd
}

func addTemplateFlags(cmd *cobra.Command, t *templateFlags, previous bool) {
	cmd.Flags().StringVar(&t.body, "template-body", "", "the template: file://PATH, or the template itself")
	cmd.Flags().StringVar(&t.url, "template-url", "", "the template's URL: https://BUCKET.s3.amazonaws.com/KEY (read from --s3-dir DIR/BUCKET/KEY) or file://PATH")
	if previous {
		cmd.Flags().BoolVar(&t.usePrevious, "use-previous-template", false, "keep the stack's current template")
		cmd.Flags().Bool("no-use-previous-template", false, "submit a new template (the default)")
	}
}

func addParamFlags(cmd *cobra.Command, params, tags, caps, notifications *[]string) {
	cmd.Flags().StringArrayVar(params, "parameters", nil, "ParameterKey=K,ParameterValue=V (or UsePreviousValue=true) ..., a JSON list, or file://PATH")
	cmd.Flags().StringArrayVar(tags, "tags", nil, "Key=K,Value=V ..., a JSON list, or file://PATH")
	cmd.Flags().StringArrayVar(caps, "capabilities", nil, "CAPABILITY_IAM, CAPABILITY_NAMED_IAM, CAPABILITY_AUTO_EXPAND ...")
	cmd.Flags().StringArrayVar(notifications, "notification-arns", nil, "SNS topic ARNs (recorded, not notified)")
}

func (a *app) updateStackCommand() *cobra.Command {
	var f opFlags
	var t templateFlags
	var params, tags, caps, notifications []string
	var roleARN, rollbackConfig string
	var disableRollback, noDisableRollback bool
	policy := policyFlags{name: "stack-policy"}
	during := policyFlags{name: "stack-policy-during-update"}
	cmd := &cobra.Command{
		Use:   "update-stack --stack-name NAME (--template-body file://PATH | --use-previous-template)",
		Short: "Update a stack and run the update in virtual time",
		Long:  "Update a stack, as aws cloudformation update-stack does, and run the update to rest." + mutatingHelp,
		Example: `  stacksim update-stack --stack-name app --template-body file://app-v2.yaml --faults faults.yaml
  stacksim update-stack --stack-name app --use-previous-template --parameters ParameterKey=Env,UsePreviousValue=true ParameterKey=Size,ParameterValue=3
  stacksim update-stack --stack-name app --template-body file://app-v2.yaml --until Queue:UPDATE_IN_PROGRESS`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.need(cmd); err != nil {
				return err
			}
			src, err := t.load(cmd, true)
			if err != nil {
				return err
			}
			if disableRollback && noDisableRollback {
				return badInput(fmt.Errorf("argument --no-disable-rollback: not allowed with argument --disable-rollback"))
			}
			in := engine.UpdateStackInput{StackName: f.stack, TemplateBody: src.body, TemplateURL: src.url, UsePreviousTemplate: t.usePrevious,
				RoleARN: roleARN, DisableRollback: disableRollback, ClientRequestToken: f.token}
			if in.StackPolicyBody, in.StackPolicyURL, err = policy.load(); err != nil {
				return err
			}
			if in.StackPolicyDuringUpdateBody, in.StackPolicyDuringUpdateURL, err = during.load(); err != nil {
				return err
			}
			if in.Parameters, err = parseParameters(params); err != nil {
				return badInput(err)
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
			return a.mutate(cmd.Context(), mutation{op: "UpdateStack", stack: f.stack, until: f.until, faultsFile: f.faults, templateFile: src.name, template: src.parsed,
				call: func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error) {
					in.Extensions = ext
					return e.UpdateStack(ctx, in)
				}})
		},
	}
	f.add(cmd)
	addTemplateFlags(cmd, &t, true)
	addParamFlags(cmd, &params, &tags, &caps, &notifications)
	cmd.Flags().BoolVar(&disableRollback, "disable-rollback", false, "leave a failed update in UPDATE_FAILED (then rollback-stack, or update again)")
	cmd.Flags().BoolVar(&noDisableRollback, "no-disable-rollback", false, "roll a failed update back (the default)")
	cmd.Flags().StringVar(&roleARN, "role-arn", "", "the service role (recorded, not used)")
	policy.add(cmd, "the stack's policy once the update succeeds")
	during.add(cmd, "the policy this update runs under instead of the stack's")
	addRollbackConfigFlag(cmd, &rollbackConfig)
	return cmd
}

func (a *app) deleteStackCommand() *cobra.Command {
	var f opFlags
	var retain []string
	var roleARN string
	cmd := &cobra.Command{
		Use:   "delete-stack --stack-name NAME",
		Short: "Delete a stack and run the deletion in virtual time",
		Long: `Delete a stack, as aws cloudformation delete-stack does, and run the deletion
to rest. --retain-resources is accepted only for a stack in DELETE_FAILED.` + mutatingHelp,
		Example: `  stacksim delete-stack --stack-name app
  stacksim delete-stack --stack-name app --retain-resources Bucket Queue`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.need(cmd); err != nil {
				return err
			}
			list, err := parseStringList("retain-resources", retain)
			if err != nil {
				return badInput(err)
			}
			in := engine.DeleteStackInput{StackName: f.stack, RetainResources: list, RoleARN: roleARN, ClientRequestToken: f.token}
			return a.mutate(cmd.Context(), mutation{op: "DeleteStack", stack: f.stack, until: f.until, faultsFile: f.faults,
				call: func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error) {
					in.Extensions = ext
					_, err := e.DeleteStack(ctx, in)
					return nil, err
				}})
		},
	}
	f.add(cmd)
	cmd.Flags().StringArrayVar(&retain, "retain-resources", nil, "logical ids of resources to leave in the account (stack in DELETE_FAILED only)")
	cmd.Flags().StringVar(&roleARN, "role-arn", "", "the service role (recorded, not used)")
	return cmd
}

func (a *app) continueUpdateRollbackCommand() *cobra.Command {
	var f opFlags
	var skip []string
	var roleARN string
	cmd := &cobra.Command{
		Use:   "continue-update-rollback --stack-name NAME [--resources-to-skip ID ...]",
		Short: "Continue the rollback of a stack in UPDATE_ROLLBACK_FAILED",
		Long: `Continue the rollback of a stack in UPDATE_ROLLBACK_FAILED, as aws cloudformation
continue-update-rollback does. --resources-to-skip names resources whose
rollback failed: they are marked UPDATE_COMPLETE without being rolled back.` + mutatingHelp,
		Example: `  stacksim continue-update-rollback --stack-name app
  stacksim continue-update-rollback --stack-name app --resources-to-skip Queue`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.need(cmd); err != nil {
				return err
			}
			list, err := parseStringList("resources-to-skip", skip)
			if err != nil {
				return badInput(err)
			}
			in := engine.ContinueUpdateRollbackInput{StackName: f.stack, ResourcesToSkip: list, RoleARN: roleARN, ClientRequestToken: f.token}
			return a.mutate(cmd.Context(), mutation{op: "ContinueUpdateRollback", stack: f.stack, until: f.until, faultsFile: f.faults,
				call: func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error) {
					in.Extensions = ext
					_, err := e.ContinueUpdateRollback(ctx, in)
					return nil, err
				}})
		},
	}
	f.add(cmd)
	cmd.Flags().StringArrayVar(&skip, "resources-to-skip", nil, "logical ids of resources whose rollback failed, to skip")
	cmd.Flags().StringVar(&roleARN, "role-arn", "", "the service role (recorded, not used)")
	return cmd
}

func (a *app) cancelUpdateStackCommand() *cobra.Command {
	var f opFlags
	cmd := &cobra.Command{
		Use:   "cancel-update-stack --stack-name NAME",
		Short: "Cancel an update in progress (a stack stopped by --until) and roll it back",
		Long: `Cancel the update of a stack in UPDATE_IN_PROGRESS, as aws cloudformation
cancel-update-stack does: resources in flight are cancelled and the update
rolls back. In stacksim an update is in progress when it was stopped part way
by --until or stepped with 'stacksim step'.` + mutatingHelp,
		Example: `  stacksim update-stack --stack-name app --template-body file://v2.yaml --until Queue:UPDATE_IN_PROGRESS
  stacksim cancel-update-stack --stack-name app`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.need(cmd); err != nil {
				return err
			}
			in := engine.CancelUpdateStackInput{StackName: f.stack, ClientRequestToken: f.token}
			return a.mutate(cmd.Context(), mutation{op: "CancelUpdateStack", stack: f.stack, until: f.until, faultsFile: f.faults,
				call: func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error) {
					in.Extensions = ext
					_, err := e.CancelUpdateStack(ctx, in)
					return nil, err
				}})
		},
	}
	f.add(cmd)
	return cmd
}

func (a *app) rollbackStackCommand() *cobra.Command {
	var f opFlags
	var roleARN string
	var retainExceptOnCreate bool
	cmd := &cobra.Command{
		Use:   "rollback-stack --stack-name NAME",
		Short: "Roll back a stack in CREATE_FAILED or UPDATE_FAILED",
		Long: `Roll a stack whose failed operation disabled rollback (CREATE_FAILED,
UPDATE_FAILED) back to its last stable state, as aws cloudformation
rollback-stack does.` + mutatingHelp,
		Example: `  stacksim update-stack --stack-name app --template-body file://v2.yaml --disable-rollback
  stacksim rollback-stack --stack-name app`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.need(cmd); err != nil {
				return err
			}
			in := engine.RollbackStackInput{StackName: f.stack, RoleARN: roleARN, ClientRequestToken: f.token}
			if cmd.Flags().Changed("retain-except-on-create") {
				in.RetainExceptOnCreate = &retainExceptOnCreate
			}
			return a.mutate(cmd.Context(), mutation{op: "RollbackStack", stack: f.stack, until: f.until, faultsFile: f.faults,
				call: func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error) {
					in.Extensions = ext
					return e.RollbackStack(ctx, in)
				}})
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&roleARN, "role-arn", "", "the service role (recorded, not used)")
	cmd.Flags().BoolVar(&retainExceptOnCreate, "retain-except-on-create", false, "delete resources with DeletionPolicy Retain that this rollback undoes the creation of")
	return cmd
}
