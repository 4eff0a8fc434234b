package resources

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stacksim/stacksim/resources/internal/schemapack"
)

// TestRegistryPackCurrent regenerates the registry pack from
// ../shared/schemas/us-east-1 in memory and compares every type's facts
// with the committed pack (by content: the compressed bytes may differ
// between Go versions).
func TestRegistryPackCurrent(t *testing.T) {
	dir := sharedDir(t, "schemas/us-east-1")
	entries, err := schemapack.FromDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := registryPack()
	if err != nil {
		t.Fatal(err)
	}
	stale := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("resources/registry/us-east-1.pack is stale (%s): run `make registry` and commit it", fmt.Sprintf(format, args...))
	}
	if got := p.Names(); len(got) != len(entries) {
		stale("%d types in the pack, %d in %s", len(got), len(entries), dir)
	}
	for i, e := range entries {
		if p.Names()[i] != e.Name {
			stale("type %d is %s in the pack, %s in the schemas", i, p.Names()[i], e.Name)
		}
		doc, _, err := p.Doc(e.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(doc, e.Doc) {
			stale("%s differs", e.Name)
		}
	}
	if len(entries) < 1500 {
		t.Fatalf("%d registry types; the registry has more than 1,500", len(entries))
	}
}

// TestRegistrySchemasParse parses every type of the pack and compiles its
// validators in full — every tenth type with -race or -short (make test
// runs the whole without -race): every one must be usable, and each
// overlay must fit its type.
func TestRegistrySchemasParse(t *testing.T) {
	types := RegistryTypes()
	every := 1
	if raceEnabled || testing.Short() {
		every = 10
	}
	for i, typ := range types {
		s, ok, err := RegistrySchema(typ)
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", typ, ok, err)
		}
		if s.TypeName != typ || len(s.PrimaryIdentifier) == 0 {
			t.Fatalf("%s: %+v", typ, s)
		}
		if i%every == 0 {
			if err := s.CompileError(); err != nil {
				t.Errorf("%s: %v", typ, err)
			}
		}
	}
	ov, err := OverlayTypes()
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range ov {
		if !InRegistry(typ) {
			t.Errorf("overlay of %s: not a registry type", typ)
		}
		if _, ok, _ := EmbeddedSchema(typ); ok {
			t.Errorf("overlay of %s: the type has an embedded schema, which wins", typ)
		}
	}
}
