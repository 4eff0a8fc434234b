package plan

import (
	"testing"
)

// TestFixtures plans every fixture directory and compares the printed plan
// and, for creates and updates, the change set with golden files.
func TestFixtures(t *testing.T) {
	for _, name := range []string{
		"create-chain",
		"update-sequence-c",
		"update-replace-cascade",
		"update-conditions",
		"update-policies",
		"update-delete-then-create",
		"update-conditional-createonly",
		"update-custom-resource",
		"update-failed-states",
		"update-parameters",
		"update-nested-stack",
		"update-no-changes",
		"delete-policies",
	} {
		t.Run(name, func(t *testing.T) {
			tc := loadCase(t, name)
			var p *Plan
			switch {
			case tc.before == nil:
				var err error
				if p, err = ForCreate(tc.after); err != nil {
					t.Fatal(err)
				}
				checkPlan(t, p)
			case tc.after == nil:
				p = ForDelete(tc.deployed, tc.conf.Retain)
				checkPlan(t, p)
			default:
				p = tc.update(t)
			}
			golden(t, name+"/plan.golden", []byte(p.String()))
			if p.Operation != OpDelete {
				golden(t, name+"/changes.golden.json", changesJSON(t, p))
			}
		})
	}
}
