package plan

import (
	"errors"

	"github.com/stacksim/stacksim/plan/graph"
	"github.com/stacksim/stacksim/template"
)

// UpdateInput is what an update is planned from.
type UpdateInput struct {
	// Deployed is the stack as it stands.
	Deployed Deployed
	// Desired is the new template, bound to the update's parameters.
	Desired Bound
	// Live answers Ref and Fn::GetAtt of the deployed resources as they are
	// now, and Fn::ImportValue. nil answers Unknown to everything.
	Live template.Resolver
	// Schemas finds each type's schema (nil: permissive).
	Schemas Schemas
	// Contexts asks for the steps' BeforeContext and AfterContext
	// (Plan.Contexts), as a change set shows them.
	Contexts bool
}

// propertiesScope is the Scope of most updates, shared (a plan's slices are
// read-only; its capacity makes an append copy).
var propertiesScope = []string{ScopeProperties}[:1:1]

// kind is what the update does to a resource, as its dependents see it.
type kind uint8

const (
	kNone     kind = iota // no change: Ref and attributes as they are
	kAttrOnly             // Metadata or policies only: likewise
	kUpdated              // properties updated in place: attributes may change
	kMaybe                // may be replaced (Conditional, a custom resource): the id may change too
	kReplaced             // replaced: new id, new attributes
	kAdded                // created: nothing known yet
)

func (k kind) refUnknown() bool { return k >= kMaybe }
func (k kind) attUnknown() bool { return k >= kUpdated }

// ForUpdate plans an update from the deployed stack to the desired
// template.
//
// It walks the desired resources in dependency order, so that what happens
// to a resource is known before its dependents are resolved. Each resource's
// properties are resolved with Ref of a resource being added or (perhaps)
// replaced, and Fn::GetAtt of one also being updated in place, answering
// template.Unknown, and with Live's values otherwise; then compared with
// the deployed properties by Decide. The forward phase (UPDATE_IN_PROGRESS)
// holds a step for every desired resource — NoOp ones included, so that the
// order through them holds — in dependency order. The cleanup phase
// (UPDATE_COMPLETE_CLEANUP_IN_PROGRESS) removes the old physical resources
// of replacements (by UpdateReplacePolicy) and the resources the template no
// longer has (by their DeletionPolicy), in the reverse of the deployed
// dependency order.
//
// Errors: a resource whose type changes (*TypeChangeError), a dependency
// cycle (*CycleError), a property that does not resolve (the template's
// error, which says where).
func ForUpdate(in UpdateInput) (*Plan, error) {
	f, err := newForward(in.Desired)
	if err != nil {
		return nil, err
	}
	u := &updater{in: in, f: f, kinds: make([]kind, len(f.resources)), recreations: recreations{}}
	u.indexDeployed()
	if err := u.checkTypes(); err != nil {
		return nil, err
	}
	u.changedParams()
	p := &Plan{Operation: OpUpdate, Steps: make([]Step, 0, len(f.order)+len(in.Deployed.Resources)/8)}
	var cleanup []cleanupItem
	for k, v := range f.order {
		p.Steps = append(p.Steps, Step{})
		c, ok, err := u.step(&p.Steps[k], k+1, v)
		if err != nil {
			return nil, err
		}
		if ok {
			cleanup = append(cleanup, c)
		}
	}
	cleanup = append(cleanup, u.removed()...)
	p.Steps = u.cleanupSteps(p.Steps, cleanup)
	p.Prior = u.prior()
	if in.Contexts {
		u.removedContexts(p)
		p.Contexts = u.contexts
	}
	return p, nil
}

// context records a step's contexts, when they are asked for.
func (u *updater) context(s *Step, before, after map[string]any, hadBefore bool) {
	if !u.in.Contexts {
		return
	}
	if u.contexts == nil {
		u.contexts = map[int]Context{}
	}
	secret := secretProperties(u.in.Desired, s.LogicalID, u.noEcho)
	c := Context{After: contextOf(after, secret)}
	if hadBefore {
		c.Before = contextOf(before, secret)
	}
	u.contexts[s.ID] = c
}

// removedContexts gives the removal of a resource the template no longer
// has its BeforeContext.
func (u *updater) removedContexts(p *Plan) {
	for i := range p.Steps {
		s := &p.Steps[i]
		if !s.Action.IsDelete() || s.Replaces != 0 || s.Phase != PhaseUpdateCleanup {
			continue
		}
		for k := range u.in.Deployed.Resources {
			d := &u.in.Deployed.Resources[k]
			if d.LogicalID == s.LogicalID && d.PhysicalID == s.PhysicalID {
				if u.contexts == nil {
					u.contexts = map[int]Context{}
				}
				u.contexts[s.ID] = Context{Before: contextOf(d.Properties, secretProperties(u.in.Desired, s.LogicalID, u.noEcho))}
				break
			}
		}
	}
}

type updater struct {
	in        UpdateInput
	f         *forward
	kinds     []kind
	currentOf []current      // vertex → the deployed resource the stack still has, if any
	deployed  []deployedFlag // index in Deployed.Resources → what it is to the update
	params    map[string]bool
	noEcho    map[string]bool

	recreations recreations
	diff        differ   // Decide's scratch, reused from one resource to the next
	boxed       unknowns // Ref and Fn::GetAtt answers not known yet
	scratch     detailScratch
	details     slab[Detail] // the Details of the steps
	contexts    map[int]Context
}

// current is the deployed resource of a desired one.
type current struct {
	d  *DeployedResource // nil when the stack has none
	at int               // its index in Deployed.Resources
}

// deployedFlag says what a deployed resource is to the update.
type deployedFlag uint8

const (
	firstOfID deployedFlag = 1 << iota // the first deployed resource of its logical id (later duplicates are ignored)
	desired                            // of a logical id the desired template has
)

// indexDeployed looks up the deployed resource of each desired one, once,
// and flags the deployed resources.
func (u *updater) indexDeployed() {
	rs := u.in.Deployed.Resources
	u.currentOf = make([]current, len(u.f.resources))
	u.deployed = make([]deployedFlag, len(rs))
	seen := make([]bool, len(u.f.resources)) // vertex → its first deployed resource was met
	var others map[string]bool               // the other logical ids met
	for i := range rs {
		id := rs[i].LogicalID
		if v, ok := u.f.index[id]; ok {
			if seen[v] {
				continue
			}
			seen[v] = true
			u.deployed[i] = firstOfID | desired
			if !rs[i].gone() {
				u.currentOf[v] = current{d: &rs[i], at: i}
			}
			continue
		}
		if others[id] {
			continue
		}
		if others == nil {
			others = map[string]bool{}
		}
		others[id] = true
		u.deployed[i] = firstOfID
	}
	if len(u.f.index) < len(u.f.resources) {
		// Desired resources that share a logical id share its deployed one.
		for v, r := range u.f.resources {
			u.currentOf[v] = u.currentOf[u.f.index[r.LogicalID]]
		}
	}
}

// first tells whether rs[i] is the first deployed resource of its logical
// id (later duplicates are ignored).
func (u *updater) first(i int) bool { return u.deployed[i]&firstOfID != 0 }

func (u *updater) checkTypes() error {
	var changed []string
	for v, r := range u.f.resources {
		if d := u.currentOf[v].d; d != nil && d.Type != r.Type {
			changed = append(changed, r.LogicalID)
		}
	}
	if changed != nil {
		return &TypeChangeError{LogicalIDs: changed}
	}
	return nil
}

// changedParams finds the parameters whose values change, and those that
// are NoEcho.
func (u *updater) changedParams() {
	u.params = map[string]bool{}
	u.noEcho = map[string]bool{}
	for _, p := range u.in.Desired.Parameters() {
		if p.NoEcho {
			u.noEcho[p.Key] = true
		}
		old, had := u.in.Deployed.Parameters[p.Key]
		if u.in.Deployed.Parameters == nil || !had || old != p.Value {
			u.params[p.Key] = true
		}
	}
}

// Ref, GetAtt and ImportValue make the updater the template.Resolver the
// desired properties are resolved with.
func (u *updater) Ref(id string) (any, error) {
	if v, ok := u.f.index[id]; ok && u.kinds[v].refUnknown() {
		return u.unknownRef(v, id), nil
	}
	if u.in.Live == nil {
		return template.Unknown{LogicalID: id}, nil
	}
	return u.in.Live.Ref(id)
}

func (u *updater) GetAtt(id, attribute string) (any, error) {
	if v, ok := u.f.index[id]; ok && u.kinds[v].attUnknown() {
		return u.unknownAtt(v, id, attribute), nil
	}
	if u.in.Live == nil {
		return template.Unknown{LogicalID: id, Attribute: attribute}, nil
	}
	return u.in.Live.GetAtt(id, attribute)
}

// unknowns hold the Unknown answers already boxed, by vertex: every
// dependent of a resource gets the same value, and an Unknown boxed once is
// an allocation saved per reference (values in an interface are never
// changed, so sharing one is safe).
type unknowns struct {
	ref []any
	att []boxedAtt // the last attribute asked of each vertex
}

type boxedAtt struct {
	attribute string
	v         any
}

func (u *updater) unknownRef(v int, id string) any {
	if u.boxed.ref == nil {
		u.boxed.ref = make([]any, len(u.kinds))
	}
	if u.boxed.ref[v] == nil {
		u.boxed.ref[v] = template.Unknown{LogicalID: id}
	}
	return u.boxed.ref[v]
}

func (u *updater) unknownAtt(v int, id, attribute string) any {
	if u.boxed.att == nil {
		u.boxed.att = make([]boxedAtt, len(u.kinds))
	}
	b := &u.boxed.att[v]
	if b.v == nil || b.attribute != attribute {
		*b = boxedAtt{attribute: attribute, v: template.Unknown{LogicalID: id, Attribute: attribute}}
	}
	return b.v
}

func (u *updater) ImportValue(name string) (any, error) {
	if u.in.Live == nil {
		return template.Unknown{Export: name}, nil
	}
	return u.in.Live.ImportValue(name)
}

// GetStackOutput reads another stack's output through Live, when it can
// (template.StackOutputResolver); unknown otherwise.
func (u *updater) GetStackOutput(stack, output, region, role string) (any, error) {
	if sr, ok := u.in.Live.(template.StackOutputResolver); ok {
		return sr.GetStackOutput(stack, output, region, role)
	}
	return template.Unknown{Export: stack + "." + output}, nil
}

// cleanupItem is something the cleanup phase removes.
type cleanupItem struct {
	d        *DeployedResource
	at       int // d's index in Deployed.Resources
	action   Action
	replaces int  // the forward step of a replacement, or 0 for a removed resource
	maybe    bool // the forward step may not replace
}

// step plans the forward step of the desired resource at vertex v into s,
// and the cleanup of its old physical resource if it may be replaced (ok).
func (u *updater) step(s *Step, id, v int) (c cleanupItem, ok bool, err error) {
	r := u.f.resources[v]
	b := u.in.Desired
	*s = Step{
		ID:                  id,
		LogicalID:           r.LogicalID,
		ResourceType:        r.Type,
		Phase:               PhaseUpdate,
		After:               u.f.after(v),
		Custom:              IsCustom(r.Type),
		DeletionPolicy:      policy(b.DeletionPolicy(r.LogicalID)),
		UpdateReplacePolicy: policy(b.UpdateReplacePolicy(r.LogicalID)),
	}
	d := u.currentOf[v].d
	if d == nil || d.neverCreated() || d.neverAdopted() {
		// New, or never created (a CREATE_FAILED left by a create that
		// disabled rollback), or never imported (IMPORT_FAILED, likewise):
		// create it (or import it again, ImportExistingResources).
		s.Action, u.kinds[v] = Create, kAdded
		if u.in.Contexts {
			props, err := b.Properties(r.LogicalID, u)
			if err != nil {
				return c, false, err
			}
			u.context(s, nil, props, false)
		}
		return c, false, nil
	}
	s.PhysicalID = d.PhysicalID

	props, err := b.Properties(r.LogicalID, u)
	if err != nil {
		return c, false, err
	}
	u.context(s, d.Properties, props, true)
	schema := u.in.Schemas.of(r.Type)
	dec := u.diff.decide(schema, s.Custom, d.Properties, props, u.recreations)
	if dec.Action == Update && UpdatePolicyReplaces(r.Type) {
		pol, err := u.in.Desired.ResourceAttribute(r.LogicalID, ScopeUpdatePolicy, u)
		if err != nil {
			return c, false, err
		}
		tops := make([]string, len(u.diff.tops))
		for i, t := range u.diff.tops {
			tops[i] = t.name
		}
		dec = ReplacingUpdate(r.Type, pol, dec, tops)
	}
	attrs, err := u.attributeChanges(r.LogicalID, d, s)
	if err != nil {
		return c, false, err
	}
	if dec.Action != NoOp {
		s.Scope = propertiesScope
		s.Details = u.propertyDetails(r.LogicalID, u.diff.tops)
	}
	if len(attrs.scope) > 0 {
		s.Scope = append(s.Scope[:len(s.Scope):len(s.Scope)], attrs.scope...)
	}
	s.Details = append(s.Details, attrs.details...)

	switch {
	case d.Status == statusCreateFailed:
		// A create that failed after naming a physical resource, left by a
		// create that disabled rollback: what is there may be half made, so
		// it is replaced.
		s.Action, s.Replacement = CreateThenDelete, ReplacementTrue
		if schema != nil && schema.ReplacementStrategy() == DeleteThenCreateStrategy {
			s.Action = DeleteThenCreate
		}
		if !containsString(s.Scope, ScopeProperties) {
			s.Scope = append([]string{ScopeProperties}, s.Scope...)
		}
	case isNestedStack(r.Type):
		// A nested stack's own template may have changed: always updated.
		s.Action, s.Replacement = Update, ReplacementFalse
		if !containsString(s.Scope, ScopeProperties) {
			s.Scope = append([]string{ScopeProperties}, s.Scope...)
		}
		s.Details = append(s.Details, Detail{
			Target:     Target{Attribute: ScopeProperties, RequiresRecreation: Never},
			Evaluation: Dynamic, ChangeSource: Automatic,
		})
	case dec.Action != NoOp:
		s.Action, s.Replacement = dec.Action, dec.Replacement
	case d.Status == statusUpdateFailed:
		// An update that failed, left by an update that disabled rollback:
		// run it again even though the properties match.
		s.Action, s.Replacement = Update, ReplacementFalse
		s.Scope = append([]string{ScopeProperties}, s.Scope...)
	case len(attrs.scope) > 0:
		s.Action, s.Replacement = Update, ReplacementFalse
	default:
		s.Action = NoOp
	}

	old := replaceAction(s.UpdateReplacePolicy)
	switch {
	case s.Action == CreateThenDelete:
		u.kinds[v] = kReplaced
		c, ok = cleanupItem{d: d, at: u.currentOf[v].at, action: old, replaces: id}, true
	case s.Action == DeleteThenCreate:
		u.kinds[v] = kReplaced
	case s.Action == Update && s.CallsHandler() && (s.Replacement == ReplacementConditional || s.Custom):
		u.kinds[v] = kMaybe
		c, ok = cleanupItem{d: d, at: u.currentOf[v].at, action: old, replaces: id, maybe: true}, true
	case s.Action == Update && s.CallsHandler():
		u.kinds[v] = kUpdated
	case s.Action == Update:
		u.kinds[v] = kAttrOnly
	}
	if s.Action.IsReplace() || s.Replacement == ReplacementConditional {
		s.PolicyAction = replacePolicyAction(s.UpdateReplacePolicy)
	}
	return c, ok, nil
}

// replaceAction is what happens to the old physical resource of a
// replacement under an UpdateReplacePolicy.
func replaceAction(updateReplacePolicy string) Action {
	switch policy(updateReplacePolicy) {
	case "Retain":
		return Retain
	case "Snapshot":
		return Snapshot
	}
	return Delete
}

// prior records the deployed stack for the update's rollback.
func (u *updater) prior() []PriorResource {
	out := make([]PriorResource, 0, len(u.in.Deployed.Resources))
	total := 0
	for i := range u.in.Deployed.Resources {
		total += len(u.in.Deployed.Resources[i].DependsOn)
	}
	deps := make([]string, 0, total) // one backing array for every copy
	for i := range u.in.Deployed.Resources {
		d := &u.in.Deployed.Resources[i]
		if !u.first(i) || d.gone() {
			continue
		}
		var own []string
		if len(d.DependsOn) > 0 {
			at := len(deps)
			deps = append(deps, d.DependsOn...)
			own = deps[at:len(deps):len(deps)]
		}
		out = append(out, PriorResource{
			LogicalID: d.LogicalID, Type: d.Type, PhysicalID: d.PhysicalID,
			DependsOn:           own,
			DeletionPolicy:      policy(d.DeletionPolicy),
			UpdateReplacePolicy: policy(d.UpdateReplacePolicy),
			Status:              d.Status,
		})
	}
	return out
}

// removed lists the cleanup of the deployed resources the desired template
// does not have, by their DeletionPolicy (RetainExceptOnCreate retains: the
// update did not create them).
func (u *updater) removed() []cleanupItem {
	var out []cleanupItem
	for i := range u.in.Deployed.Resources {
		d := &u.in.Deployed.Resources[i]
		// A desired resource is Enabled: ask only about the others.
		if !u.first(i) || d.gone() || u.deployed[i]&desired != 0 || u.in.Desired.Enabled(d.LogicalID) {
			continue
		}
		a := deletion(d.DeletionPolicy)
		if d.neverCreated() {
			a = Forget
		}
		out = append(out, cleanupItem{d: d, at: i, action: a})
	}
	return out
}

// cleanupSteps appends to steps the cleanup items, in the reverse of the
// deployed dependency order (a resource is removed before what it depended
// on), ties in deployed order, numbered from after the steps before them.
func (u *updater) cleanupSteps(steps []Step, items []cleanupItem) []Step {
	if len(items) == 0 {
		return steps
	}
	before := len(steps)
	sortFunc(items, func(a, b cleanupItem) int { return a.at - b.at })
	at := make(map[string]int, len(items))
	for i, c := range items {
		at[c.d.LogicalID] = i
	}
	g := graph.New(len(items))
	for i, c := range items {
		for _, dep := range c.d.DependsOn {
			if j, ok := at[dep]; ok && j != i {
				g.AddEdge(i, j)
			}
		}
	}
	order, err := g.Order()
	if err != nil {
		// The deployed template was refused if it had a cycle; keep the
		// deployed order and drop the edges inside the cycle.
		order = breakCycles(g, err)
	}
	ids := make([]int, len(items))
	for k, v := range order {
		ids[v] = before + k + 1
	}
	var after slab[int]
	var scratch []int
	for k, v := range order {
		c := items[v]
		steps = append(steps, Step{
			ID:                  before + k + 1,
			LogicalID:           c.d.LogicalID,
			ResourceType:        c.d.Type,
			Action:              c.action,
			Phase:               PhaseUpdateCleanup,
			PhysicalID:          c.d.PhysicalID,
			Custom:              IsCustom(c.d.Type),
			PolicyAction:        policyAction(c.action),
			DeletionPolicy:      policy(c.d.DeletionPolicy),
			UpdateReplacePolicy: policy(c.d.UpdateReplacePolicy),
			Replaces:            c.replaces,
			IfReplaced:          c.maybe,
		})
		scratch = scratch[:0]
		for _, p := range g.Predecessors(v) {
			scratch = append(scratch, ids[p])
		}
		sortInts(scratch)
		steps[len(steps)-1].After = after.copyOf(scratch)
	}
	return steps
}

// breakCycles orders a graph with cycles: vertex order within each cycle,
// the edges between different components kept.
func breakCycles(g *graph.Graph, err error) []int {
	var ce *graph.CycleError
	if !errors.As(err, &ce) {
		return identity(g.Len())
	}
	comp := make([]int, g.Len())
	for i := range comp {
		comp[i] = -1
	}
	for k, c := range ce.Cycles {
		for _, v := range c {
			comp[v] = k
		}
	}
	h := graph.New(g.Len())
	for u := 0; u < g.Len(); u++ {
		for _, v := range g.Successors(u) {
			if comp[u] >= 0 && comp[u] == comp[v] {
				if u < v {
					h.AddEdge(u, v)
				}
				continue
			}
			h.AddEdge(u, v)
		}
	}
	order, err := h.Order()
	if err != nil { // cannot happen: what is left is acyclic
		return identity(g.Len())
	}
	return order
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
