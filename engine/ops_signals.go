package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
)

// Resource signals. A resource whose CreationPolicy has a ResourceSignal
// (an instance, an Auto Scaling group, a wait condition), and a wait
// condition with a Handle, is not CREATE_COMPLETE when its handler is done:
// it waits, CREATE_IN_PROGRESS, for Count SUCCESS signals (cfn-signal,
// SignalResource, the handle's URL) within its Timeout. Each signal of a
// creation policy is an event, "Received SUCCESS signal with UniqueId
// i-...". A FAILURE signal fails it; so does the timeout: "Failed to
// receive 1 resource signal(s) within the specified duration", or for a
// wait condition "WaitCondition timed out. Received 0 conditions when
// expecting 1" (AWS's words, quoted in many stack event logs: buildkite/
// elastic-ci-stack-for-aws#130, aws-samples/aws-secretsmgr-workshop#3,
// aws-samples/immersive-media-refarch#7, sebdah/dynamic-dynamodb#248).
//
// Offline no instance runs cfn-signal: with Options.Signals SignalsAuto
// (the default) the simulation sends the signals itself, SUCCESS, 30
// seconds after the resource was made (sooner when the timeout is
// shorter); with SignalsManual only SignalResource does, and a resource
// nobody signals times out in virtual time.

// The modes of Options.Signals.
const (
	SignalsAuto   = "auto"
	SignalsManual = "manual"
)

const (
	// partSignal is a step waiting for its resource's signals.
	partSignal = "signal"
	// autoSignalDelay is when the simulation's own signals arrive.
	autoSignalDelay = 30 * time.Second
	// defaultSignalTimeout is a ResourceSignal's Timeout when it sets none.
	defaultSignalTimeout = 5 * time.Minute
	// maxSignalTimeout is the longest a resource may wait (AWS: 12 hours;
	// a wait condition's Timeout at most 43200 seconds).
	maxSignalTimeout = 12 * time.Hour

	SignalSuccess = "SUCCESS"
	SignalFailure = "FAILURE"
)

// signalPolicy is what a resource waits for: Count signals within Timeout,
// through its creation policy or, for a wait condition, its handle.
type signalPolicy struct {
	Count   int
	Timeout time.Duration
	// Handle: a wait condition's own Count and Timeout (its messages are
	// the wait condition's).
	Handle bool
	// MinSuccess is an Auto Scaling group's AutoScalingCreationPolicy
	// MinSuccessfulInstancesPercent (100 otherwise): the share of Count
	// that must signal SUCCESS, rounded up ("if you update five instances
	// with a minimum successful percentage of 50, three instances must
	// signal success").
	MinSuccess int
}

// allowedFailures is how many FAILURE signals the policy can take.
func (p signalPolicy) allowedFailures() int {
	return p.Count - int(math.Ceil(float64(p.MinSuccess)*float64(p.Count)/100))
}

const waitConditionType = "AWS::CloudFormation::WaitCondition"

// signalPolicyOf is the policy a created resource waits under (ok false:
// none), or the reason its policy cannot be used.
func signalPolicyOf(rec *store.ResourceRecord, typeName string, props map[string]any) (signalPolicy, bool, string) {
	if cp, ok := rec.CreationPolicy.(map[string]any); ok {
		if rs, ok := cp["ResourceSignal"].(map[string]any); ok {
			pol := signalPolicy{Count: 1, Timeout: defaultSignalTimeout, MinSuccess: 100}
			var reason string
			if pol.Count, reason = signalCount(rs, "CreationPolicy.ResourceSignal.Count"); reason != "" {
				return pol, false, reason
			}
			if ac, ok := cp["AutoScalingCreationPolicy"].(map[string]any); ok && typeName == "AWS::AutoScaling::AutoScalingGroup" {
				if v, set := ac["MinSuccessfulInstancesPercent"]; set {
					n, err := strconv.Atoi(scalarText(v))
					if err != nil || n < 0 || n > 100 {
						return pol, false, fmt.Sprintf("CreationPolicy.AutoScalingCreationPolicy.MinSuccessfulInstancesPercent must be a whole number from 0 to 100, not %v", v)
					}
					pol.MinSuccess = n
				}
			}
			if v, ok := rs["Timeout"]; ok {
				d, err := parseISODuration(scalarText(v))
				if err != nil || d > maxSignalTimeout {
					return pol, false, fmt.Sprintf("CreationPolicy.ResourceSignal.Timeout %v is not an ISO 8601 duration of at most 12 hours (PT15M, PT1H30M)", v)
				}
				pol.Timeout = d
			}
			return pol, true, ""
		}
	}
	if typeName != waitConditionType {
		return signalPolicy{}, false, ""
	}
	if _, ok := props["Handle"]; !ok {
		return signalPolicy{}, false, ""
	}
	pol := signalPolicy{Handle: true, MinSuccess: 100}
	var reason string
	if pol.Count, reason = signalCount(props, "Count"); reason != "" {
		return pol, false, reason
	}
	secs, err := strconv.Atoi(scalarText(props["Timeout"]))
	if err != nil || secs < 0 || secs > 43200 {
		return pol, false, fmt.Sprintf("Timeout must be a number of seconds from 0 to 43200, not %v", props["Timeout"])
	}
	pol.Timeout = time.Duration(secs) * time.Second
	return pol, true, ""
}

// signalCount is the Count of a signal policy (1 when it sets none), or
// the reason it cannot be used.
func signalCount(m map[string]any, field string) (int, string) {
	v, ok := m["Count"]
	if !ok {
		return 1, ""
	}
	n, err := strconv.Atoi(scalarText(v))
	if err != nil || n < 1 {
		return 1, fmt.Sprintf("%s must be a whole number of at least 1, not %v", field, v)
	}
	return n, ""
}

// parseISODuration reads an ISO 8601 duration of days, hours, minutes and
// seconds (P1D, PT15M, PT1H30M, PT600S). One longer than a time.Duration
// holds (about 292 years) is refused, not wrapped around to a negative
// one that every "at most" check would let through.
func parseISODuration(s string) (time.Duration, error) {
	rest, ok := strings.CutPrefix(strings.ToUpper(s), "P")
	if !ok || rest == "" {
		return 0, fmt.Errorf("not an ISO 8601 duration: %q", s)
	}
	// Each unit at most once, in the order D, H, M, S (as Java's
	// Duration.parse reads them): at most 4 × 10^6 days, no overflow.
	var secs int64
	rank := 0
	inTime := false
	num := ""
	for _, c := range rest {
		switch {
		case c >= '0' && c <= '9':
			num += string(c)
		case c == 'T' && !inTime && num == "":
			inTime = true
		default:
			n, err := strconv.Atoi(num)
			if err != nil || n > 1_000_000 {
				return 0, fmt.Errorf("not an ISO 8601 duration: %q", s)
			}
			var unit int64
			r := 0
			switch {
			case c == 'D' && !inTime:
				unit, r = 24*3600, 1
			case c == 'H' && inTime:
				unit, r = 3600, 2
			case c == 'M' && inTime:
				unit, r = 60, 3
			case c == 'S' && inTime:
				unit, r = 1, 4
			}
			if r <= rank {
				return 0, fmt.Errorf("not an ISO 8601 duration: %q", s)
			}
			rank = r
			secs += int64(n) * unit
			num = ""
		}
	}
	if num != "" || rank == 0 || inTime && rank < 2 {
		return 0, fmt.Errorf("not an ISO 8601 duration: %q", s)
	}
	if secs > int64(math.MaxInt64/time.Second) {
		return 0, fmt.Errorf("ISO 8601 duration %q is too long", s)
	}
	return time.Duration(secs) * time.Second, nil
}

// awaitsSignals tells whether a step's created resource waits for signals
// before it is complete: forward creates (and the creates of
// replacements) of registry types, not custom resources nor rollbacks.
func (r *run) awaitsSignals(row *store.StepRecord, s *plan.Step) bool {
	if row.Part == partSignal || s.Custom || isNestedStack(s.ResourceType) {
		return false
	}
	ph := r.phase()
	return ph == plan.PhaseCreate || ph == plan.PhaseUpdate
}

// waitForSignals makes a created resource wait for its signals: the step
// stays in flight (its record CREATE_IN_PROGRESS) until Count SUCCESS
// signals, a FAILURE one or the timeout.
func (r *run) waitForSignals(row *store.StepRecord, s *plan.Step, model map[string]any, pol signalPolicy) error {
	now := r.tx.now()
	row.Part, row.Model, row.Signals = partSignal, model, nil
	row.Gen++
	row.Deadline = now.Add(pol.Timeout)
	if !row.Launched {
		row.Launched = true
		r.oper().Running++
	}
	r.putRow(row)
	ids := make([]string, pol.Count)
	for i := range ids {
		ids[i] = autoSignalID(r.st.StackId, s, row, i)
	}
	r.scheduleWait(row, pol.Timeout, ids)
	if pol.Handle {
		// The signals the handle took before.
		return r.keptSignals(row, s)
	}
	return nil
}

// scheduleWait queues the end of a step's wait for signals (its timeout,
// at row.Deadline) and, with SignalsAuto, the simulation's own SUCCESS
// signal from each of ids, 30 seconds on (sooner within a short timeout).
func (r *run) scheduleWait(row *store.StepRecord, timeout time.Duration, ids []string) {
	dl := &Task{At: row.Deadline, Kind: taskDeadline, StackId: r.st.StackId, OperationId: r.op.Id}
	dl.SetStep(row.Index, row.Gen)
	r.tx.Schedule(dl)
	if r.e.opts.Signals == SignalsManual {
		return
	}
	at := r.tx.now().Add(min(autoSignalDelay, timeout/2))
	for _, id := range ids {
		t := &Task{At: at, Kind: taskSignal, StackId: r.st.StackId, OperationId: r.op.Id}
		t.SetStep(row.Index, row.Gen)
		t.SetCallback(map[string]any{"UniqueId": id, "Status": SignalSuccess})
		r.tx.Schedule(t)
	}
}

// autoSignalID is the UniqueId of the simulation's own signal n: an
// instance's id for an instance (cfn-signal's default), an id of an
// instance's shape otherwise.
func autoSignalID(stackID string, s *plan.Step, row *store.StepRecord, n int) string {
	if s.ResourceType == "AWS::EC2::Instance" && row.PhysicalID != "" && n == 0 {
		return row.PhysicalID
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%s/%d/%d", stackID, s.LogicalID, row.Gen, n)
	return fmt.Sprintf("i-%017x", h.Sum64())[:19]
}

// runSignal delivers one of the simulation's own signals.
func (e *Engine) runSignal(ctx context.Context, tx *txn, t *Task) error {
	r, ok, err := e.newRun(ctx, tx, t)
	if err != nil || !ok {
		return err
	}
	row, s := r.taskRow(t)
	if row == nil || !awaitsSignal(row) {
		return nil
	}
	cc := t.Callback()
	id, _ := cc["UniqueId"].(string)
	status, _ := cc["Status"].(string)
	if err := r.signal(row, s, id, status, ""); err != nil {
		return err
	}
	if err := r.drain(); err != nil {
		return err
	}
	return r.flush()
}

// signal takes one signal for a waiting step. A SUCCESS counts once per
// UniqueId; Count of them complete the resource, its wait condition's Data
// the signals' data by UniqueId. A FAILURE fails it.
func (r *run) signal(row *store.StepRecord, s *plan.Step, uniqueID, status, data string) error {
	rec := r.current(s.LogicalID)
	if rec == nil {
		return internalf("stack %s: %s lost its record while it waited for signals", r.st.StackName, s.LogicalID)
	}
	if row.Part == partRolling {
		return r.rollSignal(row, s, rec, uniqueID, status)
	}
	pol, _, _ := signalPolicyOf(rec, s.ResourceType, row.Props)
	if !pol.Handle {
		c := rec.Clone()
		r.event(c, fmt.Sprintf("Received %s signal with UniqueId %s", status, uniqueID), row.Props)
		r.put(c)
	}
	if status == SignalFailure {
		if pol.Handle {
			r.endWait(row)
			return r.partFailed(row, s, fmt.Sprintf("WaitCondition received failed message: '%s' for uniqueId: %s", data, uniqueID))
		}
		if prev, seen := row.Signals[uniqueID]; !seen || prev != SignalFailure {
			// (A FAILURE after a SUCCESS of the same UniqueId counts too:
			// at 100% it fails the resource, as it always did.)
			row.Failed++
		}
		if row.Failed > pol.allowedFailures() {
			r.endWait(row)
			// UNVERIFIED for a single resource: the wording AWS gives an
			// Auto Scaling group's FAILURE signals.
			return r.partFailed(row, s, fmt.Sprintf("Received %d FAILURE signal(s) out of %d. Unable to satisfy %d%% MinSuccessfulInstancesPercent requirement", row.Failed, pol.Count, pol.MinSuccess))
		}
		data = SignalFailure
	}
	if _, seen := row.Signals[uniqueID]; pol.Handle || !seen {
		row.Signals = withSignal(row.Signals, uniqueID, data)
	}
	if len(row.Signals) < pol.Count {
		r.putRow(row)
		return nil
	}
	return r.signalsDone(row, s)
}

// withSignal is a copy of a step's signals (shared with the stored row,
// never changed in place) with the signal of uniqueID set to data.
func withSignal(signals map[string]string, uniqueID, data string) map[string]string {
	out := make(map[string]string, len(signals)+1)
	for k, v := range signals {
		out[k] = v
	}
	out[uniqueID] = data
	return out
}

// signalsDone completes a resource whose signals came: a wait condition's
// Data is the signals' data by UniqueId.
func (r *run) signalsDone(row *store.StepRecord, s *plan.Step) error {
	r.endWait(row)
	got := row.Signals
	model := row.Model
	if s.ResourceType == waitConditionType {
		// Fn::GetAtt Data: "A JSON string containing the UniqueId and Data
		// values from the wait condition signal(s)" (AWS's reference,
		// aws-resource-cloudformation-waitcondition).
		text, err := json.Marshal(got)
		if err != nil {
			return internalf("stack %s: the signals of %s: %w", r.st.StackName, s.LogicalID, err)
		}
		model = resources.CopyModel(model)
		if model == nil {
			model = map[string]any{}
		}
		model["Data"] = string(text)
	}
	return r.createSucceeded(row, s, model)
}

// endWait drops what a step's wait for signals left queued: its timeout,
// the simulation's signals not delivered yet (they would move virtual time
// on for nothing).
func (r *run) endWait(row *store.StepRecord) {
	opID, index := r.op.Id, row.Index
	r.tx.CancelTasks(func(t *Task) bool {
		if t.OperationId != opID || (t.Kind != taskDeadline && t.Kind != taskSignal) {
			return false
		}
		i, _, ok := t.StepGen()
		return ok && i == index
	})
}

// enoughSignals tells whether an Auto Scaling group whose creation policy
// takes less than 100% of its signals got enough SUCCESS ones when its
// timeout comes (UNVERIFIED: AWS's documentation says only that the
// creation fails when the signals do not come in time).
func (r *run) enoughSignals(row *store.StepRecord, s *plan.Step) bool {
	rec := r.current(s.LogicalID)
	if rec == nil {
		return false
	}
	pol, _, _ := signalPolicyOf(rec, s.ResourceType, row.Props)
	return !pol.Handle && pol.MinSuccess < 100 && len(row.Signals)-row.Failed >= pol.Count-pol.allowedFailures()
}

// signalTimeout is the reason of a resource whose signals did not come in
// time.
func (r *run) signalTimeout(row *store.StepRecord, s *plan.Step) string {
	pol := signalPolicy{Count: 1}
	if rec := r.current(s.LogicalID); rec != nil {
		pol, _, _ = signalPolicyOf(rec, s.ResourceType, row.Props)
	}
	if pol.Handle {
		return fmt.Sprintf("WaitCondition timed out. Received %d conditions when expecting %d", len(row.Signals), pol.Count)
	}
	return fmt.Sprintf("Failed to receive %d resource signal(s) within the specified duration", pol.Count-len(row.Signals))
}

// scalarText is a template scalar as text (a number or a string).
func scalarText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// signalTimeoutTask tells whether t is the timeout of a step waiting for
// signals.
func signalTimeoutTask(tx *txn, t *Task) bool {
	if t.Kind != taskDeadline {
		return false
	}
	index, gen, ok := t.StepGen()
	if !ok {
		return false
	}
	row := tx.Step(t.OperationId, index)
	return row != nil && awaitsSignal(row) && row.Gen == gen && row.State == store.StepRunning
}

// awaitsSignal tells whether a step waits for signals: its creation
// policy's (or its wait condition's), or a rolling update's batch.
func awaitsSignal(row *store.StepRecord) bool {
	return row.Part == partSignal || (row.Part == partRolling && row.Rolling != nil && row.Rolling.Awaiting > 0)
}

// SignalWait is a resource waiting for signals.
type SignalWait struct {
	LogicalResourceId string
	// Count signals are wanted, Received have come; Deadline is when it
	// times out.
	Count, Received int
	Deadline        time.Time
}

// SignalWaits lists a stack's resources waiting for signals, in step
// order.
func (e *Engine) SignalWaits(ctx context.Context, stackName string) ([]SignalWait, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []SignalWait
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(stackName)
		if st == nil {
			return stackWithIDNotFound(stackName)
		}
		op := tx.OperationOf(st.StackId)
		if op == nil || !op.InMotion {
			return nil
		}
		for _, row := range tx.StepsOf(op.Id) {
			if !awaitsSignal(row) || row.State != store.StepRunning {
				continue
			}
			w := SignalWait{LogicalResourceId: row.LogicalId, Count: 1, Received: len(row.Signals), Deadline: row.Deadline}
			if row.Part == partRolling {
				w.Count, w.Received = row.Rolling.Awaiting, row.Rolling.Answered
			} else if rec := tx.Resource(st.Num, row.LogicalId); rec != nil {
				if pol, ok, _ := signalPolicyOf(rec, rec.ResourceType, row.Props); ok {
					w.Count = pol.Count
				}
			}
			out = append(out, w)
		}
		return nil
	})
	return out, err
}
