package engine

import (
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/statemachine"
)

// The random worlds' Auto Scaling group (worlds of kind rolled, signal
// worlds one time in two): G0, on the launch configuration L0, with an
// AutoScalingRollingUpdate policy drawn for each version (batch size,
// instances kept in service — now and then as many as MaxSize, which
// fails the update —, signals or a pause, the percent of successes). A
// version changes L0's image two times in three, so that the update rolls
// the group's instances; a rollback rolls them back. The world signals a
// batch like any wait (sendSignals), and the invariants hold throughout.

// withRolling adds L0 and G0 to a template's resources for version v.
func (w *world) withRolling(res map[string]any, v int) {
	r := w.gr
	image := 0
	if v > 0 && r.IntN(3) != 0 {
		image = v
	}
	res["L0"] = map[string]any{"Type": "AWS::AutoScaling::LaunchConfiguration",
		"Properties": map[string]any{"ImageId": fmt.Sprintf("ami-%017d", image), "InstanceType": "t3.micro"}}
	maxSize := 2 + r.IntN(3)
	inService := r.IntN(maxSize)
	if r.IntN(8) == 0 {
		inService = maxSize // refused: must be less than MaxSize
	}
	policy := map[string]any{"MaxBatchSize": 1 + r.IntN(2), "MinInstancesInService": inService,
		"WaitOnResourceSignals": r.IntN(3) != 0, "PauseTime": fmt.Sprintf("PT%dM", 1+r.IntN(4)),
		"MinSuccessfulInstancesPercent": []int{100, 50}[r.IntN(2)]}
	res["G0"] = map[string]any{"Type": "AWS::AutoScaling::AutoScalingGroup",
		"UpdatePolicy": map[string]any{"AutoScalingRollingUpdate": policy},
		"Properties": map[string]any{"LaunchConfigurationName": map[string]any{"Ref": "L0"},
			"MinSize": "1", "MaxSize": fmt.Sprint(maxSize), "DesiredCapacity": fmt.Sprint(1 + r.IntN(maxSize)),
			"AvailabilityZones": []any{"us-east-1a"}}}
}

// checkRollSignalled checks what a signal did to G0's batch: a repeated
// UniqueId counts nothing; a SUCCESS counts, and the last one the batch
// wanted ends its wait (the group rolls on, or is complete); a FAILURE
// counts against the percent, so it either fails the group or leaves it
// rolling.
func (w *world) checkRollSignalled(stack string, before SignalWait, now *SignalWait, status string, repeat bool) {
	w.t.Helper()
	r := w.recordOf(stack, "G0")
	state := statusOf(r)
	rolling := r != nil && r.ResourceStatus == statemachine.ResourceStatusUpdateInProgress
	switch {
	case repeat:
		if now == nil || now.Received != before.Received {
			w.t.Fatalf("a repeated signal to G0 moved its batch on: %+v, then %+v", before, now)
		}
	case before.Received+1 < before.Count:
		if status == SignalFailure && now == nil && r != nil && strings.HasSuffix(string(r.ResourceStatus), "_FAILED") {
			return // over what MinSuccessfulInstancesPercent allows
		}
		if now == nil || now.Received != before.Received+1 {
			w.t.Fatalf("a %s signal to G0 was not counted: %+v, then %+v (%s)", status, before, now, state)
		}
	default:
		if now != nil {
			w.t.Fatalf("the last signal G0's batch wanted left it waiting: %+v, then %+v", before, now)
		}
		if !rolling && (r == nil || (r.ResourceStatus != statemachine.ResourceStatusUpdateComplete && !strings.HasSuffix(string(r.ResourceStatus), "_FAILED"))) {
			w.t.Fatalf("after the last signal its batch wanted G0 is %s: rolling on, complete or failed", state)
		}
	}
}
