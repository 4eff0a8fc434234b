package resources

import (
	"sort"
	"strings"
)

// genSpec is a value the generic provider makes from the schema when a new
// model lacks it: a read-only property (an attribute), or a part of the
// primary identifier the template may leave out.
type genSpec struct {
	path   string
	segs   []string
	schema map[string]any
	req    genRequest
	// parents: the objects above the value may be made (they hold only
	// read-only members, as Compliance holds Type); otherwise the value is
	// made only where its parent exists.
	parents bool
}

// compileGens lists what a type's new models get generated: the primary
// identifier's parts first (an ARN may end with the id), then the other
// read-only properties, ARNs last. Pointers into arrays ("*") are left
// out: their items are the template's.
func compileGens(s *Schema, sim *simulation) []genSpec {
	named := ""
	if sim.Name != nil {
		named = "/properties/" + sim.Name.Property
	}
	var first, middle, last []genSpec
	seen := map[string]bool{}
	add := func(p string, attribute bool) {
		segs := SplitPointer(p)
		if seen[p] || len(segs) == 0 || contains(segs, "*") || p == named {
			return
		}
		seen[p] = true
		ps := s.PropertySchema(p)
		if ps == nil {
			return
		}
		name := segs[len(segs)-1]
		g := genSpec{path: p, segs: segs, schema: ps, parents: len(segs) == 1 || parentsReadOnly(s, segs),
			req: genRequest{path: p, name: name, attribute: attribute, gen: "gen:" + p}}
		lname := strings.ToLower(name)
		switch {
		case contains(s.PrimaryIdentifier, p):
			g.req.own = true
			g.parents = true // an identifier is always there
			first = append(first, g)
		case strings.HasSuffix(lname, "arn"):
			last = append(last, g)
		default:
			middle = append(middle, g)
		}
	}
	for _, p := range s.PrimaryIdentifier {
		add(p, s.IsReadOnly(p))
	}
	ro := append([]string(nil), s.ReadOnlyProperties...)
	sort.Strings(ro) // parents before their members
	for _, p := range ro {
		add(p, true)
	}
	return append(append(first, middle...), last...)
}

// parentsReadOnly tells whether every object above a nested pointer holds
// only read-only members (or is read-only itself), so that making it does
// not put a property the template did not set into the model.
func parentsReadOnly(s *Schema, segs []string) bool {
	for i := 1; i < len(segs); i++ {
		anc := JoinPointer(segs[:i])
		if segs[i-1] == "*" {
			return false
		}
		if s.IsReadOnly(anc) {
			continue
		}
		ps := s.PropertySchema(anc)
		props, _ := ps["properties"].(map[string]any)
		if len(props) == 0 {
			return false
		}
		for m := range props {
			if !s.IsReadOnly(anc + "/" + m) {
				return false
			}
		}
	}
	return true
}

// generateMissing makes what the model lacks of the type's genSpecs.
func (g *generic) generateMissing(e *env) {
	for i := range g.gens {
		sp := &g.gens[i]
		if hasSegs(e.model, sp.segs) {
			continue
		}
		if !sp.parents && len(sp.segs) > 1 && !hasSegs(e.model, sp.segs[:len(sp.segs)-1]) {
			continue
		}
		v, ok := g.vg.value(e, sp.schema, sp.req, 0)
		if !ok {
			continue
		}
		e.model = setCopying(e.model, sp.segs, v)
	}
}

// setCopying sets a value at a pointer of a model the caller made, copying
// (not changing) the objects on the way, which may be shared with a
// request, and making those that are missing. A pointer that crosses a
// non-object leaves the model as it is.
func setCopying(model map[string]any, segs []string, v any) map[string]any {
	if len(segs) == 1 {
		model[segs[0]] = v
		return model
	}
	var child map[string]any
	switch t := model[segs[0]].(type) {
	case nil:
		child = map[string]any{}
	case map[string]any:
		child = make(map[string]any, len(t)+1)
		for k, x := range t {
			child[k] = x
		}
	default:
		return model
	}
	model[segs[0]] = setCopying(child, segs[1:], v)
	return model
}

// fitName makes a generated name fit the name property's pattern, as AWS's
// generated names do: hyphens become underscores, or go, where the
// pattern has no room for them; a name that still does not fit is
// generated from the pattern.
func (g *generic) fitName(e *env, n *nameSpec, name string) string {
	cp := g.name.pattern
	if cp == nil || cp.matches(name) {
		return name
	}
	for _, cand := range []string{strings.ReplaceAll(name, "-", "_"), strings.ReplaceAll(name, "-", "")} {
		if cp.matches(cand) {
			return cand
		}
	}
	if s, ok := cp.generate(e.entropy().stream2("name:", n.Property), g.name.minLen, g.name.maxLen); ok {
		return s
	}
	return name
}

// namePattern is the pattern a name property's schema gives (nil: none)
// and its lengths (maxLen -1: no bound).
type namePattern struct {
	pattern        *compiledPattern
	minLen, maxLen int
}

func namePatternOf(s *Schema, property string) namePattern {
	ps := s.PropertySchema("/properties/" + property)
	pat, _ := ps["pattern"].(string)
	if pat == "" {
		return namePattern{}
	}
	np := namePattern{pattern: compilePattern(pat), maxLen: -1}
	np.minLen, _ = schemaInt(ps, "minLength")
	if m, ok := schemaInt(ps, "maxLength"); ok {
		np.maxLen = m
	}
	return np
}
