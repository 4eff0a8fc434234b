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
package template
