package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// Test helpers: an engine, and a seeder that writes stacks, resources and
// events straight into the store, so that the read side can be tested
// before the operations exist.

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func newTestEngine(t testing.TB, opts Options) *Engine {
	t.Helper()
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// seeder writes rows directly.
type seeder struct {
	t testing.TB
	e *Engine
}

func seed(t testing.TB, e *Engine) *seeder { return &seeder{t: t, e: e} }

// do runs fn in a write transaction and fails the test on error.
func (s *seeder) do(fn func(tx *txn) error) {
	s.t.Helper()
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	if err := s.e.update(fn); err != nil {
		s.t.Fatal(err)
	}
}

// advance moves the clock.
func (s *seeder) advance(d time.Duration) {
	s.t.Helper()
	s.do(func(tx *txn) error { tx.Meta.Now += int64(d); return nil })
}

// stack creates a stack in CREATE_IN_PROGRESS with its "User Initiated"
// event, then applies mods to a copy and stores it.
func (s *seeder) stack(name string, mods ...func(*store.StackRecord)) *store.StackRecord {
	s.t.Helper()
	var out *store.StackRecord
	s.do(func(tx *txn) error {
		st := &store.StackRecord{
			StackId:            tx.newStackID(name),
			StackName:          name,
			StackStatus:        statemachine.StackStatusCreateInProgress,
			CreationTime:       tx.now(),
			TemplateBody:       `{"Resources":{}}`,
			ClientRequestToken: tx.newToken("CreateStack", name),
		}
		if err := tx.PutStack(st); err != nil {
			return err
		}
		tx.stackEvent(st, st.StackStatus, "User Initiated")
		st = st.Clone()
		for _, m := range mods {
			m(st)
		}
		out = st
		return tx.PutStack(st)
	})
	return out
}

// setStatus moves a stack to a status, writing the stack event.
func (s *seeder) setStatus(st *store.StackRecord, status statemachine.StackStatus, reason string) *store.StackRecord {
	s.t.Helper()
	var out *store.StackRecord
	s.do(func(tx *txn) error {
		c := tx.StackByID(st.StackId).Clone()
		c.StackStatus, c.StackStatusReason = status, reason
		if status == statemachine.StackStatusDeleteComplete {
			c.DeletionTime = tx.now()
		}
		tx.stackEvent(c, status, reason)
		out = c
		return tx.PutStack(c)
	})
	return out
}

// resource stores a resource reaching a status with the events AWS shows
// for a create: CREATE_IN_PROGRESS, CREATE_IN_PROGRESS "Resource creation
// Initiated" (with the physical id), then status.
func (s *seeder) resource(st *store.StackRecord, logicalID, typ, physicalID string, status statemachine.ResourceStatus, reason string) *store.ResourceRecord {
	s.t.Helper()
	var out *store.ResourceRecord
	s.do(func(tx *txn) error {
		tx.resourceEvent(st, resourceEvent{LogicalID: logicalID, Type: typ, Status: statemachine.ResourceStatusCreateInProgress})
		tx.resourceEvent(st, resourceEvent{LogicalID: logicalID, PhysicalID: physicalID, Type: typ,
			Status: statemachine.ResourceStatusCreateInProgress, Reason: "Resource creation Initiated"})
		tx.resourceEvent(st, resourceEvent{LogicalID: logicalID, PhysicalID: physicalID, Type: typ, Status: status, Reason: reason})
		r := &store.ResourceRecord{
			Num: st.Num, StackId: st.StackId, LogicalResourceId: logicalID, PhysicalResourceId: physicalID,
			ResourceType: typ, ResourceStatus: status, ResourceStatusReason: reason,
			LastUpdatedTimestamp: tx.now(),
			Properties:           map[string]any{"Name": physicalID, "Size": json.Number("8")},
		}
		tx.PutResource(r)
		out = r
		return nil
	})
	return out
}

// ctx is a context for tests.
func ctx() context.Context { return context.Background() }

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", path, lineDiff(string(want), string(got)))
	}
}

// lineDiff shows the first lines that differ, with some context.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl == gl {
			continue
		}
		b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
		if shown++; shown == 10 {
			b.WriteString("  ...\n")
			break
		}
	}
	return b.String()
}

// mustJSON renders v as indented JSON, as the CLI prints it.
func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// state is the engine's state file bytes.
func state(t testing.TB, e *Engine) []byte {
	t.Helper()
	b, err := e.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
