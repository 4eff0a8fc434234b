package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
)

// getTemplateSummaryCommand is `stacksim get-template-summary`:
// CloudFormation's GetTemplateSummary, of a template given or of a stack's.
func (a *app) getTemplateSummaryCommand() *cobra.Command {
	var body, url, stack string
	cmd := &cobra.Command{
		Use:   "get-template-summary (--template-body file://PATH | --template-url URL | --stack-name NAME)",
		Short: "Summarise a template, given or a stack's, as CloudFormation's GetTemplateSummary does",
		Long: `Summarise a template as CloudFormation's GetTemplateSummary does, changing
nothing: its parameters (with their types and allowed values), description,
the capabilities it requires, its resource types in order and the
properties that identify a resource of each (what an import would need),
its format version, Metadata and declared transforms; resource types no
registry knows are listed under Warnings.

A template with transforms is described as submitted (its parameters and
transforms) with what the processed template makes: a stack's as its last
operation processed it, a template given processed as validate-template
processes it (the account's macros, --s3-dir, AWS's SAM translator).
--template-body takes file://PATH or the template itself, like the AWS CLI.`,
		Example: `  stacksim get-template-summary --template-body file://app.yaml
  stacksim get-template-summary --stack-name app --query 'Parameters[].ParameterKey' --output text`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			given := 0
			for _, f := range []string{"template-body", "template-url", "stack-name"} {
				if cmd.Flags().Changed(f) {
					given++
				}
			}
			if given != 1 {
				return badInput(fmt.Errorf("give one of --template-body, --template-url and --stack-name"))
			}
			in := engine.GetTemplateSummaryInput{TemplateURL: url, StackName: stack}
			if cmd.Flags().Changed("template-body") {
				name, text, err := readTemplateBody(body, true)
				if err != nil {
					return badInput(err)
				}
				in.TemplateBody, in.TemplateFile = string(text), name
			}
			return a.read(cmd.Context(), "GetTemplateSummary", func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.GetTemplateSummary(ctx, in)
			})
		},
	}
	cmd.Flags().StringVar(&body, "template-body", "", "the template: file://PATH, or the template itself")
	cmd.Flags().StringVar(&url, "template-url", "", "the template's URL: https://BUCKET.s3.amazonaws.com/KEY (read from --s3-dir DIR/BUCKET/KEY) or file://PATH")
	cmd.Flags().StringVar(&stack, "stack-name", "", "a stack whose template to summarise: its name, or ARN (a deleted stack by ARN)")
	return cmd
}
