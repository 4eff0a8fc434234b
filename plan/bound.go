package plan

import "github.com/stacksim/stacksim/template"

// Bound is what the planner reads of the template an operation works
// towards. *template.Bound satisfies it; tests and benchmarks may give
// something else (a stack larger than the template quotas allow, say).
type Bound interface {
	// Resources are the resources that exist in the binding, in template
	// order (only LogicalID and Type are read).
	Resources() []*template.Resource
	// Enabled tells whether a resource exists in the binding.
	Enabled(logicalID string) bool
	// DependsOn are a resource's dependencies (DependsOn, Ref, Fn::GetAtt,
	// Fn::Sub; Fn::If branches not taken left out).
	DependsOn(logicalID string) []string
	// DeletionPolicy and UpdateReplacePolicy ("Delete" when unset).
	DeletionPolicy(logicalID string) string
	UpdateReplacePolicy(logicalID string) string
	// Properties resolves a resource's properties against r.
	Properties(logicalID string, r template.Resolver) (map[string]any, error)
	// ResourceAttribute resolves "Metadata", "CreationPolicy" or
	// "UpdatePolicy" (nil when unset).
	ResourceAttribute(logicalID, attribute string, r template.Resolver) (any, error)
	// Parameters are the parameters with their values.
	Parameters() []template.BoundParameter
	// Template is the template, for the references of each resource (the
	// sources of a change-set's details); nil when there is none.
	Template() *template.Template
}

var _ Bound = (*template.Bound)(nil)

// references returns what a resource refers to, with paths.
func references(b Bound, logicalID string) []template.Reference {
	if t := b.Template(); t != nil {
		return t.References(logicalID)
	}
	return nil
}
