package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/resources/faults"
	"github.com/stacksim/stacksim/scenario"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// A mutating command: validate the input (nothing is opened until it is
// good), lock and load the state, make the call, print its answer, run
// the operation it started in virtual time while showing its events, save
// the state, and end with a one-line summary and an exit status.

// mutation is one mutating command's call.
type mutation struct {
	op         string // the API operation: CreateStack, UpdateStack...
	stack      string // --stack-name
	until      string // --until LOGICAL_ID:STATUS
	faultsFile string // --faults FILE
	// templateFile names the submitted template in error positions;
	// template is the template parsed (its names widen the display's
	// columns), or nil.
	templateFile string
	template     *template.Template
	// call makes the API call with the extensions (faults, template file)
	// and returns the answer to print (nil: AWS prints nothing).
	call func(ctx context.Context, e *engine.Engine, ext engine.Extensions) (any, error)
	// noOperation: the call starts no operation to run (create-change-set
	// of an UPDATE change set, delete-change-set).
	noOperation bool
	// after, when set, ends the command instead of the summary of a stack
	// at rest (create-change-set reports the change set).
	after func(ctx context.Context, e *engine.Engine) error
}

// parseUntil reads --until LOGICAL_ID:STATUS.
func parseUntil(s, stack string) (*scenario.Until, error) {
	if s == "" {
		return nil, nil
	}
	u, err := scenario.ParseUntil(s, stack)
	if err != nil {
		return nil, fmt.Errorf("--until %v", err)
	}
	return u, nil
}

// loadFaults reads --faults FILE.
func loadFaults(path string) ([]faults.Fault, error) {
	if path == "" {
		return nil, nil
	}
	inj, err := faults.LoadFile(path)
	if err != nil {
		return nil, err
	}
	return inj.Faults(), nil
}

func (a *app) mutate(ctx context.Context, m mutation) error {
	until, err := parseUntil(m.until, m.stack)
	if err != nil {
		return badInput(err)
	}
	fs, err := loadFaults(m.faultsFile)
	if err != nil {
		return badInput(err)
	}
	ext := engine.Extensions{Faults: fs, TemplateFile: m.templateFile}
	s, err := a.openWrite()
	if err != nil {
		return err
	}
	defer s.close()
	e := s.e
	d := newDisplay(a.stderr, a.colorFor(a.stderr), m.stack)
	if m.template != nil {
		var ids, types []string
		for _, r := range m.template.Resources {
			ids, types = append(ids, r.LogicalID), append(types, r.Type)
		}
		d.seed(append(ids, m.stack), types)
	}
	if !a.quiet {
		unsubscribe := e.Subscribe(d.event)
		defer unsubscribe()
	}
	// The call writes the stack's first event of its operation itself:
	// --until may name it (STACK:DELETE_IN_PROGRESS).
	var written []engine.StackEvent
	collect := e.Subscribe(func(ev engine.StackEvent) { written = append(written, ev) })
	resp, err := m.call(ctx, e, ext)
	collect()
	if err != nil {
		return a.apiError(m.op, err)
	}
	if resp != nil {
		if err := a.print(m.op, resp); err != nil {
			return err
		}
	}
	if m.noOperation {
		if err := s.save(); err != nil {
			return err
		}
		if m.after != nil {
			return m.after(ctx, e)
		}
		return nil
	}
	out, err := e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: m.stack})
	if err != nil {
		// DeleteStack of a stack that does not exist: accepted, nothing
		// happens (and nothing is written).
		return nil
	}
	stackID := out.Stacks[0].StackId
	res, driveErr := driveAfter(ctx, e, stackID, until, written)
	if err := s.saveUnlessInternal(driveErr); err != nil {
		return err
	}
	if m.after != nil {
		return m.after(ctx, e)
	}
	return a.finish(ctx, e, res, until, m.op)
}

// drive runs the loop for the stack (see scenario.Drive).
func drive(ctx context.Context, e *engine.Engine, stackID string, until *scenario.Until, events int) (scenario.DriveResult, error) {
	var stop func(engine.StackEvent) bool
	if until != nil {
		stop = until.For(stackID)
	}
	return scenario.Drive(ctx, e, stackID, stop, events)
}

// driveThroughSignals is drive letting a resource that waits for signals
// time out (stacksim step).
func driveThroughSignals(ctx context.Context, e *engine.Engine, stackID string, events int) (scenario.DriveResult, error) {
	return scenario.DriveThroughSignals(ctx, e, stackID, nil, events)
}

// driveAfter runs the loop for the stack after a call that wrote
// written (see scenario.DriveAfter).
func driveAfter(ctx context.Context, e *engine.Engine, stackID string, until *scenario.Until, written []engine.StackEvent) (scenario.DriveResult, error) {
	var stop func(engine.StackEvent) bool
	if until != nil {
		stop = until.For(stackID)
	}
	return scenario.DriveAfter(ctx, e, stackID, stop, 0, written)
}

// finish writes the summary of a drive and returns the exit status.
// intent is the call that started the drive (its success is what the
// caller meant), or "" for the operation's own call (step).
func (a *app) finish(ctx context.Context, e *engine.Engine, res scenario.DriveResult, until *scenario.Until, intent string) error {
	st := res.Stack
	status := statemachine.StackStatus(st.StackStatus)
	if res.Waiting {
		return a.reportWaiting(ctx, e, st)
	}
	if status.InMotion() {
		how := fmt.Sprintf("%d event(s) later", res.Events)
		if res.Matched != nil {
			how = fmt.Sprintf("after %s %s (--until %s)", until.Logical, res.Matched.ResourceStatus, until) // a nested resource by its path
		}
		fmt.Fprintf(a.stderr, "%s: %s, in motion: stopped %s at %s of virtual time.\n", st.StackName, st.StackStatus, how, e.Now().Format("15:04:05"))
		fmt.Fprintf(a.stderr, "Continue with: stacksim step --stack-name %s [--events K | --to-rest]", st.StackName)
		if status == statemachine.StackStatusUpdateInProgress {
			fmt.Fprintf(a.stderr, ", or: stacksim cancel-update-stack --stack-name %s", st.StackName)
		}
		fmt.Fprintln(a.stderr)
		return nil
	}
	op, _ := e.DescribeStackOperation(ctx, engine.DescribeStackOperationInput{StackName: st.StackId})
	kind := intent
	if op != nil {
		if kind == "" {
			kind = op.Operation.Operation
		}
		a.reportViolations(op.Operation)
	}
	line := st.StackName + ": " + st.StackStatus
	reason := st.StackStatusReason
	if reason == "" {
		reason = res.Reason // why the rollback began
	}
	if reason != "" {
		line += " — " + strings.TrimSpace(reason)
	}
	if a.colorFor(a.stderr) {
		line = ansiBold + statusColor(st.StackStatus) + line + ansiReset
	}
	fmt.Fprintln(a.stderr, line)
	if hint := a.nextHint(ctx, e, st); hint != "" {
		fmt.Fprintln(a.stderr, hint)
	}
	if res.Matched != nil {
		return nil // stopped as asked
	}
	if until != nil {
		fmt.Fprintf(a.stderr, "(--until %s: no such event; the operation ran to rest)\n", until)
	}
	if succeeded(kind, st.StackStatus) {
		return nil
	}
	return exitWith(exitFailed)
}

// succeeded says whether an operation ended where its caller wanted it:
// the operation's own success, or, for the calls that ask for a rollback,
// the rollback done.
func succeeded(kind, status string) bool {
	switch engine.OperationKind(kind) {
	case engine.KindCreateStack:
		return status == "CREATE_COMPLETE"
	case engine.KindUpdateStack:
		return status == "UPDATE_COMPLETE"
	case engine.KindExecuteChangeSet:
		return status == "CREATE_COMPLETE" || status == "UPDATE_COMPLETE" || status == "IMPORT_COMPLETE"
	case engine.KindDeleteStack:
		return status == "DELETE_COMPLETE"
	case engine.KindContinueUpdateRollback, engine.KindCancelUpdateStack:
		return status == "UPDATE_ROLLBACK_COMPLETE"
	case engine.KindRollbackStack:
		return status == "ROLLBACK_COMPLETE" || status == "UPDATE_ROLLBACK_COMPLETE"
	}
	return !strings.Contains(status, "FAILED") && !strings.Contains(status, "ROLLBACK")
}

// nextHint says what can be done from a status that needs a decision.
func (a *app) nextHint(ctx context.Context, e *engine.Engine, st engine.Stack) string {
	failed := func(statuses ...string) string {
		out, err := e.ListStackResources(ctx, engine.ListStackResourcesInput{StackName: st.StackId})
		if err != nil {
			return "LOGICAL_ID"
		}
		var ids []string
		for _, r := range out.StackResourceSummaries {
			for _, s := range statuses {
				if r.ResourceStatus == s {
					ids = append(ids, r.LogicalResourceId)
				}
			}
		}
		if len(ids) == 0 {
			return "LOGICAL_ID"
		}
		return strings.Join(ids, " ")
	}
	n := st.StackName
	switch st.StackStatus {
	case "UPDATE_ROLLBACK_FAILED":
		return fmt.Sprintf("Next: fix the cause, then stacksim continue-update-rollback --stack-name %s [--resources-to-skip %s]; or stacksim delete-stack --stack-name %s", n, failed("UPDATE_FAILED"), n)
	case "ROLLBACK_FAILED", "ROLLBACK_COMPLETE":
		return fmt.Sprintf("Next: the stack can only be deleted: stacksim delete-stack --stack-name %s", n)
	case "CREATE_FAILED", "UPDATE_FAILED":
		return fmt.Sprintf("Next: stacksim rollback-stack --stack-name %s, or fix the template and update the stack (update-stack --disable-rollback)", n)
	case "DELETE_FAILED":
		return fmt.Sprintf("Next: stacksim delete-stack --stack-name %s --retain-resources %s (they stay in the account)", n, failed("DELETE_FAILED"))
	}
	return ""
}

// reportViolations lists the contract violations of an operation.
func (a *app) reportViolations(op engine.StackOperation) {
	if a.contract == "off" || op.ContractViolationCount == 0 {
		return
	}
	fmt.Fprintf(a.stderr, "contract: %d violation(s) of the resource handler contract:\n", op.ContractViolationCount)
	for _, v := range op.ContractViolations {
		fmt.Fprintf(a.stderr, "  %s  %s %s %s: %s\n", v.Timestamp.UTC().Format("15:04:05"), v.LogicalResourceId, v.ResourceType, v.Action, v.Rule+": "+v.Message)
	}
}

// apiError prints a refused call as the AWS CLI does, then the positioned
// template errors it comes from, and ends with exit status 2.
func (a *app) apiError(op string, err error) error {
	var api *engine.APIError
	if !errors.As(err, &api) {
		var ie *engine.InternalError
		if errors.As(err, &ie) {
			return &exitError{code: exitFailed, err: fmt.Errorf("internal error (a bug in stacksim, please report it): %w", err)}
		}
		return badInput(err)
	}
	fmt.Fprintln(a.stderr, api.CLIMessage(op))
	list := template.AsList(err)
	for _, te := range list {
		if te.Line > 0 {
			fmt.Fprintln(a.stderr, te.Error())
		}
	}
	// What stacksim knows beyond AWS's words (where a URL was looked for,
	// what to give): the error's cause, when it is not the message again.
	if cause := errors.Unwrap(api); cause != nil && len(list) == 0 && cause.Error() != api.Message {
		fmt.Fprintf(a.stderr, "stacksim: %v\n", cause)
	}
	return exitWith(exitBadInput)
}

// print renders an answer in the --output format.
func (a *app) print(op string, resp any) error {
	var obj object
	switch t := resp.(type) {
	case object:
		obj = t
	case *engine.DescribeStackEventsOutput:
		obj = eventsObject(t)
	default:
		o, err := toObject(resp)
		if err != nil {
			return err
		}
		var ok bool
		if obj, ok = o.(object); !ok {
			return fmt.Errorf("render %s: not an object", op)
		}
	}
	obj = a.truncate(op, obj)
	if op == "DescribeStackEvents" && a.output == outputTable && a.aws.query == "" {
		obj = withoutEventProperties(obj)
	}
	if a.aws.query == "" {
		return render(a.stdout, a.output, op, obj)
	}
	q, err := compileQuery(a.aws.query)
	if err != nil {
		return err
	}
	v, err := q.apply(obj)
	if err != nil {
		return err
	}
	return render(a.stdout, a.output, op, v)
}

// withoutEventProperties leaves the ResourceProperties out of events (a
// table of events with them is hundreds of columns wide; json, text and
// --query keep them).
func withoutEventProperties(obj object) object {
	out := make(object, 0, len(obj))
	for _, m := range obj {
		if list, ok := m.value.([]any); ok && m.key == "StackEvents" {
			events := make([]any, len(list))
			for i, ev := range list {
				if o, ok := ev.(object); ok {
					kept := make(object, 0, len(o))
					for _, f := range o {
						if f.key != "ResourceProperties" {
							kept = append(kept, f)
						}
					}
					ev = kept
				}
				events[i] = ev
			}
			m.value = events
		}
		out = append(out, m)
	}
	return out
}

// reportWaiting says which resources wait for signals, and how to go on.
func (a *app) reportWaiting(ctx context.Context, e *engine.Engine, st engine.Stack) error {
	waits, err := e.SignalWaits(ctx, st.StackId)
	if err != nil {
		return err
	}
	if len(waits) == 0 {
		fmt.Fprintf(a.stderr, "%s: %s, in motion: stopped at %s of virtual time, where a resource of another stack waits for signals (--signals manual).\n", st.StackName, st.StackStatus, e.Now().Format("15:04:05"))
		fmt.Fprintf(a.stderr, "Continue with: stacksim step --stack-name %s [--events K | --to-rest]\n", st.StackName)
		return nil
	}
	var parts []string
	for _, w := range waits {
		parts = append(parts, fmt.Sprintf("%s (%d of %d signal(s), times out at %s)", w.LogicalResourceId, w.Received, w.Count, w.Deadline.Format("15:04:05")))
	}
	fmt.Fprintf(a.stderr, "%s: %s, waiting for signals at %s of virtual time: %s.\n", st.StackName, st.StackStatus, e.Now().Format("15:04:05"), strings.Join(parts, ", "))
	fmt.Fprintf(a.stderr, "Signal it: stacksim --signals manual signal-resource --stack-name %s --logical-resource-id %s --unique-id ID --status SUCCESS (or FAILURE); or let it time out: stacksim --signals manual step --stack-name %s --to-rest\n",
		st.StackName, waits[0].LogicalResourceId, st.StackName)
	return nil
}
