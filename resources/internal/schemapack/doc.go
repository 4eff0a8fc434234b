// Package schemapack is stacksim's own compact form of the CloudFormation
// registry's resource schemas: the facts the simulation and the contract
// checker use, one document per type, each compressed on its own so that a
// process decompresses only the types it uses.
//
// Reduce turns one registry schema into its fact document: the registry's
// vocabulary (so that resources.ParseSchema reads it unchanged), keeping
// only typeName, the property classes (primaryIdentifier,
// additionalIdentifiers, createOnly, conditionalCreateOnly, readOnly,
// writeOnly, deprecated), replacementStrategy, tagging, handler timeouts,
// required, additionalProperties, and the properties and definitions with
// the keywords that say what a value is (type, $ref, properties,
// patternProperties, additionalProperties, items, required, enum, const,
// pattern, format, lengths, bounds, item counts, uniqueItems,
// insertionOrder), the boolean subschemas (oneOf, anyOf, allOf, not; at
// the top level too), which the input validator applies and whose first
// alternative the value generator takes the members of, and the
// conditionals (if, then, else) and dependencies, which the input
// validator applies. Descriptions, examples and relationship references
// are left out. The document is canonical JSON: keys sorted, no
// spaces, so that generating twice gives the same bytes.
//
// A pack (Encode, Open) is:
//
//	"stacksim-schemas" 0x00 VERSION
//	uvarint len(dict) dict             the preset DEFLATE dictionary
//	uvarint n                          the number of types
//	n × (uvarint len(name) name uvarint len(blob))   sorted by name
//	the n blobs, in the same order     raw DEFLATE of each document
//
// The dictionary is made of the fragments most documents share (Tag
// definitions, {"type":"string"}...), so that small documents compress as
// well as the whole set would.
//
// The generator (resources/internal/registrygen, `make registry`) reads
// ../shared/schemas/us-east-1 and writes resources/registry/us-east-1.pack;
// a test of package resources regenerates it in memory and fails when the
// committed pack is stale.
package schemapack
