// Package jsonvalue writes values of the JSON data model in Go
// (map[string]any, []any, string, json.Number, bool; see
// docs/architecture.md, "Values") as JSON text, byte for byte as
// encoding/json.Marshal writes them (keys sorted, HTML characters and
// U+2028/U+2029 escaped, invalid UTF-8 as U+FFFD), without reflection.
//
// The state file writes every resource's properties and model on a save,
// and an event's properties once per map: encoding/json's reflection and
// its map sorting were a third of a 500-resource create's save. A value
// of any other Go type is handed to encoding/json, so the output is always
// what encoding/json would have written (TestMatchesEncodingJSON,
// FuzzMatchesEncodingJSON).
//
// It also reads: AppendEscape and AppendUnquoted decode a
// JSON string's body as encoding/json does, for the module's hand-written
// parsers, which must read what they read alike (FuzzString).
//
// It imports nothing of this module.
package jsonvalue
