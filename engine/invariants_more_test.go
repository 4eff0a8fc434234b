package engine

import (
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// The invariants the random worlds' imports and deletes rely on: a
// deleted stack holds only deleted or retained resources, and a physical
// resource is not a stack's and released at once, nor two stacks'.
func TestInvariantsDeletedAndOwned(t *testing.T) {
	const tpl = `Resources:
  Kept:
    Type: AWS::SNS::Topic
    DeletionPolicy: Retain
  Gone:
    Type: AWS::SNS::Topic
`
	setup := func(t *testing.T) (*Engine, *store.StackRecord) {
		e := newTestEngine(t, Options{})
		for _, name := range []string{"old", "live"} {
			if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: name, TemplateBody: tpl}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.Run(ctx()); err != nil {
			t.Fatal(err)
		}
		old := (&world{t: t, e: e}).stackIDOf("old")
		if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "old"}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Run(ctx()); err != nil {
			t.Fatal(err)
		}
		if err := e.CheckInvariants(ctx()); err != nil {
			t.Fatal(err)
		}
		var st *store.StackRecord
		_ = e.view(func(tx *txn) error { st = tx.StackByID(old); return nil })
		return e, st
	}
	mutate := func(t *testing.T, e *Engine, f func(tx *txn)) string {
		t.Helper()
		e.mu.Lock()
		err := e.update(func(tx *txn) error { f(tx); return nil })
		e.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		err = e.CheckInvariants(ctx())
		if err == nil {
			t.Fatal("the invariants hold")
		}
		return err.Error()
	}
	t.Run("a deleted stack's resource not deleted", func(t *testing.T) {
		e, old := setup(t)
		got := mutate(t, e, func(tx *txn) {
			rec := tx.Resource(old.Num, "Gone").Clone()
			rec.ResourceStatus = statemachine.ResourceStatusDeleteFailed
			tx.PutResource(rec)
		})
		if want := "resources/old/Gone: it is DELETE_FAILED, but its stack is DELETE_COMPLETE"; !strings.Contains(got, want) {
			t.Fatalf("got %s, want %q", got, want)
		}
	})
	t.Run("a live resource's object released", func(t *testing.T) {
		e, _ := setup(t)
		got := mutate(t, e, func(tx *txn) {
			st := tx.FindStack("live")
			rec := tx.Resource(st.Num, "Gone")
			tx.Put(&store.ReleasedRecord{Type: rec.ResourceType, PhysicalId: rec.PhysicalResourceId, StackId: st.StackId, LogicalId: "Gone", Why: releaseRetained})
		})
		if want := "resources/live/Gone: its physical resource arn:aws:sns:us-east-1:123456789012:live-Gone-"; !strings.Contains(got, want) || !strings.Contains(got, "also released (retained from Gone of live)") {
			t.Fatalf("got %s, want %q ... also released", got, want)
		}
	})
	t.Run("an object two resources own", func(t *testing.T) {
		e, old := setup(t)
		got := mutate(t, e, func(tx *txn) {
			st := tx.FindStack("live")
			kept := tx.Resource(old.Num, "Kept")
			if rel := tx.Released(kept.ResourceType, kept.PhysicalResourceId); rel != nil {
				tx.Del(store.TReleased, rel.Key())
			}
			for _, id := range []string{"Kept", "Gone"} {
				rec := tx.Resource(st.Num, id).Clone()
				rec.PhysicalResourceId = kept.PhysicalResourceId
				tx.PutResource(rec)
			}
		})
		if want := "resources/live/Kept: its physical resource " + "arn:aws:sns:us-east-1:123456789012:old-Kept-"; !strings.Contains(got, want) || !strings.Contains(got, "is also resources/live/Gone's") {
			t.Fatalf("got %s, want %q ... is also resources/live/Gone's", got, want)
		}
	})
}
