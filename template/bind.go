package template

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/internal/readfile"
)

// ParameterValue is one parameter given to a stack operation, as in
// CreateStack's Parameters.
type ParameterValue struct {
	Key              string
	Value            string
	UsePreviousValue bool
}

// Pseudo holds the values of the pseudo parameters. Partition and
// URLSuffix default from Region.
type Pseudo struct {
	AccountID        string
	Region           string
	StackName        string
	StackID          string
	Partition        string
	URLSuffix        string
	NotificationARNs []string
}

// BindInput is what a stack operation binds a template to.
type BindInput struct {
	Parameters []ParameterValue
	// Previous are the values the stack's parameters had before this
	// operation, as given (for an SSM parameter type, the SSM parameter's
	// name, resolved again), for UsePreviousValue.
	Previous map[string]string
	// SSM resolves AWS::SSM::Parameter::Value<...> parameters: the value of
	// each SSM parameter, by name; SSMLookup, when set, answers the names
	// SSM does not hold.
	SSM       map[string]string
	SSMLookup func(name string) (string, bool)
	Pseudo    Pseudo
	// AZs are the availability zones of Pseudo.Region that Fn::GetAZs
	// returns; nil means Region followed by a, b and c.
	AZs []string
}

// BoundParameter is a parameter with the value a binding gave it.
type BoundParameter struct {
	Key string
	// Value is the value as given (or the default); for an SSM parameter
	// type, the SSM parameter's name.
	Value string
	// ResolvedValue is the SSM parameter's value, for SSM types.
	ResolvedValue    string
	NoEcho           bool
	UsePreviousValue bool
	FromDefault      bool
}

// Shown renders the value as DescribeStacks shows it: "****" when NoEcho.
func (p BoundParameter) Shown() string { return maskIf(p.NoEcho, p.Value) }

// Bound is a template bound to parameter values and pseudo parameters, its
// conditions evaluated. It answers which resources and outputs exist and
// resolves their values against a Resolver.
type Bound struct {
	t      *Template
	file   string
	pseudo map[string]any
	azs    []string
	region string

	params     []BoundParameter
	paramValue map[string]any // what Ref returns
	conds      map[string]bool

	enabled     []*Resource
	logicalIDs  []string // of enabled, in order; shared, never changed
	enabledSet  map[string]bool
	outputs     []*Output
	deps        map[string][]string
	deletion    map[string]string
	replacement map[string]string
}

// Bind binds the template to parameter values: parameters checked against
// their types and constraints (with UsePreviousValue and SSM resolution),
// pseudo parameters set, rules asserted, conditions evaluated, and the
// references of the resources and outputs that exist checked (a reference
// to a resource whose condition is false is unresolved; cycles are
// refused). Every fault is returned at once.
func (t *Template) Bind(in BindInput) (*Bound, error) {
	c := &collector{file: t.Name}
	b := &Bound{t: t, file: t.Name, conds: map[string]bool{}, paramValue: map[string]any{}}
	b.setPseudo(in)
	b.bindParameters(c, in)
	if !c.empty() {
		return nil, c.err()
	}
	if t.loopsNeedParams {
		nt, err := t.reexpand(b.paramValue)
		if err != nil {
			return nil, err
		}
		b.t = nt
		t = nt
	}
	for _, cond := range t.Conditions {
		if _, err := b.condition(cond.Name); err != nil {
			c.list = append(c.list, AsList(err)...)
		}
	}
	if !c.empty() {
		return nil, c.err()
	}
	b.assertRules(c)
	if !c.empty() {
		return nil, c.err()
	}
	b.selectEnabled(c)
	b.resolvePolicies(c)
	if !c.empty() {
		return nil, c.err()
	}
	return b, nil
}

func (b *Bound) setPseudo(in BindInput) {
	p := in.Pseudo
	if p.Partition == "" {
		p.Partition = partitionOf(p.Region)
	}
	if p.URLSuffix == "" {
		p.URLSuffix = urlSuffixOf(p.Region)
	}
	arns := make([]any, len(p.NotificationARNs))
	for i, a := range p.NotificationARNs {
		arns[i] = a
	}
	b.pseudo = map[string]any{
		"AWS::AccountId":        p.AccountID,
		"AWS::Region":           p.Region,
		"AWS::StackName":        p.StackName,
		"AWS::StackId":          p.StackID,
		"AWS::Partition":        p.Partition,
		"AWS::URLSuffix":        p.URLSuffix,
		"AWS::NotificationARNs": arns,
		"AWS::NoValue":          noValue,
	}
	b.region = p.Region
	b.azs = in.AZs
	if b.azs == nil && p.Region != "" {
		b.azs = []string{p.Region + "a", p.Region + "b", p.Region + "c"}
	}
}

func partitionOf(region string) string {
	switch {
	case strings.HasPrefix(region, "cn-"):
		return "aws-cn"
	case strings.HasPrefix(region, "us-gov-"):
		return "aws-us-gov"
	case strings.HasPrefix(region, "us-iso-"):
		return "aws-iso"
	case strings.HasPrefix(region, "us-isob-"):
		return "aws-iso-b"
	}
	return "aws"
}

func urlSuffixOf(region string) string {
	if strings.HasPrefix(region, "cn-") {
		return "amazonaws.com.cn"
	}
	return "amazonaws.com"
}

// bindParameters gives every parameter its value, in AWS's words when a
// value is missing or wrong.
func (b *Bound) bindParameters(c *collector, in BindInput) {
	t := b.t
	given := map[string]ParameterValue{}
	var unknown []string
	for _, pv := range in.Parameters {
		if t.parameters[pv.Key] == nil {
			unknown = append(unknown, pv.Key)
			continue
		}
		given[pv.Key] = pv
	}
	if len(unknown) > 0 {
		at := t.Root.Get("Parameters")
		if at == nil {
			at = t.Root
		}
		c.at(at, "Parameters: [%s] do not exist in the template", readfile.Excerpt(strings.Join(unknown, ", ")))
	}
	var missing []string
	var missingAt *Parameter
	for _, p := range t.Parameters {
		bp := BoundParameter{Key: p.Name, NoEcho: p.NoEcho}
		// Errors point at the parameter, or at its Default when that is
		// the value at fault.
		path := "/Parameters/" + p.Name
		at := func(format string, args ...any) {
			c.atPos(p.Pos, path, format, args...)
		}
		pv, ok := given[p.Name]
		switch {
		case ok && pv.UsePreviousValue:
			prev, had := in.Previous[p.Name]
			if !had {
				at("Invalid input for parameter key %s. Cannot specify usePreviousValue as true for a parameter key not in the previous template", p.Name)
				continue
			}
			bp.Value, bp.UsePreviousValue = prev, true
		case ok:
			bp.Value = pv.Value
		case p.HasDefault:
			bp.Value, bp.FromDefault = p.Default, true
			d := p.Node.Get("Default")
			at = func(format string, args ...any) { c.at(d, format, args...) }
		default:
			missing = append(missing, p.Name)
			if missingAt == nil {
				missingAt = p
			}
			continue
		}
		if len(bp.Value) > MaxParameterValueBytes {
			at("1 validation error detected: Value '%s' at 'parameters.member.parameterValue' failed to satisfy constraint: Member must have length less than or equal to %d",
				readfile.Excerpt(p.Mask(bp.Value)), MaxParameterValueBytes)
			continue
		}
		value := bp.Value
		if p.kind.ssm {
			v, found := in.SSM[bp.Value]
			if !found && in.SSMLookup != nil {
				v, found = in.SSMLookup(bp.Value)
			}
			if !found {
				at("Unable to fetch parameters [%s] from parameter store for this account.", bp.Value)
				continue
			}
			bp.ResolvedValue, value = v, v
		}
		if msg := p.check(value); msg != "" {
			at("%s", msg)
			continue
		}
		b.params = append(b.params, bp)
		b.paramValue[p.Name] = p.refValue(value)
	}
	if len(missing) > 0 {
		c.atPos(missingAt.Pos, "/Parameters/"+missingAt.Name, "Parameters: [%s] must have values", strings.Join(missing, ", "))
	}
}

// selectEnabled picks the resources and outputs whose condition holds and
// checks the references they make in this binding.
func (b *Bound) selectEnabled(c *collector) {
	t := b.t
	b.enabledSet = make(map[string]bool, len(t.Resources))
	for _, r := range t.Resources {
		if r.Condition == "" || b.conds[r.Condition] {
			b.enabled = append(b.enabled, r)
			b.enabledSet[r.LogicalID] = true
		}
	}
	if len(b.enabled) == len(t.logicalIDs) {
		// every resource exists (no condition took one away): the
		// template's slice, which every binding of it shares
		b.logicalIDs = t.logicalIDs
	} else {
		b.logicalIDs = make([]string, len(b.enabled))
		for i, r := range b.enabled {
			b.logicalIDs[i] = r.LogicalID
		}
	}
	b.deps = make(map[string][]string, len(b.enabled))
	for _, r := range b.enabled {
		var deps []string
		seen := map[string]bool{}
		for i := range r.refs {
			ref := &r.refs[i]
			if !ref.IsResource() || !b.live(ref) {
				continue
			}
			if !b.enabledSet[ref.Target] {
				c.atPos(ref.Pos, ref.node.Path(), "%s", unresolvedMessage("Resources", ref.Target))
				continue
			}
			if !seen[ref.Target] && ref.Target != r.LogicalID {
				seen[ref.Target] = true
				deps = append(deps, ref.Target)
			}
		}
		sort.Slice(deps, func(i, j int) bool {
			return t.resources[deps[i]].index < t.resources[deps[j]].index
		})
		b.deps[r.LogicalID] = deps
	}
	for _, o := range t.Outputs {
		if o.Condition != "" && !b.conds[o.Condition] {
			continue
		}
		b.outputs = append(b.outputs, o)
		for i := range o.refs {
			ref := &o.refs[i]
			if ref.IsResource() && b.live(ref) && !b.enabledSet[ref.Target] {
				c.atPos(ref.Pos, ref.node.Path(), "%s", unresolvedMessage("Outputs", ref.Target))
			}
		}
	}
	if c.empty() {
		for _, e := range resourceCycleErrors(b.file, b.enabled, func(r *Resource, ref *Reference) bool {
			return b.live(ref)
		}) {
			c.add(e)
		}
	}
}

// live tells whether a reference holds in this binding: every Fn::If branch
// it sits in is the branch taken.
func (b *Bound) live(ref *Reference) bool {
	for _, u := range ref.under {
		if b.conds[u.condition] != u.then {
			return false
		}
	}
	return true
}

// resolvePolicies resolves DeletionPolicy and UpdateReplacePolicy written as
// intrinsic functions.
func (b *Bound) resolvePolicies(c *collector) {
	b.deletion = make(map[string]string, len(b.enabled))
	b.replacement = make(map[string]string, len(b.enabled))
	for _, r := range b.enabled {
		b.deletion[r.LogicalID] = b.policyValue(c, r, r.DeletionPolicy, r.deletionPolicyNode, "DeletionPolicy", deletionPolicies)
		b.replacement[r.LogicalID] = b.policyValue(c, r, r.UpdateReplacePolicy, r.updateReplacePolicyNode, "UpdateReplacePolicy", updateReplacePolicies)
	}
}

func (b *Bound) policyValue(c *collector, r *Resource, literal string, n *Node, what string, allowed map[string]bool) string {
	if n == nil {
		if literal == "" {
			return "Delete"
		}
		return literal
	}
	v, err := b.Resolve(n, nil)
	if err != nil {
		c.list = append(c.list, AsList(err)...)
		return ""
	}
	s, ok := v.(string)
	if !ok || !allowed[s] {
		text, _ := scalarText(v)
		c.at(n, "Template format error: Unrecognized %s %s for resource %s", what, text, r.LogicalID)
		return ""
	}
	return s
}

// Template returns the bound template (for a template whose Fn::ForEach
// loops depend on parameters, the template expanded with this binding).
func (b *Bound) Template() *Template { return b.t }

// Parameters returns the parameters with their values, in template order.
func (b *Bound) Parameters() []BoundParameter { return append([]BoundParameter(nil), b.params...) }

// ParameterValue returns what Ref returns for a parameter.
func (b *Bound) ParameterValue(name string) (any, bool) {
	v, ok := b.paramValue[name]
	return v, ok
}

// Condition returns the value of a condition.
func (b *Bound) Condition(name string) bool { return b.conds[name] }

// Resources returns the resources that exist in this binding, in template
// order.
func (b *Bound) Resources() []*Resource { return append([]*Resource(nil), b.enabled...) }

// LogicalIDs returns the logical ids of the resources that exist in this
// binding, in template order. The slice is the binding's own, shared by
// every caller (a stack's record keeps it): it must not be changed; it
// has no room past its length, so an append copies it.
func (b *Bound) LogicalIDs() []string { return b.logicalIDs }

// Enabled tells whether a resource exists in this binding.
func (b *Bound) Enabled(logicalID string) bool { return b.enabledSet[logicalID] }

// Outputs returns the outputs that exist in this binding.
func (b *Bound) Outputs() []*Output { return append([]*Output(nil), b.outputs...) }

// DependsOn returns the resources a resource depends on in this binding
// (DependsOn, Ref, Fn::GetAtt, Fn::Sub; Fn::If branches not taken left
// out), in template order.
func (b *Bound) DependsOn(logicalID string) []string {
	return append([]string(nil), b.deps[logicalID]...)
}

// DeletionPolicy returns the resource's DeletionPolicy in this binding
// ("Delete" when the template sets none).
func (b *Bound) DeletionPolicy(logicalID string) string { return b.deletion[logicalID] }

// UpdateReplacePolicy returns the resource's UpdateReplacePolicy in this
// binding ("Delete" when the template sets none).
func (b *Bound) UpdateReplacePolicy(logicalID string) string { return b.replacement[logicalID] }

// Properties resolves the properties of an existing resource against r.
// AWS::NoValue removes a property, list element or field; values not known
// yet are Unknown.
func (b *Bound) Properties(logicalID string, r Resolver) (map[string]any, error) {
	res := b.t.resources[logicalID]
	if res == nil || !b.enabledSet[logicalID] {
		return nil, fmt.Errorf("template %s: resource %s does not exist in this binding", b.file, logicalID)
	}
	if res.Properties == nil {
		return map[string]any{}, nil
	}
	v, err := b.Resolve(res.Properties, r)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// ResourceAttribute resolves one attribute of an existing resource:
// "Properties", "Metadata", "CreationPolicy" or "UpdatePolicy". It returns
// nil when the resource does not set it.
func (b *Bound) ResourceAttribute(logicalID, attribute string, r Resolver) (any, error) {
	res := b.t.resources[logicalID]
	if res == nil || !b.enabledSet[logicalID] {
		return nil, fmt.Errorf("template %s: resource %s does not exist in this binding", b.file, logicalID)
	}
	var n *Node
	switch attribute {
	case "Properties":
		n = res.Properties
	case "Metadata":
		n = res.Metadata
	case "CreationPolicy":
		n = res.CreationPolicy
	case "UpdatePolicy":
		n = res.UpdatePolicy
	default:
		return nil, fmt.Errorf("template: %s is not a resource attribute that resolves", attribute)
	}
	if n == nil {
		return nil, nil
	}
	return b.Resolve(n, r)
}

// OutputValue resolves the Value of an existing output.
func (b *Bound) OutputValue(name string, r Resolver) (any, error) {
	o := b.output(name)
	if o == nil {
		return nil, fmt.Errorf("template %s: output %s does not exist in this binding", b.file, name)
	}
	v, err := b.Resolve(o.Value, r)
	if err != nil {
		return nil, err
	}
	if v == noValue {
		return nil, nodeError(b.file, o.Value, "Template format error: The Value field of every Outputs member must evaluate to a String.")
	}
	if _, isMap := v.(map[string]any); isMap {
		return nil, nodeError(b.file, o.Value, "Template format error: The Value field of every Outputs member must evaluate to a String.")
	}
	return v, nil
}

// ExportName resolves the export name of an existing output; ok is false
// when the output is not exported.
func (b *Bound) ExportName(name string, r Resolver) (value any, ok bool, err error) {
	o := b.output(name)
	if o == nil {
		return nil, false, fmt.Errorf("template %s: output %s does not exist in this binding", b.file, name)
	}
	if o.ExportName == nil {
		return nil, false, nil
	}
	v, err := b.Resolve(o.ExportName, r)
	if err != nil {
		return nil, true, err
	}
	if _, isString := v.(string); !isString && IsKnown(v) {
		return nil, true, nodeError(b.file, o.ExportName, "Template error: every Export Name must evaluate to a String.")
	}
	return v, true, nil
}

func (b *Bound) output(name string) *Output {
	for _, o := range b.outputs {
		if o.Name == name {
			return o
		}
	}
	return nil
}
