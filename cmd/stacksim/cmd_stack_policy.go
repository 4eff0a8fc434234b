package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/readfile"
)

// Stack policies and termination protection: set-stack-policy,
// get-stack-policy, update-termination-protection, and the policy flags
// of create-stack and update-stack (flags spelled as the AWS CLI's).

// policyFlags are a pair of policy flags: --NAME-body and --NAME-url.
type policyFlags struct {
	name      string // "stack-policy" or "stack-policy-during-update"
	body, url string
}

func (p *policyFlags) add(cmd *cobra.Command, what string) {
	cmd.Flags().StringVar(&p.body, p.name+"-body", "", what+": file://PATH, or the policy itself (JSON)")
	cmd.Flags().StringVar(&p.url, p.name+"-url", "", what+" by URL: https://BUCKET.s3.amazonaws.com/KEY (read from --s3-dir) or file://PATH")
}

// policyFileLimit bounds a policy file read by the CLI: AWS takes a body
// of 16384 bytes at most; the engine says so of a longer one.
var policyFileLimit = readfile.Limit{Max: 1 << 20, What: "stack policy", Hint: "a stack policy is at most 16384 bytes"}

// load returns the body (read from file:// as the AWS CLI does) and the URL.
func (p *policyFlags) load() (body, url string, err error) {
	body, url = p.body, p.url
	if path, ok := strings.CutPrefix(body, "file://"); ok {
		b, err := readfile.Read(path, policyFileLimit)
		if err != nil {
			return "", "", badInput(fmt.Errorf("Error parsing parameter '--%s-body': Unable to load paramfile %s: %w", p.name, body, err))
		}
		body = string(b)
	}
	return body, url, nil
}

func (a *app) stackPolicyCommands() []*cobra.Command {
	return []*cobra.Command{a.setStackPolicyCommand(), a.getStackPolicyCommand(), a.updateTerminationProtectionCommand()}
}

func (a *app) setStackPolicyCommand() *cobra.Command {
	var stack string
	p := policyFlags{name: "stack-policy"}
	cmd := &cobra.Command{
		Use:   "set-stack-policy --stack-name NAME (--stack-policy-body file://PATH | --stack-policy-url URL)",
		Short: "Set the stack policy that governs a stack's updates",
		Long: `Set a stack's policy, as aws cloudformation set-stack-policy does. Once a stack
has a policy, an update that would modify, replace or remove a resource the
policy does not allow fails that resource ("Action denied by stack policy:
...") before anything starts, and rolls back. A policy cannot be removed,
only replaced: {} protects nothing.`,
		Example: `  stacksim set-stack-policy --stack-name app --stack-policy-body file://policy.json
  stacksim set-stack-policy --stack-name app --stack-policy-body \
      '{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if stack == "" {
				return badInput(fmt.Errorf("the following arguments are required: --stack-name"))
			}
			body, url, err := p.load()
			if err != nil {
				return err
			}
			in := engine.SetStackPolicyInput{StackName: stack, StackPolicyBody: body, StackPolicyURL: url}
			return a.mutate(cmd.Context(), mutation{op: "SetStackPolicy", stack: stack, noOperation: true,
				call: func(ctx context.Context, e *engine.Engine, _ engine.Extensions) (any, error) {
					_, err := e.SetStackPolicy(ctx, in)
					return nil, err
				}})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	p.add(cmd, "the policy")
	return cmd
}

func (a *app) getStackPolicyCommand() *cobra.Command {
	var stack string
	cmd := &cobra.Command{
		Use:   "get-stack-policy --stack-name NAME",
		Short: "The stack policy of a stack",
		Long: `A stack's policy as it was given, as aws cloudformation get-stack-policy prints
it (the body a string; {} without a policy). While an update runs under
--stack-policy-during-update-body, that policy.`,
		Example: `  stacksim get-stack-policy --stack-name app
  stacksim get-stack-policy --stack-name app --output text`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if stack == "" {
				return badInput(fmt.Errorf("the following arguments are required: --stack-name"))
			}
			return a.read(cmd.Context(), "GetStackPolicy", func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.GetStackPolicy(ctx, engine.GetStackPolicyInput{StackName: stack})
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	return cmd
}

func (a *app) updateTerminationProtectionCommand() *cobra.Command {
	var stack string
	var on, off bool
	cmd := &cobra.Command{
		Use:   "update-termination-protection --stack-name NAME (--enable-termination-protection | --no-enable-termination-protection)",
		Short: "Turn a stack's termination protection on or off",
		Long: `Turn termination protection on or off, as aws cloudformation
update-termination-protection does. A protected stack cannot be deleted:
delete-stack answers "Stack [NAME] cannot be deleted while
TerminationProtection is enabled".`,
		Example: `  stacksim update-termination-protection --stack-name app --enable-termination-protection
  stacksim update-termination-protection --stack-name app --no-enable-termination-protection`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if stack == "" {
				return badInput(fmt.Errorf("the following arguments are required: --stack-name"))
			}
			if on == off {
				return badInput(fmt.Errorf("give one of --enable-termination-protection and --no-enable-termination-protection"))
			}
			in := engine.UpdateTerminationProtectionInput{StackName: stack, EnableTerminationProtection: &on}
			return a.mutate(cmd.Context(), mutation{op: "UpdateTerminationProtection", stack: stack, noOperation: true,
				call: func(ctx context.Context, e *engine.Engine, _ engine.Extensions) (any, error) {
					return e.UpdateTerminationProtection(ctx, in)
				}})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().BoolVar(&on, "enable-termination-protection", false, "protect the stack from deletion")
	cmd.Flags().BoolVar(&off, "no-enable-termination-protection", false, "let the stack be deleted")
	return cmd
}
