package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
	"github.com/stacksim/stacksim/statemachine"
)

// The random worlds' imports and signals (random_test.go makes them):
//
//   - Resource import: now and then, once a stack retained resources (a
//     DeletionPolicy or UpdateReplacePolicy Retain, RetainResources on a
//     DELETE_FAILED stack, a Retain kept by a create's rollback), some of
//     them are imported by an IMPORT change set into a new stack (adopt)
//     or a stable existing one (adopt, or the random stack itself), now
//     and then with a resource that does not exist or a failure of the
//     handler's Read, so that the import rolls back. An import ends
//     IMPORT_COMPLETE, the adopted physical resources the stack's and out
//     of the released set, or IMPORT_ROLLBACK_COMPLETE, each released
//     again; a resource a stack owns is refused to another import.
//   - Resource signals: some worlds give their templates instances with a
//     CreationPolicy ResourceSignal and a wait condition with a handle, and
//     run with Options.Signals manual (or auto, the simulation signalling);
//     with manual signals the world runs its operations a few tasks at a
//     time and sends SUCCESS (new or repeated UniqueIds) or FAILURE signals
//     to what waits, or none, letting the timeouts fire in virtual time,
//     and signals resources that do not wait (refused) while the stack
//     rolls back, is cancelled or deleted.
//
// Their choices come from the world's nr through more (never in the worlds
// pinned before they were added).

// more tells whether the world makes one of these calls, one time in n
// (only in full worlds: those pinned before they were added replay as
// they did).
func (w *world) more(n int) bool { return w.kind >= full && w.call(n) }

// signalWorld decides, before the engine is made, whether the world's
// templates have resources that wait for signals, and who signals them.
func (w *world) signalWorld() {
	if !w.more(3) {
		return
	}
	w.sig = true
	w.manual = w.nr.IntN(4) != 0
	if w.manual {
		w.opts.Signals = SignalsManual
	}
	w.sigInstances = 1 + w.nr.IntN(2)
	w.sigWait = w.nr.IntN(2) == 0
	w.rolling = w.kind >= rolled && w.gr.IntN(2) == 0
}

// sigIDs are the world's resources that wait for signals.
func (w *world) sigIDs() []string {
	var out []string
	for i := 0; i < w.sigInstances; i++ {
		out = append(out, fmt.Sprintf("S%d", i))
	}
	if w.sigWait {
		out = append(out, "W0")
	}
	if w.rolling {
		out = append(out, "G0")
	}
	return out
}

// withSignals adds to a template (in a signal world) instances whose
// CreationPolicy waits for one or two signals and a wait condition with
// its handle, each after a resource of the template, and now and then
// makes a resource of the template depend on one of them; the wait
// condition's Data is an output. A version may change an instance's
// image (a replacement, which waits for signals again) or type, its
// creation policy, or leave one out; an instance may be retained
// (DeletionPolicy Retain), and so imported later.
func (w *world) withSignals(body string, v int) string {
	if !w.sig {
		return body
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		w.t.Fatal(err)
	}
	res, _ := doc["Resources"].(map[string]any)
	// What a signal resource may come after: resources that are always
	// there (no condition), in the universe's order.
	var after []string
	for _, id := range w.ids {
		if r, ok := res[id].(map[string]any); ok {
			if _, cond := r["Condition"]; !cond {
				after = append(after, id)
			}
		}
	}
	r := w.nr
	var added []string
	dependOn := func(body map[string]any) int {
		if len(after) == 0 || r.IntN(3) == 0 {
			return -1
		}
		k := r.IntN(len(after))
		body["DependsOn"] = after[k]
		return k
	}
	var earliest []int // the index in after of what each added resource comes after
	for i := 0; i < w.sigInstances; i++ {
		id := fmt.Sprintf("S%d", i)
		if v > 0 && r.IntN(6) == 0 {
			continue
		}
		policy := map[string]any{"Count": 1 + r.IntN(2), "Timeout": fmt.Sprintf("PT%dM", 1+r.IntN(10))}
		body := map[string]any{"Type": "AWS::EC2::Instance",
			"CreationPolicy": map[string]any{"ResourceSignal": policy},
			"Properties": map[string]any{"ImageId": fmt.Sprintf("ami-%017d", r.IntN(2)),
				"InstanceType": []string{"t3.micro", "t3.small"}[r.IntN(2)]}}
		if r.IntN(4) == 0 {
			// Retained by a stack's delete or an update that drops it:
			// an import may take it (and does not wait for signals).
			body["DeletionPolicy"] = "Retain"
		}
		earliest = append(earliest, dependOn(body))
		res[id] = body
		added = append(added, id)
	}
	if w.sigWait && (v == 0 || r.IntN(6) != 0) {
		res["H0"] = map[string]any{"Type": "AWS::CloudFormation::WaitConditionHandle"}
		body := map[string]any{"Type": waitConditionType,
			"Properties": map[string]any{"Handle": map[string]any{"Ref": "H0"}, "Count": 1 + r.IntN(2), "Timeout": fmt.Sprint(30 * (1 + r.IntN(20)))}}
		if len(added) > 0 && r.IntN(2) == 0 {
			k := r.IntN(len(added))
			body["DependsOn"] = added[k]
			earliest = append(earliest, earliest[k])
		} else {
			earliest = append(earliest, dependOn(body))
		}
		res["W0"] = body
		added = append(added, "W0")
		outputs, _ := doc["Outputs"].(map[string]any)
		if outputs == nil {
			outputs = map[string]any{}
		}
		outputs["SigData"] = map[string]any{"Value": map[string]any{"Fn::GetAtt": []any{"W0", "Data"}}}
		doc["Outputs"] = outputs
	}
	if w.rolling {
		w.withRolling(res, v)
	}
	if len(added) > 0 && len(after) > 0 && r.IntN(3) == 0 {
		// A resource of the template after a signal resource: one later in
		// the universe than what that comes after (no cycle: references
		// point to earlier ids only).
		k := r.IntN(len(added))
		from := earliest[k] + 1
		if from < len(after) {
			target := res[after[from+r.IntN(len(after)-from)]].(map[string]any)
			switch d := target["DependsOn"].(type) {
			case nil:
				target["DependsOn"] = added[k]
			case string:
				target["DependsOn"] = []any{d, added[k]}
			}
		}
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// childWithSignals is, in a signal world, the child template of a nested
// id for a version with an instance whose creation policy waits for a
// signal (after the child's C0, PT2M to PT5M), in a file of its own beside
// the child template; it returns its URL. Whether a child has one is chosen
// once per id.
func (w *world) childWithSignals(id string, v int) string {
	w.t.Helper()
	key := fmt.Sprintf("%s-v%d.json", id, v)
	url := "https://children.s3.amazonaws.com/" + key
	if w.sigChild == nil {
		w.sigChild = map[string]bool{}
	}
	has, chosen := w.sigChild[id]
	if !chosen {
		has = w.nr.IntN(2) == 0
		w.sigChild[id] = has
	}
	if !has {
		return url
	}
	sigKey := fmt.Sprintf("%s-v%d-sig.json", id, v)
	path := filepath.Join(w.opts.S3Dir, "children", sigKey)
	if _, err := os.Stat(path); err == nil {
		return "https://children.s3.amazonaws.com/" + sigKey
	}
	b, err := os.ReadFile(filepath.Join(w.opts.S3Dir, "children", key))
	if err != nil {
		w.t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		w.t.Fatal(err)
	}
	doc["Resources"].(map[string]any)["CS"] = map[string]any{"Type": "AWS::EC2::Instance", "DependsOn": "C0",
		"CreationPolicy": map[string]any{"ResourceSignal": map[string]any{"Timeout": fmt.Sprintf("PT%dM", 2+w.nr.IntN(4))}},
		"Properties":     map[string]any{"ImageId": fmt.Sprintf("ami-%017d", v%2), "InstanceType": "t3.micro"}}
	if b, err = json.MarshalIndent(doc, "", " "); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		w.t.Fatal(err)
	}
	w.logf("child template %s:\n%s", sigKey, b)
	return "https://children.s3.amazonaws.com/" + sigKey
}

// signalFaults is, now and then in a signal world, a fault of a signal
// resource's handler (its create or delete fails, or stalls).
func (w *world) signalFaults() []faults.Fault {
	if !w.sig || w.nr.IntN(3) != 0 {
		return nil
	}
	ids := append(w.sigIDs(), "H0")
	f := faults.Fault{Match: faults.Match{LogicalID: ids[w.nr.IntN(len(ids))]}, Times: 1}
	switch w.nr.IntN(3) {
	case 0:
		f.Kind, f.Code, f.Message = faults.Fail, resources.ErrGeneralServiceException, "random signal resource failure"
		f.Match.Actions = []resources.Action{[]resources.Action{resources.ActionCreate, resources.ActionDelete}[w.nr.IntN(2)]}
	case 1:
		f.Kind, f.Code, f.Message = faults.Fail, resources.ErrGeneralServiceException, "random signal resource failure"
		f.After = true
	default:
		f.Kind, f.Callbacks, f.DelaySeconds = faults.Stall, 1+w.nr.IntN(3), int64(w.nr.IntN(90))
		f.Match.Actions = []resources.Action{resources.ActionCreate}
	}
	if w.nr.IntN(4) == 0 {
		f.Times = faults.Always
	}
	return []faults.Fault{f}
}

// driveSignals runs everything to rest in a world whose signals are
// manual: a few tasks at a time or up to a resource's signal timeout, and
// at each stop signals what waits (or not: the timeout then fires), and
// now and then a resource that does not wait.
func (w *world) driveSignals() error {
	w.t.Helper()
	for round := 0; round < 2000; round++ {
		opts := RunOptions{StopAtSignals: true}
		if w.nr.IntN(3) == 0 {
			opts.MaxTasks = 1 + w.nr.IntN(20)
		}
		res, err := w.e.Drive(ctx(), opts)
		if err != nil {
			return err
		}
		if res.Stopped == StopRest {
			return nil
		}
		if w.path != "" && w.pr.IntN(2) == 0 {
			// A world kept in a state file is saved and opened again here,
			// part way through the operation: where the world stops is
			// its own choice (nr), the same with and without a file.
			w.reopen()
		}
		moved := w.sendSignals()
		if w.nr.IntN(4) == 0 {
			w.probeSignal()
		}
		if res.Stopped == StopSignals && !moved {
			// Nobody signals: the timeout fires.
			if _, err := w.e.Step(ctx(), 1); err != nil {
				return err
			}
		}
	}
	w.t.Fatal("the world still runs after 2,000 rounds of signals")
	return nil
}

// liveStacks are the stacks not deleted.
func (w *world) liveStacks() []Stack {
	w.t.Helper()
	out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{})
	if err != nil {
		w.t.Fatal(err)
	}
	var live []Stack
	for _, st := range out.Stacks {
		if st.StackStatus != string(statemachine.StackStatusDeleteComplete) {
			live = append(live, st)
		}
	}
	return live
}

// waits lists what waits for signals in a stack.
func (w *world) waits(stack string) []SignalWait {
	w.t.Helper()
	ws, err := w.e.SignalWaits(ctx(), stack)
	if err != nil {
		w.t.Fatal(err)
	}
	return ws
}

// sendSignals signals, at random, each resource of the live stacks that
// waits: SUCCESS with a new UniqueId or one it sent already (which counts
// once), FAILURE, or nothing. It checks what each signal did, and tells
// whether one moved a resource on.
func (w *world) sendSignals() bool {
	w.t.Helper()
	moved := false
	for _, st := range w.liveStacks() {
		for _, was := range w.waits(st.StackId) {
			// (A signal before may have ended this wait: a FAILURE fails
			// the operation, which cancels the others.)
			var wt SignalWait
			found := false
			for _, x := range w.waits(st.StackId) {
				if x.LogicalResourceId == was.LogicalResourceId {
					wt, found = x, true
				}
			}
			if !found {
				continue
			}
			var unique, status string
			switch c := w.nr.IntN(8); {
			case c < 4:
				w.sigN++
				unique, status = fmt.Sprintf("i-sig%d", w.sigN), SignalSuccess
			case c == 4 && wt.Received > 0:
				unique, status = w.sent[st.StackName+"/"+wt.LogicalResourceId], SignalSuccess
			case c == 5:
				w.sigN++
				unique, status = fmt.Sprintf("i-sig%d", w.sigN), SignalFailure
			default:
				continue
			}
			if unique == "" {
				continue
			}
			w.logf("SignalResource %s %s %s %s (%d of %d)", st.StackName, wt.LogicalResourceId, unique, status, wt.Received, wt.Count)
			if _, err := w.e.SignalResource(ctx(), SignalResourceInput{StackName: st.StackId, LogicalResourceId: wt.LogicalResourceId, UniqueId: unique, Status: status}); err != nil {
				w.t.Fatalf("SignalResource to %s, which waits for signals: %v", wt.LogicalResourceId, err)
			}
			repeat := status == SignalSuccess && w.sent[st.StackName+"/"+wt.LogicalResourceId] == unique
			w.sent[st.StackName+"/"+wt.LogicalResourceId] = unique
			w.checkSignalled(st.StackId, wt, status, repeat)
			if !repeat {
				moved = true
			}
		}
	}
	return moved
}

// checkSignalled checks what a signal accepted did to the resource that
// waited: a repeated SUCCESS changes nothing, a new one counts (and the
// last completes it), a FAILURE fails it.
func (w *world) checkSignalled(stack string, before SignalWait, status string, repeat bool) {
	w.t.Helper()
	var now *SignalWait
	for _, x := range w.waits(stack) {
		if x.LogicalResourceId == before.LogicalResourceId {
			now = &x
		}
	}
	rec := w.recordOf(stack, before.LogicalResourceId)
	if before.LogicalResourceId == "G0" {
		w.checkRollSignalled(stack, before, now, status, repeat)
		return
	}
	switch {
	case repeat:
		if now == nil || now.Received != before.Received {
			w.t.Fatalf("a repeated SUCCESS signal to %s moved it on: %+v, then %+v", before.LogicalResourceId, before, now)
		}
	case status == SignalFailure:
		if now != nil || rec == nil || !strings.HasSuffix(string(rec.ResourceStatus), "_FAILED") {
			w.t.Fatalf("a FAILURE signal to %s left it waiting (%+v) or not failed (%v)", before.LogicalResourceId, now, statusOf(rec))
		}
	case before.Received+1 < before.Count:
		if now == nil || now.Received != before.Received+1 {
			w.t.Fatalf("a SUCCESS signal to %s was not counted: %+v, then %+v", before.LogicalResourceId, before, now)
		}
	default:
		if now != nil || rec == nil || (rec.ResourceStatus != statemachine.ResourceStatusCreateComplete && rec.ResourceStatus != statemachine.ResourceStatusUpdateComplete) {
			w.t.Fatalf("the last SUCCESS signal %s wanted left it waiting (%+v) or not complete (%v)", before.LogicalResourceId, now, statusOf(rec))
		}
	}
}

func statusOf(rec *store.ResourceRecord) string {
	if rec == nil {
		return "no record"
	}
	return string(rec.ResourceStatus) + " " + rec.PhysicalResourceId
}

// recordOf is a stack's current record of a logical id (nil: none).
func (w *world) recordOf(stack, logicalID string) *store.ResourceRecord {
	for _, r := range w.records(stack) {
		if r.LogicalResourceId == logicalID {
			return r
		}
	}
	return nil
}

// probeSignal signals a resource of a live stack that does not wait for
// signals (one of the signal resources, rolling back, cancelled, deleted,
// complete, or any other): refused, and nothing changes.
func (w *world) probeSignal() {
	w.t.Helper()
	live := w.liveStacks()
	if len(live) == 0 {
		return
	}
	st := live[w.nr.IntN(len(live))]
	ids := w.sigIDs()
	if recs := w.records(st.StackId); len(recs) > 0 && w.nr.IntN(3) == 0 {
		ids = append(ids, recs[w.nr.IntN(len(recs))].LogicalResourceId)
	}
	lid := ids[w.nr.IntN(len(ids))]
	for _, x := range w.waits(st.StackId) {
		if x.LogicalResourceId == lid {
			return // it waits: sendSignals signals it
		}
	}
	status := []string{SignalSuccess, SignalFailure}[w.nr.IntN(2)]
	before := w.recordOf(st.StackId, lid)
	w.logf("SignalResource %s %s %s (not waiting: %s, stack %s)", st.StackName, lid, status, statusOf(before), st.StackStatus)
	_, err := w.e.SignalResource(ctx(), SignalResourceInput{StackName: st.StackId, LogicalResourceId: lid, UniqueId: "i-probe", Status: status})
	if err == nil || !IsCode(err, CodeValidationError) {
		w.t.Fatalf("SignalResource to %s (%s), which does not wait for signals, in %s: got %v, want a ValidationError", lid, statusOf(before), st.StackStatus, err)
	}
	w.sameStatus(st)
	if after := w.recordOf(st.StackId, lid); statusOf(after) != statusOf(before) {
		w.t.Fatalf("a refused signal moved %s from %s to %s", lid, statusOf(before), statusOf(after))
	}
}

// waitingIDs are the logical ids waiting for signals in a stack.
func (w *world) waitingIDs(stack string) []string {
	var out []string
	if !w.manual {
		return nil
	}
	for _, x := range w.waits(stack) {
		out = append(out, x.LogicalResourceId)
	}
	return out
}

// untilWaiting, now and then in a world whose signals are manual, runs
// the random stack's update on, a task at a time, until a resource of it
// waits for signals (or the update is over, or a resource would time
// out): the cancel that follows finds it waiting.
func (w *world) untilWaiting(id string) {
	w.t.Helper()
	if !w.manual || w.more(4) {
		return
	}
	tasks := 0
	for ; tasks < 500 && len(w.waits(id)) == 0 && w.stack(id).StackStatus == string(statemachine.StackStatusUpdateInProgress); tasks++ {
		res, err := w.e.Drive(ctx(), RunOptions{StopAtSignals: true, MaxTasks: 1})
		if err != nil {
			w.t.Fatal(err)
		}
		if res.Stopped != StopSteps {
			break
		}
	}
	w.logf("(ran %d tasks: %d resource(s) wait for signals)", tasks, len(w.waits(id)))
}

// signalCancelled, after CancelUpdateStack, signals a resource that
// waited for signals before it: its wait was cancelled, so the signal is
// refused.
func (w *world) signalCancelled(id string, waited []string) {
	w.t.Helper()
	if len(waited) == 0 || w.kind < full {
		return
	}
	lid := waited[w.nr.IntN(len(waited))]
	st := w.stack(id)
	before := w.recordOf(id, lid)
	w.logf("SignalResource %s after CancelUpdateStack (%s)", lid, statusOf(before))
	_, err := w.e.SignalResource(ctx(), SignalResourceInput{StackName: id, LogicalResourceId: lid, UniqueId: "i-late", Status: SignalSuccess})
	if err == nil || !IsCode(err, CodeValidationError) {
		w.t.Fatalf("SignalResource to %s, whose wait CancelUpdateStack cancelled: got %v, want a ValidationError", lid, err)
	}
	w.sameStatus(st)
}

// --- imports

// releasedResource is a physical resource a stack let go of that stays in
// the account, and what an import of it needs.
type releasedResource struct {
	typ, physicalID string
	ident           map[string]string
	props           map[string]any
}

// importable lists the released physical resources an import can take:
// still in the account, of a registry type with a primary identifier.
func (w *world) importable() []releasedResource {
	var out []releasedResource
	w.e.mu.Lock()
	defer w.e.mu.Unlock()
	_ = w.e.view(func(tx *txn) error {
		tx.Scan(store.TReleased, store.IxID, "", func(r store.Record) bool {
			x := r.(*store.ReleasedRecord)
			o := tx.Object(x.Type, x.PhysicalId)
			if o == nil || plan.IsCustom(x.Type) || isNestedStack(x.Type) {
				return true
			}
			p, err := w.e.providerOf(x.Type)
			if err != nil || p.Schema() == nil || len(p.Schema().PrimaryIdentifier) == 0 {
				return true
			}
			s := p.Schema()
			parts := strings.Split(x.PhysicalId, "|")
			if len(parts) != len(s.PrimaryIdentifier) {
				return true
			}
			ident := map[string]string{}
			for i, ptr := range s.PrimaryIdentifier {
				ident[strings.TrimPrefix(ptr, "/properties/")] = parts[i]
			}
			// The template describes the resource: its model, but what
			// the type makes itself.
			props := resources.CopyModel(o.Model)
			for _, ptr := range append(slices.Clone(s.ReadOnlyProperties), s.WriteOnlyProperties...) {
				if name, ok := strings.CutPrefix(ptr, "/properties/"); ok && !strings.Contains(name, "/") {
					delete(props, name)
				}
			}
			out = append(out, releasedResource{typ: x.Type, physicalID: x.PhysicalId, ident: ident, props: props})
			return true
		})
		return nil
	})
	return out
}

// released tells whether a physical resource is in the released set.
func (w *world) released(typ, physicalID string) bool {
	var rel bool
	w.e.mu.Lock()
	defer w.e.mu.Unlock()
	_ = w.e.view(func(tx *txn) error { rel = tx.Released(typ, physicalID) != nil; return nil })
	return rel
}

// objectOwner is the stack and logical id a cloud object is recorded as
// made for ("" when there is no such object).
func (w *world) objectOwner(typ, physicalID string) (string, string) {
	var stack, lid string
	w.e.mu.Lock()
	defer w.e.mu.Unlock()
	_ = w.e.view(func(tx *txn) error {
		if o := tx.Object(typ, physicalID); o != nil {
			stack, lid = o.StackID, o.LogicalID
		}
		return nil
	})
	return stack, lid
}

// importTarget is one resource an import names.
type importTarget struct {
	lid   string
	res   releasedResource
	ghost bool // names a resource that does not exist
}

// maybeImport, now and then when stacks retained resources, imports some
// of them into a new stack (adopt) or a stable existing one, and checks
// what the import did.
func (w *world) maybeImport() {
	w.t.Helper()
	if w.kind < full {
		return
	}
	cands := w.importable()
	if len(cands) == 0 || !w.more(2) {
		return
	}
	// Where to: adopt, new or stable; the random stack when it is stable
	// (and has no nested stacks: stacksim plans a nested stack as updated
	// whenever its parent is, and refuses the import); the importer of its
	// export.
	var into []string
	adopt, live := w.adoptStack()
	if !live || importableStatus(adopt.StackStatus) {
		into = append(into, "adopt")
	}
	if out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "rnd"}); err == nil && len(w.nested) == 0 &&
		importableStatus(out.Stacks[0].StackStatus) && !w.stackUnstable(out.Stacks[0].StackId) {
		into = append(into, "rnd")
	}
	// The stack that imports an export of the random one (an import keeps
	// its outputs and its Fn::ImportValue).
	if out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "imp"}); err == nil && importableStatus(out.Stacks[0].StackStatus) {
		into = append(into, "imp")
	}
	if len(into) == 0 {
		return
	}
	name := into[w.nr.IntN(len(into))]
	var targets []importTarget
	for _, c := range cands {
		if len(targets) < 4 && w.nr.IntN(2) == 0 {
			w.importN++
			targets = append(targets, importTarget{lid: fmt.Sprintf("I%d", w.importN), res: c})
		}
	}
	if len(targets) == 0 {
		w.importN++
		targets = append(targets, importTarget{lid: fmt.Sprintf("I%d", w.importN), res: cands[w.nr.IntN(len(cands))]})
	}
	if w.nr.IntN(6) == 0 {
		w.importN++
		targets = append(targets, importTarget{lid: fmt.Sprintf("I%d", w.importN), ghost: true, res: releasedResource{
			typ: "AWS::SSM::Parameter", physicalID: fmt.Sprintf("ghost-%d-%d", w.seed, w.importN),
			ident: map[string]string{"Name": fmt.Sprintf("ghost-%d-%d", w.seed, w.importN)},
			props: map[string]any{"Name": fmt.Sprintf("ghost-%d-%d", w.seed, w.importN), "Type": "String", "Value": "ghost"}}})
	}
	var fs []faults.Fault
	if w.nr.IntN(5) == 0 {
		t := targets[w.nr.IntN(len(targets))]
		fs = append(fs, faults.Fault{Match: faults.Match{LogicalID: t.lid, Actions: []resources.Action{resources.ActionRead}}, Times: 1,
			Kind: faults.Fail, Code: resources.ErrGeneralServiceException, Message: "random read failure"})
	}
	w.runImport(name, (name == "adopt" && live) || name != "adopt", targets, fs)
}

// importableStatus tells whether an import may go into a stack of this
// status (UpdateStack's, the import's own included).
func importableStatus(status string) bool {
	switch statemachine.StackStatus(status) {
	case statemachine.StackStatusCreateComplete, statemachine.StackStatusUpdateComplete, statemachine.StackStatusUpdateRollbackComplete,
		statemachine.StackStatusImportComplete, statemachine.StackStatusImportRollbackComplete:
		return true
	}
	return false
}

// adoptStack is the stack adopt, and whether it is live.
func (w *world) adoptStack() (Stack, bool) {
	out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "adopt"})
	if err != nil {
		return Stack{}, false
	}
	st := out.Stacks[0]
	return st, st.StackStatus != string(statemachine.StackStatusDeleteComplete)
}

// runImport makes and executes the IMPORT change set of targets into the
// stack name (existing, or new), and checks the outcome.
func (w *world) runImport(name string, existing bool, targets []importTarget, fs []faults.Fault) {
	w.t.Helper()
	doc := map[string]any{"Resources": map[string]any{}}
	var params []Parameter
	if existing {
		got, err := w.e.GetTemplate(ctx(), GetTemplateInput{StackName: name})
		if err != nil {
			w.t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(got.TemplateBody), &doc); err != nil {
			w.t.Fatalf("the template of %s: %v", name, err)
		}
		if ps, _ := doc["Parameters"].(map[string]any); ps["P"] != nil {
			params = []Parameter{{ParameterKey: "P", UsePreviousValue: true}}
		}
	}
	res := doc["Resources"].(map[string]any)
	if existing && w.stack(name).StackStatus == string(statemachine.StackStatusImportRollbackComplete) {
		// A stack an import made, whose import rolled back, keeps the
		// template it was made with, resources it does not have included:
		// the next import's template is what the stack has.
		have := map[string]bool{}
		for _, r := range w.records(w.stack(name).StackId) {
			have[r.LogicalResourceId] = true
		}
		for lid := range res {
			if !have[lid] {
				delete(res, lid)
			}
		}
	}
	var rs []ResourceToImport
	var described []string
	for _, t := range targets {
		policy := []string{"Retain", "Delete", "RetainExceptOnCreate"}[w.nr.IntN(3)]
		res[t.lid] = map[string]any{"Type": t.res.typ, "DeletionPolicy": policy, "Properties": t.res.props}
		rs = append(rs, ResourceToImport{ResourceType: t.res.typ, LogicalResourceId: t.lid, ResourceIdentifier: t.res.ident})
		described = append(described, fmt.Sprintf("%s=%s %s (%s, ghost %v)", t.lid, t.res.typ, t.res.physicalID, policy, t.ghost))
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		w.t.Fatal(err)
	}
	w.importN++
	cs := fmt.Sprintf("import%d", w.importN)
	w.logf("CreateChangeSet %s %s (IMPORT into %s stack: %s; %d faults)\n%s", name, cs, map[bool]string{true: "an existing", false: "a new"}[existing], strings.Join(described, ", "), len(fs), b)
	w.reopen()
	made, err := w.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: name, ChangeSetName: cs, ChangeSetType: ChangeSetTypeImport,
		TemplateBody: string(b), ResourcesToImport: rs, Parameters: params})
	if err != nil {
		w.t.Fatalf("CreateChangeSet (IMPORT) refused: %v", err)
	}
	out, err := w.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: name, ChangeSetName: cs})
	if err != nil {
		w.t.Fatal(err)
	}
	w.logf("change set %s: %s %q, %d changes", cs, out.Status, out.StatusReason, len(out.Changes))
	if out.Status != ChangeSetStatusCreateComplete || len(out.Changes) != len(targets) {
		w.t.Fatalf("the IMPORT change set is %s %q with %d changes, want CREATE_COMPLETE with %d", out.Status, out.StatusReason, len(out.Changes), len(targets))
	}
	for _, c := range out.Changes {
		if c.ResourceChange == nil || c.ResourceChange.Action != "Import" {
			w.t.Fatalf("the IMPORT change set has a change that is not an Import: %+v", c.ResourceChange)
		}
	}
	w.checkInvariants()
	w.reopen()
	ex := ExecuteChangeSetInput{StackName: name, ChangeSetName: cs}
	ex.Faults = fs
	if _, err := w.e.ExecuteChangeSet(ctx(), ex); err != nil {
		w.t.Fatalf("ExecuteChangeSet (IMPORT) refused: %v", err)
	}
	st, err := w.wait(made.StackId)
	if err != nil {
		w.t.Fatal(err)
	}
	w.logf("-> %s %s %q", name, st.StackStatus, st.StackStatusReason)
	w.checkInvariants()
	fails := len(fs) > 0
	for _, t := range targets {
		fails = fails || t.ghost
	}
	want := statemachine.StackStatusImportComplete
	if fails {
		want = statemachine.StackStatusImportRollbackComplete
	}
	if st.StackStatus != string(want) {
		w.t.Fatalf("the import into %s ended %s %q, want %s", name, st.StackStatus, st.StackStatusReason, want)
	}
	for _, t := range targets {
		rec := w.recordOf(made.StackId, t.lid)
		switch {
		case t.ghost:
			if rec != nil {
				w.t.Fatalf("%s, which names no resource, is %s in %s", t.lid, statusOf(rec), name)
			}
		case fails:
			if rec != nil {
				w.t.Fatalf("%s is %s in %s after the import rolled back", t.lid, statusOf(rec), name)
			}
			if !w.released(t.res.typ, t.res.physicalID) {
				w.t.Fatalf("%s (%s) is not released again after the import rolled back", t.lid, t.res.physicalID)
			}
		default:
			if rec == nil || rec.PhysicalResourceId != t.res.physicalID || rec.ResourceStatus != statemachine.ResourceStatusUpdateComplete {
				w.t.Fatalf("%s is %s in %s after the import of %s", t.lid, statusOf(rec), name, t.res.physicalID)
			}
			if w.released(t.res.typ, t.res.physicalID) {
				w.t.Fatalf("%s (%s) is still released after its import", t.lid, t.res.physicalID)
			}
			if stack, lid := w.objectOwner(t.res.typ, t.res.physicalID); stack != made.StackId || lid != t.lid {
				w.t.Fatalf("%s (%s) is recorded as made for %s of %s after its import into %s", t.lid, t.res.physicalID, lid, stack, made.StackId)
			}
		}
	}
	if !fails {
		w.importAgain(targets[w.nr.IntN(len(targets))])
	}
}

// importAgain, now and then, tries to import a resource a stack has just
// adopted into another (new) stack: refused, nothing made.
func (w *world) importAgain(t importTarget) {
	w.t.Helper()
	if t.ghost || w.nr.IntN(3) != 0 {
		return
	}
	body := fmt.Sprintf(`{"Resources": {%q: {"Type": %q, "DeletionPolicy": "Retain", "Properties": %s}}}`, t.lid, t.res.typ, mustMarshal(w, t.res.props))
	w.logf("CreateChangeSet adopt2 (IMPORT of %s, which a stack owns)", t.res.physicalID)
	_, err := w.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "adopt2", ChangeSetName: "again", ChangeSetType: ChangeSetTypeImport,
		TemplateBody: body, ResourcesToImport: []ResourceToImport{{ResourceType: t.res.typ, LogicalResourceId: t.lid, ResourceIdentifier: t.res.ident}}})
	const want = "passed in ResourceToImport are already in a stack and cannot be imported."
	if err == nil || !strings.Contains(err.Error(), want) {
		w.t.Fatalf("the import of %s, which a stack owns: got %v, want %q", t.res.physicalID, err, want)
	}
	var api *APIError
	if _, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "adopt2"}); err == nil || !errors.As(err, &api) {
		w.t.Fatalf("a refused import made the stack adopt2 (%v)", err)
	}
}

func mustMarshal(w *world, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// deleteAdopt deletes the stack adopt, when the world made one, retrying
// with RetainResources until it is gone.
func (w *world) deleteAdopt() {
	w.t.Helper()
	st, live := w.adoptStack()
	if !live {
		return
	}
	del := DeleteStackInput{StackName: st.StackId}
	if w.nr.IntN(3) == 0 {
		del.Faults = []faults.Fault{{Match: faults.Match{Actions: []resources.Action{resources.ActionDelete}}, Times: 1,
			Kind: faults.Fail, Code: resources.ErrGeneralServiceException, Message: "random adopt delete failure"}}
	}
	retained := map[string]bool{}
	for round := 0; round < 3; round++ {
		w.logf("DeleteStack adopt retain=%v (%d faults)", del.RetainResources, len(del.Faults))
		w.reopen()
		if _, err := w.e.DeleteStack(ctx(), del); err != nil {
			w.t.Fatalf("DeleteStack adopt refused: %v", err)
		}
		got, err := w.wait(st.StackId)
		if err != nil {
			w.t.Fatal(err)
		}
		w.logf("-> adopt %s", got.StackStatus)
		w.checkInvariants()
		switch got.StackStatus {
		case string(statemachine.StackStatusDeleteComplete):
			w.checkDeleted(st.StackId, retained)
			return
		case string(statemachine.StackStatusDeleteFailed):
			del = DeleteStackInput{StackName: st.StackId, RetainResources: w.deleteFailures(st.StackId)}
			for _, lid := range del.RetainResources {
				retained[lid] = true
			}
		default:
			w.t.Fatalf("the delete of adopt ended %s", got.StackStatus)
		}
	}
	w.t.Fatalf("adopt is still %s after three deletes", w.stack(st.StackId).StackStatus)
}
