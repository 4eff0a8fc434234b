package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/api"
	"github.com/stacksim/stacksim/engine"
)

// allPages reads every page of a paginated call, from the first (the first
// only, with its NextToken, when firstOnly), as the AWS CLI does: page
// answers one page's items and the token of the next ("" after the last).
func allPages[T any](firstOnly bool, page func(token string) ([]T, string, error)) ([]T, string, error) {
	all := []T{}
	token := ""
	for {
		items, next, err := page(token)
		if err != nil {
			return nil, "", err
		}
		all = append(all, items...)
		if next == "" || firstOnly {
			return all, next, nil
		}
		token = next
	}
}

func (a *app) describeEventsCommand() *cobra.Command {
	var stack, changeSet, operation, filters string
	cmd := &cobra.Command{
		Use:   "describe-events (--stack-name NAME | --change-set-name NAME | --operation-id ID) [--filters FailedEvents=true]",
		Short: "Events grouped by operation: a stack's, one operation's, or a change set's, newest first",
		Long: `Events as DescribeEvents returns them: each stack event with the operation
that wrote it (OperationId, OperationType, OperationStatus) and its kind
(EventType). Every create, update, delete, automatic rollback, RollbackStack,
ContinueUpdateRollback and creation of a stack by a change set is an operation;
describe-stacks shows a stack's last ones (LastOperations), and create-stack,
update-stack and rollback-stack print the one they began.`,
		Example: `  stacksim describe-events --stack-name app
  stacksim describe-events --operation-id 5e3784ed-0025-41c5-82c7-27f479cf1a00 --filters FailedEvents=true
  stacksim describe-events --stack-name app --change-set-name first --output table`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in := engine.DescribeEventsInput{StackName: stack, ChangeSetName: changeSet, OperationId: operation}
			if cmd.Flags().Changed("filters") {
				f, err := parseEventFilter(filters)
				if err != nil {
					return badInput(err)
				}
				in.Filters = f
			}
			return a.read(cmd.Context(), "DescribeEvents", func(ctx context.Context, e *engine.Engine) (any, error) {
				events, next, err := allPages(a.firstPageOnly(), func(token string) ([]engine.OperationEvent, string, error) {
					in.NextToken = token
					out, err := e.DescribeEvents(ctx, in)
					if err != nil {
						return nil, "", err
					}
					return out.OperationEvents, out.NextToken, nil
				})
				if err != nil {
					return nil, err
				}
				return &engine.DescribeEventsOutput{OperationEvents: events, NextToken: next}, nil
			})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name, or ARN (a deleted stack by ARN only)")
	cmd.Flags().StringVar(&changeSet, "change-set-name", "", "a change set's ARN, or its name with --stack-name")
	cmd.Flags().StringVar(&operation, "operation-id", "", "one operation's id")
	cmd.Flags().StringVar(&filters, "filters", "", "FailedEvents=true keeps the failures only (shorthand or JSON)")
	return cmd
}

// parseFiltersArg reads a --filters argument as the AWS CLI does, shorthand
// (A=x,B=true) or JSON ({"A": "x"}), and checks it against the model's
// shape of that name.
func parseFiltersArg(s, shapeName string) (*pyDict, error) {
	var d *pyDict
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") {
		if err := checkJSONArg("--filters", s); err != nil {
			return nil, err
		}
		v, err := decodePyJSON(t)
		if err != nil {
			return nil, fmt.Errorf("Error parsing parameter '--filters': Invalid JSON: %v\nJSON received: %s", err, s)
		}
		d = v.(*pyDict)
	} else {
		vals, keys, err := parseShorthand(s)
		if err != nil {
			return nil, fmt.Errorf("Error parsing parameter '--filters': %w", err)
		}
		shape, _ := api.ShapeNamed(shapeName)
		d = shorthandBooleans(&pyDict{keys: keys, vals: vals}, shape)
	}
	var problems []string
	if checkShapeValue(d, shapeName, "Filters", &problems); len(problems) > 0 {
		return nil, errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n"))
	}
	return d, nil
}

// parseEventFilter reads describe-events' --filters: shorthand
// (FailedEvents=true) or JSON ({"FailedEvents": true}).
func parseEventFilter(s string) (*engine.EventFilter, error) {
	d, err := parseFiltersArg(s, "EventFilter")
	if err != nil {
		return nil, err
	}
	f := &engine.EventFilter{}
	if b, ok := d.vals["FailedEvents"].(bool); ok {
		f.FailedEvents = &b
	}
	return f, nil
}
