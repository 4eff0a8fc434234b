package engine

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/template"
)

// Outputs and exports, settled when a create's or an update's resources
// are all in place (and again when an update rolls back). An export name
// is the account's: a name another stack exports fails the operation, and
// so does removing or changing an export another stack imports.

type outputsMode int

const (
	outputsCreate  outputsMode = iota // check that no other stack exports a name
	outputsUpdate                     // also check the exports other stacks import
	outputsRestore                    // a rollback puts the old outputs back: no checks
)

// settleOutputs resolves the stack's outputs and exports and records them
// with the stack's imports; it returns the stack's failure reason instead
// when they cannot be (a template error, an export conflict), changing
// nothing.
func (r *run) settleOutputs(mode outputsMode) (string, error) {
	b, err := r.template()
	if err != nil {
		return "", internalf("stack %s: binding its template: %w", r.st.StackName, err)
	}
	live := r.live(false)
	var outs []Output
	exports := map[string]string{}
	for _, o := range b.Outputs() {
		v, err := b.OutputValue(o.Name, live)
		if err == nil && hasDynamicRef(v) {
			// ssm references read; secret ones stay as written (dynref.go).
			v, err = r.e.resolveRefs(r.tx, v, false)
		}
		if err != nil {
			if mode == outputsRestore {
				continue
			}
			return runtimeErrorReason(err), nil
		}
		out := Output{OutputKey: o.Name, OutputValue: outputString(v), Description: o.Description}
		name, ok, err := b.ExportName(o.Name, live)
		if err != nil {
			if mode == outputsRestore {
				continue
			}
			return runtimeErrorReason(err), nil
		}
		if s, isString := name.(string); ok && isString {
			out.ExportName = s
			exports[s] = out.OutputValue
		}
		outs = append(outs, out)
	}
	names := make([]string, 0, len(exports))
	for n := range exports {
		names = append(names, n)
	}
	sort.Strings(names)
	old := r.tx.ExportsOf(r.st.StackId)
	if mode == outputsRestore {
		outs = r.keepImported(old, exports, outs)
	}
	if mode != outputsRestore {
		for _, n := range names {
			if x := r.tx.Export(n); x != nil && x.StackId != r.st.StackId {
				// aws-solutions/aws-waf-security-automations#268,
				// aws-amplify/amplify-js#5811.
				return "Export with name " + n + " is already exported by stack " + r.stackName(x.StackId), nil
			}
		}
		for _, x := range old {
			users := r.importersOf(x.Name)
			if len(users) == 0 {
				continue
			}
			v, still := exports[x.Name]
			switch {
			case !still:
				// aws/aws-cdk#604, anomalyco/sst#1256.
				return "Export " + x.Name + " cannot be deleted as it is in use by " + andList(users), nil
			case v != x.Value:
				// linz/geostore#630.
				return "Export " + x.Name + " cannot be updated as it is in use by " + andList(users), nil
			}
		}
	}
	for _, x := range old {
		if _, still := exports[x.Name]; !still {
			r.tx.DeleteExport(x.Name)
		}
	}
	for _, n := range names {
		if x := r.tx.Export(n); x != nil && x.StackId == r.st.StackId && x.Value == exports[n] {
			continue
		}
		if err := r.tx.PutExport(&store.ExportRecord{Name: n, Value: exports[n], StackId: r.st.StackId}); err != nil && mode != outputsRestore {
			return "", internalf("stack %s: %w", r.st.StackName, err)
		}
	}
	st := r.stack()
	st.Outputs = outs
	r.tx.SetImports(st.StackId, importNames(b, live))
	return "", nil
}

// keepImported keeps, when a rollback puts outputs back, every export that
// another stack imports as it is: the template rolled back to may differ
// from what the exports hold when the update started from a stack that a
// failed update left part way (UPDATE_FAILED with rollback disabled: its
// template is the failed one, its outputs are not), and an export in use
// never changes or goes. The output that carries it shows its value.
func (r *run) keepImported(old []*store.ExportRecord, exports map[string]string, outs []Output) []Output {
	for _, x := range old {
		if v, still := exports[x.Name]; (still && v == x.Value) || len(r.importersOf(x.Name)) == 0 {
			continue
		}
		exports[x.Name] = x.Value
		kept := false
		for i := range outs {
			if outs[i].ExportName == x.Name {
				outs[i].OutputValue, kept = x.Value, true
			}
		}
		if !kept {
			for _, o := range r.st.Outputs {
				if o.ExportName == x.Name {
					outs, kept = append(outs, o), true
				}
			}
		}
		if !kept {
			outs = append(outs, Output{OutputKey: x.Name, OutputValue: x.Value, ExportName: x.Name})
		}
	}
	return outs
}

// importersOf names the live stacks, other than the running one, that
// import an export, sorted.
func (r *run) importersOf(export string) []string {
	var out []string
	for _, id := range r.tx.Importers(export) {
		if id == r.st.StackId {
			continue
		}
		if st := r.tx.StackByID(id); st != nil && st.Live() {
			out = append(out, st.StackName)
		}
	}
	sort.Strings(out)
	return out
}

func (r *run) stackName(id string) string {
	if st := r.tx.StackByID(id); st != nil {
		return st.StackName
	}
	return id
}

// andList words names as AWS does: "A", "A and B", "A, B and C".
func andList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// outputString is an output value as DescribeStacks shows it: a string,
// a list joined with commas.
func outputString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	case bool:
		if t {
			return "true"
		}
		return "false"
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = outputString(x)
		}
		return strings.Join(parts, ",")
	case template.Unknown:
		return t.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}
