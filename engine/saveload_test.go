package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stacksim/stacksim/resources/faults"
)

// An operation in motion is data: saved and loaded between any two tasks,
// it goes on exactly as it would have, fault counts included — the final
// state (events, records, clock, counters) is byte for byte the one of a
// run that was never interrupted.
func TestSaveLoadBetweenAnyTwoTasks(t *testing.T) {
	dir := filepath.Join("testdata", "lifecycles", "save-load-mid-operation")
	read := func(f string) string {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	inj, err := faults.Load("faults.yaml", []byte(read("faults.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Seed: 42, Contract: ContractReport}
	create := func() *Engine {
		e := newTestEngine(t, opts)
		if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: read("v1.yaml"), Extensions: Extensions{Faults: inj.Faults()}}); err != nil {
			t.Fatal(err)
		}
		return e
	}
	update := func(e *Engine) {
		in := UpdateStackInput{StackName: "app", TemplateBody: read("v2.yaml")}
		in.Faults = inj.Faults()
		if _, err := e.UpdateStack(ctx(), in); err != nil {
			t.Fatal(err)
		}
	}
	// start runs the create to rest, then starts the update (which fails,
	// and whose rollback fails) and returns the engine.
	start := func() *Engine {
		e := create()
		if _, err := e.Run(ctx()); err != nil {
			t.Fatal(err)
		}
		update(e)
		return e
	}
	ref := start()
	res, err := ref.Run(ctx())
	if err != nil {
		t.Fatal(err)
	}
	want := state(t, ref)
	if !bytes.Contains(want, []byte(`UPDATE_ROLLBACK_FAILED`)) {
		t.Fatal("the scenario does not end where it should")
	}
	t.Logf("%d tasks after the update call", res.Tasks)
	if res.Tasks < 10 {
		t.Fatalf("only %d tasks: the test would prove little", res.Tasks)
	}
	for k := 0; k <= res.Tasks; k++ {
		e := start()
		if k > 0 {
			if _, err := e.Step(ctx(), k); err != nil {
				t.Fatal(err)
			}
		}
		saved := state(t, e)
		loaded, err := NewFromState(saved, opts)
		if err != nil {
			t.Fatalf("after %d tasks: %v", k, err)
		}
		t.Cleanup(func() { _ = loaded.Close() })
		if _, err := loaded.Run(ctx()); err != nil {
			t.Fatalf("after %d tasks: %v", k, err)
		}
		if got := state(t, loaded); !bytes.Equal(got, want) {
			t.Fatalf("saved after %d tasks and loaded, the run ends elsewhere:\n%s", k, lineDiff(string(want), string(got)))
		}
		if err := loaded.CheckInvariants(ctx()); err != nil {
			t.Fatal(err)
		}
	}
	// The same, interrupted during the create.
	probe := create()
	cres, err := probe.Run(ctx())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tasks after the create call", cres.Tasks)
	for k := 1; k < cres.Tasks; k++ {
		e := create()
		if _, err := e.Step(ctx(), k); err != nil {
			t.Fatal(err)
		}
		loaded, err := NewFromState(state(t, e), opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = loaded.Close() })
		if _, err := loaded.Run(ctx()); err != nil {
			t.Fatal(err)
		}
		update(loaded)
		if _, err := loaded.Run(ctx()); err != nil {
			t.Fatal(err)
		}
		if got := state(t, loaded); !bytes.Equal(got, want) {
			t.Fatalf("saved after %d tasks of the create and loaded, the run ends elsewhere:\n%s", k, lineDiff(string(want), string(got)))
		}
	}
}

// The same inputs and seed give the same bytes; another seed, other
// names.
func TestDeterminism(t *testing.T) {
	run := func(seed int64) []byte {
		h := newHarness(t, "update-failure-rollback", Options{Seed: seed})
		h.mustDo(func() error { return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml")}) })
		h.wait("app")
		in := UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml")}
		in.Faults = h.faults("faults.yaml")
		h.mustDo(func() error { return h.updateStack(in) })
		h.wait("app")
		return append(state(t, h.e), h.out.String()...)
	}
	a, b := run(7), run(7)
	if !bytes.Equal(a, b) {
		t.Fatalf("two runs with one seed differ:\n%s", lineDiff(string(a), string(b)))
	}
	if c := run(8); bytes.Equal(a, c) {
		t.Fatal("two seeds gave the same bytes")
	}
}
