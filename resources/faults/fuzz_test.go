package faults

import "testing"

func FuzzLoad(f *testing.F) {
	f.Add([]byte("faults:\n  - match: {logicalId: A, action: [create, update], phase: rollback, attempt: 2}\n    throttle: 3\n"))
	f.Add([]byte("faults:\n  - stall: {callbacks: 2, delaySeconds: 30}\n  - fail: {code: NotFound, after: true}\n    times: always\n"))
	f.Add([]byte(`{"faults": [{"eventualConsistency": {"reads": 1}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inj, err := Load("fuzz.yaml", data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("a load error that is not a *faults.Error: %T %v", err, err)
			}
			return
		}
		for _, f := range inj.Faults() {
			if err := f.check(); err != nil {
				t.Fatalf("loaded an invalid fault: %v", err)
			}
		}
	})
}
