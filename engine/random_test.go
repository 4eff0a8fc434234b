package engine

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
	"github.com/stacksim/stacksim/statemachine"
)

// The randomized test: random templates (up to 50 resources, random
// dependencies, embedded types, custom resources and permissive types) and
// random fault schedules, through create → update → update → delete, with
// the invariants checked after every operation. Every world is seeded: a
// failure names its seed, and -random.seed replays it.

var (
	randomWorlds = flag.Int("random.worlds", 100, "worlds the randomized test runs (a fixed number, so that every run checks the same seeds)")
	randomSeed   = flag.Int64("random.seed", -1, "run only the world of this seed")
	randomFrom   = flag.Uint64("random.from", 1, "the seed of the first world")
	randomAll    = flag.Bool("random.all", false, "run every world even after one fails, and list the seeds that failed (make soak)")
)

func TestRandomWorlds(t *testing.T) {
	if *randomSeed >= 0 {
		runWorld(t, uint64(*randomSeed))
		return
	}
	var failed []string
	n := uint64(max(*randomWorlds, 0))
	for seed := *randomFrom; seed < *randomFrom+n; seed++ {
		if !t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { runWorld(t, seed) }) {
			failed = append(failed, strconv.FormatUint(seed, 10))
			if !*randomAll {
				return
			}
		}
	}
	if len(failed) > 0 {
		t.Errorf("%d of %d worlds failed (seeds %d to %d): %s; replay one with -random.seed=S, and pin it in worldRegressions once fixed",
			len(failed), n, *randomFrom, *randomFrom+n-1, strings.Join(failed, " "))
		return
	}
	t.Logf("%d worlds passed (seeds %d to %d)", n, *randomFrom, *randomFrom+n-1)
}

// randomTypes are the types of the random templates: the type of a
// logical id never changes (an update may not change a type). The last is
// in no registry: it is simulated permissively (Options.PermissiveTypes).
var randomTypes = []string{"AWS::SNS::Topic", "AWS::SQS::Queue", "AWS::SSM::Parameter", "Custom::Thing", "Stacksim::Test::Widget"}

type world struct {
	t *testing.T
	// pubs are the publications its subscribers received.
	pubs *publications
	r    *rand.Rand
	e    *Engine
	ids  []string // the universe of logical ids
	log  strings.Builder
	seed uint64
	// path, when set, is the state file the world is saved to and opened
	// again from before every call and part way through operations
	// (TestRandomWorldsPersisted); opts are the engine's options.
	path string
	opts Options
	// pr decides where the reopens happen: a source of its own, so that
	// the world's choices are the same with and without them.
	pr *rand.Rand
	// sr decides which of those reopens only save, keeping the engine: its
	// memory has then shed the deleted stacks' rows (Store.ShedDeleted),
	// and the calls after read them back from the file.
	sr *rand.Rand
	// xr decides how an update is made (UpdateStack, a change set, an
	// update cancelled part way): a source of its own, so that the
	// templates and faults of every seed stay what they were before these
	// ways were added (the pinned regressions replay as they did).
	xr *rand.Rand
	// exportOf is the resource each export of the random stack names in
	// the version last made.
	exportOf map[string]string
	// policy: the stack was created with a stack policy.
	policy bool
	// nested are the ids that are nested stacks (their templates are in
	// opts.S3Dir).
	nested map[string]bool
	// paramIDs read the parameter P; noEcho: P is NoEcho; condIDs exist
	// only while P is p1 (condition IsOne).
	paramIDs map[string]bool
	noEcho   bool
	condIDs  map[string]bool
	// nr decides the calls of random_calls_test.go (how a create handles
	// a failure, termination protection, RetainResources, the calls made
	// while nested stacks still clean up): a source of its own, so that
	// r and xr draw what they drew before.
	nr *rand.Rand
	// doNothing: the stack was created with OnFailure DO_NOTHING;
	// protected: its termination protection is on.
	doNothing, protected bool
	// kind: which calls the world makes (plain: none of those of
	// random_calls_test.go, a regression pinned before they were added;
	// calls: not those of random_more_test.go).
	kind  worldKind
	stops stopWatch
	// sig: the templates have resources that wait for signals (sigInstances
	// instances S0..., and the wait condition W0 when sigWait); manual: the
	// world signals them (Options.Signals manual); sigN counts the
	// UniqueIds it made, sent is the last sent to each STACK/LOGICALID.
	// importN numbers the logical ids and change sets of imports
	// (random_more_test.go).
	sig, manual, sigWait bool
	sigInstances, sigN   int
	sent                 map[string]string
	importN              int
	// sigChild: the nested ids whose child templates have an instance
	// waiting for a signal.
	sigChild map[string]bool
	// tr decides the rollback triggers (random_triggers_test.go), a source
	// of its own.
	tr *rand.Rand
	// rolling: a signal world's templates have the Auto Scaling group G0
	// (random_rolling_test.go), decided by gr, a source of its own.
	rolling bool
	gr      *rand.Rand
}

func runWorld(t *testing.T, seed uint64) { runWorldIn(t, seed, "", ContractReport, rolled) }

// runWorldIn runs the world of seed, in memory or (path set) on a state
// file, with the contract checker in the mode given, and returns it.
func runWorldIn(t *testing.T, seed uint64, path string, contract ContractMode, kind worldKind) *world {
	w := &world{t: t, r: rand.New(rand.NewPCG(seed, 0x5eed)), seed: seed, path: path, pr: rand.New(rand.NewPCG(seed, 0xd15c)), sr: rand.New(rand.NewPCG(seed, 0x5ed0)), xr: rand.New(rand.NewPCG(seed, 0xc5e7)), nr: rand.New(rand.NewPCG(seed, 0xca11)), tr: rand.New(rand.NewPCG(seed, 0x7a1a)), gr: rand.New(rand.NewPCG(seed, 0x6a0c)), kind: kind}
	w.opts = Options{Seed: int64(seed), Contract: contract, MaxAttempts: 1 + w.r.IntN(4), PermissiveTypes: true,
		ServiceTokens: map[string]resources.CustomTarget{"thing": resources.CustomFunc(w.custom)}, S3Dir: t.TempDir()}
	w.sent = map[string]string{}
	if kind >= watched {
		w.opts.Alarms = map[string]string{watchAlarm: AlarmOK} // (random_triggers_test.go)
	}
	w.signalWorld()
	if path != "" {
		e, err := Open(path, w.opts)
		if err != nil {
			t.Fatal(err)
		}
		w.e = e
		t.Cleanup(func() { _ = w.e.Close() })
	} else {
		w.e = newTestEngine(t, w.opts)
	}
	w.subscribe()
	n := 1 + w.r.IntN(50)
	for i := 0; i < n+n/3; i++ {
		w.ids = append(w.ids, fmt.Sprintf("R%02d", i))
	}
	defer func() {
		if t.Failed() {
			t.Logf("world %d:\n%s", seed, w.log.String())
		}
	}()

	create := CreateStackInput{StackName: "rnd", TemplateBody: w.withSignals(w.withExports(w.withNested(w.withParameter(w.template(n, 0)), 0), 0), 0)}
	create.Parameters = w.parameterValue(0)
	switch w.r.IntN(6) {
	case 0:
		create.DisableRollback = true
	case 1:
		create.OnFailure = OnFailureDelete
	}
	w.createVariant(&create)
	w.watchCreate(&create)
	create.Faults = w.faults()
	create.StackPolicyBody = w.stackPolicy()
	if w.xr.IntN(5) == 0 {
		create.TimeoutInMinutes = 1 + w.xr.IntN(3) // stalls of the faults may pass it
	}
	w.logf("CreateStack %+v policy=%s\n%s", describeCreate(create), create.StackPolicyBody, create.TemplateBody)
	w.reopen()
	if create.StackPolicyBody == "" && w.xr.IntN(4) == 0 {
		w.createByChangeSet(create)
	} else if _, err := w.e.CreateStack(ctx(), create); err != nil {
		t.Fatalf("CreateStack refused: %v", err)
	}
	id := w.settle()
	w.protect(id)
	imp := w.importer(id)
	for v := 1; v <= 2; v++ {
		w.maybeImport()
		st := w.stack(id)
		w.refusedUpdate(st)
		switch st.StackStatus {
		case string(statemachine.StackStatusCreateComplete), string(statemachine.StackStatusUpdateComplete),
			string(statemachine.StackStatusUpdateRollbackComplete), string(statemachine.StackStatusCreateFailed),
			string(statemachine.StackStatusUpdateFailed),
			string(statemachine.StackStatusImportComplete), string(statemachine.StackStatusImportRollbackComplete): // (imports: random_more_test.go)
		default:
			continue
		}
		if st.StackStatus == string(statemachine.StackStatusCreateFailed) && w.r.IntN(2) == 0 {
			w.logf("RollbackStack")
			w.reopen()
			if _, err := w.e.RollbackStack(ctx(), RollbackStackInput{StackName: id}); err != nil {
				t.Fatalf("RollbackStack refused: %v", err)
			}
			w.settle()
			continue
		}
		before := w.snapshot(id)
		up := UpdateStackInput{StackName: id, TemplateBody: w.withSignals(w.withExports(w.withNested(w.withParameter(w.template(len(w.ids), v)), v), v), v), DisableRollback: w.r.IntN(5) == 0}
		up.Parameters = w.parameterValue(v)
		up.Faults = w.faults()
		if w.policy && w.xr.IntN(3) == 0 {
			up.StackPolicyDuringUpdateBody = `{"Statement": [{"Effect": "Allow", "Action": "Update:*", "Principal": "*", "Resource": "*"}]}`
		}
		how := w.xr.IntN(7) // 0, 1: a change set; 2: cancelled part way; 3: the stack's tags and notification ARNs only; else UpdateStack
		if w.manual && how != 2 && w.more(2) {
			how = 2 // (signals: a cancel while resources wait, random_more_test.go)
		}
		if how == 3 {
			up.TemplateBody, up.UsePreviousTemplate = "", true
			up.Tags = []Tag{{Key: "v", Value: strconv.Itoa(v)}}
			up.NotificationARNs = []string{fmt.Sprintf("arn:aws:sns:us-east-1:123456789012:v%d", v)}
		}
		alarmed := w.watchUpdate(&up)
		w.logf("UpdateStack v%d (DisableRollback=%v, %d faults, how %d)\n%s", v, up.DisableRollback, len(up.Faults), how, up.TemplateBody)
		w.reopen()
		var err error
		if how <= 1 {
			err = w.updateByChangeSet(up, v)
		} else {
			_, err = w.e.UpdateStack(ctx(), up)
		}
		if err != nil {
			if IsCode(err, CodeValidationError) && strings.Contains(err.Error(), "No updates are to be performed.") {
				continue
			}
			if st.StackStatus == string(statemachine.StackStatusCreateFailed) && !create.DisableRollback {
				if w.doNothing {
					w.doNothingRefusal(err)
				}
				continue
			}
			t.Fatalf("UpdateStack refused: %v", err)
		}
		if how == 2 {
			w.cancelPartWay(id)
		}
		w.settle()
		w.checkWatched(id, alarmed)
		if w.stack(id).StackStatus == string(statemachine.StackStatusUpdateRollbackComplete) {
			w.checkRestored(id, before)
		}
		if up.DisableRollback {
			w.rollbackFailedUpdate(id, st.StackStatus, before)
		}
		w.checkProtection(id)
	}
	w.maybeImport()
	w.refusedUpdate(w.stack(id))
	w.unprotect(id)
	w.deleteImporter(id, imp)
	w.deleteAll(id)
	w.maybeImport()
	w.deleteAdopt()
	w.finish()
	return w
}

// subscribe logs the world's events and records its publications
// (random_publish_test.go).
func (w *world) subscribe() {
	w.subscribePublications()
	w.e.Subscribe(func(ev StackEvent) {
		w.stops.event(ev)
		fmt.Fprintf(&w.log, "  %s %s %s %s %q\n", ev.Timestamp.Sub(DefaultEpoch), ev.LogicalResourceId, ev.ResourceStatus, ev.PhysicalResourceId, ev.ResourceStatusReason)
	})
}

// reopen saves a world kept in a state file, closes its engine and opens
// the file again: the next call runs on a state read by need. Half the
// time (sr) it only saves: the next call runs on the engine that saved,
// whose memory shed the rows of the stacks deleted since the last save.
func (w *world) reopen() {
	w.t.Helper()
	if w.path == "" {
		return
	}
	if err := w.e.Save(); err != nil {
		w.t.Fatal(err)
	}
	if w.sr.IntN(2) == 0 {
		return
	}
	if err := w.e.Close(); err != nil {
		w.t.Fatal(err)
	}
	e, err := Open(w.path, w.opts)
	if err != nil {
		w.t.Fatal(err)
	}
	w.e = e
	w.subscribe()
}

// wait runs the stack to rest; a world kept in a state file is first run
// a few tasks, saved and opened again, part way through the operation.
func (w *world) wait(id string) (*Stack, error) {
	// (A world whose signals are manual stops where its own choices say,
	// and is saved and opened again at those stops: driveSignals.) The
	// first tasks stop where the stack comes to rest, as WaitForStack
	// does: a call made as soon as the stack is at rest finds its nested
	// stacks where the world in memory finds them.
	atRest := false
	if w.path != "" && !w.manual && w.pr.IntN(2) == 0 {
		arn := w.stack(id).StackId
		res, err := w.e.Drive(ctx(), RunOptions{MaxTasks: 1 + w.pr.IntN(20), Until: func(ev StackEvent) bool {
			return ev.StackId == arn && ev.IsStackEvent() && statemachine.StackStatus(ev.ResourceStatus).AtRest()
		}})
		if err != nil {
			return nil, err
		}
		atRest = res.Stopped == StopUntil
		w.reopen()
	}
	if w.manual {
		// Signals sent at random points (random_more_test.go).
		if err := w.driveSignals(); err != nil {
			return nil, err
		}
	}
	// Everything runs to rest (a nested stack's cleanup may go on after
	// its parent came to rest), or now and then only the stack.
	if w.restEarly() {
		return w.waitStack(id, atRest)
	}
	if _, err := w.e.Run(ctx()); err != nil {
		return nil, err
	}
	return w.e.WaitForStack(ctx(), id)
}

// settle runs to rest, continuing failed update rollbacks (skipping what
// fails), and checks the invariants; it returns the stack's ARN.
func (w *world) settle() string {
	w.t.Helper()
	id := w.stackIDOf("rnd")
	for round := 0; ; round++ {
		st, err := w.wait(id)
		if err != nil {
			w.t.Fatal(err)
		}
		w.logf("-> %s %q", st.StackStatus, st.StackStatusReason)
		w.checkInvariants()
		if st.StackStatus != string(statemachine.StackStatusUpdateRollbackFailed) || round > 3 {
			return id
		}
		if w.call(6) {
			w.logf("(deleted in UPDATE_ROLLBACK_FAILED, not continued)")
			return id
		}
		in := ContinueUpdateRollbackInput{StackName: id}
		if round > 0 || w.r.IntN(2) == 0 {
			in.ResourcesToSkip = w.skipSome(w.rollbackFailures(id))
		} else {
			in.Faults = w.faults()
		}
		w.logf("ContinueUpdateRollback skip=%v", in.ResourcesToSkip)
		w.reopen()
		if _, err := w.e.ContinueUpdateRollback(ctx(), in); err != nil {
			w.t.Fatalf("ContinueUpdateRollback refused: %v", err)
		}
	}
}

// deleteAll deletes the stack, retrying with RetainResources until it is
// gone, and checks that nothing leaked.
func (w *world) deleteAll(id string) {
	w.t.Helper()
	del := DeleteStackInput{StackName: id}
	del.Faults = w.faults()
	w.retainProbe(id)
	retained := map[string]bool{}
	for round := 0; round < 6; round++ {
		st := w.stack(id)
		switch st.StackStatus {
		case string(statemachine.StackStatusDeleteComplete):
			w.checkInvariants()
			w.checkDeleted(id, retained)
			return
		case string(statemachine.StackStatusDeleteFailed):
			del = DeleteStackInput{StackName: id, RetainResources: w.retainSome(id, round >= 4)}
			for _, lid := range del.RetainResources {
				retained[lid] = true
			}
		}
		w.logf("DeleteStack retain=%v", del.RetainResources)
		w.reopen()
		if _, err := w.e.DeleteStack(ctx(), del); err != nil {
			w.t.Fatalf("DeleteStack refused: %v", err)
		}
		if _, err := w.wait(id); err != nil {
			w.t.Fatal(err)
		}
		w.logf("-> %s", w.stack(id).StackStatus)
		w.checkInvariants()
		del = DeleteStackInput{StackName: id}
	}
	w.t.Fatalf("the stack is still %s after six deletes", w.stack(id).StackStatus)
}

func (w *world) logf(format string, args ...any) { fmt.Fprintf(&w.log, format+"\n", args...) }

func (w *world) checkInvariants() {
	w.t.Helper()
	if err := w.e.CheckInvariants(ctx()); err != nil {
		w.t.Fatal(err)
	}
	if w.stops.problem != "" {
		w.t.Fatal(w.stops.problem)
	}
	if d := cloudDrift(w.e, nil); len(d) > 0 {
		w.t.Fatalf("the simulated cloud does not hold what the stacks record:\n%s", strings.Join(d, "\n"))
	}
}

func (w *world) stackIDOf(name string) string {
	out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: name})
	if err != nil {
		w.t.Fatal(err)
	}
	return out.Stacks[0].StackId
}

func (w *world) stack(id string) Stack {
	out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: id})
	if err != nil {
		w.t.Fatal(err)
	}
	return out.Stacks[0]
}

// resourcesIn returns the stack's resource records.
func (w *world) records(id string) []*store.ResourceRecord {
	var out []*store.ResourceRecord
	w.e.mu.Lock()
	defer w.e.mu.Unlock()
	_ = w.e.view(func(tx *txn) error {
		if st := tx.StackByID(id); st != nil {
			out = tx.ResourcesOf(st.Num)
		}
		return nil
	})
	return out
}

func (w *world) rollbackFailures(id string) []string {
	var out []string
	for _, r := range w.records(id) {
		if r.RollbackFailed && r.ResourceStatus == statemachine.ResourceStatusUpdateFailed {
			out = append(out, r.LogicalResourceId)
		}
		if r.ResourceType == "AWS::CloudFormation::Stack" && r.PhysicalResourceId != "" {
			// A nested stack's own: NESTED.LOGICALID.
			for _, c := range w.rollbackFailures(r.PhysicalResourceId) {
				out = append(out, r.LogicalResourceId+"."+c)
			}
		}
	}
	return out
}

func (w *world) deleteFailures(id string) []string {
	var out []string
	for _, r := range w.records(id) {
		if r.ResourceStatus == statemachine.ResourceStatusDeleteFailed {
			out = append(out, r.LogicalResourceId)
		}
	}
	return out
}

type snap struct {
	phys  string
	props map[string]any
	deps  []string
}

func (w *world) snapshot(id string) map[string]snap {
	out := map[string]snap{}
	for _, r := range w.records(id) {
		out[r.LogicalResourceId] = snap{phys: r.PhysicalResourceId, props: r.Properties, deps: r.DependsOn}
	}
	return out
}

// checkRestored checks that a completed update rollback put every resource
// back as the stack recorded it before the update (notRestored).
func (w *world) checkRestored(id string, before map[string]snap) {
	w.t.Helper()
	if w.stackUnstable(id) {
		return
	}
	if problem := notRestored(before, w.records(id)); problem != "" {
		w.t.Fatal(problem)
	}
}

// notRestored tells how a completed update rollback failed to return a
// resource to what the stack recorded of it before the update ("" when
// none did). AWS's rule: a rollback returns each resource to the last
// template that completed, and a resource that ContinueUpdateRollback
// skipped is recorded as consistent with that template — so what the
// record held before the update is what the rollback must put back, even
// when the resource itself was out of step (docs/planning.md, "Continuing
// a rollback that failed"). It checks the resources whose physical
// resource, and those of everything they refer to, are the ones they were,
// except custom resources (their target answers what it likes) and
// resources the rollback skipped again.
func notRestored(before map[string]snap, records []*store.ResourceRecord) string {
	now := map[string]*store.ResourceRecord{}
	for _, r := range records {
		now[r.LogicalResourceId] = r
	}
	ids := make([]string, 0, len(before))
	for lid := range before {
		ids = append(ids, lid)
	}
	slices.Sort(ids)
	for _, lid := range ids {
		b, r := before[lid], now[lid]
		if r == nil || r.Skipped || r.PhysicalResourceId != b.phys || strings.HasPrefix(r.ResourceType, "Custom::") {
			continue
		}
		same := true
		for _, d := range b.deps {
			if bd, ok := before[d]; !ok || now[d] == nil || now[d].PhysicalResourceId != bd.phys {
				same = false
			}
		}
		if same && !resources.LooseEqual(normalize(b.props), normalize(r.Properties)) {
			return fmt.Sprintf("%s: the rollback left the properties %v, they were %v", lid, r.Properties, b.props)
		}
	}
	return ""
}

func (w *world) stackUnstable(id string) bool {
	var u bool
	w.e.mu.Lock()
	defer w.e.mu.Unlock()
	_ = w.e.view(func(tx *txn) error { u = tx.StackByID(id).Unstable; return nil })
	return u
}

// template makes version v of the world's template: the first n ids of the
// universe, each present with a chance, each referring to earlier ones.
func (w *world) template(n, v int) string {
	r := w.r
	res := map[string]any{}
	var present []string
	for i, id := range w.ids[:min(n, len(w.ids))] {
		if v > 0 && r.IntN(6) == 0 {
			continue // removed in this version (or never added)
		}
		typ := randomTypes[i%len(randomTypes)]
		props := map[string]any{}
		ref := func() any {
			if len(present) == 0 {
				return "none"
			}
			return map[string]any{"Ref": present[r.IntN(len(present))]}
		}
		switch typ {
		case "AWS::SNS::Topic":
			props["DisplayName"] = ref()
			if r.IntN(3) == 0 {
				props["TopicName"] = fmt.Sprintf("t%d-%s-v%d", w.seed, id, r.IntN(2))
			}
		case "AWS::SQS::Queue":
			props["Tags"] = []any{map[string]any{"Key": "k", "Value": ref()}}
			if r.IntN(3) == 0 {
				props["QueueName"] = fmt.Sprintf("q%d-%s-v%d", w.seed, id, r.IntN(2))
			}
		case "AWS::SSM::Parameter":
			props["Type"] = "String"
			props["Value"] = ref()
		case "Custom::Thing":
			props["ServiceToken"] = "thing"
			props["Version"] = r.IntN(3)
			props["Flag"] = r.IntN(2) == 0
			if r.IntN(2) == 0 {
				props["PhysicalIdToReturn"] = fmt.Sprintf("%s-p%d", id, r.IntN(2))
			}
			props["Peer"] = ref()
		default:
			props["Size"] = r.IntN(4)
			props["Peer"] = ref()
		}
		body := map[string]any{"Type": typ, "Properties": props}
		if len(present) > 0 && r.IntN(5) == 0 {
			body["DependsOn"] = present[r.IntN(len(present))]
		}
		switch r.IntN(12) {
		case 0:
			body["DeletionPolicy"] = "Retain"
		case 1:
			body["DeletionPolicy"] = "RetainExceptOnCreate"
		case 2:
			body["UpdateReplacePolicy"] = "Retain"
		}
		res[id] = body
		present = append(present, id)
	}
	if len(res) == 0 {
		res[w.ids[0]] = map[string]any{"Type": randomTypes[0]}
	}
	b, err := json.MarshalIndent(map[string]any{"Resources": res}, "", " ")
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// faults makes a random fault schedule over the world's ids.
func (w *world) faults() []faults.Fault {
	r := w.r
	var out []faults.Fault
	actions := []resources.Action{resources.ActionCreate, resources.ActionUpdate, resources.ActionDelete}
	phases := []resources.Phase{resources.PhaseForward, resources.PhaseRollback, resources.PhaseCleanup}
	for i := r.IntN(4); i > 0; i-- {
		f := faults.Fault{Match: faults.Match{LogicalID: w.ids[r.IntN(len(w.ids))]}, Times: 1}
		if r.IntN(2) == 0 {
			f.Match.Actions = []resources.Action{actions[r.IntN(len(actions))]}
		}
		if r.IntN(2) == 0 {
			f.Match.Phases = []resources.Phase{phases[r.IntN(len(phases))]}
		}
		if r.IntN(4) == 0 {
			f.Times = faults.Always
		}
		switch r.IntN(7) {
		case 0, 1:
			f.Kind, f.Code, f.Message = faults.Fail, resources.ErrGeneralServiceException, "random failure"
			f.After = r.IntN(2) == 0
		case 2:
			f.Kind, f.Times = faults.Throttle, 1+r.IntN(3)
		case 3:
			f.Kind, f.Callbacks, f.DelaySeconds = faults.Stall, 1+r.IntN(3), int64(r.IntN(90))
			f.Match.Actions = []resources.Action{actions[r.IntN(len(actions))]}
		case 4:
			f.Kind, f.Reads = faults.EventualConsistency, 1+r.IntN(3)
			f.Match.Actions = nil
		case 5:
			f.Kind = faults.NewPhysicalID
		default:
			f.Kind = faults.NoResponse
			f.Times = 1
		}
		out = append(out, f)
	}
	if len(w.nested) > 0 && w.xr.IntN(3) == 0 {
		// A failure in a child (from xr: the seeds' other faults stay).
		f := faults.Fault{Match: faults.Match{LogicalID: fmt.Sprintf("C%d", w.xr.IntN(4))}, Times: 1,
			Kind: faults.Fail, Code: resources.ErrGeneralServiceException, Message: "random child failure"}
		if w.xr.IntN(3) == 0 {
			f.Times = faults.Always
		}
		if w.xr.IntN(2) == 0 {
			f.Match.Phases = []resources.Phase{phases[w.xr.IntN(len(phases))]}
		}
		out = append(out, f)
	}
	return append(out, w.signalFaults()...)
}

// custom is the random worlds' custom resource target.
func (w *world) custom(_ context.Context, req *resources.CustomRequest) (*resources.CustomResponse, error) {
	id := req.PhysicalResourceID
	if v, ok := req.ResourceProperties["PhysicalIdToReturn"].(string); ok && req.RequestType != resources.CustomDelete {
		id = v
	}
	if id == "" {
		id = "thing-" + req.LogicalResourceID
	}
	return &resources.CustomResponse{Status: "SUCCESS", PhysicalResourceID: id, Data: map[string]any{"Echo": id}}, nil
}

var persistedWorlds = flag.Int("random.persisted", 40, "worlds TestRandomWorldsPersisted runs")

// A world kept in a state file — saved and opened again before every call
// and part way through operations, so that every call runs on a state read
// by need — goes exactly as the same world in memory: the same events, and
// the same state in the end, byte for byte. (The contract checker is off:
// its memory of identifiers lives in the process, docs/engine.md, so a
// reopened world could find fewer violations than one that never was.)
func TestRandomWorldsPersisted(t *testing.T) {
	for seed := uint64(1); seed <= uint64(*persistedWorlds); seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			disk := runWorldIn(t, seed, filepath.Join(t.TempDir(), "state.db"), ContractOff, rolled)
			mem := runWorldIn(t, seed, "", ContractOff, rolled)
			sameWorld(t, mem, disk, "in memory", "on disk")
		})
	}
}

var flushedWorlds = flag.Int("random.flushed", 20, "worlds TestRandomWorldsFlushed runs")

// The store's buffer of committed rows is an implementation detail: a
// world whose buffer is written into memdb after nearly every commit (a
// bound of 8 rows instead of 2^17, so that every scan merges memdb, the
// buffer's partitions and the overlay, and every lookup may find its row
// in any of them) goes exactly as the same world with the default bound.
// Every fourth world also keeps its state in a file, where rows read by
// need are laid into the buffer too.
func TestRandomWorldsFlushed(t *testing.T) {
	for seed := uint64(1); seed <= uint64(*flushedWorlds); seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			def := runWorldIn(t, seed, "", ContractOff, rolled)
			path := ""
			if seed%4 == 0 {
				path = filepath.Join(t.TempDir(), "state.db")
			}
			defer func(n int) { store.MaxBuffered = n }(store.MaxBuffered)
			store.MaxBuffered = 8
			small := runWorldIn(t, seed, path, ContractOff, rolled)
			sameWorld(t, def, small, "with the default buffer", "with a buffer of 8 rows")
		})
	}
}

// sameWorld fails unless worlds a and b went the same way: the same
// events, the same state in the end byte for byte, the same events as
// described (their ids are made from counts kept across reopens), and the
// same publications.
func sameWorld(t *testing.T, a, b *world, aName, bName string) {
	t.Helper()
	if a.log.String() != b.log.String() {
		t.Fatalf("the events differ (%s, %s):\n%s", aName, bName, lineDiff(a.log.String(), b.log.String()))
	}
	if sa, sb := state(t, a.e), state(t, b.e); string(sa) != string(sb) {
		t.Fatalf("the states differ (%s, %s):\n%s", aName, bName, lineDiff(string(sa), string(sb)))
	}
	if ea, eb := allEvents(t, a.e), allEvents(t, b.e); ea != eb {
		t.Fatalf("the events as described differ (%s, %s):\n%s", aName, bName, lineDiff(ea, eb))
	}
	for _, kind := range []struct {
		name string
		a, b []string
	}{{"notifications", a.pubs.noteSeq, b.pubs.noteSeq}, {"bus events", a.pubs.busSeq, b.pubs.busSeq}} {
		if ja, jb := strings.Join(kind.a, "\n"), strings.Join(kind.b, "\n"); ja != jb {
			t.Fatalf("the %s differ (%d %s, %d %s):\n%s", kind.name, len(kind.a), aName, len(kind.b), bName, lineDiff(ja, jb))
		}
	}
}

// allEvents is every event of every stack as DescribeStackEvents pages
// them, as JSON.
func allEvents(t *testing.T, e *Engine) string {
	t.Helper()
	var b strings.Builder
	list, err := e.ListStacks(ctx(), ListStacksInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range list.StackSummaries {
		for token := ""; ; {
			out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: st.StackId, NextToken: token})
			if err != nil {
				t.Fatal(err)
			}
			b.Write(mustJSON(t, out.StackEvents))
			if token = out.NextToken; token == "" {
				break
			}
		}
	}
	return b.String()
}
