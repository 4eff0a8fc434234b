package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
)

// Rollback triggers (RollbackConfiguration): CloudWatch alarms a create or
// an update watches while it runs and for MonitoringTimeInMinutes after
// its last resource is done, rolling the operation back when one of them is
// in ALARM (using-cfn-rollback-triggers.html, API_RollbackConfiguration).
//
// The alarms are the simulated account's: the AWS::CloudWatch::Alarm and
// AWS::CloudWatch::CompositeAlarm objects its stacks made (in
// INSUFFICIENT_DATA, a new alarm's state, until told otherwise) and the
// alarms Options.Alarms names. Their states are an input of the run, as
// faults are: Options.Alarms, or SetAlarmState while the engine runs. They
// are not stored with the state.

// Alarm states (CloudWatch's StateValue).
const (
	AlarmOK               = "OK"
	AlarmAlarm            = "ALARM"
	AlarmInsufficientData = "INSUFFICIENT_DATA"
)

// AlarmStates are CloudWatch's alarm states, in its API's order.
var AlarmStates = []string{AlarmOK, AlarmAlarm, AlarmInsufficientData}

const (
	alarmType          = "AWS::CloudWatch::Alarm"
	compositeAlarmType = "AWS::CloudWatch::CompositeAlarm"
	// maxRollbackTriggers and maxMonitoringMinutes are the service model's
	// bounds of RollbackTriggers and MonitoringTimeInMinutes.
	maxRollbackTriggers  = 5
	maxMonitoringMinutes = 180
)

const (
	taskAlarmCheck    TaskKind = "alarm-check"
	taskMonitoringEnd TaskKind = "monitoring-end"
)

// checkRollbackConfiguration refuses a RollbackConfiguration a call may
// not give, before anything is changed. The bounds' messages are the
// service model's constraints in AWS's words; the words for a wrong Type
// or an ARN that is not an alarm's are stacksim's (UNVERIFIED: no AWS
// answer to either was found recorded).
func (e *Engine) checkRollbackConfiguration(c *RollbackConfiguration) error {
	if c == nil {
		return nil
	}
	if n := len(c.RollbackTriggers); n > maxRollbackTriggers {
		return ValidationError("1 validation error detected: Value at 'rollbackConfiguration.rollbackTriggers' failed to satisfy constraint: Member must have length less than or equal to %d", maxRollbackTriggers)
	}
	if m := c.MonitoringTimeInMinutes; m != nil && (*m < 0 || *m > maxMonitoringMinutes) {
		bound := fmt.Sprintf("less than or equal to %d", maxMonitoringMinutes)
		if *m < 0 {
			bound = "greater than or equal to 0"
		}
		return ValidationError("1 validation error detected: Value '%d' at 'rollbackConfiguration.monitoringTimeInMinutes' failed to satisfy constraint: Member must have value %s", *m, bound)
	}
	for i, t := range c.RollbackTriggers {
		at := "rollbackConfiguration.rollbackTriggers." + strconv.Itoa(i+1) + ".member."
		if t.Arn == "" {
			return requiredError(at + "arn")
		}
		if t.Type == "" {
			return requiredError(at + "type")
		}
		if t.Type != alarmType && t.Type != compositeAlarmType {
			return ValidationError("Rollback trigger %s has type %s: a rollback trigger is an %s or an %s", t.Arn, t.Type, alarmType, compositeAlarmType)
		}
		if _, ok := e.alarmName(t.Arn); !ok {
			return ValidationError("Rollback trigger %s is not the ARN of a CloudWatch alarm of this account and region (arn:%s:cloudwatch:%s:%s:alarm:NAME)",
				t.Arn, e.opts.Partition, e.opts.Region, e.opts.AccountID)
		}
	}
	return nil
}

// alarmName is the name of the alarm arn names in the simulated account
// and region; false for any other ARN.
func (e *Engine) alarmName(arn string) (string, bool) {
	prefix := "arn:" + e.opts.Partition + ":cloudwatch:" + e.opts.Region + ":" + e.opts.AccountID + ":alarm:"
	name, ok := strings.CutPrefix(arn, prefix)
	return name, ok && name != ""
}

// AlarmARN is the ARN of the alarm called name in the simulated account.
func (e *Engine) AlarmARN(name string) string {
	return "arn:" + e.opts.Partition + ":cloudwatch:" + e.opts.Region + ":" + e.opts.AccountID + ":alarm:" + name
}

// mergeRollbackConfiguration is the configuration a stack has after a call
// that gives c: the stack's own when c is nil; otherwise c's triggers when
// it has a list (an empty one removes them all), the stack's when it has
// none, and likewise for the monitoring time (API_RollbackConfiguration:
// "To use the rollback triggers previously specified for this stack, if
// any, don't specify this parameter"; keeping the monitoring time too is
// stacksim's reading, UNVERIFIED).
func mergeRollbackConfiguration(old RollbackConfiguration, c *RollbackConfiguration) RollbackConfiguration {
	if c == nil {
		return old
	}
	out := old
	if c.RollbackTriggers != nil {
		out.RollbackTriggers = slices.Clone(c.RollbackTriggers)
		if len(out.RollbackTriggers) == 0 {
			out.RollbackTriggers = nil
		}
	}
	if c.MonitoringTimeInMinutes != nil {
		m := *c.MonitoringTimeInMinutes
		out.MonitoringTimeInMinutes = &m
	}
	return out
}

// SetAlarmStateInput is CloudWatch's SetAlarmState request (StateReason
// is recorded nowhere: no event shows it).
type SetAlarmStateInput struct {
	AlarmName   string `json:"AlarmName"`
	StateValue  string `json:"StateValue"`
	StateReason string `json:"StateReason,omitempty"`
}

// SetAlarmState sets the state of the alarm called name in the simulated
// account, as CloudWatch's SetAlarmState does, for the rest of the run: an
// operation watching it is checked at once (every operation in motion
// whose rollback triggers include it). An alarm the account does not have
// is refused with CloudWatch's ResourceNotFound message.
func (e *Engine) SetAlarmState(ctx context.Context, in SetAlarmStateInput) error {
	name, state := in.AlarmName, in.StateValue
	if name == "" {
		return requiredError("alarmName")
	}
	if !slices.Contains(AlarmStates, state) {
		return ValidationError("1 validation error detected: Value '%s' at 'stateValue' failed to satisfy constraint: Member must satisfy enum value set: [%s]",
			state, strings.Join(AlarmStates, ", "))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	prev, had := e.alarms[name]
	err := e.update(func(tx *txn) error {
		if _, ok := e.alarmState(tx, name); !ok {
			return &APIError{Code: "ResourceNotFound", Message: "Alarm " + name + " not found"}
		}
		if e.alarms == nil {
			e.alarms = map[string]string{}
		}
		e.alarms[name] = state
		e.scheduleAlarmChecks(tx)
		return nil
	})
	if err != nil && e.alarms != nil {
		// Nothing of a refused call stays: the alarm keeps its state.
		if had {
			e.alarms[name] = prev
		} else {
			delete(e.alarms, name)
		}
	}
	return err
}

// alarmState is the state of the account's alarm called name, and whether
// the account has it.
func (e *Engine) alarmState(tx *txn, name string) (string, bool) {
	if s, ok := e.alarms[name]; ok {
		return s, true
	}
	if tx.Object(alarmType, name) != nil || tx.Object(compositeAlarmType, name) != nil {
		return AlarmInsufficientData, true
	}
	return "", false
}

// triggered says why st's rollback triggers roll its operation back now:
// an alarm the account does not have, or alarms in ALARM; "" when none
// does. UNVERIFIED: the words are stacksim's; no event of a triggered
// rollback was found recorded.
func (e *Engine) triggered(tx *txn, st *store.StackRecord) string {
	var missing, alarmed []string
	for _, t := range st.RollbackConfiguration.RollbackTriggers {
		name, _ := e.alarmName(t.Arn)
		switch s, ok := e.alarmState(tx, name); {
		case !ok:
			missing = append(missing, t.Arn)
		case s == AlarmAlarm:
			alarmed = append(alarmed, t.Arn)
		}
	}
	switch {
	case len(missing) > 0:
		return "Rollback trigger(s) not found: [" + strings.Join(missing, ", ") + "]."
	case len(alarmed) > 0:
		return "Rollback triggered by alarm(s) in ALARM state: [" + strings.Join(alarmed, ", ") + "]."
	}
	return ""
}

// watching tells whether op is a create's or an update's forward phase,
// which its stack's rollback triggers watch (a rollback, a cleanup, a
// delete are not watched).
func watching(op *store.OperationRecord) bool {
	if op == nil || !op.InMotion || op.Stopping || op.Plan == nil {
		return false
	}
	phases := op.Plan.Phases()
	if op.Phase >= len(phases) {
		return false
	}
	return phases[op.Phase] == plan.PhaseCreate || phases[op.Phase] == plan.PhaseUpdate
}

// scheduleAlarmChecks queues, at the current instant, a check of every
// watched operation whose triggers an alarm in ALARM (or a missing one)
// would fire: after SetAlarmState, and when a run begins with
// Options.Alarms (a command that goes on with a stack stopped by --until
// sees the alarms as it gives them).
func (e *Engine) scheduleAlarmChecks(tx *txn) {
	for _, st := range tx.AllStacks() {
		if len(st.RollbackConfiguration.RollbackTriggers) == 0 || st.OperationId == "" {
			continue
		}
		op := tx.Operation(st.OperationId)
		if !watching(op) || e.triggered(tx, st) == "" {
			continue
		}
		id := op.Id
		if len(tx.Tasks(func(t *Task) bool { return t.Kind == taskAlarmCheck && t.OperationId == id })) > 0 {
			continue
		}
		tx.Schedule(&Task{Kind: taskAlarmCheck, StackId: st.StackId, OperationId: id})
	}
}

// anyAlarmed tells whether a run's alarms hold one in ALARM.
func (e *Engine) anyAlarmed() bool {
	for _, s := range e.alarms {
		if s == AlarmAlarm {
			return true
		}
	}
	return false
}

// stopIfTriggered stops the running forward phase when its stack's
// triggers fire; it reports whether they did.
func (r *run) stopIfTriggered() (bool, error) {
	if len(r.st.RollbackConfiguration.RollbackTriggers) == 0 || !watching(r.op) {
		return false, nil
	}
	cause := r.e.triggered(r.tx, r.st)
	if cause == "" {
		return false, nil
	}
	if err := r.stopPhase(cause); err != nil {
		return true, err
	}
	if r.op.Running == 0 {
		r.schedulePhaseEnd()
	}
	return true, nil
}

// runAlarmCheck is a check of an operation's rollback triggers.
func (e *Engine) runAlarmCheck(ctx context.Context, tx *txn, t *Task) error {
	r, ok, err := e.newRun(ctx, tx, t)
	if err != nil || !ok {
		return err
	}
	if _, err := r.stopIfTriggered(); err != nil {
		return err
	}
	return r.flush()
}

// monitoringMinutes is how long a create or an update whose resources are
// all done waits before it completes: MonitoringTimeInMinutes. An update
// waits it out with or without triggers ("If you set a monitoring time but
// don't specify any rollback triggers, CloudFormation still waits the
// specified period of time before cleaning up old resources for update
// operations"); a create only when it has triggers to watch.
func (r *run) monitoringMinutes() int {
	c := r.st.RollbackConfiguration
	if c.MonitoringTimeInMinutes == nil || *c.MonitoringTimeInMinutes <= 0 {
		return 0
	}
	if r.op.Plan.Operation == plan.OpCreate && len(c.RollbackTriggers) == 0 {
		return 0
	}
	return *c.MonitoringTimeInMinutes
}

// monitor holds the end of a forward phase whose steps all succeeded for
// the monitoring time: the stack stays CREATE_IN_PROGRESS or
// UPDATE_IN_PROGRESS, its triggers watched, until the monitoring-end task.
// It reports whether the phase waits.
func (r *run) monitor() bool {
	if !watching(r.op) {
		return false
	}
	minutes := r.monitoringMinutes()
	if minutes == 0 {
		return false
	}
	now := r.tx.now()
	if !r.op.MonitorUntil.IsZero() && !now.Before(r.op.MonitorUntil) {
		return false // monitored: the phase ends
	}
	if r.op.MonitorUntil.IsZero() {
		op := r.oper()
		op.MonitorUntil = now.Add(time.Duration(minutes) * time.Minute)
		r.tx.Schedule(&Task{At: op.MonitorUntil, Kind: taskMonitoringEnd, StackId: r.st.StackId, OperationId: op.Id,
			Data: []byte(strconv.Itoa(op.PhaseGen))})
	}
	return true
}

// runMonitoringEnd ends the monitoring time of a forward phase: its
// triggers are checked a last time, and the phase ends.
func (e *Engine) runMonitoringEnd(ctx context.Context, tx *txn, t *Task) error {
	r, ok, err := e.newRun(ctx, tx, t)
	if err != nil || !ok {
		return err
	}
	if string(t.Data) != strconv.Itoa(r.op.PhaseGen) || r.op.Running > 0 || r.op.Stopping || !watching(r.op) {
		return nil // stale: stopped (a trigger, CancelUpdateStack) or moved on
	}
	if stopped, err := r.stopIfTriggered(); err != nil || stopped {
		if err != nil {
			return err
		}
		return r.flush()
	}
	if err := r.endPhase(); err != nil {
		return err
	}
	return r.flush()
}

// cancelMonitoring drops the operation's monitoring-end and alarm-check
// tasks when it comes to rest: a trigger that fired, a cancel, a failure
// leave them behind, and the loop must not wait for them.
func (r *run) cancelMonitoring() {
	if r.op.MonitorUntil.IsZero() && len(r.st.RollbackConfiguration.RollbackTriggers) == 0 {
		return
	}
	id := r.op.Id
	r.tx.CancelTasks(func(t *Task) bool {
		return (t.Kind == taskMonitoringEnd || t.Kind == taskAlarmCheck) && t.OperationId == id
	})
}

// Alarm is one CloudWatch alarm of the account, as DescribeAlarms shows
// it.
type Alarm struct {
	Name, ARN, State string
	// Composite: an AWS::CloudWatch::CompositeAlarm.
	Composite bool
}

// Alarms lists the account's alarms by name: its stacks' AWS::CloudWatch
// alarms and the ones Options.Alarms (and SetAlarmState) name.
func (e *Engine) Alarms(ctx context.Context) ([]Alarm, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []Alarm
	err := e.view(func(tx *txn) error {
		seen := map[string]bool{}
		add := func(name string, composite bool) {
			if seen[name] {
				return
			}
			seen[name] = true
			state, _ := e.alarmState(tx, name)
			out = append(out, Alarm{Name: name, ARN: e.AlarmARN(name), State: state, Composite: composite})
		}
		for _, o := range tx.Objects(alarmType) {
			add(o.ID, false)
		}
		for _, o := range tx.Objects(compositeAlarmType) {
			add(o.ID, true)
		}
		for name := range e.alarms {
			add(name, false)
		}
		return nil
	})
	slices.SortFunc(out, func(a, b Alarm) int { return strings.Compare(a.Name, b.Name) })
	return out, err
}
