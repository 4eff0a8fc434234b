package scenario

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"go.uber.org/zap"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/resources/faults"
	"github.com/stacksim/stacksim/statemachine"
)

// Options configure a run.
type Options struct {
	// Logger receives the engine's logs (nop when nil).
	Logger *zap.Logger
	// SchemaDir is a directory of resource schemas (--schemas).
	SchemaDir string
	// PermissiveTypes accepts types no schema describes (--permissive-types).
	PermissiveTypes bool
	// Handlers serve resource types with handler processes (--handler):
	// they override the scenario's own for the same type.
	Handlers []HandlerSpec
	// Notify, when set, receives the notifications published to the
	// stacks' NotificationARNs (engine.SubscribeNotifications).
	Notify func(engine.Notification)
	// EventBridge, when set, receives the events sent to the account's
	// default bus (engine.SubscribeEventBridge).
	EventBridge func(engine.EventBridgeEvent)
}

// Result is a replayed scenario: its event log and the expectations that
// did not hold.
type Result struct {
	Scenario *Scenario
	// Checked counts the expectations checked; Failures lists those that
	// did not hold (and refused calls nobody expected, and broken
	// invariants), each with its position in the scenario file.
	Checked  int
	Failures []string
	log      *eventLog
}

// Log is the run's event log (the golden file's content).
func (r *Result) Log() string { return r.log.String() }

// OK says whether every expectation held.
func (r *Result) OK() bool { return len(r.Failures) == 0 }

// runner replays one scenario.
type runner struct {
	sc  *Scenario
	e   *engine.Engine
	res *Result
	// ids maps stack names to their last stack ids (a deleted stack is
	// found by id only).
	ids map[string]string
	// step state
	stepEvents []engine.StackEvent
	before     map[string]map[string]string // stack → logical id → physical id
	callErr    *engine.APIError
}

// Run replays a scenario on a new engine, in memory. The error is a
// failure of stacksim itself; expectations that do not hold are in the
// Result.
func Run(ctx context.Context, sc *Scenario, opts Options) (*Result, error) {
	log := &eventLog{}
	for _, r := range sc.responders {
		r.Log = func(line string) { log.line("   %s", line) }
	}
	handlers, err := BuildHandlers(MergeHandlers(sc.Handlers, opts.Handlers), opts.SchemaDir, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sc.File, err)
	}
	e, err := engine.New(engine.Options{Seed: sc.Seed, Logger: opts.Logger, SchemaDir: opts.SchemaDir, PermissiveTypes: opts.PermissiveTypes,
		ServiceTokens: sc.ServiceTokens, Contract: sc.Contract, Handlers: handlers, Signals: sc.Signals,
		SSMParameters: sc.SSMParameters, Secrets: sc.Secrets, S3Dir: sc.S3Dir, Alarms: sc.Alarms})
	if err != nil {
		return nil, err
	}
	defer e.Close()
	e.SubscribeNotifications(func(n engine.Notification) {
		log.line("   sns %s", n.TopicArn[strings.LastIndexByte(n.TopicArn, ':')+1:])
		if opts.Notify != nil {
			opts.Notify(n)
		}
	})
	if opts.EventBridge != nil {
		e.SubscribeEventBridge(opts.EventBridge)
	}
	r := &runner{sc: sc, e: e, res: &Result{Scenario: sc, log: log}, ids: map[string]string{}}
	e.Subscribe(func(ev engine.StackEvent) {
		log.event(ev)
		r.stepEvents = append(r.stepEvents, ev)
		r.ids[ev.StackName] = ev.StackId
	})
	log.line("# %s", sc.Name)
	for i, st := range sc.Steps {
		if err := r.step(ctx, i+1, st); err != nil {
			return r.res, fmt.Errorf("%s: step %d: %w", st.Pos, i+1, err)
		}
	}
	return r.res, nil
}

func (r *runner) fail(pos, format string, args ...any) {
	r.res.Failures = append(r.res.Failures, pos+": "+fmt.Sprintf(format, args...))
}

func (r *runner) step(ctx context.Context, n int, st *Step) error {
	r.stepEvents, r.callErr = nil, nil
	r.before = r.snapshot(ctx)
	label := fmt.Sprintf("step %d", n)
	switch {
	case st.Note != "":
		for _, line := range strings.Split(strings.TrimRight(st.Note, "\n"), "\n") {
			r.res.log.line("## %s", line)
		}
	case st.Op != nil:
		label = fmt.Sprintf("step %d (%s %s)", n, st.Op.Name, st.Op.StackName)
		if err := r.operation(ctx, st, label); err != nil {
			return err
		}
	case st.Step != nil:
		if err := r.stepEventsOf(ctx, st, label); err != nil {
			return err
		}
	case st.Advance > 0:
		r.res.log.line("== advance %s", st.Advance)
		if _, err := r.e.Drive(ctx, engine.RunOptions{Through: r.e.Now().Add(st.Advance)}); err != nil {
			return err
		}
		r.res.log.line("-- clock %s", r.e.Now().UTC().Format("15:04:05"))
	}
	if st.Expect != nil {
		r.check(ctx, st, label)
	} else if st.Op != nil && r.callErr != nil {
		r.fail(st.Pos, "%s was refused: %s: %s (if that is expected, say so: expect: {error: %s})", label, r.callErr.Code, r.callErr.Message, r.callErr.Code)
	}
	if err := r.e.CheckInvariants(ctx); err != nil {
		var ie *engine.InvariantError
		if !errors.As(err, &ie) {
			return err
		}
		r.fail(st.Pos, "after %s, an invariant does not hold: %v", label, err)
	}
	return nil
}

// snapshot records the physical ids of every stack's resources.
func (r *runner) snapshot(ctx context.Context) map[string]map[string]string {
	out := map[string]map[string]string{}
	for name, id := range r.ids {
		list, err := r.e.ListStackResources(ctx, engine.ListStackResourcesInput{StackName: id})
		if err != nil {
			continue
		}
		m := map[string]string{}
		for _, res := range list.StackResourceSummaries {
			m[res.LogicalResourceId] = res.PhysicalResourceId
		}
		out[name] = m
	}
	return out
}

func (r *runner) operation(ctx context.Context, st *Step, label string) error {
	op := st.Op
	r.res.log.line("== %s", header(op))
	if len(op.Faults) > 0 {
		setField(op.Input, "Faults", op.Faults)
	}
	called := len(r.stepEvents)
	err := op.call(ctx, r.e)
	written := r.stepEvents[called:] // the call's own events (its operation's first)
	if err != nil {
		var api *engine.APIError
		if !errors.As(err, &api) {
			return err
		}
		r.callErr = api
		r.res.log.line("!! %s: %s", api.Code, api.Message)
		return nil
	}
	stack := op.StackName
	switch op.Name {
	case "CreateChangeSet":
		return r.changeSet(ctx, op)
	case "DeleteChangeSet":
		r.res.log.line("-- change set %s deleted", fieldString(op.Input, "ChangeSetName"))
		return nil
	case "SetAlarmState":
		r.res.log.line("-- alarm %s %s", fieldString(op.Input, "AlarmName"), fieldString(op.Input, "StateValue"))
		return nil
	case "ExecuteChangeSet":
		if stack == "" {
			cs, err := r.e.DescribeChangeSet(ctx, engine.DescribeChangeSetInput{ChangeSetName: fieldString(op.Input, "ChangeSetName")})
			if err != nil {
				return err
			}
			stack = cs.StackName
		}
	}
	id := r.ids[stack]
	if out, err := r.e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: stack}); err == nil {
		id = out.Stacks[0].StackId
	}
	if id == "" {
		r.res.log.line("-- %s does not exist", stack)
		return nil
	}
	r.ids[stack] = id
	var stop func(engine.StackEvent) bool
	if op.stopAt != nil {
		stop = op.stopAt.For(id)
	}
	res, err := DriveAfter(ctx, r.e, id, stop, 0, written)
	if err != nil {
		return err
	}
	r.rest(res, op.stopAt)
	return nil
}

// rest logs where a drive left the stack.
func (r *runner) rest(res DriveResult, u *Until) {
	line := fmt.Sprintf("-- %s %s", res.Stack.StackName, res.Stack.StackStatus)
	if statemachine.StackStatus(res.Stack.StackStatus).InMotion() {
		switch {
		case res.Matched != nil && u != nil:
			line += fmt.Sprintf(" (in motion: stopped at %s)", u)
		case res.Waiting:
			line += " (in motion: waiting for signals)"
		default:
			line += " (in motion)"
		}
	}
	r.res.log.line("%s", line)
}

func (r *runner) changeSet(ctx context.Context, op *Operation) error {
	name := fieldString(op.Input, "ChangeSetName")
	cs, err := r.e.DescribeChangeSet(ctx, engine.DescribeChangeSetInput{ChangeSetName: name, StackName: op.StackName})
	if err != nil {
		return err
	}
	r.ids[cs.StackName] = cs.StackId
	for _, c := range cs.Changes {
		rc := c.ResourceChange
		if rc == nil {
			continue
		}
		line := fmt.Sprintf("   change %s %s %s", rc.Action, rc.LogicalResourceID, rc.ResourceType)
		if rc.Replacement != "" {
			line += fmt.Sprintf(" Replacement=%s", rc.Replacement)
		}
		if rc.PolicyAction != "" {
			line += " PolicyAction=" + rc.PolicyAction
		}
		r.res.log.line("%s", line)
	}
	line := fmt.Sprintf("-- change set %s %s %s", name, cs.Status, cs.ExecutionStatus)
	if cs.StatusReason != "" {
		line += fmt.Sprintf(" %q", cs.StatusReason)
	}
	r.res.log.line("%s", line)
	return nil
}

func (r *runner) stepEventsOf(ctx context.Context, st *Step, label string) error {
	s := st.Step
	what := "rest"
	if s.Events > 0 {
		what = fmt.Sprintf("%d event(s)", s.Events)
	}
	r.res.log.line("== step %s %s", s.Stack, what)
	id := r.ids[s.Stack]
	out, err := r.e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: s.Stack})
	if err == nil {
		id = out.Stacks[0].StackId
	}
	if id == "" || (err == nil && !statemachine.StackStatus(out.Stacks[0].StackStatus).InMotion()) {
		r.fail(st.Pos, "%s: stack %s is not in motion: nothing to step", label, s.Stack)
		return nil
	}
	res, err := DriveThroughSignals(ctx, r.e, id, nil, s.Events)
	if err != nil {
		return err
	}
	r.rest(res, nil)
	return nil
}

// header describes a call for the log: the operation, the stack, and the
// inputs that change what happens.
func header(op *Operation) string {
	parts := []string{op.Name}
	if op.StackName != "" {
		parts = append(parts, op.StackName)
	}
	v := reflect.ValueOf(op.Input).Elem()
	for _, name := range []string{"ChangeSetName", "ChangeSetType", "OnFailure", "DisableRollback", "UsePreviousTemplate", "RetainResources", "ResourcesToSkip", "LogicalResourceId", "UniqueId", "Status", "AlarmName", "StateValue"} {
		f := v.FieldByName(name)
		if !f.IsValid() || f.IsZero() {
			continue
		}
		switch f.Kind() {
		case reflect.Slice:
			var items []string
			for i := 0; i < f.Len(); i++ {
				items = append(items, f.Index(i).String())
			}
			parts = append(parts, fmt.Sprintf("%s=[%s]", name, strings.Join(items, ", ")))
		default:
			parts = append(parts, fmt.Sprintf("%s=%v", name, f.Interface()))
		}
	}
	if n := len(op.Faults); n > 0 {
		var names []string
		for _, f := range op.Faults {
			names = append(names, faultLabel(f))
		}
		parts = append(parts, "faults=["+strings.Join(names, ", ")+"]")
	}
	if op.StopAt != "" {
		parts = append(parts, "stopAt="+op.StopAt)
	}
	return strings.Join(parts, " ")
}

func faultLabel(f faults.Fault) string {
	if f.Name != "" {
		return f.Name
	}
	target := f.Match.LogicalID
	if target == "" {
		target = f.Match.Type
	}
	if target == "" {
		target = "*"
	}
	return string(f.Kind) + " " + target
}

func setField(in any, name string, value any) {
	f := reflect.ValueOf(in).Elem().FieldByName(name)
	if f.IsValid() && f.CanSet() {
		f.Set(reflect.ValueOf(value))
	}
}

func fieldString(in any, name string) string {
	f := reflect.ValueOf(in).Elem().FieldByName(name)
	if !f.IsValid() {
		return ""
	}
	return f.String()
}

// sortedKeys returns a map's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
