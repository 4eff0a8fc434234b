package resources

import "testing"

// Every pattern of the registry's schemas compiles with one engine or the
// other, so that none fails its schema (Schema.Check).
func TestRegistryPatternsCompile(t *testing.T) {
	seen, java := map[string]bool{}, 0
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if p, ok := e.(string); ok && k == "pattern" && !seen[p] {
					seen[p] = true
					c := compilePattern(p)
					if c.err != nil {
						t.Errorf("pattern %q compiles with neither engine: %v", p, c.err)
					}
					if c.goForm {
						java++
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, typ := range RegistryTypes() {
		s, _, err := RegistrySchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		walk(s.document())
	}
	t.Logf("%d patterns, %d of them on regexp2", len(seen), java)
	if java == 0 {
		t.Fatal("no pattern ran on regexp2: the registry has lookaheads")
	}
}
