package statemachine

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// The legal transitions, written out by hand as FROM event TO: the
// specification the tables must match, edge for edge.
var wantStack = []struct {
	from StackStatus
	ev   StackEvent
	to   StackStatus
}{
	{NotExist, "review", "REVIEW_IN_PROGRESS"},
	{NotExist, "create", "CREATE_IN_PROGRESS"},
	{"REVIEW_IN_PROGRESS", "create", "CREATE_IN_PROGRESS"},
	{"CREATE_IN_PROGRESS", "create_succeeded", "CREATE_COMPLETE"},
	{"CREATE_IN_PROGRESS", "create_failed", "CREATE_FAILED"},
	{"CREATE_IN_PROGRESS", "rollback_begun", "ROLLBACK_IN_PROGRESS"},
	{"UPDATE_IN_PROGRESS", "rollback_begun", "UPDATE_ROLLBACK_IN_PROGRESS"},
	{"IMPORT_IN_PROGRESS", "rollback_begun", "IMPORT_ROLLBACK_IN_PROGRESS"},
	{"CREATE_FAILED", "rollback", "ROLLBACK_IN_PROGRESS"},
	{"UPDATE_FAILED", "rollback", "UPDATE_ROLLBACK_IN_PROGRESS"},
	{"ROLLBACK_IN_PROGRESS", "rollback_succeeded", "ROLLBACK_COMPLETE"},
	{"UPDATE_ROLLBACK_IN_PROGRESS", "rollback_succeeded", "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS"},
	{"IMPORT_ROLLBACK_IN_PROGRESS", "rollback_succeeded", "IMPORT_ROLLBACK_COMPLETE"},
	{"ROLLBACK_IN_PROGRESS", "rollback_failed", "ROLLBACK_FAILED"},
	{"UPDATE_ROLLBACK_IN_PROGRESS", "rollback_failed", "UPDATE_ROLLBACK_FAILED"},
	{"IMPORT_ROLLBACK_IN_PROGRESS", "rollback_failed", "IMPORT_ROLLBACK_FAILED"},
	{"CREATE_COMPLETE", "update", "UPDATE_IN_PROGRESS"},
	{"CREATE_FAILED", "update", "UPDATE_IN_PROGRESS"},
	{"UPDATE_COMPLETE", "update", "UPDATE_IN_PROGRESS"},
	{"UPDATE_FAILED", "update", "UPDATE_IN_PROGRESS"},
	{"UPDATE_ROLLBACK_COMPLETE", "update", "UPDATE_IN_PROGRESS"},
	{"IMPORT_COMPLETE", "update", "UPDATE_IN_PROGRESS"},
	{"IMPORT_ROLLBACK_COMPLETE", "update", "UPDATE_IN_PROGRESS"},
	{"UPDATE_IN_PROGRESS", "update_succeeded", "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS"},
	{"UPDATE_IN_PROGRESS", "update_failed", "UPDATE_FAILED"},
	{"UPDATE_IN_PROGRESS", "cancel_update", "UPDATE_ROLLBACK_IN_PROGRESS"},
	{"UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "parent_rollback", "UPDATE_ROLLBACK_IN_PROGRESS"},
	{"UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "cleanup_succeeded", "UPDATE_COMPLETE"},
	{"UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS", "cleanup_succeeded", "UPDATE_ROLLBACK_COMPLETE"},
	{"UPDATE_ROLLBACK_FAILED", "continue_update_rollback", "UPDATE_ROLLBACK_IN_PROGRESS"},
	{"REVIEW_IN_PROGRESS", "import", "IMPORT_IN_PROGRESS"},
	{"CREATE_COMPLETE", "import", "IMPORT_IN_PROGRESS"},
	{"UPDATE_COMPLETE", "import", "IMPORT_IN_PROGRESS"},
	{"UPDATE_ROLLBACK_COMPLETE", "import", "IMPORT_IN_PROGRESS"},
	{"IMPORT_COMPLETE", "import", "IMPORT_IN_PROGRESS"},
	{"IMPORT_ROLLBACK_COMPLETE", "import", "IMPORT_IN_PROGRESS"},
	{"IMPORT_IN_PROGRESS", "import_succeeded", "IMPORT_COMPLETE"},
	{"REVIEW_IN_PROGRESS", "delete", "DELETE_IN_PROGRESS"},
	{"CREATE_COMPLETE", "delete", "DELETE_IN_PROGRESS"},
	{"CREATE_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"ROLLBACK_COMPLETE", "delete", "DELETE_IN_PROGRESS"},
	{"ROLLBACK_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"UPDATE_COMPLETE", "delete", "DELETE_IN_PROGRESS"},
	{"UPDATE_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"UPDATE_ROLLBACK_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"UPDATE_ROLLBACK_COMPLETE", "delete", "DELETE_IN_PROGRESS"},
	{"IMPORT_COMPLETE", "delete", "DELETE_IN_PROGRESS"},
	{"IMPORT_ROLLBACK_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"IMPORT_ROLLBACK_COMPLETE", "delete", "DELETE_IN_PROGRESS"},
	{"DELETE_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"DELETE_IN_PROGRESS", "delete_succeeded", "DELETE_COMPLETE"},
	{"DELETE_IN_PROGRESS", "delete_failed", "DELETE_FAILED"},
	{"DELETE_IN_PROGRESS", "delete_refused_to_create_complete", "CREATE_COMPLETE"},
	{"DELETE_IN_PROGRESS", "delete_refused_to_update_complete", "UPDATE_COMPLETE"},
	{"DELETE_IN_PROGRESS", "delete_refused_to_update_failed", "UPDATE_FAILED"},
	{"DELETE_IN_PROGRESS", "delete_refused_to_update_rollback_failed", "UPDATE_ROLLBACK_FAILED"},
	{"DELETE_IN_PROGRESS", "delete_refused_to_update_rollback_complete", "UPDATE_ROLLBACK_COMPLETE"},
	{"DELETE_IN_PROGRESS", "delete_refused_to_import_complete", "IMPORT_COMPLETE"},
	{"DELETE_IN_PROGRESS", "delete_refused_to_import_rollback_failed", "IMPORT_ROLLBACK_FAILED"},
	{"DELETE_IN_PROGRESS", "delete_refused_to_import_rollback_complete", "IMPORT_ROLLBACK_COMPLETE"},
	{"DELETE_IN_PROGRESS", "delete_refused_to_delete_failed", "DELETE_FAILED"},
}

var wantResource = []struct {
	from ResourceStatus
	ev   ResourceEvent
	to   ResourceStatus
}{
	{NotExist, "create", "CREATE_IN_PROGRESS"},
	{"CREATE_FAILED", "create", "CREATE_IN_PROGRESS"},
	{"IMPORT_FAILED", "create", "CREATE_IN_PROGRESS"},
	{"CREATE_IN_PROGRESS", "create_succeeded", "CREATE_COMPLETE"},
	{"CREATE_IN_PROGRESS", "create_failed", "CREATE_FAILED"},
	{NotExist, "replace", "UPDATE_IN_PROGRESS"},
	{"CREATE_COMPLETE", "update", "UPDATE_IN_PROGRESS"},
	{"UPDATE_COMPLETE", "update", "UPDATE_IN_PROGRESS"},
	{"UPDATE_FAILED", "update", "UPDATE_IN_PROGRESS"},
	{"IMPORT_COMPLETE", "update", "UPDATE_IN_PROGRESS"},
	{"UPDATE_IN_PROGRESS", "update_succeeded", "UPDATE_COMPLETE"},
	{"UPDATE_IN_PROGRESS", "update_failed", "UPDATE_FAILED"},
	{"CREATE_IN_PROGRESS", "cancel", "CREATE_FAILED"},
	{"UPDATE_IN_PROGRESS", "cancel", "UPDATE_FAILED"},
	{"UPDATE_FAILED", "skip_rollback", "UPDATE_COMPLETE"},
	{NotExist, "deny", "CREATE_FAILED"},
	{"CREATE_COMPLETE", "deny", "UPDATE_FAILED"},
	{"UPDATE_COMPLETE", "deny", "UPDATE_FAILED"},
	{"IMPORT_COMPLETE", "deny", "UPDATE_FAILED"},
	{"UPDATE_FAILED", "keep", "UPDATE_COMPLETE"},
	{"CREATE_COMPLETE", "delete", "DELETE_IN_PROGRESS"},
	{"CREATE_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"UPDATE_COMPLETE", "delete", "DELETE_IN_PROGRESS"},
	{"UPDATE_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"DELETE_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"IMPORT_COMPLETE", "delete", "DELETE_IN_PROGRESS"},
	{"IMPORT_ROLLBACK_FAILED", "delete", "DELETE_IN_PROGRESS"},
	{"DELETE_IN_PROGRESS", "delete_succeeded", "DELETE_COMPLETE"},
	{"DELETE_IN_PROGRESS", "delete_failed", "DELETE_FAILED"},
	{"CREATE_COMPLETE", "retain", "DELETE_SKIPPED"},
	{"CREATE_FAILED", "retain", "DELETE_SKIPPED"},
	{"UPDATE_COMPLETE", "retain", "DELETE_SKIPPED"},
	{"UPDATE_FAILED", "retain", "DELETE_SKIPPED"},
	{"DELETE_FAILED", "retain", "DELETE_SKIPPED"},
	{"IMPORT_COMPLETE", "retain", "DELETE_SKIPPED"},
	{"IMPORT_FAILED", "retain", "DELETE_SKIPPED"},
	{"IMPORT_ROLLBACK_FAILED", "retain", "DELETE_SKIPPED"},
	{"CREATE_FAILED", "discard", "DELETE_COMPLETE"},
	{"UPDATE_FAILED", "discard", "DELETE_COMPLETE"},
	{NotExist, "import", "IMPORT_IN_PROGRESS"},
	{"IMPORT_FAILED", "import", "IMPORT_IN_PROGRESS"},
	{"IMPORT_IN_PROGRESS", "import_succeeded", "IMPORT_COMPLETE"},
	{"IMPORT_IN_PROGRESS", "import_failed", "IMPORT_FAILED"},
	{"IMPORT_COMPLETE", "rollback", "IMPORT_ROLLBACK_IN_PROGRESS"},
	{"IMPORT_FAILED", "rollback", "IMPORT_ROLLBACK_IN_PROGRESS"},
	{"IMPORT_ROLLBACK_IN_PROGRESS", "rollback_succeeded", "IMPORT_ROLLBACK_COMPLETE"},
	{"IMPORT_ROLLBACK_IN_PROGRESS", "rollback_failed", "IMPORT_ROLLBACK_FAILED"},
}

func TestStackLegalTransitions(t *testing.T) {
	for _, w := range wantStack {
		got, err := FireStack("s", w.from, w.ev)
		if err != nil || got != w.to {
			t.Errorf("FireStack(%s, %s) = %s, %v; want %s", w.from, w.ev, got, err, w.to)
		}
	}
	if got, want := len(StackTransitions()), len(wantStack); got != want {
		t.Errorf("the stack table has %d transitions, the specification %d", got, want)
	}
}

func TestResourceLegalTransitions(t *testing.T) {
	for _, w := range wantResource {
		got, err := FireResource("r", w.from, w.ev)
		if err != nil || got != w.to {
			t.Errorf("FireResource(%s, %s) = %s, %v; want %s", w.from, w.ev, got, err, w.to)
		}
	}
	if got, want := len(ResourceTransitions()), len(wantResource); got != want {
		t.Errorf("the resource table has %d transitions, the specification %d", got, want)
	}
}

// Every (status, event) pair that is not in the specification is refused
// with a *TransitionError naming the entity, the status and the event, and
// the status is unchanged.
func TestStackIllegalTransitionsRefused(t *testing.T) {
	legal := map[[2]string]bool{}
	for _, w := range wantStack {
		legal[[2]string{string(w.from), string(w.ev)}] = true
	}
	froms := append([]StackStatus{NotExist, "NOT_A_STATUS"}, StackStatuses()...)
	events := append(StackEvents(), "no_such_event")
	refused := 0
	for _, from := range froms {
		for _, ev := range events {
			if legal[[2]string{string(from), string(ev)}] {
				continue
			}
			refused++
			got, err := FireStack("my-stack", from, ev)
			checkRefusal(t, "stack", "my-stack", string(from), string(ev), string(got), err)
		}
	}
	if want := len(froms)*len(events) - len(wantStack); refused != want {
		t.Errorf("refused %d pairs, want %d", refused, want)
	}
}

func TestResourceIllegalTransitionsRefused(t *testing.T) {
	legal := map[[2]string]bool{}
	for _, w := range wantResource {
		legal[[2]string{string(w.from), string(w.ev)}] = true
	}
	froms := append([]ResourceStatus{NotExist, "NOT_A_STATUS"}, ResourceStatuses()...)
	events := append(ResourceEvents(), "no_such_event")
	for _, from := range froms {
		for _, ev := range events {
			if legal[[2]string{string(from), string(ev)}] {
				continue
			}
			got, err := FireResource("Topic (arn:topic)", from, ev)
			checkRefusal(t, "resource", "Topic (arn:topic)", string(from), string(ev), string(got), err)
		}
	}
}

func checkRefusal(t *testing.T, machine, entity, from, ev, got string, err error) {
	t.Helper()
	var te *TransitionError
	if !errors.As(err, &te) {
		t.Errorf("%s: %s from %q: err = %v, want *TransitionError", machine, ev, from, err)
		return
	}
	if te.Machine != machine || te.Entity != entity || te.Status != from || te.Event != ev {
		t.Errorf("%s: %s from %q: error %+v names the wrong machine, entity, status or event", machine, ev, from, te)
	}
	if errors.Unwrap(err) != nil {
		t.Errorf("%s: %s from %q: unexpected cause %v", machine, ev, from, errors.Unwrap(err))
	}
	if got != from {
		t.Errorf("%s: %s from %q: returned status %q, want the status unchanged", machine, ev, from, got)
	}
}

func TestTransitionErrorMessage(t *testing.T) {
	_, err := FireStack("my-stack", StackStatusUpdateRollbackFailed, StackUpdate)
	want := `statemachine: stack "my-stack": event "update" is not allowed in status UPDATE_ROLLBACK_FAILED (allowed: continue_update_rollback, delete)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	_, err = FireResource("Q", NotExist, ResourceDelete)
	want = `statemachine: resource "Q": event "delete" is not allowed in status NotExist (allowed: create, replace, deny, import)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	_, err = FireStack("gone", StackStatusDeleteComplete, StackDelete)
	want = `statemachine: stack "gone": event "delete" is not allowed in status DELETE_COMPLETE (no event is: the status is final or unknown)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// The tables are well formed: every status is known, no edge is a
// self-transition (looplab/fsm would answer NoTransitionError), every event
// and edge is documented, and every status takes part.
func TestTablesWellFormed(t *testing.T) {
	checkTable(t, "stack", stackMachine())
	checkTable(t, "resource", resourceMachine())
}

func checkTable[S interface {
	~string
	Valid() bool
}, E ~string](t *testing.T, kind string, m *machine[S, E]) {
	seen := map[S]bool{}
	names := map[E]bool{}
	for _, def := range m.table {
		if names[def.Name] {
			t.Errorf("%s: event %q has two rows", kind, def.Name)
		}
		names[def.Name] = true
		if def.Summary == "" || len(def.Edges) == 0 {
			t.Errorf("%s: event %q has no summary or no edge", kind, def.Name)
		}
		for _, e := range def.Edges {
			if (e.From != NotExist && !e.From.Valid()) || !e.To.Valid() {
				t.Errorf("%s: %s: %q → %q names an unknown status", kind, def.Name, e.From, e.To)
			}
			if e.From == e.To {
				t.Errorf("%s: %s: self-transition on %s", kind, def.Name, e.From)
			}
			if e.Why == "" {
				t.Errorf("%s: %s: %s → %s does not say when it happens", kind, def.Name, label(string(e.From)), e.To)
			}
			seen[e.From], seen[e.To] = true, true
		}
	}
	for _, s := range m.statuses {
		if !seen[s] {
			t.Errorf("%s: status %s takes part in no transition", kind, s)
		}
	}
}

// reachable returns every status reachable from `from`.
func reachable[S ~string, E ~string](m *machine[S, E], from S) map[S]bool {
	seen := map[S]bool{from: true}
	queue := []S{from}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, ev := range m.out[s] {
			to, _ := m.lookup(s, ev)
			if !seen[to] {
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	return seen
}

func TestEveryStatusReachableFromNotExist(t *testing.T) {
	got := reachable(stackMachine(), NotExist)
	for _, s := range StackStatuses() {
		if !got[s] {
			t.Errorf("stack status %s is not reachable from NotExist", s)
		}
	}
	gotR := reachable(resourceMachine(), NotExist)
	for _, s := range ResourceStatuses() {
		if !gotR[s] {
			t.Errorf("resource status %s is not reachable from NotExist", s)
		}
	}
}

func TestAtRestStatusesReachable(t *testing.T) {
	got := reachable(stackMachine(), NotExist)
	n := 0
	for _, s := range StackStatuses() {
		if s.AtRest() {
			n++
			if !got[s] {
				t.Errorf("at-rest stack status %s is not reachable from NotExist", s)
			}
		}
	}
	if n != 13 {
		t.Errorf("%d stack statuses at rest, want 13", n)
	}
}

// Every in-progress status leads to at least one status at rest: no
// operation can run forever by the machine's rules.
func TestInProgressLeadsToRest(t *testing.T) {
	for _, s := range StackStatuses() {
		if !s.InMotion() {
			continue
		}
		if !slices.ContainsFunc(keys(reachable(stackMachine(), s)), StackStatus.AtRest) {
			t.Errorf("stack status %s leads to no status at rest", s)
		}
	}
	for _, s := range ResourceStatuses() {
		if !s.InMotion() {
			continue
		}
		if !slices.ContainsFunc(keys(reachable(resourceMachine(), s)), ResourceStatus.AtRest) {
			t.Errorf("resource status %s leads to no status at rest", s)
		}
	}
}

func keys[S comparable](m map[S]bool) []S {
	var out []S
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Final means no way out: DELETE_COMPLETE for a stack; for a physical
// resource, DELETE_COMPLETE and the two ways of leaving the stack.
func TestFinal(t *testing.T) {
	for _, s := range StackStatuses() {
		if got, want := s.Final(), len(stackMachine().out[s]) == 0; got != want {
			t.Errorf("stack %s: Final() = %v, but has outgoing transitions = %v", s, got, !want)
		}
	}
	if !StackStatusDeleteComplete.Final() {
		t.Error("DELETE_COMPLETE is not final")
	}
	for _, s := range ResourceStatuses() {
		if got, want := s.Final(), len(resourceMachine().out[s]) == 0; got != want {
			t.Errorf("resource %s: Final() = %v, but has outgoing transitions = %v", s, got, !want)
		}
	}
}

func TestMotion(t *testing.T) {
	if len(StackStatuses()) != 23 || len(ResourceStatuses()) != 16 {
		t.Fatalf("%d stack and %d resource statuses, want 23 and 16", len(StackStatuses()), len(ResourceStatuses()))
	}
	for _, s := range StackStatuses() {
		if s.InMotion() == s.AtRest() {
			t.Errorf("%s is both or neither in motion and at rest", s)
		}
	}
	for _, s := range ResourceStatuses() {
		if s.InMotion() == s.AtRest() {
			t.Errorf("%s is both or neither in motion and at rest", s)
		}
	}
	var ns StackStatus = NotExist
	if ns.InMotion() || ns.AtRest() || ns.Final() || ns.Valid() || ns.String() != "NotExist" {
		t.Errorf("NotExist: in motion %v, at rest %v, final %v, valid %v, %q", ns.InMotion(), ns.AtRest(), ns.Final(), ns.Valid(), ns)
	}
}

func TestPhase(t *testing.T) {
	want := map[StackStatus]string{
		"REVIEW_IN_PROGRESS":                           "-",
		"CREATE_IN_PROGRESS":                           "C",
		"ROLLBACK_IN_PROGRESS":                         "D",
		"UPDATE_IN_PROGRESS":                           "C,U",
		"UPDATE_COMPLETE_CLEANUP_IN_PROGRESS":          "D",
		"UPDATE_ROLLBACK_IN_PROGRESS":                  "U",
		"UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS": "D",
		"IMPORT_IN_PROGRESS":                           "I",
		"IMPORT_ROLLBACK_IN_PROGRESS":                  "I",
		"DELETE_IN_PROGRESS":                           "D",
	}
	for _, s := range StackStatuses() {
		w, ok := want[s]
		if !ok {
			w = "-" // at rest: nothing runs
		}
		if got := s.Phase().String(); got != w {
			t.Errorf("%s.Phase() = %s, want %s", s, got, w)
		}
	}
	if got := (Creates | Updates).Words(); got != "creates, updates" {
		t.Errorf("Words = %q", got)
	}
}

// Many goroutines fire at once (the engine runs resources in parallel);
// run with -race.
func TestFireConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				name := fmt.Sprintf("r%d-%d", g, i)
				s, err := FireResource(name, NotExist, ResourceCreate)
				if err == nil {
					s, err = FireResource(name, s, ResourceCreateSucceeded)
				}
				if err != nil || s != ResourceStatusCreateComplete {
					t.Errorf("%s: %s, %v", name, s, err)
					return
				}
				if _, err := FireResource(name, s, ResourceCreateSucceeded); err == nil {
					t.Errorf("%s: create_succeeded accepted twice", name)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestNext(t *testing.T) {
	if to, ok := NextStack(StackStatusUpdateRollbackFailed, StackContinueUpdateRollback); !ok || to != StackStatusUpdateRollbackInProgress {
		t.Errorf("NextStack = %s, %v", to, ok)
	}
	if _, ok := NextResource(ResourceStatusDeleteComplete, ResourceCreate); ok {
		t.Error("NextResource allowed create from DELETE_COMPLETE")
	}
}

// fire remembers what looplab/fsm answered: a pair it has not seen goes
// through fsm, a pair it has is answered the same; refusals are not
// remembered, and every remembered answer is the table's.
func TestFireRemembersFSMAnswers(t *testing.T) {
	m := newMachine("resource", ResourceStatuses(), resourceMachine().table)
	if m.fired.Load() != nil {
		t.Fatal("a new machine remembers transitions")
	}
	for _, w := range wantResource {
		for range 2 {
			got, err := m.fire("r", w.from, w.ev)
			if err != nil || got != w.to {
				t.Fatalf("fire(%s, %s) = %s, %v; want %s", w.from, w.ev, got, err, w.to)
			}
		}
	}
	done := *m.fired.Load()
	if len(done) != len(wantResource) {
		t.Fatalf("remembered %d transitions, want %d", len(done), len(wantResource))
	}
	for k, to := range done {
		if want, ok := m.lookup(k.from, k.ev); !ok || want != to {
			t.Errorf("remembered %s --%s--> %s, the table says %s", k.from, k.ev, to, want)
		}
	}
	if _, err := m.fire("r", ResourceStatusDeleteComplete, ResourceCreate); err == nil {
		t.Fatal("an illegal event was accepted")
	}
	if len(*m.fired.Load()) != len(wantResource) {
		t.Fatal("a refusal was remembered")
	}
}
