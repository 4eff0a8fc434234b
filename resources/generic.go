package resources

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// generic is the schema-driven simulated provider: create, read, update,
// delete and list against the Cloud, with names, identifiers and read-only
// attributes made as AWS makes them, and each action taking the type's
// simulated duration (IN_PROGRESS callbacks, then SUCCESS).
//
// Models: the generic provider never changes a model it did not build in
// the current call. What it stores it hands to the Cloud, and the models it
// answers may share maps with the Cloud's objects (see Cloud); a model it
// changes is a fresh one (the request's properties coerced).
type generic struct {
	// mu makes each action's look-then-write on the Cloud atomic for this
	// type (two creates of one name cannot both succeed).
	mu       sync.Mutex
	schema   *Schema
	cloud    Cloud
	seed     int64
	now      func() time.Time
	pageSize int
	// seq is g.sequence, bound once.
	seq func(path, group string, model map[string]any) (int64, error)
	*compiledSim
}

// compiledSim is what the simulated provider derives from a schema alone,
// compiled once per schema (Schema.simulated) and read-only after: every
// provider of the type shares it (an engine per test, in a test suite,
// makes one of each type it meets).
type compiledSim struct {
	sim *simulation
	// createRoom and updateRoom are how many keys an action may add to the
	// request's properties (names, defaults, values, kept createOnly and
	// readOnly values): models are made that big at once, never grown.
	createRoom, updateRoom int
	// The simulation, compiled: its pointers split once, its durations in
	// seconds by action.
	defaults, values []compiledSpec
	suffixWhen       []string
	// name is what fitName holds a generated name to: the name property's
	// pattern (nil: none) and lengths, found once.
	name      namePattern
	seconds   [3]int64 // create, update, delete
	templates map[string]*template
	// gens are the values made from the schema when a new model lacks
	// them (generic_gen.go), vg what makes them.
	gens []genSpec
	vg   *valueGen
	// refPart is the part of a composite primary identifier Ref answers
	// (compositeRef), nil when Ref is the whole identifier.
	refPart []string
}

// topLevelNames counts the distinct properties that pointers start at.
func topLevelNames(lists ...[]string) int {
	seen := map[string]bool{}
	for _, list := range lists {
		for _, p := range list {
			if segs := SplitPointer(p); len(segs) > 0 {
				seen[segs[0]] = true
			}
		}
	}
	return len(seen)
}

func specPaths(specs []valueSpec) []string {
	out := make([]string, len(specs))
	for i, v := range specs {
		out[i] = v.Path
	}
	return out
}

// compiledSpec is a value or default with its pointers split.
type compiledSpec struct {
	*valueSpec
	path, when []string
	// whenIs, when set, is the scalar the model must hold at when.
	whenIs *string
}

func compileSpecs(s *Schema, specs []valueSpec) []compiledSpec {
	out := make([]compiledSpec, len(specs))
	for i := range specs {
		out[i] = compiledSpec{valueSpec: &specs[i], path: s.split(specs[i].Path)}
		if specs[i].When != "" {
			ptr, is, eq := splitWhen(specs[i].When)
			out[i].when = s.split(ptr)
			if eq {
				out[i].whenIs = &is
			}
		}
	}
	return out
}

// splitWhen splits a value's condition, "/properties/P" or
// "/properties/P=V", into its pointer and the scalar it asks for.
func splitWhen(when string) (ptr, is string, eq bool) {
	return strings.Cut(when, "=")
}

// applies tells whether the spec's condition holds for model.
func (c *compiledSpec) applies(model map[string]any) bool {
	if c.when == nil {
		return true
	}
	if c.whenIs == nil {
		return hasSegs(model, c.when)
	}
	v, ok := getSegs(model, c.when)
	if !ok {
		return false
	}
	s, ok := scalarString(v)
	return ok && strings.EqualFold(s, *c.whenIs) // AWS's enums take any case (Engine: MySQL)
}

// GenericOptions configure NewGeneric.
type GenericOptions struct {
	Cloud Cloud
	// Seed keys every generated name and identifier.
	Seed int64
	// Now is the virtual clock (creation dates); a fixed epoch when nil.
	Now func() time.Time
	// PageSize is the number of models a list answers at once (default 10).
	PageSize int
}

// Epoch is the instant the simulated clock shows when nobody gives one.
var Epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// NewGeneric returns the schema-driven simulated provider for a schema. A
// schema without an x-stacksim section gets simulation rules inferred from
// its properties (names, ARNs, ids), and the durations of the type's family.
func NewGeneric(s *Schema, opts GenericOptions) Provider {
	if opts.Cloud == nil {
		opts.Cloud = NewMemCloud()
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return Epoch }
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 10
	}
	g := &generic{schema: s, cloud: opts.Cloud, seed: opts.Seed, now: opts.Now, pageSize: opts.PageSize, compiledSim: s.simulated()}
	g.seq = g.sequence
	return g
}

// simulated is the schema's simulation, compiled once.
func (s *Schema) simulated() *compiledSim {
	s.simOnce.Do(func() { s.simC = compileSim(s) })
	return s.simC
}

func compileSim(s *Schema) *compiledSim {
	sim := s.sim
	switch {
	case sim == nil:
		sim = inferSimulation(s)
	case s.overlaid:
		sim = mergeSimulation(sim, inferSimulation(s))
	}
	c := &compiledSim{sim: sim}
	var named []string
	if sim.Name != nil {
		named = []string{"/properties/" + sim.Name.Property}
	}
	c.createRoom = topLevelNames(named, specPaths(sim.Defaults), specPaths(sim.Values))
	c.updateRoom = topLevelNames(s.CreateOnlyProperties, s.ReadOnlyProperties, specPaths(sim.Defaults), specPaths(sim.Values))
	c.defaults, c.values = compileSpecs(s, sim.Defaults), compileSpecs(s, sim.Values)
	c.templates = compileTemplates(sim.Values, sim.Defaults)
	c.gens, c.vg = compileGens(s, sim), newValueGen(s)
	c.refPart = compositeRef(s, c.vg)
	c.createRoom += len(c.gens)
	if sim.Name != nil && sim.Name.Suffix != nil {
		c.suffixWhen = SplitPointer(sim.Name.Suffix.When)
	}
	if sim.Name != nil {
		c.name = namePatternOf(s, sim.Name.Property)
	}
	for i, a := range [...]Action{ActionCreate, ActionUpdate, ActionDelete} {
		c.seconds[i] = int64(sim.duration(a) / time.Second)
	}
	return c
}

const stabilizeKey = "stacksimStabilize"

func (g *generic) TypeName() string { return g.schema.TypeName }
func (g *generic) Schema() *Schema  { return g.schema }

func (g *generic) Timeout(a Action, _ map[string]any) time.Duration { return g.schema.Timeout(a) }

func (g *generic) PhysicalID(model map[string]any) (string, error) {
	return PrimaryIdentifierValue(g.schema, model)
}

// PrimaryIdentifierValue is the physical id of a model under a schema: the
// primary identifier's values, stringified, joined with "|".
func PrimaryIdentifierValue(s *Schema, model map[string]any) (string, error) {
	if id, ok := PrimaryIdentifierOf(s, model); ok {
		return id, nil
	}
	for _, p := range s.lists().primary {
		if _, ok := identifierPart(model, p.segs); !ok {
			return "", fmt.Errorf("the %s model has no primary identifier %s", s.TypeName, p.text)
		}
	}
	return "", fmt.Errorf("the %s model has no primary identifier", s.TypeName)
}

// PrimaryIdentifierOf is PrimaryIdentifierValue without the error: ok is
// false when the model lacks a part. It allocates nothing for a single
// identifier, one string for a composite one.
func PrimaryIdentifierOf(s *Schema, model map[string]any) (id string, ok bool) {
	primary := s.lists().primary
	if len(primary) == 1 {
		return identifierPart(model, primary[0].segs)
	}
	var arr [4]string
	parts := arr[:0]
	for _, p := range primary {
		str, ok := identifierPart(model, p.segs)
		if !ok {
			return "", false
		}
		parts = append(parts, str)
	}
	return strings.Join(parts, "|"), len(parts) > 0
}

func identifierPart(model map[string]any, segs []string) (string, bool) {
	v, ok := getSegs(model, segs)
	str, isScalar := scalarString(v)
	if !ok || !isScalar || str == "" {
		return "", false
	}
	return str, true
}

// Ref is what the simulation says (x-stacksim "ref"), else the primary
// identifier; of a composite identifier, the one part that names the
// resource itself when there is one (an API Gateway resource's ResourceId,
// a stage's StageName, a log metric filter's FilterName, as AWS answers
// them), else the parts joined with "|".
func (g *generic) Ref(model map[string]any) (any, error) {
	if g.sim.Ref != "" {
		if v, ok := Get(model, g.sim.Ref); ok {
			return v, nil
		}
		return nil, fmt.Errorf("the %s model has no %s for Ref", g.schema.TypeName, g.sim.Ref)
	}
	if g.refPart != nil {
		if s, ok := identifierPart(model, g.refPart); ok {
			return s, nil
		}
	}
	return g.PhysicalID(model)
}

// compositeRef is the part of a composite primary identifier Ref answers:
// the only one that is the resource's own (isOwn), nil when none or more
// than one is.
func compositeRef(s *Schema, vg *valueGen) []string {
	if len(s.PrimaryIdentifier) < 2 {
		return nil
	}
	var own []string
	for _, p := range s.PrimaryIdentifier {
		segs := SplitPointer(p)
		if len(segs) == 1 && vg.isOwn(segs[0]) {
			own = append(own, p)
		}
	}
	if len(own) != 1 {
		return nil
	}
	return SplitPointer(own[0])
}

func (g *generic) GetAtt(model map[string]any, attribute string) (any, error) {
	if g.schema.dynamicAttribute(attribute) {
		if v, ok := Get(model, "/"+strings.ReplaceAll(attribute, ".", "/")); ok {
			return v, nil
		}
		return g.dynamicValue(model, attribute), nil
	}
	return getAttFromModel(g.schema, model, attribute)
}

// ReadsLive implements LiveAttributer: the simulation's liveAttributes.
func (g *generic) ReadsLive(attribute string) bool {
	return g.sim != nil && slices.Contains(g.sim.Live, attribute)
}

// dynamicValue is the value of an attribute answered by prefix: a string
// generated from the attribute's last name (VpcId → vpc-..., a name...),
// keyed by the seed, the resource's physical id and the attribute, in the
// region and account of the resource's ARN when its identifier is one.
func (g *generic) dynamicValue(model map[string]any, attribute string) any {
	id, _ := g.PhysicalID(model)
	req := &Request{StackID: id, LogicalResourceIdentifier: attribute}
	if parts := strings.SplitN(id, ":", 6); len(parts) == 6 && parts[0] == "arn" {
		req.AWSPartition, req.Region, req.AWSAccountID = parts[1], parts[3], parts[4]
	}
	e := newEnv(req, g.seed, g.now(), model)
	name := attribute[strings.LastIndexByte(attribute, '.')+1:]
	return g.vg.str(e, plainString, genRequest{path: "/" + attribute, name: name})
}

// UnsupportedAttributeError is AWS's wording for Fn::GetAtt of an attribute
// the type does not have.
func UnsupportedAttributeError(typeName, attribute string) error {
	return fmt.Errorf("Resource type %s does not support attribute {%s}", typeName, attribute)
}

func getAttFromModel(s *Schema, model map[string]any, attribute string) (any, error) {
	if !s.HasAttribute(attribute) {
		return nil, UnsupportedAttributeError(s.TypeName, attribute)
	}
	v, ok := Get(model, "/"+strings.ReplaceAll(attribute, ".", "/"))
	if !ok {
		return nil, fmt.Errorf("Attribute '%s' does not exist", attribute)
	}
	return v, nil
}

// answer is a stored object's model as a handler answers it: made when the
// object was (put), or now for an object this provider did not make.
func (g *generic) answer(obj *Object) map[string]any {
	if out, ok := obj.answerFor(g.schema); ok {
		return out
	}
	return g.output(obj.Model)
}

// put stores a new object and returns its answer, which it keeps with it.
func (g *generic) put(obj *Object) (map[string]any, error) {
	out := g.output(obj.Model)
	obj.answer, obj.answerOf, obj.answerSchema = out, obj.Model, g.schema
	if obj.lastStep == nil && g.seconds != [3]int64{} {
		obj.lastStep = lastStepContext(obj.ID)
	}
	return out, g.cloud.Put(obj)
}

// output is a stored model as a handler answers it: writeOnly properties
// removed (stored models are in the schema's types already). model is not
// changed; the answer shares what it does not change with it.
func (g *generic) output(model map[string]any) map[string]any {
	return withoutWriteOnly(g.schema, model)
}

func (g *generic) notFound(id string) *ProgressEvent {
	return Failed(ErrNotFound, "Resource of type '%s' with identifier '%s' was not found.", g.schema.TypeName, id)
}

// locate finds the physical id a read, update or delete names: the
// request's model's primary identifier, else the engine's current physical
// id, else the previous model's identifier.
func (g *generic) locate(req *Request) (string, bool) {
	if id, ok := PrimaryIdentifierOf(g.schema, req.DesiredResourceState); ok {
		return id, true
	}
	if req.PhysicalResourceID != "" {
		return req.PhysicalResourceID, true
	}
	return PrimaryIdentifierOf(g.schema, req.PreviousResourceState)
}

// stabilizing reads the generic provider's own callback context.
func stabilizing(req *Request) (id string, remaining int64, ok bool) {
	v := req.CallbackContext[stabilizeKey]
	if id, isID := v.(string); isID {
		return id, 0, id != "" // the last step: lastStepContext
	}
	st, isMap := v.(map[string]any)
	if !isMap {
		return "", 0, false
	}
	id, _ = st["id"].(string)
	if n, isNum := numberOf(st["remaining"]); isNum {
		remaining, _ = n.Int64()
	} else if s, isStr := st["remaining"].(string); isStr {
		var r int64
		fmt.Sscan(s, &r)
		remaining = r
	}
	return id, remaining, id != ""
}

// stabilizeContext is the callback context of a step that leaves seconds
// to wait after it: the object's id and the seconds left.
func stabilizeContext(id string, remaining any) map[string]any {
	return map[string]any{stabilizeKey: map[string]any{"id": id, "remaining": remaining}}
}

// lastStepContext is the callback context of the last step of a
// stabilization (nothing left after it): the object's id alone, one map
// per object rather than two (stabilizing also reads the two-map form,
// {"id": ID, "remaining": 0}, that state files saved before have).
func lastStepContext(id string) map[string]any {
	return map[string]any{stabilizeKey: id}
}

// step answers IN_PROGRESS for the next part of a simulated duration, or
// nil when none is left. obj, when known, is the object whose last step's
// context can be reused.
func (g *generic) step(obj *Object, id string, remaining int64, model map[string]any) *ProgressEvent {
	if remaining <= 0 {
		return nil
	}
	poll := int64(g.sim.PollSeconds)
	if poll <= 0 {
		poll = 30
	}
	delay := min(remaining, poll)
	if remaining > delay {
		return InProgress(model, stabilizeContext(id, numberFromInt(remaining-delay)), delay)
	}
	if obj != nil && obj.lastStep != nil && obj.ID == id {
		return InProgress(model, obj.lastStep, delay)
	}
	return InProgress(model, lastStepContext(id), delay)
}

func (g *generic) Create(ctx context.Context, req *Request) (*ProgressEvent, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if id, remaining, ok := stabilizing(req); ok {
		return g.finish(id, remaining)
	}
	desired := g.schema.coerceWithRoom(req.DesiredResourceState, g.createRoom)
	for _, p := range g.schema.lists().readOnly {
		deleteSegs(desired, p.segs)
	}
	if err := g.schema.validateInputCoerced(desired); err != nil {
		return g.invalid(req, err), nil
	}
	e := makeEnv(req, g.seed, g.now(), desired)
	e.templates = g.templates
	e.seq = g.seq
	if err := g.fillCreate(&e); err != nil {
		return nil, err
	}
	model := e.model
	id, ok := PrimaryIdentifierOf(g.schema, model)
	if !ok {
		_, err := PrimaryIdentifierValue(g.schema, model)
		return nil, fmt.Errorf("simulate %s: %w", g.schema.TypeName, err)
	}
	existing, err := g.cloud.Get(g.schema.TypeName, id)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	obj := existing
	if existing != nil {
		sameRequest := existing.RequestToken == req.ClientRequestToken && existing.StackID == req.StackID && existing.LogicalID == req.LogicalResourceIdentifier
		if !sameRequest {
			return Failed(ErrAlreadyExists, "Resource of type '%s' with identifier '%s' already exists.", g.schema.TypeName, id), nil
		}
		out = g.answer(existing) // an idempotent retry: the same resource again
	} else {
		// model is the Cloud's from now on: read, never changed
		obj = &Object{Type: g.schema.TypeName, ID: id, Model: model, StackID: req.StackID, LogicalID: req.LogicalResourceIdentifier, RequestToken: req.ClientRequestToken}
		if out, err = g.put(obj); err != nil {
			return nil, err
		}
		if err := runEffect(g.cloud, obj, true); err != nil {
			return nil, err
		}
	}
	if ev := g.step(obj, id, g.seconds[0], out); ev != nil {
		return ev, nil
	}
	return Success(out), nil
}

// finish continues a create or update whose simulated duration runs.
func (g *generic) finish(id string, remaining int64) (*ProgressEvent, error) {
	obj, err := g.cloud.Get(g.schema.TypeName, id)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return Failed(ErrNotStabilized, "Resource of type '%s' with identifier '%s' disappeared while it stabilized.", g.schema.TypeName, id), nil
	}
	out := g.answer(obj)
	if ev := g.step(obj, id, remaining, out); ev != nil {
		return ev, nil
	}
	return Success(out), nil
}

func (g *generic) invalid(req *Request, err error) *ProgressEvent {
	msg := err.Error()
	if ve, ok := err.(*ValidationError); ok {
		msg = ValidationMessage(req.LogicalResourceIdentifier, ve.Problems)
	}
	return Failed(ErrInvalidRequest, "%s", msg)
}

// fillCreate generates the name, the defaults and the read-only values of a
// new resource.
func (g *generic) fillCreate(e *env) error {
	if n := g.sim.Name; n != nil {
		if _, ok := e.model[n.Property]; !ok {
			suffix := ""
			if n.Suffix != nil {
				if v, ok := getSegs(e.model, g.suffixWhen); ok && LooseEqual(v, true) {
					suffix = n.Suffix.Value
				}
			}
			e.model[n.Property] = g.fitName(e, n, e.generateName(n, suffix))
		}
	}
	if err := g.applyDefaults(e); err != nil {
		return err
	}
	if err := g.applyValues(e, false); err != nil {
		return err
	}
	g.generateMissing(e)
	if d := derivations[g.schema.TypeName]; d != nil {
		d(e, false)
	}
	return nil
}

func (g *generic) applyDefaults(e *env) error {
	for _, d := range g.defaults {
		if !d.applies(e.model) {
			continue
		}
		if hasSegs(e.model, d.path) {
			continue
		}
		v, err := e.expand(d.Value, d.Path)
		if err != nil {
			return fmt.Errorf("%s default %s: %w", g.schema.TypeName, d.Path, err)
		}
		if err := setSegs(e.model, d.path, v, d.Path); err != nil {
			return err
		}
	}
	return nil
}

func (g *generic) applyValues(e *env, update bool) error {
	for _, v := range g.values {
		if update && !v.OnUpdate {
			continue
		}
		if !v.applies(e.model) {
			continue
		}
		if !update && hasSegs(e.model, v.path) {
			continue
		}
		e.curPath = v.Path
		x, err := e.expand(v.Value, v.Path)
		if err != nil {
			return fmt.Errorf("%s value %s: %w", g.schema.TypeName, v.Path, err)
		}
		if err := setSegs(e.model, v.path, x, v.Path); err != nil {
			return err
		}
	}
	return nil
}

func (g *generic) Read(ctx context.Context, req *Request) (*ProgressEvent, error) {
	id, ok := g.locate(req)
	if !ok {
		return Failed(ErrNotFound, "The read request for %s names no identifier (%s).", g.schema.TypeName, strings.Join(g.schema.PrimaryIdentifier, ", ")), nil
	}
	obj, err := g.cloud.Get(g.schema.TypeName, id)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return g.notFound(id), nil
	}
	return Success(g.answer(obj)), nil
}

func (g *generic) Update(ctx context.Context, req *Request) (*ProgressEvent, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if id, remaining, ok := stabilizing(req); ok {
		return g.finish(id, remaining)
	}
	id, ok := g.locate(req)
	if !ok {
		return Failed(ErrNotFound, "The update request for %s names no identifier (%s).", g.schema.TypeName, strings.Join(g.schema.PrimaryIdentifier, ", ")), nil
	}
	obj, err := g.cloud.Get(g.schema.TypeName, id)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return g.notFound(id), nil
	}
	desired := g.schema.coerceWithRoom(req.DesiredResourceState, g.updateRoom)
	for _, p := range g.schema.lists().readOnly {
		deleteSegs(desired, p.segs)
	}
	var changed []string
	for _, p := range g.schema.lists().createOnly {
		if hasSegs(desired, p.segs) && !sameAt(desired, obj.Model, p.segs) {
			changed = append(changed, p.text)
		}
	}
	if len(changed) > 0 {
		sort.Strings(changed)
		return Failed(ErrNotUpdatable, "Invalid patch update: createOnlyProperties [%s] cannot be updated", strings.Join(changed, ", ")), nil
	}
	if err := g.schema.validateInputCoerced(desired); err != nil {
		return g.invalid(req, err), nil
	}
	// createOnly values the template left out (generated names) and every
	// read-only value stay as they are.
	lists := g.schema.lists()
	for _, list := range [2][]pointer{lists.createOnly, lists.readOnly} {
		for _, p := range list {
			if contains(p.segs, "*") || hasSegs(desired, p.segs) {
				continue
			}
			if v, ok := getSegs(obj.Model, p.segs); ok {
				// v is the Cloud's: copied, as values below may fill it. An
				// error means its parent is not an object in the new model,
				// and the value goes.
				_ = setSegs(desired, p.segs, copyValue(v), p.text)
			}
		}
	}
	e := makeEnv(req, g.seed, g.now(), desired)
	e.templates = g.templates
	if err := g.applyDefaults(&e); err != nil {
		return nil, err
	}
	if err := g.applyValues(&e, true); err != nil {
		return nil, err
	}
	if d := derivations[g.schema.TypeName]; d != nil {
		d(&e, true)
	}
	if newID, ok := PrimaryIdentifierOf(g.schema, desired); !ok || newID != id {
		return nil, fmt.Errorf("simulate %s update: the primary identifier changed from %q", g.schema.TypeName, id)
	}
	// obj is the Cloud's: read only. desired is the Cloud's from now on.
	next := *obj
	next.Model = desired
	out, err := g.put(&next)
	if err != nil {
		return nil, err
	}
	if effects[g.schema.TypeName] != nil {
		// what the old object did to others, undone; the new one's, done
		if err := runEffect(g.cloud, obj, false); err != nil {
			return nil, err
		}
		if err := runEffect(g.cloud, &next, true); err != nil {
			return nil, err
		}
	}
	if ev := g.step(&next, id, g.seconds[1], out); ev != nil {
		return ev, nil
	}
	return Success(out), nil
}

func (g *generic) Delete(ctx context.Context, req *Request) (*ProgressEvent, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if id, remaining, ok := stabilizing(req); ok {
		if remaining > 0 {
			return g.step(nil, id, remaining, nil), nil
		}
		if err := g.remove(id); err != nil {
			return nil, err
		}
		return Success(nil), nil
	}
	id, ok := g.locate(req)
	if !ok {
		return Failed(ErrNotFound, "The delete request for %s names no identifier (%s).", g.schema.TypeName, strings.Join(g.schema.PrimaryIdentifier, ", ")), nil
	}
	obj, err := g.cloud.Get(g.schema.TypeName, id)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return g.notFound(id), nil
	}
	if ev := g.step(obj, id, g.seconds[2], nil); ev != nil {
		return ev, nil
	}
	if err := g.remove(id); err != nil {
		return nil, err
	}
	return Success(nil), nil
}

// remove deletes an object from the Cloud, with what its removal does to
// others (effects) and the sequences it owned (EndSequences).
func (g *generic) remove(id string) error {
	_, owns := sequenceOwners[g.schema.TypeName]
	if effects[g.schema.TypeName] == nil && !owns {
		_, err := g.cloud.Delete(g.schema.TypeName, id)
		return err
	}
	obj, err := g.cloud.Get(g.schema.TypeName, id)
	if err != nil || obj == nil {
		return err
	}
	if _, err := g.cloud.Delete(g.schema.TypeName, id); err != nil {
		return err
	}
	if err := EndSequences(g.cloud, obj); err != nil {
		return err
	}
	return runEffect(g.cloud, obj, false)
}

func (g *generic) List(ctx context.Context, req *Request) (*ProgressEvent, error) {
	objs, err := g.cloud.List(g.schema.TypeName)
	if err != nil {
		return nil, err
	}
	filter := g.schema.Coerce(req.DesiredResourceState)
	for _, p := range g.schema.WriteOnlyProperties {
		Delete(filter, p)
	}
	start := 0
	if req.NextToken != "" {
		after, err := decodeListToken(req.NextToken)
		if err != nil {
			return Failed(ErrInvalidRequest, "Invalid NextToken: %v", err), nil
		}
		start = sort.Search(len(objs), func(i int) bool { return objs[i].ID > after })
	}
	models := []map[string]any{}
	next := ""
	for i := start; i < len(objs); i++ {
		if !matchesFilter(objs[i].Model, filter) {
			continue
		}
		if len(models) == g.pageSize {
			next = encodeListToken(objs[i-1].ID)
			break
		}
		models = append(models, g.answer(objs[i]))
	}
	return &ProgressEvent{Status: StatusSuccess, ResourceModels: models, NextToken: next}, nil
}

// trailingNumber is the number the digits that end s make.
func trailingNumber(s string) (int64, bool) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s[i:], 10, 64)
	return n, err == nil
}

// sameAt is LooseEqual(getAllSegs(a, segs), getAllSegs(b, segs)) without
// the slices when segs has no "*".
func sameAt(a, b map[string]any, segs []string) bool {
	if contains(segs, "*") {
		return LooseEqual(getAllSegs(a, segs), getAllSegs(b, segs))
	}
	x, okA := getSegs(a, segs)
	y, okB := getSegs(b, segs)
	if okA != okB {
		return false
	}
	return !okA || LooseEqual(x, y)
}

func matchesFilter(model, filter map[string]any) bool {
	for k, want := range filter {
		if got, ok := model[k]; !ok || !LooseEqual(got, want) {
			return false
		}
	}
	return true
}
