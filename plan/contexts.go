package plan

import (
	"encoding/json"
	"strings"

	"github.com/stacksim/stacksim/template"
)

// A change set's BeforeContext and AfterContext: the properties of a
// resource before and after the change, as JSON text
// ({"Properties":{...}}), values not known yet as KnownAfterApply, values
// from a NoEcho parameter as "****". Recorded from AWS in LocalStack's
// AWS-validated snapshots (test_change_set_parameters.snapshot.json,
// test_change_set_fn_get_attr.snapshot.json, 2025-04): Add has an
// AfterContext only (a Ref of a new resource shows
// {{changeSet:KNOWN_AFTER_APPLY}}), Modify both, Remove a BeforeContext.
//
// Contexts are made only when asked (UpdateInput.Contexts, CreateContexts:
// change sets) and are not part of a plan's JSON: a change set keeps them
// in its Changes.

// Context is one step's BeforeContext and AfterContext.
type Context struct {
	Before, After string
}

// contextOf renders properties as a context: "" for none (a resource
// without properties shows {"Properties":{}}).
func contextOf(props map[string]any, secret map[string]bool) string {
	shown := make(map[string]any, len(props))
	for k, v := range props {
		if secret[k] {
			shown[k] = "****"
			continue
		}
		shown[k] = showable(v)
	}
	b, err := json.Marshal(map[string]any{"Properties": shown})
	if err != nil {
		return ""
	}
	return string(b)
}

// secretProperties names the top-level properties of a resource whose
// value comes from a NoEcho parameter.
func secretProperties(b Bound, logicalID string, noEcho map[string]bool) map[string]bool {
	if len(noEcho) == 0 {
		return nil
	}
	var out map[string]bool
	for _, r := range references(b, logicalID) {
		if r.Kind != template.RefParameter || !noEcho[r.Target] || !strings.HasPrefix(r.Path, "/Properties/") {
			continue
		}
		name := strings.TrimPrefix(r.Path, "/Properties/")
		if i := strings.IndexByte(name, '/'); i >= 0 {
			name = name[:i]
		}
		name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
		if out == nil {
			out = map[string]bool{}
		}
		out[name] = true
	}
	return out
}

// allUnknown answers every Ref and Fn::GetAtt of a stack being created:
// nothing exists yet.
type allUnknown struct{ live template.Resolver }

func (a allUnknown) Ref(id string) (any, error) { return template.Unknown{LogicalID: id}, nil }
func (a allUnknown) GetAtt(id, att string) (any, error) {
	return template.Unknown{LogicalID: id, Attribute: att}, nil
}
func (a allUnknown) ImportValue(name string) (any, error) {
	if a.live == nil {
		return template.Unknown{Export: name}, nil
	}
	return a.live.ImportValue(name)
}

// CreateContexts fills the AfterContext of every step of a create plan
// (a CREATE change set), each resource's properties resolved with every
// resource not known yet; live answers Fn::ImportValue (nil: not known).
func CreateContexts(p *Plan, desired Bound, live template.Resolver) error {
	noEcho := map[string]bool{}
	for _, prm := range desired.Parameters() {
		if prm.NoEcho {
			noEcho[prm.Key] = true
		}
	}
	p.Contexts = make(map[int]Context, len(p.Steps))
	for _, s := range p.Steps {
		props, err := desired.Properties(s.LogicalID, allUnknown{live})
		if err != nil {
			return err
		}
		p.Contexts[s.ID] = Context{After: contextOf(props, secretProperties(desired, s.LogicalID, noEcho))}
	}
	return nil
}
