package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
)

// Rolling updates of Auto Scaling groups. A group whose UpdatePolicy has
// an AutoScalingRollingUpdate, updated so that its instances no longer
// match its launch (a new launch configuration or template, new subnets,
// a new mixed instances policy: plan.RollingUpdateTriggers), is not
// UPDATE_COMPLETE when its handler is done. CloudFormation replaces its
// instances in batches, as these events, recorded against AWS, show (for
// two instances, MaxBatchSize 1, MinInstancesInService 1,
// WaitOnResourceSignals, PauseTime PT5M):
//
//	Rolling update initiated. Terminating 2 obsolete instance(s) in batches of 1, while keeping at least 1 instance(s) in service. Waiting on resource signals with a timeout of PT5M when new instances are added to the autoscaling group.
//	Temporarily setting autoscaling group MinSize and DesiredCapacity to 2.
//	Terminating instance(s) [i-06f296d7c57a95051]; replacing with 1 new instance(s).
//	Successfully terminated instance(s) [i-06f296d7c57a95051] (Progress 50%).
//	New instance(s) added to autoscaling group - Waiting on 1 resource signal(s) with a timeout of PT5M.
//	Received SUCCESS signal with UniqueId i-02d637fc0cdce81ae
//	Terminating instance(s) [i-0e5e4c2d867cdb2ed]; replacing with 1 new instance(s).
//	...
//
// The batch size is the least of the obsolete instances, MaxBatchSize and
// MaxSize - MinInstancesInService; the group is first grown to
// max(batch + MinInstancesInService, DesiredCapacity) (new instances
// launched then wait for their signals before any is terminated), and the
// last batch brings it back to its capacity ("replacing with 0 new
// instance(s)" when it is already there). A batch waits for one signal per
// new instance within PauseTime (WaitOnResourceSignals), or waits out
// PauseTime. A missing signal counts as a FAILURE ("Failed to receive 1
// resource signal(s) for the current batch. Each resource signal timeout
// is counted as a FAILURE."); once the failures are more than
// MinSuccessfulInstancesPercent allows of all the instances replaced, the
// group's update fails: "Received 0 SUCCESS signal(s) out of 2. Unable to
// satisfy 100% MinSuccessfulInstancesPercent requirement" (or "Received 1
// FAILURE signal(s) out of 2. ..." for a FAILURE signal). A rollback rolls
// the same way back to the old launch: only the instances the failed
// update launched are obsolete then. The words are AWS's (the events of
// several public stack logs: aws-samples workshops, guardian/testing-asg-
// rolling-update, crewjam's etcd cluster); "Pausing for PT5M when new
// instances are added to the autoscaling group." (PauseTime without
// signals) is UNVERIFIED. An instance terminates in 50 seconds of virtual
// time, about what the recorded logs show.
//
// The group's instances are kept in its record (store.Instance: the id and
// the launch it was launched with); a group that never rolled has its
// capacity of instances of the launch it was last updated to.

const (
	partRolling = "rolling"
	// terminateTime is how long a batch takes to terminate.
	terminateTime = 50 * time.Second
	// maxPauseTime is PauseTime's bound ("The maximum amount of time that
	// you can specify for the pause time is one hour (PT1H)").
	maxPauseTime = time.Hour
	// The stages of a rolling update (store.RollingState.Next).
	rollSurge      = "surge"
	rollTerminate  = "terminate"
	rollTerminated = "terminated"
)

// rollingPolicy is an AutoScalingRollingUpdate, read.
type rollingPolicy struct {
	MaxBatch, MinInService, MinSuccess int
	Pause                              time.Duration
	// PauseText is PauseTime as the template gives it (AWS quotes it).
	PauseText string
	Wait      bool
}

// rollingPolicyOf reads a group's UpdatePolicy (resolved): ok false when
// it has no AutoScalingRollingUpdate, or when AutoScalingReplacingUpdate
// WillReplace takes precedence ("If you specify both ... setting
// WillReplace to true gives AutoScalingReplacingUpdate precedence");
// reason when the policy cannot be used.
func rollingPolicyOf(updatePolicy any) (pol rollingPolicy, ok bool, reason string) {
	all, _ := updatePolicy.(map[string]any)
	ru, isMap := all["AutoScalingRollingUpdate"].(map[string]any)
	if !isMap || plan.WillReplace("AWS::AutoScaling::AutoScalingGroup", updatePolicy) {
		return pol, false, ""
	}
	const at = "UpdatePolicy.AutoScalingRollingUpdate."
	pol = rollingPolicy{MaxBatch: 1, MinSuccess: 100}
	for _, f := range []struct {
		name   string
		to     *int
		lo, hi int
	}{{"MaxBatchSize", &pol.MaxBatch, 1, math.MaxInt32}, {"MinInstancesInService", &pol.MinInService, 0, math.MaxInt32},
		{"MinSuccessfulInstancesPercent", &pol.MinSuccess, 0, 100}} {
		v, set := ru[f.name]
		if !set {
			continue
		}
		n, err := strconv.Atoi(scalarText(v))
		if err != nil || n < f.lo || n > f.hi {
			if f.hi == 100 {
				return pol, false, fmt.Sprintf("%s%s must be a whole number from 0 to 100, not %v", at, f.name, v)
			}
			return pol, false, fmt.Sprintf("%s%s must be a whole number of at least %d, not %v", at, f.name, f.lo, v)
		}
		*f.to = n
	}
	switch v := ru["WaitOnResourceSignals"].(type) {
	case nil:
	case bool:
		pol.Wait = v
	case string:
		switch strings.ToLower(v) {
		case "true":
			pol.Wait = true
		case "false":
		default:
			return pol, false, fmt.Sprintf("%sWaitOnResourceSignals must be true or false, not %q", at, v)
		}
	default:
		return pol, false, fmt.Sprintf("%sWaitOnResourceSignals must be true or false, not %v", at, v)
	}
	// PauseTime: PT0S by default, PT5M when waiting on signals.
	pol.PauseText = "PT0S"
	if pol.Wait {
		pol.PauseText = "PT5M"
	}
	if v, set := ru["PauseTime"]; set {
		pol.PauseText = scalarText(v)
	}
	d, err := parseISODuration(pol.PauseText)
	if err != nil || d > maxPauseTime {
		return pol, false, fmt.Sprintf("%sPauseTime %v is not an ISO 8601 duration of at most one hour (PT5M, PT1H)", at, pol.PauseText)
	}
	pol.Pause = d
	return pol, true, ""
}

// groupSize reads a group's size property (a string or a number; ok false
// when it is not set).
func groupSize(props map[string]any, name string) (int, bool) {
	v, set := props[name]
	if !set || v == nil {
		return 0, false
	}
	n, err := strconv.Atoi(scalarText(v))
	return n, err == nil
}

// launchOf is the fingerprint of a group's launch: what its instances are
// made from.
func launchOf(props map[string]any) string {
	h := fnv.New64a()
	for _, name := range plan.RollingUpdateTriggers() {
		text, _ := json.Marshal(props[name])
		fmt.Fprintf(h, "%s=%s;", name, text)
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// instanceID is an instance's id (17 hexadecimal digits, as EC2's), made
// from what names it uniquely.
func instanceID(parts ...any) string {
	h := sha256.New()
	fmt.Fprint(h, parts...)
	return "i-" + hex.EncodeToString(h.Sum(nil))[:17]
}

// groupInstances are a group's instances before an update: those its
// record keeps (as its last rolling update left them), as many as its
// capacity as last applied — DesiredCapacity, else what it has within
// MinSize and MaxSize — the ones it lacks (a group that never rolled: all
// of them) being of the launch it was last updated to, and the newest
// going first when it has too many (an update in place changed its
// capacity).
func groupInstances(rec *store.ResourceRecord) []store.Instance {
	list := rec.Instances
	n, ok := groupSize(rec.Properties, "DesiredCapacity")
	if !ok {
		lo, _ := groupSize(rec.Properties, "MinSize")
		n = lo
		if hi, set := groupSize(rec.Properties, "MaxSize"); len(list) > 0 && set {
			n = min(max(len(list), lo), hi)
		}
	}
	n = max(n, 0)
	if len(list) >= n {
		return list[:n]
	}
	launch := launchOf(rec.Properties)
	out := make([]store.Instance, 0, n)
	out = append(out, list...)
	for i := len(list); i < n; i++ {
		out = append(out, store.Instance{Id: instanceID(rec.StackId, "/", rec.LogicalResourceId, "/", rec.PhysicalResourceId, "/", launch, "/", i), Launch: launch})
	}
	return out
}

// startRolling begins a group's rolling update once its handler updated
// it, when its UpdatePolicy asks for one and some of its instances are not
// of the launch it is updated to (a forward update that changed the
// launch; the rollback of one that launched instances): started true when
// the step goes on rolling (or failed).
func (r *run) startRolling(row *store.StepRecord, s *plan.Step, rec *store.ResourceRecord, model map[string]any) (started bool, err error) {
	if s.ResourceType != "AWS::AutoScaling::AutoScalingGroup" || row.Rolling != nil || s.Custom {
		return false, nil
	}
	pol, ok, reason := rollingPolicyOf(r.resourceUpdatePolicy(s.LogicalID))
	if reason != "" {
		return true, r.partFailed(row, s, reason)
	}
	if !ok {
		return false, nil
	}
	launch := launchOf(row.Props)
	st := &store.RollingState{Launch: launch, Next: rollSurge}
	for _, in := range groupInstances(rec) {
		if in.Launch == launch {
			st.Kept = append(st.Kept, in.Id)
		} else {
			st.Obsolete = append(st.Obsolete, in.Id)
		}
	}
	if len(st.Obsolete) == 0 {
		return false, nil
	}
	maxSize, _ := groupSize(row.Props, "MaxSize")
	minSize, _ := groupSize(row.Props, "MinSize")
	if pol.MinInService >= maxSize {
		// AWS's words (quoted by troposphere's and Eucalyptus's checks).
		return true, r.partFailed(row, s, "MinInstancesInService must be less than the autoscaling group's MaxSize")
	}
	running := len(st.Kept) + len(st.Obsolete)
	st.Desired = running
	if d, set := groupSize(row.Props, "DesiredCapacity"); set {
		st.Desired = d
	}
	st.Desired = min(max(st.Desired, minSize), maxSize)
	st.Batch = min(len(st.Obsolete), pol.MaxBatch, maxSize-pol.MinInService)
	st.Total = len(st.Obsolete)
	temp := max(st.Batch+pol.MinInService, st.Desired)

	c := rec.Clone()
	msg := fmt.Sprintf("Rolling update initiated. Terminating %d obsolete instance(s) in batches of %d", len(st.Obsolete), st.Batch)
	if pol.MinInService > 0 {
		msg += fmt.Sprintf(", while keeping at least %d instance(s) in service", pol.MinInService)
	}
	msg += "."
	switch {
	case pol.Wait:
		msg += fmt.Sprintf(" Waiting on resource signals with a timeout of %s when new instances are added to the autoscaling group.", pol.PauseText)
	case pol.Pause > 0:
		msg += fmt.Sprintf(" Pausing for %s when new instances are added to the autoscaling group.", pol.PauseText)
	}
	r.event(c, msg, row.Props)
	r.event(c, fmt.Sprintf("Temporarily setting autoscaling group MinSize and DesiredCapacity to %d.", temp), row.Props)
	r.put(c)
	// The instances the larger group starts first.
	st.Replace = temp - running
	row.Rolling, row.Model, row.Part = st, model, partRolling
	row.Deadline = time.Time{}
	row.Gen++
	r.putRow(row)
	r.scheduleInvoke(row, time.Second)
	return true, nil
}

// roll moves a rolling update on by one stage (an invoke task of its
// step).
func (r *run) roll(row *store.StepRecord, s *plan.Step) error {
	pol, _, _ := rollingPolicyOf(r.resourceUpdatePolicy(s.LogicalID))
	rec := r.current(s.LogicalID)
	if rec == nil {
		return internalf("stack %s: %s lost its record while it rolled", r.st.StackName, s.LogicalID)
	}
	st := row.Rolling.Clone()
	row.Rolling = st
	c := rec.Clone()
	if st.Next == rollSurge {
		st.Next = rollTerminate
		if st.Replace > 0 {
			return r.rollLaunch(row, c, st, pol, st.Replace)
		}
	}
	switch st.Next {
	case rollTerminate:
		left := st.Obsolete[st.Terminated:]
		if len(left) == 0 {
			return r.rollDone(row, s, c, st)
		}
		batch := left[:min(st.Batch, len(left))]
		running := len(st.Kept) + len(left) + len(st.Launched)
		replace := len(batch)
		if len(batch) == len(left) {
			// The last batch: back to the group's capacity.
			replace = max(0, st.Desired-(running-len(batch)))
		}
		st.Terminating, st.Replace, st.Next = append([]string(nil), batch...), replace, rollTerminated
		r.event(c, fmt.Sprintf("Terminating instance(s) [%s]; replacing with %d new instance(s).", strings.Join(batch, ","), replace), row.Props)
		r.put(c)
		r.putRow(row)
		r.scheduleInvoke(row, terminateTime)
		return nil
	case rollTerminated:
		st.Terminated += len(st.Terminating)
		r.event(c, fmt.Sprintf("Successfully terminated instance(s) [%s] (Progress %d%%).", strings.Join(st.Terminating, ","),
			100*st.Terminated/len(st.Obsolete)), row.Props)
		st.Terminating, st.Next = nil, rollTerminate
		if st.Replace > 0 {
			return r.rollLaunch(row, c, st, pol, st.Replace)
		}
	default:
		return internalf("stack %s: %s's rolling update is at an unknown stage %q", r.st.StackName, s.LogicalID, st.Next)
	}
	r.put(c)
	r.putRow(row)
	r.scheduleInvoke(row, time.Second)
	return nil
}

// rollLaunch starts n new instances, which wait for their signals
// (WaitOnResourceSignals) or PauseTime before the update goes on.
func (r *run) rollLaunch(row *store.StepRecord, c *store.ResourceRecord, st *store.RollingState, pol rollingPolicy, n int) error {
	fresh := make([]string, n)
	for i := range fresh {
		fresh[i] = instanceID(r.st.StackId, "/", c.LogicalResourceId, "/", r.op.Id, "/", st.Launch, "/", len(st.Launched)+i)
	}
	st.Launched = append(st.Launched, fresh...)
	st.Replace = 0
	if !pol.Wait {
		r.put(c)
		r.putRow(row)
		r.scheduleInvoke(row, max(pol.Pause, time.Second))
		return nil
	}
	r.event(c, fmt.Sprintf("New instance(s) added to autoscaling group - Waiting on %d resource signal(s) with a timeout of %s.", n, pol.PauseText), row.Props)
	r.put(c)
	st.Awaiting, st.Answered = n, 0
	row.Gen++
	row.Deadline = r.tx.now().Add(pol.Pause)
	r.putRow(row)
	r.scheduleWait(row, pol.Pause, fresh)
	return nil
}

// rollSignal takes one signal for a batch that waits for its new
// instances' signals: a UniqueId counts once in the whole update; a
// FAILURE counts against MinSuccessfulInstancesPercent.
func (r *run) rollSignal(row *store.StepRecord, s *plan.Step, rec *store.ResourceRecord, uniqueID, status string) error {
	c := rec.Clone()
	r.event(c, fmt.Sprintf("Received %s signal with UniqueId %s", status, uniqueID), row.Props)
	r.put(c)
	if _, seen := row.Signals[uniqueID]; seen {
		return nil
	}
	st := row.Rolling.Clone()
	row.Rolling = st
	st.Answered++
	row.Signals = withSignal(row.Signals, uniqueID, status)
	if status == SignalFailure {
		st.Failure++
	} else {
		st.Success++
	}
	pol, _, _ := rollingPolicyOf(r.resourceUpdatePolicy(s.LogicalID))
	if rollFailed(st, pol) {
		r.endWait(row)
		return r.partFailed(row, s, fmt.Sprintf("Received %d FAILURE signal(s) out of %d. Unable to satisfy %d%% MinSuccessfulInstancesPercent requirement", st.Failure, st.Total, pol.MinSuccess))
	}
	if st.Answered < st.Awaiting {
		r.putRow(row)
		return nil
	}
	return r.rollResume(row)
}

// rollTimedOut ends a batch whose signals did not all come within
// PauseTime: each missing one is a FAILURE.
func (r *run) rollTimedOut(row *store.StepRecord, s *plan.Step) error {
	st := row.Rolling.Clone()
	row.Rolling = st
	missing := st.Awaiting - st.Answered
	rec := r.current(s.LogicalID)
	if rec == nil {
		return internalf("stack %s: %s lost its record while it rolled", r.st.StackName, s.LogicalID)
	}
	c := rec.Clone()
	r.event(c, fmt.Sprintf("Failed to receive %d resource signal(s) for the current batch. Each resource signal timeout is counted as a FAILURE.", missing), row.Props)
	r.put(c)
	st.Failure += missing
	r.endWait(row)
	pol, _, _ := rollingPolicyOf(r.resourceUpdatePolicy(s.LogicalID))
	if rollFailed(st, pol) {
		return r.partFailed(row, s, fmt.Sprintf("Received %d SUCCESS signal(s) out of %d. Unable to satisfy %d%% MinSuccessfulInstancesPercent requirement", st.Success, st.Total, pol.MinSuccess))
	}
	return r.rollResume(row)
}

// rollFailed tells whether the failures are more than
// MinSuccessfulInstancesPercent allows of all the signals expected.
func rollFailed(st *store.RollingState, pol rollingPolicy) bool {
	need := int(math.Ceil(float64(pol.MinSuccess) * float64(st.Total) / 100))
	return st.Failure > st.Total-need
}

// rollResume goes on with the next stage once a batch's wait is over.
func (r *run) rollResume(row *store.StepRecord) error {
	r.endWait(row)
	row.Rolling.Awaiting, row.Rolling.Answered = 0, 0
	row.Deadline = time.Time{}
	row.Gen++
	r.putRow(row)
	r.scheduleInvoke(row, time.Second)
	return nil
}

// rollInstances are the group's instances as the rolling update leaves
// them: the obsolete ones not terminated, those kept, those launched.
func rollInstances(rec *store.ResourceRecord, st *store.RollingState) []store.Instance {
	old := map[string]string{}
	for _, in := range groupInstances(rec) {
		old[in.Id] = in.Launch
	}
	var out []store.Instance
	for _, id := range st.Obsolete[st.Terminated:] {
		out = append(out, store.Instance{Id: id, Launch: old[id]})
	}
	for _, id := range st.Kept {
		out = append(out, store.Instance{Id: id, Launch: st.Launch})
	}
	for _, id := range st.Launched {
		out = append(out, store.Instance{Id: id, Launch: st.Launch})
	}
	return out
}

// rolledBack is a group's record as a rolling update that stops (failed:
// partFailed; cancelled: cancelRunning) leaves it: holding the instances the update left, so that a
// rollback replaces those it launched. Any other step's record is rec.
func rolledBack(row *store.StepRecord, rec *store.ResourceRecord) *store.ResourceRecord {
	if row.Part != partRolling || row.Rolling == nil {
		return rec
	}
	c := rec.Clone()
	c.Instances = rollInstances(rec, row.Rolling)
	return c
}

// rollDone ends the rolling update: the group is UPDATE_COMPLETE with its
// new instances.
func (r *run) rollDone(row *store.StepRecord, s *plan.Step, c *store.ResourceRecord, st *store.RollingState) error {
	c.Instances = rollInstances(c, st)
	r.put(c)
	p, err := r.provider(s.ResourceType)
	if err != nil {
		return r.partFailed(row, s, fmt.Sprintf("Resource type %s has no handler: %v", s.ResourceType, err))
	}
	return r.updateSucceeded(row, s, p, row.Model)
}
