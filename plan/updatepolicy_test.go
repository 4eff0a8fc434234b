package plan

import "testing"

func TestReplacingUpdate(t *testing.T) {
	const asg = "AWS::AutoScaling::AutoScalingGroup"
	willReplace := map[string]any{"AutoScalingReplacingUpdate": map[string]any{"WillReplace": true}}
	inPlace := Decision{Action: Update, Replacement: ReplacementConditional}
	for _, c := range []struct {
		why      string
		typeName string
		policy   any
		dec      Decision
		changed  []string
		want     Action
	}{
		{"a new launch configuration", asg, willReplace, inPlace, []string{"LaunchConfigurationName"}, CreateThenDelete},
		{"a new launch template, among others", asg, willReplace, inPlace, []string{"DesiredCapacity", "LaunchTemplate"}, CreateThenDelete},
		{"new subnets", asg, willReplace, inPlace, []string{"VPCZoneIdentifier"}, CreateThenDelete},
		{"a new mixed instances policy", asg, willReplace, inPlace, []string{"MixedInstancesPolicy"}, CreateThenDelete},
		{"WillReplace as a string", asg, map[string]any{"AutoScalingReplacingUpdate": map[string]any{"WillReplace": "true"}}, inPlace, []string{"LaunchTemplate"}, CreateThenDelete},
		{"only the size", asg, willReplace, Decision{Action: Update, Replacement: ReplacementFalse}, []string{"MaxSize"}, Update},
		{"WillReplace false", asg, map[string]any{"AutoScalingReplacingUpdate": map[string]any{"WillReplace": false}}, inPlace, []string{"LaunchTemplate"}, Update},
		{"a rolling update", asg, map[string]any{"AutoScalingRollingUpdate": map[string]any{"MaxBatchSize": 1}}, inPlace, []string{"LaunchTemplate"}, Update},
		{"no policy", asg, nil, inPlace, []string{"LaunchTemplate"}, Update},
		{"another type", "AWS::EC2::Instance", willReplace, inPlace, []string{"LaunchTemplate"}, Update},
		{"nothing changed", asg, willReplace, Decision{Action: NoOp}, nil, NoOp},
		{"already replaced", asg, willReplace, Decision{Action: CreateThenDelete, Replacement: ReplacementTrue}, []string{"AutoScalingGroupName"}, CreateThenDelete},
	} {
		got := ReplacingUpdate(c.typeName, c.policy, c.dec, c.changed)
		if got.Action != c.want {
			t.Errorf("%s: %s, want %s", c.why, got.Action, c.want)
		}
		if got.Action == CreateThenDelete && got.Replacement != ReplacementTrue {
			t.Errorf("%s: replacement %s", c.why, got.Replacement)
		}
	}
	d := Decision{Changes: []PropertyChange{{Path: "/LaunchTemplate/Version"}, {Path: "/LaunchTemplate/LaunchTemplateId"}, {Path: "/MaxSize"}}}
	if got := d.ChangedProperties(); len(got) != 2 || got[0] != "LaunchTemplate" || got[1] != "MaxSize" {
		t.Errorf("ChangedProperties: %v", got)
	}
}
