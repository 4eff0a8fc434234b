package statemachine

import "testing"

// One transition, including obtaining the machine (a pooled *fsm.FSM):
// what the engine pays per status change.
func BenchmarkStackTransition(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FireStack("my-stack", StackStatusUpdateInProgress, StackUpdateSucceeded); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResourceTransition(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FireResource("Topic", ResourceStatusCreateInProgress, ResourceCreateSucceeded); err != nil {
			b.Fatal(err)
		}
	}
}

// The engine drives many resources at once: the pool must not serialise
// them.
func BenchmarkResourceTransitionParallel(b *testing.B) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := FireResource("Topic", ResourceStatusCreateInProgress, ResourceCreateSucceeded); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A refused event builds a *TransitionError: the slow path, still cheap.
func BenchmarkResourceTransitionRefused(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FireResource("Topic", ResourceStatusDeleteComplete, ResourceCreate); err == nil {
			b.Fatal("accepted")
		}
	}
}

// A whole resource life, NotExist to DELETE_COMPLETE, for 10,000 resources:
// the transitions of one large operation.
func BenchmarkResourceLifecycle10000(b *testing.B) {
	steps := []ResourceEvent{ResourceCreate, ResourceCreateSucceeded, ResourceUpdate, ResourceUpdateSucceeded, ResourceDelete, ResourceDeleteSucceeded}
	b.ReportAllocs()
	for b.Loop() {
		for range 10000 {
			var s ResourceStatus = NotExist
			for _, ev := range steps {
				var err error
				if s, err = FireResource("R", s, ev); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
