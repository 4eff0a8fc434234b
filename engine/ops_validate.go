package engine

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/paramstore"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// Pre-handler validation. CloudFormation validates a resource's
// properties against its type's registry schema before any handler runs,
// and fails the resource in its own words, not the handler's
// (resources.ValidationMessage): "Properties validation failed for
// resource X with message: [#/Content: expected type: String, found:
// JSONObject]". AWS does it when the operation starts, for every resource
// at once: a 2024 console paste of AWS's events shows, after the stack's
// CREATE_IN_PROGRESS, the resource CREATE_FAILED (no CREATE_IN_PROGRESS)
// with DetailedStatus VALIDATION_FAILED, then the stack
// ROLLBACK_IN_PROGRESS "Validation failed for following resources: [X].
// Rollback requested by user.", then ROLLBACK_COMPLETE (no event of the
// resource in between). stacksim does the same with what is known when the
// operation starts (a value that waits on another resource passes any
// check), and checks again, with every value known, when a step is about
// to call its handler (then the resource has its *_IN_PROGRESS event
// first).

// inputSchema is the schema a type's properties are validated against,
// nil when none: custom resources, types stacksim simulates without one.
func (r *run) inputSchema(typeName string) *resources.Schema {
	if plan.IsCustom(typeName) {
		return nil
	}
	p, err := r.e.providerOf(typeName)
	if err != nil || p == nil {
		return nil
	}
	s := p.Schema()
	if s == nil || permissive(s) {
		return nil
	}
	return s
}

// validatedStep tells whether a step sends properties to a handler, which
// CloudFormation validates first.
func validatedStep(s *plan.Step) bool {
	if s.Phase != plan.PhaseCreate && s.Phase != plan.PhaseUpdate {
		return false
	}
	switch s.Action {
	case plan.Create, plan.CreateThenDelete, plan.DeleteThenCreate:
		return true
	case plan.Update:
		return s.CallsHandler()
	}
	return false
}

// propertyProblems validates properties, in which a value not known yet
// (template.Unknown) passes every check; nil when they are valid (or the
// schema cannot say: a schema that does not compile is the handler's
// business).
func propertyProblems(s *resources.Schema, props map[string]any) []string {
	// The quick path first: with each value not known yet passing every
	// check, most properties are certainly valid, without a copy, the full
	// validator's walk and its problems (which would all be about the
	// unknowns).
	if s.InputCertainlyValidFunc(props, notKnownYet) {
		return nil
	}
	var unknown []string
	model, _ := withoutUnknowns(props, "#", &unknown, nil).(map[string]any)
	// CloudFormation sends scalars as strings, and validates them as the
	// schema's types after converting (ValidateInput coerces).
	err := s.ValidateInput(resources.StringifyModel(model))
	var ve *resources.ValidationError
	if err == nil || !errors.As(err, &ve) {
		return nil
	}
	var out []string
	for _, p := range ve.Problems {
		if !aboutUnknown(p, unknown) {
			out = append(out, p)
		}
	}
	return out
}

// notKnownYet reports whether a value of template properties is not known
// yet where it is — an unknown, a dynamic reference, a scalar made of an
// unknown — as withoutUnknowns finds them (maps and lists are walked).
func notKnownYet(v any) bool {
	switch t := v.(type) {
	case template.Unknown:
		return true
	case string:
		return paramstore.Contains(t)
	case map[string]any, []any, nil, bool, json.Number:
		return false
	}
	return !template.IsKnown(v)
}

// withoutUnknowns copies v with hole (null, or resources.Pending) in place
// of every value not known yet (an unknown, a dynamic reference), noting
// where each was (as "#/A/0/B").
func withoutUnknowns(v any, at string, where *[]string, hole any) any {
	switch t := v.(type) {
	case template.Unknown:
		*where = append(*where, at)
		return hole
	case string:
		if paramstore.Contains(t) {
			// A dynamic reference is read when the step starts.
			*where = append(*where, at)
			return hole
		}
		return v // as it is (boxing t again would allocate)
	case map[string]any:
		if template.IsKnown(t) && !hasDynamicRef(t) {
			return t
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = withoutUnknowns(e, at+"/"+k, where, hole)
		}
		return out
	case []any:
		if template.IsKnown(t) && !hasDynamicRef(t) {
			return t
		}
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = withoutUnknowns(e, at+"/"+strconv.Itoa(i), where, hole)
		}
		return out
	}
	if !template.IsKnown(v) {
		*where = append(*where, at) // a partially unknown scalar (a Join of one)
		return hole
	}
	return v
}

// aboutUnknown tells whether a problem ("#/A/0: message") may come of a
// value not known yet: it is at or under one, or at a list or object that
// holds one (two unknown items of a list are not "equal"), but for a
// missing or extraneous key (a dependency's too), or a required key whose
// value is unknown.
func aboutUnknown(problem string, unknown []string) bool {
	loc, msg, _ := strings.Cut(problem, ": ")
	keyProblem := strings.HasPrefix(msg, "required key [") || strings.HasPrefix(msg, "extraneous key [") ||
		strings.HasPrefix(msg, "property [")
	for _, u := range unknown {
		if loc == u || strings.HasPrefix(loc, u+"/") {
			return true
		}
		if !keyProblem && strings.HasPrefix(u, loc+"/") {
			return true
		}
		if key, ok := strings.CutPrefix(msg, "required key ["); ok && loc+"/"+strings.TrimSuffix(key, "] not found") == u {
			return true
		}
	}
	return false
}

// checkProperties runs when a create or update starts: it fails, in
// CloudFormation's words, every resource whose properties fail
// validation, and reports whether any did (the operation then stops,
// "Validation failed for following resources: [A, B]."). kept are
// properties resolved already as live(true) resolves them (a create's
// runtimeTemplateCheck), nil for none.
func (r *run) checkProperties(kept *keptProperties) (bool, error) {
	b, err := r.template()
	if err != nil {
		return false, internalf("stack %s: binding its template: %w", r.st.StackName, err)
	}
	var failed []string
	for i := range r.op.Plan.Steps {
		s := &r.op.Plan.Steps[i]
		if !validatedStep(s) {
			continue
		}
		schema := r.inputSchema(s.ResourceType)
		if schema == nil {
			continue
		}
		props, ok := kept.of(s.LogicalID)
		if !ok {
			var perr error
			if props, perr = b.Properties(s.LogicalID, r.live(true)); perr != nil {
				continue // a template error: the step reports it when it starts
			}
		}
		problems := propertyProblems(schema, props)
		if len(problems) == 0 {
			continue
		}
		if !template.IsKnown(props) {
			props = nil // the event shows properties only when all are known
		}
		if err := r.refuse(s, resources.ValidationMessage(s.LogicalID, problems), props); err != nil {
			return false, err
		}
		failed = append(failed, s.LogicalID)
	}
	if len(failed) == 0 {
		return false, nil
	}
	op := r.oper()
	op.Stopping = true
	// Recorded from AWS (above); the update's wording is the create's
	// without its suffix (UNVERIFIED).
	op.StopCause = "Validation failed for following resources: [" + strings.Join(failed, ", ") + "]."
	r.schedulePhaseEnd()
	return true, nil
}

// refuse fails a step's resource before its handler is called: a new
// resource goes CREATE_FAILED, an existing one UPDATE_FAILED (deny).
func (r *run) refuse(s *plan.Step, reason string, props map[string]any) error {
	cur := r.current(s.LogicalID)
	if cur != nil && (cur.ResourceStatus == statemachine.ResourceStatusDeleteComplete || cur.ResourceStatus == statemachine.ResourceStatusDeleteSkipped) {
		cur = nil
	}
	if s.Action == plan.Create && cur == nil {
		rec, err := r.fireResource(nil, s.LogicalID, statemachine.ResourceDeny)
		if err != nil {
			return err
		}
		rec.PhysicalResourceId, rec.Model, rec.Properties = "", nil, nil
		r.applyTemplate(rec, s)
		r.event(rec, reason, props)
		r.put(rec)
	} else {
		if cur == nil {
			return internalf("stack %s: %s is refused, but has no record", r.st.StackName, s.LogicalID)
		}
		if _, ok := statemachine.NextResource(cur.ResourceStatus, statemachine.ResourceDeny); !ok {
			return nil // nothing complete to refuse: the step itself reports it
		}
		if _, err := r.moveTo(cur, s.LogicalID, statemachine.ResourceDeny, reason, props); err != nil {
			return err
		}
	}
	op := r.oper()
	op.PolicyDenied = append(append([]string(nil), op.PolicyDenied...), s.LogicalID)
	return nil
}

// stepValidation is the reason a step's resource fails validation with
// its properties all known (the handler state, dynamic references read),
// "" when they pass.
func (r *run) stepValidation(s *plan.Step, state map[string]any) string {
	schema := r.inputSchema(s.ResourceType)
	if schema == nil {
		return ""
	}
	if problems := propertyProblems(schema, state); len(problems) > 0 {
		return resources.ValidationMessage(s.LogicalID, problems)
	}
	return ""
}
