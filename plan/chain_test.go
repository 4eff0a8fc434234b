package plan

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// permutations returns every order of names.
func permutations(names []string) [][]string {
	if len(names) <= 1 {
		return [][]string{append([]string(nil), names...)}
	}
	var out [][]string
	for i, n := range names {
		rest := append(append([]string(nil), names[:i]...), names[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{n}, p...))
		}
	}
	return out
}

// chainTemplate writes the chain C needs B needs A in the given order, B
// through DependsOn and C through Fn::GetAtt.
func chainTemplate(order []string) string {
	body := map[string]string{
		"A": "  A:\n    Type: AWS::SQS::Queue\n",
		"B": "  B:\n    Type: AWS::SQS::Queue\n    DependsOn: A\n",
		"C": "  C:\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: !GetAtt B.Arn\n",
	}
	var b strings.Builder
	b.WriteString("Resources:\n")
	for _, n := range order {
		b.WriteString(body[n])
	}
	return b.String()
}

func stepNames(p *Plan) []string {
	var out []string
	for _, s := range p.Steps {
		out = append(out, s.LogicalID)
	}
	return out
}

// TestChainEveryOrder: for the chain A←B←C, every ordering of the template
// creates A, B, C (one at a time) and deletes C, B, A (BEHAVIOUR.md §4).
func TestChainEveryOrder(t *testing.T) {
	for _, order := range permutations([]string{"A", "B", "C"}) {
		t.Run(strings.Join(order, ""), func(t *testing.T) {
			b := bindTemplate(t, "chain.yaml", []byte(chainTemplate(order)), nil)
			create, err := ForCreate(b)
			if err != nil {
				t.Fatal(err)
			}
			checkPlan(t, create)
			if got := stepNames(create); !reflect.DeepEqual(got, []string{"A", "B", "C"}) {
				t.Errorf("create order %v, want [A B C]", got)
			}
			if got := create.Levels(PhaseCreate); !reflect.DeepEqual(got, [][]int{{1}, {2}, {3}}) {
				t.Errorf("create levels %v", got)
			}
			w := newWorld(nil)
			del := ForDelete(w.deploy(t, b, nil), nil)
			checkPlan(t, del)
			if got := stepNames(del); !reflect.DeepEqual(got, []string{"C", "B", "A"}) {
				t.Errorf("delete order %v, want [C B A]", got)
			}
			if got := del.Levels(PhaseDelete); len(got) != 3 {
				t.Errorf("delete levels %v, want three", got)
			}
			// The rollback of the whole create deletes C, B, A too.
			var j Journal
			for _, s := range create.Steps {
				j = append(j, Entry{Step: s.ID, LogicalID: s.LogicalID, Outcome: Done, NewPhysicalID: s.LogicalID + "-1"})
			}
			rb, err := Rollback(create, j, RollbackOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkPlan(t, rb)
			if got := stepNames(rb); !reflect.DeepEqual(got, []string{"C", "B", "A"}) {
				t.Errorf("rollback order %v, want [C B A]", got)
			}
		})
	}
}

// TestIndependentResourcesRunAtOnce: resources that do not depend on each
// other share a level, whatever their number.
func TestIndependentResourcesRunAtOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("Resources:\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "  Q%02d:\n    Type: AWS::SQS::Queue\n", i)
	}
	p, err := ForCreate(bindTemplate(t, "flat.yaml", []byte(b.String()), nil))
	if err != nil {
		t.Fatal(err)
	}
	if l := p.Levels(PhaseCreate); len(l) != 1 || len(l[0]) != 20 {
		t.Errorf("levels %v, want one level of 20", l)
	}
}
