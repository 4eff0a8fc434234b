package resources

import (
	_ "embed"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/agnivade/levenshtein"

	"github.com/stacksim/stacksim/resources/internal/schemapack"
)

// The registry's facts: every AWS resource type of the CloudFormation
// registry (us-east-1), in stacksim's own compact form
// (resources/internal/schemapack), generated from ../shared/schemas by
// `make registry` and checked current by TestRegistryPackCurrent. The index
// is read on first use (a few hundred microseconds); a type's document is
// decompressed and parsed when the type is first used, and its validators
// are compiled when a model of it is first checked, so that a command pays
// only for the types it touches.
//
//go:embed registry/us-east-1.pack
var registryPackData []byte

var (
	packOnce sync.Once
	pack     *schemapack.Pack
	packErr  error

	// packSchemas caches the parsed schemas of the pack for the process:
	// a Schema is read-only once made (its validators compile once), so
	// every registry shares it.
	packMu      sync.Mutex
	packSchemas = map[string]*packEntry{}
)

type packEntry struct {
	once sync.Once
	s    *Schema
	err  error
}

func registryPack() (*schemapack.Pack, error) {
	packOnce.Do(func() { pack, packErr = schemapack.Open(registryPackData) })
	return pack, packErr
}

// RegistryTypes lists every type of the AWS registry that stacksim knows
// without flags, sorted.
func RegistryTypes() []string {
	p, err := registryPack()
	if err != nil {
		return nil
	}
	return append([]string(nil), p.Names()...)
}

// InRegistry reports whether a type is one of the AWS registry's.
func InRegistry(typeName string) bool {
	p, err := registryPack()
	return err == nil && p.Has(typeName)
}

// RegistrySchema is the registry's schema of a type, with stacksim's
// simulation overlay for it when it has one (resources/overlays); ok is
// false when the registry has no such type.
func RegistrySchema(typeName string) (s *Schema, ok bool, err error) {
	p, err := registryPack()
	if err != nil {
		return nil, false, err
	}
	if !p.Has(typeName) {
		return nil, false, nil
	}
	packMu.Lock()
	e := packSchemas[typeName]
	if e == nil {
		e = &packEntry{}
		packSchemas[typeName] = e
	}
	packMu.Unlock()
	e.once.Do(func() {
		doc, _, err := p.Doc(typeName)
		if err != nil {
			e.err = err
			return
		}
		e.s, e.err = parseRegistryDoc(typeName, doc)
	})
	return e.s, e.err == nil && e.s != nil, e.err
}

// parseRegistryDoc parses a pack document and lays the type's overlay on it.
func parseRegistryDoc(typeName string, doc []byte) (*Schema, error) {
	s, err := ParseSchema("registry:"+typeName, doc)
	if err != nil {
		return nil, err
	}
	ov, err := overlayOf(typeName)
	if err != nil {
		return nil, err
	}
	if ov != nil {
		if err := ov.check(s); err != nil {
			return nil, fmt.Errorf("overlay of %s: %w", typeName, err)
		}
		s.layOverlay(ov)
	}
	return s, nil
}

// layOverlay makes an overlay the schema's simulation rules.
func (s *Schema) layOverlay(ov *simulation) {
	s.sim = ov
	s.overlaid = true
	s.addSegs(ov)
}

// overlaidDirSchema lays the type's overlay on a schema of SchemaDir that
// has no x-stacksim section of its own: a registry schema given with
// --schemas (cfn-lint's copy, a newer one) is simulated as the registry's
// own is (a nested stack's Outputs.NAME, an EIP's Ref), not with the
// rules inferred from the schema alone. A schema the overlay does not fit
// (the user's own, without the properties the overlay names) is kept as
// it is.
func overlaidDirSchema(s *Schema) (*Schema, error) {
	if s == nil || s.sim != nil {
		return s, nil
	}
	ov, err := overlayOf(s.TypeName)
	if err != nil || ov == nil || ov.check(s) != nil {
		return s, err
	}
	s.layOverlay(ov)
	return s, nil
}

// UnrecognizedTypeError is a type that is neither in the registry nor
// registered (no handler, no --schemas file) while permissive types are off.
type UnrecognizedTypeError struct{ TypeName string }

func (e *UnrecognizedTypeError) Error() string {
	return fmt.Sprintf("Unrecognized resource type %s: it is not in the CloudFormation registry stacksim knows; register a handler for it, give its schema with --schemas DIR, or simulate unknown types permissively with --permissive-types", e.TypeName)
}

// IsUnrecognizedType tells whether err is an *UnrecognizedTypeError.
func IsUnrecognizedType(err error) bool {
	var u *UnrecognizedTypeError
	return errors.As(err, &u)
}

// SimilarTypes are the registry's types closest to a misspelt one, for a
// suggestion (at most three, closest first; case is ignored).
func SimilarTypes(typeName string) []string {
	p, err := registryPack()
	if err != nil {
		return nil
	}
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, n := range p.Names() {
		if d := levenshtein.ComputeDistance(strings.ToLower(typeName), strings.ToLower(n)); d <= 3 {
			cs = append(cs, cand{n, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		if i > 0 && cs[0].d == 0 && cs[i].d > 0 {
			break // the same name but for case: that one
		}
		out = append(out, cs[i].name)
	}
	return out
}
