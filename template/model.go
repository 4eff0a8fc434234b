package template

import (
	"strings"

	"github.com/stacksim/stacksim/internal/javapattern"
)

// Template is a parsed and validated template. Sections keep template order;
// lookups by name go through the methods.
type Template struct {
	Name          string
	FormatVersion string
	Description   string
	Metadata      *Node
	Parameters    []*Parameter
	Mappings      []*Mapping
	Conditions    []*Condition
	Rules         []*Rule
	// Transform lists the declared transforms (DeclaredTransforms).
	Transform []string
	Resources []*Resource
	Outputs   []*Output
	// Root is the whole template tree (after AWS::LanguageExtensions, when
	// the template declares it).
	Root *Node

	resources  map[string]*Resource
	logicalIDs []string // of Resources, in order: shared, never changed
	parameters map[string]*Parameter
	conditions map[string]*Condition
	mappings   map[string]*Mapping
	outputs    map[string]*Output

	// raw is the tree as written, kept to expand AWS::LanguageExtensions
	// again against the parameter values of a binding.
	raw *Node
	// loopsNeedParams is set when an Fn::ForEach collection depends on a
	// parameter: Bind expands the template again with the bound values.
	loopsNeedParams bool
}

// Resource is one member of the Resources section.
type Resource struct {
	LogicalID  string
	Type       string
	Properties *Node // nil when the resource has none
	DependsOn  []string
	Condition  string
	// DeletionPolicy and UpdateReplacePolicy as written ("" when absent).
	// Under AWS::LanguageExtensions they may be intrinsic functions: then
	// they are "" here and (*Bound).DeletionPolicy resolves them.
	DeletionPolicy      string
	UpdateReplacePolicy string
	Metadata            *Node
	CreationPolicy      *Node
	UpdatePolicy        *Node
	Pos                 Pos
	Node                *Node

	deletionPolicyNode      *Node
	updateReplacePolicyNode *Node
	refs                    []Reference
	index                   int // template order
}

// HasDeletionPolicy tells whether the template sets the resource's
// DeletionPolicy (as a value or, under AWS::LanguageExtensions, an
// intrinsic function).
func (r *Resource) HasDeletionPolicy() bool {
	return r.DeletionPolicy != "" || r.deletionPolicyNode != nil
}

// Output is one member of the Outputs section.
type Output struct {
	Name        string
	Value       *Node
	Description string
	ExportName  *Node // nil when the output is not exported
	Condition   string
	Pos         Pos
	Node        *Node

	refs []Reference
}

// Parameter is one member of the Parameters section.
type Parameter struct {
	Name       string
	Type       string
	Default    string
	HasDefault bool
	NoEcho     bool
	// AllowedValues, as strings.
	AllowedValues  []string
	AllowedPattern string
	MinLength      *int
	MaxLength      *int
	// MinValue and MaxValue as written (the literal goes in messages).
	MinValue              *string
	MaxValue              *string
	Description           string
	ConstraintDescription string
	Pos                   Pos
	Node                  *Node

	pattern javapattern.Matcher // AllowedPattern, anchored; nil when absent or neither engine compiles it
	kind    paramKind
}

// Condition is one member of the Conditions section.
type Condition struct {
	Name string
	Expr *Node
	Pos  Pos
}

// Mapping is one member of the Mappings section.
type Mapping struct {
	Name string
	Node *Node
	Pos  Pos
}

// Lookup returns the value under key1 and key2, or nil.
func (m *Mapping) Lookup(key1, key2 string) *Node {
	return m.Node.Get(key1).Get(key2)
}

// Rule is one member of the Rules section.
type Rule struct {
	Name       string
	Condition  *Node // RuleCondition, or nil
	Assertions []Assertion
	Pos        Pos
}

// Assertion is one Assert of a rule.
type Assertion struct {
	Assert      *Node
	Description string
	Pos         Pos
}

// Source returns the tree as written: before AWS::LanguageExtensions
// expanded its loops (the same as Root for other templates).
func (t *Template) Source() *Node { return t.raw }

// Resource returns the resource of a logical ID, or nil.
func (t *Template) Resource(logicalID string) *Resource { return t.resources[logicalID] }

// Parameter returns the parameter of a name, or nil.
func (t *Template) Parameter(name string) *Parameter { return t.parameters[name] }

// Output returns the output of a name, or nil.
func (t *Template) Output(name string) *Output { return t.outputs[name] }

// Condition returns the condition of a name, or nil.
func (t *Template) Condition(name string) *Condition { return t.conditions[name] }

// Mapping returns the mapping of a name, or nil.
func (t *Template) Mapping(name string) *Mapping { return t.mappings[name] }

// HasTransform tells whether the template declares a transform.
func (t *Template) HasTransform(name string) bool {
	for _, tr := range t.Transform {
		if tr == name {
			return true
		}
	}
	return false
}

// RefKind says how a resource or output refers to something.
type RefKind uint8

// The kinds of reference.
const (
	RefDependsOn RefKind = iota + 1 // DependsOn: [X]
	RefRef                          // Ref X, X a resource
	RefGetAtt                       // Fn::GetAtt [X, Attr]
	RefSub                          // ${X} or ${X.Attr} in Fn::Sub, X a resource
	RefParameter                    // Ref P or ${P}, P a parameter
	RefCondition                    // Condition: C, or the condition of Fn::If
)

var refKindNames = [...]string{RefDependsOn: "DependsOn", RefRef: "Ref", RefGetAtt: "GetAtt", RefSub: "Sub", RefParameter: "Parameter", RefCondition: "Condition"}

func (k RefKind) String() string {
	if int(k) < len(refKindNames) && refKindNames[k] != "" {
		return refKindNames[k]
	}
	return "RefKind(?)"
}

// Reference is one thing a resource or an output refers to.
type Reference struct {
	Target    string
	Kind      RefKind
	Attribute string // the attribute of GetAtt or of ${X.Attr}
	// Path is where the reference occurs, relative to the resource or
	// output: /Properties/TopicArn, /DependsOn/0, /Value.
	Path string
	Pos  Pos

	// under lists the Fn::If branches the reference sits in: it is live in
	// a binding only when every one of them is the branch taken.
	under []ifBranch
	// node and base give Path on demand: the node of the reference and the
	// resource or output it belongs to.
	node, base *Node
}

// withPath returns the reference with Path filled in.
func (r Reference) withPath() Reference {
	if r.Path == "" && r.node != nil {
		r.Path = strings.TrimPrefix(r.node.Path(), r.base.Path())
	}
	return r
}

// IsResource tells whether the reference makes a dependency on a resource.
func (r Reference) IsResource() bool {
	return r.Kind == RefDependsOn || r.Kind == RefRef || r.Kind == RefGetAtt || r.Kind == RefSub
}

// Conditional tells whether the reference sits in a branch of Fn::If.
func (r Reference) Conditional() bool { return len(r.under) > 0 }

type ifBranch struct {
	condition string
	then      bool // the reference is in the "true" branch
}

// References returns what a resource refers to: DependsOn, Ref, Fn::GetAtt,
// resources and parameters in Fn::Sub, its Condition and the conditions of
// Fn::If, in template order, each with its path and position.
func (t *Template) References(logicalID string) []Reference {
	if r := t.resources[logicalID]; r != nil {
		return withPaths(r.refs)
	}
	return nil
}

// OutputReferences returns what an output refers to.
func (t *Template) OutputReferences(name string) []Reference {
	if o := t.outputs[name]; o != nil {
		return withPaths(o.refs)
	}
	return nil
}

func withPaths(refs []Reference) []Reference {
	out := make([]Reference, len(refs))
	for i, r := range refs {
		out[i] = r.withPath()
	}
	return out
}
