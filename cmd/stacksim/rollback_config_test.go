package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine"
)

func TestParseRollbackConfiguration(t *testing.T) {
	five := 5
	arn := "arn:aws:cloudwatch:us-east-1:123456789012:alarm:HighErrors"
	one := []engine.RollbackTrigger{{Arn: arn, Type: "AWS::CloudWatch::Alarm"}}
	for _, tc := range []struct {
		in   string
		want *engine.RollbackConfiguration
		err  string
	}{
		{in: "RollbackTriggers=[{Arn=" + arn + ",Type=AWS::CloudWatch::Alarm}],MonitoringTimeInMinutes=5",
			want: &engine.RollbackConfiguration{RollbackTriggers: one, MonitoringTimeInMinutes: &five}},
		{in: `{"RollbackTriggers": [{"Arn": "` + arn + `", "Type": "AWS::CloudWatch::Alarm"}], "MonitoringTimeInMinutes": 5}`,
			want: &engine.RollbackConfiguration{RollbackTriggers: one, MonitoringTimeInMinutes: &five}},
		{in: "MonitoringTimeInMinutes=5", want: &engine.RollbackConfiguration{MonitoringTimeInMinutes: &five}},
		// An empty list removes the stack's triggers: it is not the same as none.
		{in: "RollbackTriggers=[]", want: &engine.RollbackConfiguration{RollbackTriggers: []engine.RollbackTrigger{}}},
		{in: `{"RollbackTriggers": []}`, want: &engine.RollbackConfiguration{RollbackTriggers: []engine.RollbackTrigger{}}},
		{in: "RollbackTriggers=[{Arn=" + arn + "}]", err: `Missing required parameter in RollbackConfiguration.RollbackTriggers[0]: "Type"`},
		{in: "MonitoringTimeInMinutes=soon", err: "Invalid type for parameter RollbackConfiguration.MonitoringTimeInMinutes, value: soon"},
		{in: "Monitoring=5", err: `Unknown parameter in RollbackConfiguration: "Monitoring", must be one of: RollbackTriggers, MonitoringTimeInMinutes`},
		{in: `{"RollbackTriggers": [`, err: "Error parsing parameter '--rollback-configuration': Invalid JSON"},
		{in: "RollbackTriggers=[{Arn=", err: "Error parsing parameter '--rollback-configuration': Expected:"},
	} {
		got, err := parseRollbackConfiguration(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseAlarms(t *testing.T) {
	got, err := parseAlarms([]string{"HighErrors=ALARM", "Latency=OK", "HighErrors=ALARM"})
	if err != nil || !reflect.DeepEqual(got, map[string]string{"HighErrors": "ALARM", "Latency": "OK"}) {
		t.Fatalf("got %v, %v", got, err)
	}
	for in, want := range map[string]string{
		"HighErrors":       "give NAME=STATE",
		"=ALARM":           "give NAME=STATE",
		"HighErrors=RED":   `the state is "RED"; an alarm's state is one of OK, ALARM, INSUFFICIENT_DATA`,
		"HighErrors=alarm": `the state is "alarm"`,
	} {
		if _, err := parseAlarms([]string{in}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--alarm %s: error %v, want one with %q", in, err, want)
		}
	}
	if _, err := parseAlarms([]string{"A=OK", "A=ALARM"}); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("a name given twice with two states: %v", err)
	}
}
