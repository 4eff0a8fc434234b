// Package template parses, validates and evaluates CloudFormation templates.
//
// It owns JSON and YAML parsing (short-form tags normalised to their long
// form, line:column kept for every node), the checks CloudFormation makes when
// a template is submitted, parameters and their binding, rules, mappings,
// conditions, intrinsic functions, pseudo parameters, and the references each
// resource and output makes.
//
// It must not know about stacks or handlers: live values reach it through the
// Resolver interface, which the engine implements.
//
// # The three steps
//
//   - Parse(name, body) reads the body (JSON first, then YAML, as
//     CloudFormation does) into a tree of Nodes and runs ValidateTemplate's
//     checks: sections, names, nulls, quotas, the shape of every intrinsic
//     function and where it may appear, unresolved references and
//     dependency cycles. The result is a Template: Parameters, Mappings,
//     Conditions, Rules, Resources and Outputs in template order, with
//     lookups by name and the References of each resource and output.
//   - (*Template).Bind(BindInput) gives the parameters their values
//     (defaults, UsePreviousValue, SSM parameter types), checks them against
//     their types and constraints, asserts the Rules, evaluates the
//     Conditions, picks the resources and outputs that exist, checks the
//     references they make in this binding and resolves intrinsic
//     DeletionPolicy and UpdateReplacePolicy. A Bound is read-only and safe
//     for concurrent use.
//   - (*Bound).Properties, OutputValue, ExportName and Resolve evaluate
//     intrinsic functions against a Resolver. A value not known yet is an
//     Unknown, which every function of it propagates; AWS::NoValue removes
//     the property, list element or field that holds it.
//
// # Errors
//
// Every fault is an *Error with the file, line, column and JSON path it
// comes from and AWS's wording ("Template format error: ..."); a pass
// returns all of its faults at once (Errors, sorted by position). What
// Parse does not run (transforms other than AWS::LanguageExtensions and
// Fn::Transform, which package transforms runs first; modules; Hooks)
// wraps ErrUnsupported.
//
// # Trees for transforms
//
// ParseTree reads a body into a tree without Parse's checks;
// DeclaredTransforms, SnippetTransforms, DeclaredParameters,
// ParameterValues, ExpandForEach and ResolveKnown read and evaluate what
// transforms need,
// and (*Node).JSON writes a tree back, in its order, as the processed
// template Parse then reads.
//
// # YAML
//
// Plain scalars are typed as written in scalars.go: YAML 1.1 booleans
// (yes/no/on/off) are booleans, as CloudFormation reads them; dates,
// leading-zero, octal and hex numbers stay strings with their literal text;
// numbers keep their literal. Anchors, aliases (expanded into copies, with
// a bound on their size) and merge keys work; a body is one document.
//
// # Parsing fast
//
// A 500-resource template parses and validates in a few milliseconds:
//
//   - JSON is read by a byte-level scanner (parse_json.go): blanks and
//     string runs eight bytes at a time, no allocation per value, positions
//     from offsets (newlines only occur between tokens).
//   - YAML goes first through a fast path (yfast*.go) for the YAML that
//     CloudFormation templates are written in: block mappings and
//     sequences, plain, quoted and block scalars, flow collections,
//     comments, a leading ---, short-form tags and the standard scalar
//     tags. It builds the same tree, with the same positions, as the
//     go.yaml.in/yaml/v4 path (parse_yaml.go), which it falls back to on
//     anything else or anything it is not certain of: anchors, aliases and
//     merge keys, complex keys, directives and several documents, tabs,
//     carriage returns and special characters, empty values, duplicate or
//     tagged keys, unknown tags, and every malformed body (so YAML errors
//     are always the library's). FuzzYAMLFastPath holds the two paths equal.
//   - Both build into an arena (arena.go) sized from the body: nodes,
//     member and item lists in blocks, strings copied into pointer-free
//     text blocks. Nodes carry what their subtree holds
//     (nulls, calls, Fn::Transform), so the checks skip what cannot concern
//     them.
//
// # AWS::LanguageExtensions
//
// Fn::ForEach loops are expanded before the sections are read: at Parse with
// the parameters' defaults, and again at Bind when a loop's collection
// depends on a parameter's value ((*Bound).Template is then the expanded
// template). Fn::Length, Fn::ToJsonString and Fn::FindInMap's DefaultValue
// are evaluated with the other functions. When other transforms follow it,
// they read the template with its loops expanded and the Refs and Fn::Subs
// of known values (parameters, pseudo parameters) resolved (ResolveKnown),
// as AWS's transform resolves what it knows before them: the SAM
// translator then reads a CodeUri built with Fn::Sub as the URI it is.
//
// # Rules
//
// Fn::RefAll, Fn::ValueOf and Fn::ValueOfAll read the account's resources;
// stacksim has none, so an assertion that needs them is not enforced.
package template
