package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
)

// stacksim wait: the AWS CLI's waiters, with the acceptors of the service
// model (botocore's cloudformation/2010-05-15/waiters-2.json; TestWaiters
// compares this table with it where botocore is installed). A waiter polls
// its operation and matches the answer against its acceptors in order:
// success ends it (exit 0, nothing printed), failure ends it with the AWS
// CLI's message and exit status 255, no match polls again after Delay —
// here in virtual time: the engine runs for Delay seconds between two
// polls, so that a stack stopped in motion (--until) moves on until an
// acceptor matches. When nothing is left to run, no later poll can answer
// otherwise: the waiter ends at once with "Max attempts exceeded" instead
// of letting MaxAttempts × Delay of virtual time pass.

// exitWaiterFailed is the AWS CLI's exit status for a waiter that failed.
const exitWaiterFailed = 255

type acceptor struct {
	matcher  string // path, pathAll, pathAny, status, error
	argument string // a JMESPath expression (path matchers)
	expected string
	state    string // success, failure, retry
}

type waiter struct {
	command     string // the AWS CLI's subcommand
	name        string
	operation   string // DescribeStacks, DescribeChangeSet
	delay       int    // seconds
	maxAttempts int
	acceptors   []acceptor
}

func stackPath(state, expected string, matcher string) acceptor {
	return acceptor{matcher: matcher, argument: "Stacks[].StackStatus", expected: expected, state: state}
}

func validationError(state string) acceptor {
	return acceptor{matcher: "error", expected: "ValidationError", state: state}
}

// waiters are the model's waiters of the operations stacksim has
// (StackRefactor* and TypeRegistrationComplete wait on calls it has not).
var waiters = []waiter{
	{"stack-exists", "StackExists", "DescribeStacks", 5, 20, []acceptor{
		{matcher: "status", expected: "200", state: "success"}, validationError("retry")}},
	{"stack-create-complete", "StackCreateComplete", "DescribeStacks", 30, 120, []acceptor{
		stackPath("success", "CREATE_COMPLETE", "pathAll"), stackPath("success", "UPDATE_COMPLETE", "pathAll"),
		stackPath("success", "UPDATE_IN_PROGRESS", "pathAll"), stackPath("success", "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "pathAll"),
		stackPath("success", "UPDATE_FAILED", "pathAll"), stackPath("success", "UPDATE_ROLLBACK_IN_PROGRESS", "pathAll"),
		stackPath("success", "UPDATE_ROLLBACK_FAILED", "pathAll"), stackPath("success", "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS", "pathAll"),
		stackPath("success", "UPDATE_ROLLBACK_COMPLETE", "pathAll"),
		stackPath("failure", "CREATE_FAILED", "pathAny"), stackPath("failure", "DELETE_COMPLETE", "pathAny"),
		stackPath("failure", "DELETE_FAILED", "pathAny"), stackPath("failure", "ROLLBACK_FAILED", "pathAny"),
		stackPath("failure", "ROLLBACK_COMPLETE", "pathAny"), validationError("failure")}},
	{"stack-delete-complete", "StackDeleteComplete", "DescribeStacks", 30, 120, []acceptor{
		stackPath("success", "DELETE_COMPLETE", "pathAll"), validationError("success"),
		stackPath("failure", "DELETE_FAILED", "pathAny"), stackPath("failure", "CREATE_FAILED", "pathAny"),
		stackPath("failure", "ROLLBACK_FAILED", "pathAny"), stackPath("failure", "UPDATE_ROLLBACK_IN_PROGRESS", "pathAny"),
		stackPath("failure", "UPDATE_ROLLBACK_FAILED", "pathAny"), stackPath("failure", "UPDATE_ROLLBACK_COMPLETE", "pathAny"),
		stackPath("failure", "UPDATE_COMPLETE", "pathAny")}},
	{"stack-update-complete", "StackUpdateComplete", "DescribeStacks", 30, 120, []acceptor{
		stackPath("success", "UPDATE_COMPLETE", "pathAll"), stackPath("failure", "UPDATE_FAILED", "pathAny"),
		stackPath("failure", "UPDATE_ROLLBACK_FAILED", "pathAny"), stackPath("failure", "UPDATE_ROLLBACK_COMPLETE", "pathAny"),
		validationError("failure")}},
	{"stack-import-complete", "StackImportComplete", "DescribeStacks", 30, 120, []acceptor{
		stackPath("success", "IMPORT_COMPLETE", "pathAll"), stackPath("failure", "ROLLBACK_COMPLETE", "pathAny"),
		stackPath("failure", "ROLLBACK_FAILED", "pathAny"), stackPath("failure", "IMPORT_ROLLBACK_IN_PROGRESS", "pathAny"),
		stackPath("failure", "IMPORT_ROLLBACK_FAILED", "pathAny"), stackPath("failure", "IMPORT_ROLLBACK_COMPLETE", "pathAny"),
		validationError("failure")}},
	{"stack-rollback-complete", "StackRollbackComplete", "DescribeStacks", 30, 120, []acceptor{
		stackPath("success", "UPDATE_ROLLBACK_COMPLETE", "pathAll"), stackPath("failure", "UPDATE_FAILED", "pathAny"),
		stackPath("failure", "UPDATE_ROLLBACK_FAILED", "pathAny"), stackPath("failure", "DELETE_FAILED", "pathAny"),
		validationError("failure")}},
	{"change-set-create-complete", "ChangeSetCreateComplete", "DescribeChangeSet", 30, 120, []acceptor{
		{matcher: "path", argument: "Status", expected: "CREATE_COMPLETE", state: "success"},
		{matcher: "path", argument: "Status", expected: "FAILED", state: "failure"}, validationError("failure")}},
}

// explanation is botocore's words for an acceptor that matched.
func (c acceptor) explanation() string {
	switch c.matcher {
	case "path":
		return fmt.Sprintf("For expression %q we matched expected path: %q", c.argument, c.expected)
	case "pathAll":
		return fmt.Sprintf("For expression %q all members matched expected path: %q", c.argument, c.expected)
	case "pathAny":
		return fmt.Sprintf("For expression %q we matched expected path: %q at least once", c.argument, c.expected)
	case "status":
		return "Matched expected HTTP status code: " + c.expected
	case "error":
		return "Matched expected service error code: " + c.expected
	}
	return fmt.Sprintf("No explanation for unknown waiter type: %q", c.matcher)
}

// matches reports whether the acceptor matches an answer (resp, when the
// call succeeded) or an error (its code).
func (c acceptor) matches(resp object, code string) bool {
	switch c.matcher {
	case "status":
		return code == "" && c.expected == "200"
	case "error":
		return code == c.expected
	}
	if code != "" {
		return false
	}
	q, err := compileQuery(c.argument)
	if err != nil {
		return false
	}
	v, err := q.expr.Search(toPlain(resp))
	if err != nil {
		return false
	}
	switch c.matcher {
	case "path":
		return v == c.expected
	case "pathAll", "pathAny":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		for _, x := range list {
			if (x == c.expected) != (c.matcher == "pathAll") {
				return c.matcher == "pathAny"
			}
		}
		return c.matcher == "pathAll"
	}
	return false
}

func (a *app) waitCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "wait WAITER",
		Short: "Wait until a stack or a change set reaches a status (the AWS CLI's waiters)",
		Long: `Wait polls as the AWS CLI's waiters do, with the service model's acceptors,
and moves virtual time on between two polls: a stack in motion (stopped with
--until) runs until an acceptor matches. Exit status 0 on success; 255, with
the AWS CLI's message, when the waiter fails.`,
		Example: `  stacksim wait stack-create-complete --stack-name app
  stacksim wait change-set-create-complete --stack-name app --change-set-name v2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	for _, w := range waiters {
		cmd.AddCommand(a.waiterCommand(w))
	}
	return cmd
}

func (a *app) waiterCommand(w waiter) *cobra.Command {
	var stack, changeSet string
	what := "a stack"
	if w.operation == "DescribeChangeSet" {
		what = "a change set"
	}
	cmd := &cobra.Command{
		Use:   w.command + " --stack-name NAME",
		Short: fmt.Sprintf("Wait for %s: %s, polling %s every %d s (at most %d times)", what, w.name, w.operation, w.delay, w.maxAttempts),
		Example: fmt.Sprintf("  stacksim wait %s --stack-name app%s", w.command,
			map[bool]string{true: " --change-set-name v2", false: ""}[w.operation == "DescribeChangeSet"]),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if w.operation == "DescribeChangeSet" && changeSet == "" {
				return badInput(fmt.Errorf("the following arguments are required: --change-set-name"))
			}
			return a.wait(cmd.Context(), w, stack, changeSet)
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name, or ARN")
	if w.operation == "DescribeChangeSet" {
		cmd.Flags().StringVar(&changeSet, "change-set-name", "", "the change set's name or ARN")
	}
	return cmd
}

// wait runs a waiter. It changes the state (time moves on): it holds the
// state file's lock, and saves what ran.
func (a *app) wait(ctx context.Context, w waiter, stack, changeSet string) error {
	s, err := a.openWrite()
	if err != nil {
		return err
	}
	defer s.close()
	e := s.e
	poll := func() (object, string, error) {
		var resp any
		var err error
		if w.operation == "DescribeChangeSet" {
			resp, err = e.DescribeChangeSet(ctx, engine.DescribeChangeSetInput{StackName: stack, ChangeSetName: changeSet})
		} else {
			resp, err = e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: stack})
		}
		if err != nil {
			var api *engine.APIError
			if !errors.As(err, &api) {
				return nil, "", err
			}
			return nil, api.Code, api
		}
		return mustObject(resp), "", nil
	}
	moved := false
	var last *acceptor
	for attempt := 1; ; attempt++ {
		resp, code, err := poll()
		if err != nil && code == "" {
			return err
		}
		matched := false
		for i := range w.acceptors {
			c := w.acceptors[i]
			if !c.matches(resp, code) {
				continue
			}
			matched, last = true, &w.acceptors[i]
			switch c.state {
			case "success":
				return a.endWait(s, moved, nil)
			case "failure":
				return a.endWait(s, moved, fmt.Errorf("Waiter %s failed: Waiter encountered a terminal failure state: %s", w.name, c.explanation()))
			}
			break
		}
		if !matched && err != nil {
			// An error no acceptor expects ends the waiter (botocore).
			return a.endWait(s, moved, fmt.Errorf("Waiter %s failed: An error occurred (%s): %s", w.name, code, err.(*engine.APIError).Message))
		}
		if attempt >= w.maxAttempts || e.Pending() == 0 {
			reason := "Max attempts exceeded"
			if last != nil {
				reason += ". Previously accepted state: " + last.explanation()
			}
			return a.endWait(s, moved, fmt.Errorf("Waiter %s failed: %s", w.name, reason))
		}
		if _, err := e.Advance(ctx, time.Duration(w.delay)*time.Second); err != nil {
			return err
		}
		moved = true
	}
}

// endWait saves what the waiter ran, and ends it: a failure is printed as
// the AWS CLI prints it, with exit status 255.
func (a *app) endWait(s *session, moved bool, failure error) error {
	if moved {
		if err := s.save(); err != nil {
			return err
		}
	}
	if failure == nil {
		return nil
	}
	fmt.Fprintf(a.stderr, "\n%v\n", failure)
	return exitWith(exitWaiterFailed)
}
