package engine

import (
	"github.com/stacksim/stacksim/statemachine"
)

// The random worlds' rollback triggers (worlds of kind watched): now and
// then the create watches the alarm Watch for a monitoring time of 0 to 2
// minutes; an update may give a new configuration (the triggers again, or
// none), and the alarm is in ALARM before one update in four. An update
// that starts watched with the alarm in ALARM never completes. The
// choices come from the world's tr, a source of their own, so that the
// other sources draw what they drew before.

const watchAlarm = "Watch"

// watchCreate gives the create a RollbackConfiguration, one time in four.
func (w *world) watchCreate(in *CreateStackInput) {
	if w.kind < watched {
		return
	}
	if w.tr.IntN(4) != 0 {
		return
	}
	in.RollbackConfiguration = w.watchConfig()
	w.logf("  watching %s for %d min", watchAlarm, *in.RollbackConfiguration.MonitoringTimeInMinutes)
}

func (w *world) watchConfig() *RollbackConfiguration {
	m := w.tr.IntN(3)
	return &RollbackConfiguration{RollbackTriggers: []RollbackTrigger{{Arn: w.e.AlarmARN(watchAlarm), Type: alarmType}}, MonitoringTimeInMinutes: &m}
}

// watchUpdate may change the update's configuration and the alarm's
// state; it reports whether the update starts watched with the alarm in
// ALARM.
func (w *world) watchUpdate(up *UpdateStackInput) bool {
	if w.kind < watched {
		return false
	}
	switch w.tr.IntN(6) {
	case 0:
		up.RollbackConfiguration = w.watchConfig()
		w.logf("  the update watches %s for %d min", watchAlarm, *up.RollbackConfiguration.MonitoringTimeInMinutes)
	case 1:
		up.RollbackConfiguration = &RollbackConfiguration{RollbackTriggers: []RollbackTrigger{}}
		w.logf("  the update removes the triggers")
	}
	state := AlarmOK
	if w.tr.IntN(4) == 0 {
		state = AlarmAlarm
	}
	w.setAlarm(state)
	return state == AlarmAlarm && w.watchedAfter(up)
}

// watchedAfter: the stack's triggers, as the update leaves them, watch
// the alarm (the stack's own unless the update gives a list: a
// RollbackStack or an update rollback may have put back what an earlier
// update replaced).
func (w *world) watchedAfter(up *UpdateStackInput) bool {
	c := up.RollbackConfiguration
	if c == nil || c.RollbackTriggers == nil {
		return len(w.stack(up.StackName).RollbackConfiguration.RollbackTriggers) > 0
	}
	return len(c.RollbackTriggers) > 0
}

// setAlarm sets the alarm's state for the rest of the run and for the
// engines the world opens again (the states are not stored).
func (w *world) setAlarm(state string) {
	w.t.Helper()
	if w.opts.Alarms == nil {
		w.opts.Alarms = map[string]string{}
	}
	w.opts.Alarms[watchAlarm] = state
	if err := w.e.SetAlarmState(ctx(), SetAlarmStateInput{AlarmName: watchAlarm, StateValue: state}); err != nil {
		w.t.Fatalf("SetAlarmState: %v", err)
	}
	w.logf("SetAlarmState %s %s", watchAlarm, state)
}

// checkWatched: an update that started watched with the alarm in ALARM did
// not complete.
func (w *world) checkWatched(id string, alarmed bool) {
	w.t.Helper()
	if w.kind < watched {
		return
	}
	status := statemachine.StackStatus(w.stack(id).StackStatus)
	if alarmed && (status == statemachine.StackStatusUpdateComplete || status == statemachine.StackStatusCreateComplete) {
		w.t.Fatalf("an update watched by an alarm in ALARM ended %s", status)
	}
}
