package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/paramstore"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// Dynamic references ({{resolve:ssm:...}}, {{resolve:ssm-secure:...}},
// {{resolve:secretsmanager:...}}) are resolved where CloudFormation
// resolves them (dynamic-references.html):
//
//   - in resource properties, when the resource is provisioned: the handler
//     receives the values, while the stack keeps the references as
//     written — DescribeStackResource, the events' ResourceProperties,
//     GetTemplate and the change sets show the reference, never the value,
//     and an update compares the references, not the values ("When
//     comparing changes using change sets, CloudFormation only compares the
//     literal dynamic reference string");
//   - ssm-secure only in the properties AWS lists (paramstore.SecureProperties),
//     refused elsewhere when the template is submitted;
//   - secure values (ssm-secure, secretsmanager) never in custom resources,
//     which receive the reference as written ("Dynamic references for
//     secure values ... aren't currently supported in custom resources");
//   - ssm in Outputs: read when the template is submitted (a parameter
//     that does not exist refuses the call: CloudFormation resolves the
//     outputs when it makes the change set) and when the outputs are
//     written; secretsmanager in Outputs stays as written (AWS shows the
//     reference: cloudformation-coverage-roadmap#689).
//
// Versions: stacksim keeps one version of each parameter and secret; a
// version or a version stage in a reference reads it.

// handlerState is what a handler receives of a resource's properties:
// stringified, with its dynamic references resolved. reason is why the
// resource fails when one cannot be read ("" otherwise).
func (r *run) handlerState(typeName string, props map[string]any) (map[string]any, string) {
	state := resources.StringifyModel(props)
	if state == nil || !hasDynamicRef(state) {
		return state, ""
	}
	out, err := r.e.resolveRefs(r.tx, state, !plan.IsCustom(typeName))
	if err != nil {
		return nil, err.Error()
	}
	return out.(map[string]any), ""
}

// hasDynamicRef tells whether a value holds a dynamic reference.
func hasDynamicRef(v any) bool {
	switch t := v.(type) {
	case string:
		return paramstore.Contains(t)
	case map[string]any:
		for _, e := range t {
			if hasDynamicRef(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if hasDynamicRef(e) {
				return true
			}
		}
	}
	return false
}

// resolveRefs returns v with its dynamic references replaced by their
// values; with secure false, ssm-secure and secretsmanager references stay
// as written. v is not changed.
func (e *Engine) resolveRefs(tx *txn, v any, secure bool) (any, error) {
	switch t := v.(type) {
	case string:
		if !paramstore.Contains(t) {
			return t, nil
		}
		return paramstore.Replace(t, func(ref paramstore.Ref) (string, error) {
			if ref.Secure() && !secure {
				return ref.Text, nil
			}
			return e.refValue(tx, ref)
		})
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			r, err := e.resolveRefs(tx, x, secure)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			r, err := e.resolveRefs(tx, x, secure)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// refValue reads one dynamic reference.
func (e *Engine) refValue(tx *txn, ref paramstore.Ref) (string, error) {
	switch ref.Service {
	case paramstore.ServiceSSM, paramstore.ServiceSSMSecure:
		p, ok := e.ssmSources(tx).Get(ref.Name)
		if !ok || (ref.Service == paramstore.ServiceSSMSecure && strings.HasPrefix(ref.Name, paramstore.PublicPrefix)) {
			// "CloudFormation doesn't support using ... public parameters
			// in dynamic references" for secure strings.
			return "", fmt.Errorf("%s", paramstore.MissingMessage(ref.Name))
		}
		return p.Value, nil
	case paramstore.ServiceSecretsManager:
		s, ok, err := e.secretOf(tx, ref.SecretID)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("%s (Service: AWSSecretsManager; Status Code: 400; Error Code: ResourceNotFoundException)", paramstore.MsgSecretNotFound)
		}
		return paramstore.SecretValue(s.SecretString, ref.JSONKey)
	}
	return ref.Text, nil
}

// checkDynamicRefs checks the dynamic references of a bound template when
// it is submitted: an ssm-secure reference outside the properties that
// take one ("SSM Secure reference is not supported in: [TYPE/Properties/PATH]"),
// and an ssm reference in an output that names no parameter.
func (e *Engine) checkDynamicRefs(tx *txn, b boundTemplate, r template.Resolver) error {
	if !hasDynamicRefText(b) {
		return nil
	}
	for _, res := range b.Resources() {
		props, err := b.Properties(res.LogicalID, r)
		if err != nil {
			return err
		}
		var bad []string
		walkStrings(props, nil, func(path []string, s string) {
			refs, err := paramstore.Find(s)
			if err != nil {
				return // failed when the resource is provisioned, with the reason
			}
			for _, ref := range refs {
				if ref.Service == paramstore.ServiceSSMSecure && !paramstore.SecureAllowed(res.Type, path) {
					bad = append(bad, res.Type+"/Properties/"+strings.Join(path, "/"))
				}
			}
		})
		if len(bad) > 0 {
			return ValidationError("SSM Secure reference is not supported in: [%s]", strings.Join(bad, ", "))
		}
	}
	var missing []string
	for _, o := range b.Outputs() {
		v, err := b.OutputValue(o.Name, r)
		if err != nil {
			return err
		}
		walkStrings(v, nil, func(_ []string, s string) {
			refs, _ := paramstore.Find(s)
			for _, ref := range refs {
				if ref.Service != paramstore.ServiceSSM {
					continue
				}
				if _, ok := e.ssmSources(tx).Get(ref.Name); !ok {
					missing = append(missing, ref.Name)
				}
			}
		})
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return ValidationError("%s", paramstore.MissingMessage(missing...))
	}
	return nil
}

// hasDynamicRefText tells cheaply whether the template's tree holds a
// dynamic reference anywhere.
func hasDynamicRefText(b boundTemplate) bool {
	t := b.Template()
	if t == nil || t.Root == nil {
		return false
	}
	found := false
	walkNodes(t.Root, func(n *template.Node) bool {
		if n.Kind == template.String && strings.Contains(n.Value, "{{resolve:") {
			found = true
		}
		return !found
	})
	return found
}

// walkStrings calls fn with every known string in v and its path (list
// indexes as numbers).
func walkStrings(v any, path []string, fn func(path []string, s string)) {
	switch t := v.(type) {
	case string:
		fn(path, t)
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walkStrings(t[k], append(path[:len(path):len(path)], k), fn)
		}
	case []any:
		for i, x := range t {
			walkStrings(x, append(path[:len(path):len(path)], strconv.Itoa(i)), fn)
		}
	}
}
