package engine

import "testing"

// The plan indexes are a cache of the plans that tasks run: an operation
// at rest leaves none behind (they kept every finished operation's plan,
// hundreds of bytes per resource, alive in a long-lived serve).
func TestPlanIndexDroppedAtRest(t *testing.T) {
	e := opsEngine(t)
	for _, op := range []struct {
		name string
		run  func()
	}{
		{"create", func() { benchCreate(t, e, 50) }},
		{"update (10% replaced, with a cleanup phase)", func() { benchUpdate(t, e, 50) }},
		{"delete", func() { benchDelete(t, e) }},
	} {
		op.run()
		if n := len(e.plans); n != 0 {
			t.Errorf("after the %s at rest: %d plan index(es) kept", op.name, n)
		}
	}
}
