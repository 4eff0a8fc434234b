package plan

import (
	"reflect"
	"testing"
)

// The two views of a change set's details: with IncludePropertyValues (as
// the plan keeps them) and without (WithoutValues), each as AWS gives it.
func TestDetailsWithoutValues(t *testing.T) {
	tgt := func(name string) Target {
		return Target{Attribute: ScopeProperties, Name: name, RequiresRecreation: Never,
			BeforeValue: "a", AfterValue: "b", AttributeChangeType: ChangeModify, Path: "/Properties/" + name}
	}
	bare := func(name string) Target {
		return Target{Attribute: ScopeProperties, Name: name, RequiresRecreation: Never}
	}
	cases := []struct {
		name string
		in   []Detail
		want []Detail
	}{
		{"parameter: ParameterReference first, then DirectModification/Dynamic",
			[]Detail{{Target: tgt("P"), Evaluation: Dynamic, ChangeSource: DirectModification},
				{Target: tgt("P"), Evaluation: Static, ChangeSource: ParameterReference, CausingEntity: "Env"}},
			[]Detail{{Target: bare("P"), Evaluation: Static, ChangeSource: ParameterReference, CausingEntity: "Env"},
				{Target: bare("P"), Evaluation: Dynamic, ChangeSource: DirectModification}}},
		{"Fn::GetAtt: one ResourceAttribute detail, Dynamic",
			[]Detail{{Target: tgt("V"), Evaluation: Dynamic, ChangeSource: DirectModification},
				{Target: tgt("V"), Evaluation: Static, ChangeSource: ResourceAttribute, CausingEntity: "Foo.Arn"}},
			[]Detail{{Target: bare("V"), Evaluation: Dynamic, ChangeSource: ResourceAttribute, CausingEntity: "Foo.Arn"}}},
		{"Ref: one ResourceReference detail, Static",
			[]Detail{{Target: tgt("V"), Evaluation: Dynamic, ChangeSource: DirectModification},
				{Target: tgt("V"), Evaluation: Static, ChangeSource: ResourceReference, CausingEntity: "Foo"}},
			[]Detail{{Target: bare("V"), Evaluation: Static, ChangeSource: ResourceReference, CausingEntity: "Foo"}}},
		{"a direct change stays, each property on its own",
			[]Detail{{Target: tgt("A"), Evaluation: Static, ChangeSource: DirectModification},
				{Target: tgt("B"), Evaluation: Dynamic, ChangeSource: DirectModification},
				{Target: tgt("B"), Evaluation: Static, ChangeSource: ResourceReference, CausingEntity: "Foo"}},
			[]Detail{{Target: bare("A"), Evaluation: Static, ChangeSource: DirectModification},
				{Target: bare("B"), Evaluation: Static, ChangeSource: ResourceReference, CausingEntity: "Foo"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := detailsWithoutValues(c.in); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
	// An Add: Replacement True and its AfterContext with values only.
	changes := []Change{{Type: "Resource", ResourceChange: &ResourceChange{Action: ChangeAdd, Replacement: ReplacementTrue,
		AfterContext: `{"Properties":{}}`, Scope: []string{}, Details: []Detail{}}}}
	rc := WithoutValues(changes)[0].ResourceChange
	if rc.Replacement != "" || rc.AfterContext != "" || changes[0].ResourceChange.AfterContext == "" {
		t.Errorf("Add without values: %+v (the original changed: %+v)", rc, changes[0].ResourceChange)
	}
}
