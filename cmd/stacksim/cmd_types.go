package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
)

// describe-type and list-types: the registry's resource types, as the AWS
// CLI's commands of the same names show them.

func (a *app) typeCommands() []*cobra.Command {
	return []*cobra.Command{a.describeTypeCommand(), a.listTypesCommand()}
}

func (a *app) describeTypeCommand() *cobra.Command {
	var in engine.DescribeTypeInput
	cmd := &cobra.Command{
		Use:   "describe-type (--type RESOURCE --type-name NAME | --arn ARN)",
		Short: "Describe a resource type: its ARN, visibility, provisioning type and the schema stacksim simulates it from",
		Example: `  stacksim describe-type --type RESOURCE --type-name AWS::S3::Bucket --query Schema --output text
  stacksim --schemas ./schemas describe-type --type RESOURCE --type-name MyCo::Widget::Gear`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.read(cmd.Context(), "DescribeType", func(ctx context.Context, e *engine.Engine) (any, error) {
				return e.DescribeType(ctx, in)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Type, "type", "", "the kind of extension: RESOURCE (MODULE and HOOK are not simulated)")
	f.StringVar(&in.TypeName, "type-name", "", "the type's name (AWS::S3::Bucket), with --type")
	f.StringVar(&in.Arn, "arn", "", "the type's ARN instead of --type and --type-name")
	f.StringVar(&in.VersionId, "version-id", "", "a version of a private type (00000001, its only one)")
	f.StringVar(&in.PublisherId, "publisher-id", "", "a third-party publisher's id (none is simulated)")
	f.StringVar(&in.PublicVersionNumber, "public-version-number", "", "a public third-party type's version (none is simulated)")
	return cmd
}

func (a *app) listTypesCommand() *cobra.Command {
	var in engine.ListTypesInput
	var filters string
	cmd := &cobra.Command{
		Use:   "list-types [--visibility PUBLIC|PRIVATE] [--provisioning-type TYPE] [--filters ...]",
		Short: "List resource types: the account's own (PRIVATE, the default) or the AWS registry's (PUBLIC)",
		Example: `  stacksim list-types --visibility PUBLIC --filters Category=AWS_TYPES,TypeNamePrefix=AWS::SQS:: --output table
  stacksim --schemas ./schemas list-types`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if filters != "" {
				f, err := parseTypeFilters(filters)
				if err != nil {
					return badInput(err)
				}
				in.Filters = f
			}
			return a.read(cmd.Context(), "ListTypes", func(ctx context.Context, e *engine.Engine) (any, error) {
				items, next, err := allPages(a.firstPageOnly(), func(token string) ([]engine.TypeSummary, string, error) {
					in.NextToken = token
					out, err := e.ListTypes(ctx, in)
					if err != nil {
						return nil, "", err
					}
					return out.TypeSummaries, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				return &engine.ListTypesOutput{TypeSummaries: items, NextToken: next}, nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Visibility, "visibility", "", "PRIVATE (the default: types of this account, --handler and --schemas ones) or PUBLIC (the AWS registry's)")
	f.StringVar(&in.ProvisioningType, "provisioning-type", "", "FULLY_MUTABLE (the default), IMMUTABLE or NON_PROVISIONABLE")
	f.StringVar(&in.DeprecatedStatus, "deprecated-status", "", "LIVE or DEPRECATED")
	f.StringVar(&in.Type, "type", "", "RESOURCE, MODULE or HOOK")
	f.StringVar(&filters, "filters", "", "Category=REGISTERED|ACTIVATED|THIRD_PARTY|AWS_TYPES,PublisherId=ID,TypeNamePrefix=PREFIX (shorthand or JSON)")
	return cmd
}

// parseTypeFilters reads list-types' --filters as the AWS CLI does:
// shorthand (Category=AWS_TYPES,TypeNamePrefix=AWS::S3::) or JSON.
func parseTypeFilters(s string) (*engine.TypeFilters, error) {
	d, err := parseFiltersArg(s, "TypeFilters")
	if err != nil {
		return nil, err
	}
	f := &engine.TypeFilters{}
	f.Category, _ = d.vals["Category"].(string)
	f.PublisherId, _ = d.vals["PublisherId"].(string)
	f.TypeNamePrefix, _ = d.vals["TypeNamePrefix"].(string)
	return f, nil
}
