package resources

import (
	"embed"
	"io/fs"
	"sort"
)

// The embedded schemas are stacksim's own, written from the facts of the
// registry's (property names and types, identifiers, createOnly, readOnly,
// writeOnly) with an x-stacksim section that says how the simulation names
// and fills each type. They are parsed per registry, on first use.
//
//go:embed schemas/*.json
var embeddedFS embed.FS

// EmbeddedTypes lists the types stacksim simulates out of the box, sorted.
func EmbeddedTypes() []string {
	entries, _ := fs.ReadDir(embeddedFS, "schemas")
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		data, err := embeddedFS.ReadFile("schemas/" + e.Name())
		if err != nil {
			continue
		}
		if s, err := ParseSchema("embedded:"+e.Name(), data); err == nil {
			out = append(out, s.TypeName)
		}
	}
	sort.Strings(out)
	return out
}

// EmbeddedSchema parses the embedded schema of a type; ok is false when
// stacksim embeds none.
func EmbeddedSchema(typeName string) (s *Schema, ok bool, err error) {
	name := SchemaFileName(typeName)
	data, rerr := embeddedFS.ReadFile("schemas/" + name)
	if rerr != nil {
		return nil, false, nil
	}
	s, err = ParseSchema("embedded:"+name, data)
	if err != nil {
		return nil, true, err
	}
	if s.TypeName != typeName { // the file name is lower-cased; the type is not
		return nil, false, nil
	}
	return s, true, nil
}
