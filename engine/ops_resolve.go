package engine

import (
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// Resolvers: how templates see the live values of a stack (Ref and
// Fn::GetAtt of its resources, Fn::ImportValue of other stacks' exports).

// liveResolver answers from the stack's records. With unknown, a resource
// that has no physical resource yet answers template.Unknown (the planner
// wants that); without, it is an error (a step's properties must be
// known when it starts).
type liveResolver struct {
	e       *Engine
	tx      *txn
	st      *store.StackRecord
	unknown bool
	// missing, when set, collects the exports a change set imports that
	// do not exist yet (not known, instead of refused).
	missing *missingImports
}

var _ template.Resolver = liveResolver{}

// live returns the resolver of the running operation's stack.
func (r *run) live(unknown bool) liveResolver {
	return liveResolver{e: r.e, tx: r.tx, st: r.st, unknown: unknown}
}

// record returns the resource's record when it has a physical resource.
func (l liveResolver) record(id string) (*store.ResourceRecord, resources.Provider, error) {
	rec := l.tx.Resource(l.st.Num, id)
	if !hasPhysical(rec) {
		return nil, nil, nil
	}
	p, err := l.e.providerOf(rec.ResourceType)
	if err != nil {
		return nil, nil, err
	}
	return rec, p, nil
}

// hasPhysical tells whether a resource record names a physical resource
// that exists: what the live resolver answers Ref and Fn::GetAtt from.
func hasPhysical(rec *store.ResourceRecord) bool {
	return rec != nil && rec.PhysicalResourceId != "" && rec.ResourceStatus != "DELETE_COMPLETE" && rec.ResourceStatus != "DELETE_SKIPPED"
}

func (l liveResolver) Ref(id string) (any, error) {
	rec, p, err := l.record(id)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		if l.unknown {
			return template.Unknown{LogicalID: id}, nil
		}
		return nil, fmt.Errorf("Resource %s has no physical resource", id)
	}
	if rec.Model == nil {
		return rec.PhysicalResourceId, nil
	}
	return p.Ref(rec.Model)
}

func (l liveResolver) GetAtt(id, attribute string) (any, error) {
	rec, p, err := l.record(id)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		if l.unknown {
			return template.Unknown{LogicalID: id, Attribute: attribute}, nil
		}
		return nil, fmt.Errorf("Resource %s has no physical resource", id)
	}
	if isNestedStack(rec.ResourceType) {
		return l.nestedAttribute(rec, attribute)
	}
	if resources.ReadsLive(p, attribute) {
		// another resource changes it after this one's own operations
		// (a VPCCidrBlock, its VPC's Ipv6CidrBlocks): the object as it
		// is now
		if o := l.tx.Object(rec.ResourceType, rec.PhysicalResourceId); o != nil {
			return p.GetAtt(o.Model, attribute)
		}
	}
	return p.GetAtt(rec.Model, attribute)
}

func (l liveResolver) ImportValue(name string) (any, error) {
	x := l.tx.Export(name)
	if x == nil && l.missing != nil {
		return template.Unknown{Export: name}, nil // checkTemplate records it
	}
	if x == nil {
		return nil, noExport(name)
	}
	return x.Value, nil
}

// noExport is AWS's answer to an Fn::ImportValue of a name no stack
// exports ("No export named NAME found." — CreateStack, UpdateStack and
// change sets refuse the template with it).
func noExport(name string) error { return fmt.Errorf("No export named %s found.", name) }

// checkResolver resolves a template before it runs: every resource value
// is Unknown, Fn::GetAtt checks the attribute against the type's schema,
// and Fn::ImportValue checks that the export exists (when imports is set).
type checkResolver struct {
	e       *Engine
	tx      *txn
	types   map[string]string // the resources' types (made with attrs)
	attrs   bool
	imports bool
	missing *missingImports // see liveResolver.missing
	trace   *resolveTrace
}

// resolveTrace tells, while a checkResolver resolves a resource's
// properties, whether the live resolver of a stack (live(true)) could
// answer otherwise: it reads an export's or another stack's output, or a
// resource of the stack that has a physical resource, where the
// checkResolver answers Unknown. When nothing of that was read, the two
// make the same properties, and the create's start resolves them once
// (runtimeTemplateCheck's pass serves checkProperties).
type resolveTrace struct {
	tx      *txn
	st      *store.StackRecord
	differs bool
}

// read notes a Ref or a Fn::GetAtt of logical id id.
func (t *resolveTrace) read(id string) {
	if t == nil || t.differs {
		return
	}
	if hasPhysical(t.tx.Resource(t.st.Num, id)) {
		t.differs = true // the live resolver answers its values
	}
}

// external notes an Fn::ImportValue or an Fn::GetStackOutput.
func (t *resolveTrace) external() {
	if t != nil {
		t.differs = true
	}
}

// missingImports are the imports of exports that do not exist yet that
// checkTemplate met, by resource (current is the one it resolves).
type missingImports struct {
	current string
	list    []missingImport
}

type missingImport struct{ Resource, Export string }

func (m *missingImports) add(export string) {
	for _, x := range m.list {
		if x.Resource == m.current && x.Export == export {
			return
		}
	}
	m.list = append(m.list, missingImport{m.current, export})
}

// missingExportsReason is the StatusReason of a change set that imports
// exports that do not exist yet: CreateChangeSet accepts it (AVAILABLE),
// and ExecuteChangeSet refuses it unless they exist by then (issue 15's
// comparison with AWS: "a [WARN] status reason with property values").
// UNVERIFIED wording: AWS's [WARN] text was not found (searched the code,
// issues and pages corpora for "[WARN]", "include-property-values" and
// "No export named" in change sets' StatusReason).
func (m *missingImports) reason() string {
	if m == nil || len(m.list) == 0 {
		return ""
	}
	x := m.list[0]
	return "[WARN] --include-property-values option can return incomplete ChangeSet data because: ChangeSet creation failed for resource [" +
		x.Resource + "] because: " + noExport(x.Export).Error()
}

func (c checkResolver) Ref(id string) (any, error) {
	c.trace.read(id)
	return template.Unknown{LogicalID: id}, nil
}

func (c checkResolver) GetAtt(id, attribute string) (any, error) {
	c.trace.read(id)
	if c.attrs {
		if t, ok := c.types[id]; ok && !plan.IsCustom(t) {
			p, err := c.e.providerOf(t)
			if err == nil {
				s := p.Schema()
				permissive := s == nil || strings.HasPrefix(s.Source, "permissive:")
				if !permissive && !s.HasAttribute(attribute) {
					return nil, resources.UnsupportedAttributeError(t, attribute)
				}
			}
		}
	}
	return template.Unknown{LogicalID: id, Attribute: attribute}, nil
}

func (c checkResolver) ImportValue(name string) (any, error) {
	c.trace.external()
	if c.imports && c.tx.Export(name) == nil {
		if c.missing != nil {
			c.missing.add(name)
			return template.Unknown{Export: name}, nil
		}
		return nil, noExport(name)
	}
	return template.Unknown{Export: name}, nil
}

// checkTemplateDeferring resolves every resource's properties and every
// output of a bound template with a checkResolver, and returns the first
// error; with missing set, it records the imports of exports that do not
// exist yet instead of refusing them (CreateChangeSet).
func (e *Engine) checkTemplateDeferring(tx *txn, b boundTemplate, attrs, imports bool, missing *missingImports) error {
	return e.checkTemplateKeeping(tx, b, attrs, imports, missing, nil)
}

// checkTemplateKeeping is checkTemplateDeferring that, with keep, hands
// keep the properties of every resource whose resolution read nothing the
// live resolver of keep's stack could answer otherwise (resolveTrace).
func (e *Engine) checkTemplateKeeping(tx *txn, b boundTemplate, attrs, imports bool, missing *missingImports, keep *keptProperties) error {
	c := checkResolver{e: e, tx: tx, attrs: attrs, imports: imports, missing: missing}
	if keep != nil {
		c.trace = &resolveTrace{tx: tx, st: keep.st}
	}
	if attrs {
		// the types are what the attributes are checked against
		rs := b.Resources()
		c.types = make(map[string]string, len(rs))
		for _, res := range rs {
			c.types[res.LogicalID] = res.Type
		}
	}
	if imports && !attrs {
		if err := e.checkDynamicRefs(tx, b, c); err != nil {
			return err
		}
	}
	if imports && !attrs && !hasImports(b) {
		return nil
	}
	for _, res := range b.Resources() {
		if missing != nil {
			missing.current = res.LogicalID
		}
		if c.trace != nil {
			c.trace.differs = false
		}
		props, err := b.Properties(res.LogicalID, c)
		if err != nil {
			return err
		}
		if c.trace != nil && !c.trace.differs {
			keep.props[res.LogicalID] = props
		}
	}
	if missing != nil {
		missing.current = "Outputs"
	}
	for _, o := range b.Outputs() {
		if _, err := b.OutputValue(o.Name, c); err != nil {
			return err
		}
		if _, _, err := b.ExportName(o.Name, c); err != nil {
			return err
		}
	}
	return nil
}

// runtimeTemplateCheck finds, when a create starts, the template errors
// CloudFormation finds only then (an attribute a type does not have), and
// words the stack's reason: "[Error] /Outputs/X/Value/Fn::GetAtt:
// Resource type T does not support attribute {A}." (BEHAVIOUR.md §4 F).
//
// It also returns the properties it resolved that are what checkProperties
// would resolve again (keptProperties).
func (r *run) runtimeTemplateCheck() (string, *keptProperties, error) {
	b, err := r.template()
	if err != nil {
		return "", nil, internalf("stack %s: binding its template: %w", r.st.StackName, err)
	}
	keep := &keptProperties{st: r.st, props: make(map[string]map[string]any, len(b.Resources()))}
	if err := r.e.checkTemplateKeeping(r.tx, b, true, false, nil, keep); err != nil {
		return runtimeErrorReason(err), nil, nil
	}
	return "", keep, nil
}

// keptProperties are the properties, by logical id, that a template check
// resolved the way the live resolver of stack st (live(true)) resolves them.
type keptProperties struct {
	st    *store.StackRecord
	props map[string]map[string]any
}

// of returns a resource's kept properties.
func (k *keptProperties) of(id string) (map[string]any, bool) {
	if k == nil {
		return nil, false
	}
	p, ok := k.props[id]
	return p, ok
}

// runtimeErrorReason words a template error found while the stack runs.
func runtimeErrorReason(err error) string {
	msg := err.Error()
	path := ""
	if list := template.AsList(err); len(list) > 0 {
		msg, path = list[0].Message, list[0].Path
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	if path == "" {
		return "[Error] " + msg
	}
	return "[Error] " + path + ": " + msg
}

// hasImports tells whether a bound template holds an Fn::ImportValue or an
// Fn::GetStackOutput (which a submitted template's check reads).
func hasImports(b boundTemplate) bool {
	t := b.Template()
	if t == nil || t.Root == nil {
		return false
	}
	found := false
	walkNodes(t.Root, func(n *template.Node) bool {
		if f := n.Func(); f == "Fn::ImportValue" || f == "Fn::GetStackOutput" {
			found = true
		}
		return !found
	})
	return found
}

// importNames resolves the export names a bound template imports, in the
// resources and outputs that exist in the binding.
func importNames(b boundTemplate, r template.Resolver) []string {
	t := b.Template()
	if t == nil || t.Root == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	visit := func(root *template.Node) {
		if root == nil {
			return
		}
		walkNodes(root, func(n *template.Node) bool {
			if n.Func() != "Fn::ImportValue" {
				return true
			}
			v, err := b.Resolve(n.Fields[0].Value, r)
			if s, ok := v.(string); err == nil && ok && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
			return false
		})
	}
	for _, res := range b.Resources() {
		if tr := t.Resource(res.LogicalID); tr != nil {
			visit(tr.Properties)
		}
	}
	for _, o := range b.Outputs() {
		visit(o.Value)
	}
	return out
}

// walkNodes visits n and, when fn answers true, what it holds.
func walkNodes(n *template.Node, fn func(*template.Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, it := range n.Items {
		walkNodes(it, fn)
	}
	for _, f := range n.Fields {
		walkNodes(f.Value, fn)
	}
}
