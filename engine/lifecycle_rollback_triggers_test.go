package engine

import (
	"fmt"
	"strings"
	"testing"
)

// Rollback triggers: the alarms a create or an update watches, and the
// monitoring time after its last resource. An alarm in ALARM (or missing)
// at the start rolls the operation back at once; one that goes to ALARM
// during the monitoring time rolls it back then; an update waits out its
// monitoring time before its cleanup even without triggers; an update
// without a RollbackConfiguration keeps the stack's, an empty list of
// triggers removes them; CancelUpdateStack stops the monitoring.
func TestLifecycleRollbackTriggers(t *testing.T) {
	h := newHarness(t, "rollback-triggers", Options{})
	minutes := func(n int) *int { return &n }
	errorsARN := h.e.AlarmARN("HighErrors")
	watch := func(m int, arns ...string) *RollbackConfiguration {
		c := &RollbackConfiguration{MonitoringTimeInMinutes: minutes(m), RollbackTriggers: []RollbackTrigger{}}
		for _, a := range arns {
			c.RollbackTriggers = append(c.RollbackTriggers, RollbackTrigger{Arn: a, Type: alarmType})
		}
		return c
	}
	config := func(stack string) {
		t.Helper()
		out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
		if err != nil {
			t.Fatal(err)
		}
		c := out.Stacks[0].RollbackConfiguration
		var arns []string
		for _, tr := range c.RollbackTriggers {
			arns = append(arns, tr.Arn+" "+tr.Type)
		}
		m := "-"
		if c.MonitoringTimeInMinutes != nil {
			m = fmt.Sprint(*c.MonitoringTimeInMinutes)
		}
		h.note("   RollbackConfiguration of %s: triggers [%s], monitoring %s min", stack, strings.Join(arns, ", "), m)
	}
	setAlarm := func(name, state string) error {
		return h.call("SetAlarmState "+name+" "+state, func() error { return h.e.SetAlarmState(ctx(), SetAlarmStateInput{AlarmName: name, StateValue: state}) })
	}
	update := func(label string, in UpdateStackInput) {
		t.Helper()
		h.must("UpdateStack app "+label, func() error {
			_, err := h.e.UpdateStack(ctx(), in)
			return err
		})
	}
	// untilMonitoring runs the update until its last resource is done: the
	// stack then waits out its monitoring time.
	untilMonitoring := func() {
		t.Helper()
		if _, err := h.e.RunUntil(ctx(), func(ev StackEvent) bool {
			return ev.LogicalResourceId == "Flag" && ev.ResourceStatus == "UPDATE_COMPLETE"
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.e.Advance(ctx(), 120e9); err != nil {
			t.Fatal(err)
		}
		out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "app"})
		if err != nil {
			t.Fatal(err)
		}
		h.note("   two minutes into the monitoring time: %s", out.Stacks[0].StackStatus)
	}

	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "monitoring", TemplateBody: h.fixture("alarms.yaml")})
	})
	h.wait("monitoring")

	// Refused before anything changes.
	for _, bad := range []*RollbackConfiguration{
		{RollbackTriggers: []RollbackTrigger{{Arn: errorsARN, Type: "AWS::SNS::Topic"}}},
		{RollbackTriggers: []RollbackTrigger{{Arn: "arn:aws:cloudwatch:eu-west-1:123456789012:alarm:HighErrors", Type: alarmType}}},
		{RollbackTriggers: []RollbackTrigger{{Type: alarmType}}},
		{RollbackTriggers: make([]RollbackTrigger, 6)},
		{MonitoringTimeInMinutes: minutes(181)},
		{MonitoringTimeInMinutes: minutes(-1)},
	} {
		_ = h.call("CreateStack app (a bad RollbackConfiguration)", func() error {
			_, err := h.e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"), RollbackConfiguration: bad})
			return err
		})
	}
	if err := setAlarm("Nope", AlarmAlarm); err == nil {
		t.Fatal("SetAlarmState of an alarm the account does not have was accepted")
	}
	if err := setAlarm("HighErrors", "RED"); err == nil {
		t.Fatal("SetAlarmState to a state CloudWatch does not have was accepted")
	}

	// A trigger whose alarm does not exist rolls the create back at once.
	h.must("CreateStack app (a trigger on alarm Nope, which does not exist)", func() error {
		_, err := h.e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"),
			RollbackConfiguration: watch(0, h.e.AlarmARN("Nope"))})
		return err
	})
	h.wait("app")
	first := h.stackID("app")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "app"}) })
	h.wait(first)

	// A create watching HighErrors (INSUFFICIENT_DATA, a new alarm's
	// state) for 5 minutes after its resources: CREATE_COMPLETE then.
	h.must("CreateStack app (watching HighErrors, monitoring 5 min)", func() error {
		_, err := h.e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"),
			RollbackConfiguration: watch(5, errorsARN)})
		return err
	})
	h.wait("app")
	config("app")

	// An update that gives no RollbackConfiguration keeps the stack's:
	// HighErrors goes to ALARM two minutes into the monitoring time, and
	// the update rolls back; the rollback is not watched.
	update("(Value=two; the stack's triggers)", UpdateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"),
		Parameters: []Parameter{{ParameterKey: "Value", ParameterValue: "two"}}})
	untilMonitoring()
	h.must("SetAlarmState HighErrors ALARM", func() error {
		return h.e.SetAlarmState(ctx(), SetAlarmStateInput{AlarmName: "HighErrors", StateValue: AlarmAlarm})
	})
	h.wait("app")
	config("app")

	// HighErrors is still in ALARM: the next update rolls back at once.
	update("(Value=three, HighErrors in ALARM)", UpdateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"),
		Parameters: []Parameter{{ParameterKey: "Value", ParameterValue: "three"}}})
	h.wait("app")

	// An empty list removes the triggers; the update still waits out the
	// monitoring time it keeps before its cleanup.
	update("(Value=four, RollbackTriggers [], HighErrors in ALARM)", UpdateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"),
		Parameters:            []Parameter{{ParameterKey: "Value", ParameterValue: "four"}},
		RollbackConfiguration: &RollbackConfiguration{RollbackTriggers: []RollbackTrigger{}}})
	h.wait("app")
	config("app")

	// CancelUpdateStack during the monitoring time rolls the update back.
	update("(Value=five, watching HighErrors again, monitoring 10 min)", UpdateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"),
		Parameters: []Parameter{{ParameterKey: "Value", ParameterValue: "five"}}, RollbackConfiguration: watch(10, errorsARN)})
	h.wait("app") // HighErrors is in ALARM: rolled back at once, and back to the stack's configuration before
	config("app")
	h.must("SetAlarmState HighErrors OK", func() error {
		return h.e.SetAlarmState(ctx(), SetAlarmStateInput{AlarmName: "HighErrors", StateValue: AlarmOK})
	})
	update("(Value=five, watching HighErrors, monitoring 10 min)", UpdateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"),
		Parameters: []Parameter{{ParameterKey: "Value", ParameterValue: "five"}}, RollbackConfiguration: watch(10, errorsARN)})
	untilMonitoring()
	h.must("CancelUpdateStack app", func() error {
		_, err := h.e.CancelUpdateStack(ctx(), CancelUpdateStackInput{StackName: "app"})
		return err
	})
	h.wait("app")
	config("app")
	h.done()
}
