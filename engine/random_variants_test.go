package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/statemachine"
)

// The random worlds' variations on their templates and calls (random_test.go
// runs them): a stack policy, nested stacks, a parameter and a condition,
// exported outputs and a stack importing one, and the ways a create or an
// update is made (by change set, cancelled part way). Their choices come
// from the world's xr, so that the templates and faults drawn from w.r stay
// those of every seed.

// stackPolicy is, for one world in five, a stack policy that allows
// updates except to a few of the world's ids (a denied resource fails the
// update: "Action denied by stack policy"); "" for the others.
func (w *world) stackPolicy() string {
	if w.xr.IntN(5) != 0 {
		return ""
	}
	w.policy = true
	var denied []string
	for _, id := range w.ids {
		if w.xr.IntN(8) == 0 {
			denied = append(denied, fmt.Sprintf("%q", "LogicalResourceId/"+id))
		}
	}
	policy := `{"Statement": [{"Effect": "Allow", "Action": "Update:*", "Principal": "*", "Resource": "*"}`
	if len(denied) > 0 {
		policy += `, {"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": [` + strings.Join(denied, ", ") + `]}`
	}
	return policy + `]}`
}

// withNested makes up to three of the world's ids (chosen once, from xr)
// nested stacks: AWS::CloudFormation::Stack resources whose child template
// (an S3 URL of the world's S3 directory; a new one in some versions) has one to four resources,
// one of them fed by the parent through a parameter, and an output. The
// id keeps its place in the template, its dependencies and policies.
func (w *world) withNested(body string, v int) string {
	if w.nested == nil {
		w.nested = map[string]bool{}
		for _, id := range w.ids {
			if len(w.nested) < 3 && w.xr.IntN(8) == 0 {
				w.nested[id] = true
			}
		}
	}
	if len(w.nested) == 0 {
		return body
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		w.t.Fatal(err)
	}
	res, _ := doc["Resources"].(map[string]any)
	nested := make([]string, 0, len(w.nested))
	for id := range w.nested {
		nested = append(nested, id)
	}
	slices.Sort(nested)
	for _, id := range nested {
		r, ok := res[id].(map[string]any)
		if !ok {
			continue
		}
		version := v
		if v > 0 && w.xr.IntN(2) == 0 {
			version = v - 1 // the child template as it was
		}
		url := w.childTemplate(id, version)
		if w.sig {
			url = w.childWithSignals(id, version) // (random_more_test.go)
		}
		props := map[string]any{"TemplateURL": url, "Parameters": map[string]any{"In": fmt.Sprint(id, "-in-", w.xr.IntN(2))}}
		old, _ := r["Properties"].(map[string]any)
		if peer, ok := old["Peer"]; ok {
			props["Parameters"].(map[string]any)["In"] = peer
		}
		r["Type"] = "AWS::CloudFormation::Stack"
		r["Properties"] = props
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// childTemplate writes (once) the child template of a nested id for a
// version into the world's S3 directory and returns its URL.
func (w *world) childTemplate(id string, v int) string {
	key := fmt.Sprintf("%s-v%d.json", id, v)
	url := "https://children.s3.amazonaws.com/" + key
	path := filepath.Join(w.opts.S3Dir, "children", key)
	if _, err := os.Stat(path); err == nil {
		return url
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(w.seed, uint64(v)<<8|uint64(len(id))))
	res := map[string]any{"C0": map[string]any{"Type": "AWS::SSM::Parameter", "Properties": map[string]any{"Type": "String", "Value": map[string]any{"Ref": "In"}}}}
	for i := 1; i <= r.IntN(4); i++ {
		typ := randomTypes[r.IntN(len(randomTypes))]
		if typ == "Custom::Thing" {
			typ = "AWS::SNS::Topic"
		}
		props := map[string]any{}
		switch typ {
		case "AWS::SNS::Topic":
			props["DisplayName"] = fmt.Sprintf("c%d-v%d", i, r.IntN(2))
		case "AWS::SQS::Queue":
			props["Tags"] = []any{map[string]any{"Key": "k", "Value": map[string]any{"Ref": "C0"}}}
		case "AWS::SSM::Parameter":
			props["Type"], props["Value"] = "String", fmt.Sprintf("c%d-v%d", i, r.IntN(2))
		default:
			props["Size"], props["Peer"] = r.IntN(4), map[string]any{"Ref": "C0"}
		}
		res[fmt.Sprintf("C%d", i)] = map[string]any{"Type": typ, "Properties": props}
	}
	doc := map[string]any{"Parameters": map[string]any{"In": map[string]any{"Type": "String"}}, "Resources": res,
		"Outputs": map[string]any{"Out": map[string]any{"Value": map[string]any{"Ref": "C0"}}}}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		w.t.Fatal(err)
	}
	w.logf("child template %s:\n%s", url, b)
	return url
}

// withParameter declares the parameter P (a default, NoEcho in some
// worlds) and makes up to three of the world's ids (chosen once, from xr)
// read it in place of one of their properties.
func (w *world) withParameter(body string) string {
	if w.paramIDs == nil {
		w.paramIDs = map[string]bool{}
		for _, id := range w.ids {
			if len(w.paramIDs) < 3 && w.xr.IntN(6) == 0 {
				w.paramIDs[id] = true
			}
		}
		w.noEcho = w.xr.IntN(4) == 0
		w.condIDs = map[string]bool{}
		for _, id := range w.ids {
			if len(w.condIDs) < 2 && !w.paramIDs[id] && w.xr.IntN(10) == 0 {
				w.condIDs[id] = true
			}
		}
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		w.t.Fatal(err)
	}
	doc["Parameters"] = map[string]any{"P": map[string]any{"Type": "String", "Default": "dflt", "NoEcho": w.noEcho}}
	doc["Conditions"] = map[string]any{"IsOne": map[string]any{"Fn::Equals": []any{map[string]any{"Ref": "P"}, "p1"}}}
	res, _ := doc["Resources"].(map[string]any)
	// A few resources exist only while P is p1 (those nothing refers to
	// in this version: a reference to one that is not there is an error).
	for id := range w.condIDs {
		r, ok := res[id].(map[string]any)
		if !ok || strings.Contains(body, fmt.Sprintf("%q: %q", "Ref", id)) || strings.Contains(body, fmt.Sprintf("%q: %q", "DependsOn", id)) {
			continue
		}
		r["Condition"] = "IsOne"
	}
	for id := range w.paramIDs {
		r, _ := res[id].(map[string]any)
		props, _ := r["Properties"].(map[string]any)
		for _, k := range []string{"Value", "DisplayName", "Peer"} {
			if _, ok := props[k]; ok {
				props[k] = map[string]any{"Ref": "P"}
				break
			}
		}
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// parameterValue is what a call gives P: a value of the version, the
// previous value (not on a create), or nothing (the default).
func (w *world) parameterValue(v int) []Parameter {
	switch c := w.xr.IntN(3); {
	case c == 0:
		return nil
	case c == 1 && v > 0:
		return []Parameter{{ParameterKey: "P", UsePreviousValue: true}}
	default:
		return []Parameter{{ParameterKey: "P", ParameterValue: fmt.Sprintf("p%d", v)}}
	}
}

// withExports gives a template up to two exported outputs (from the
// world's own random source, xr): each names a resource the template has,
// and a later version keeps it, points it at another resource, or drops it.
func (w *world) withExports(body string, v int) string {
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		w.t.Fatal(err)
	}
	res, _ := doc["Resources"].(map[string]any)
	ids := make([]string, 0, len(res))
	for id, r := range res {
		if _, conditional := r.(map[string]any)["Condition"]; !conditional {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	if len(ids) == 0 {
		return body // every resource is conditional: nothing to export
	}
	if w.exportOf == nil {
		w.exportOf = map[string]string{}
	}
	outputs := map[string]any{}
	for k := 0; k < 2; k++ {
		name := fmt.Sprintf("rnd-%d-E%d", w.seed, k)
		target, had := w.exportOf[name]
		switch c := w.xr.IntN(4); {
		case v == 0 && c == 0, v > 0 && c == 0 && had:
			delete(w.exportOf, name) // not exported (any more)
			continue
		case !had || c == 1 || !slices.Contains(ids, target):
			target = ids[w.xr.IntN(len(ids))]
		}
		w.exportOf[name] = target
		outputs[fmt.Sprintf("Out%d", k)] = map[string]any{"Value": map[string]any{"Ref": target}, "Export": map[string]any{"Name": name}}
	}
	if len(outputs) > 0 {
		doc["Outputs"] = outputs
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// importer creates, when the random stack exports something, a stack that
// imports one of its exports (then an update may not change or drop it
// and the random stack may not be deleted before the importer); it
// returns the importer's ARN, or "".
func (w *world) importer(id string) string {
	w.t.Helper()
	out, err := w.e.ListExports(ctx(), ListExportsInput{})
	if err != nil {
		w.t.Fatal(err)
	}
	var names []string
	for _, x := range out.Exports {
		if x.ExportingStackId == id {
			names = append(names, x.Name)
		}
	}
	if len(names) == 0 || w.xr.IntN(3) == 0 {
		return ""
	}
	name := names[w.xr.IntN(len(names))]
	body := fmt.Sprintf(`{"Resources": {"Imported": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": {"Fn::ImportValue": %q}}}}}`, name)
	w.logf("CreateStack imp importing %s", name)
	w.reopen()
	created, err := w.e.CreateStack(ctx(), CreateStackInput{StackName: "imp", TemplateBody: body})
	if err != nil {
		w.t.Fatalf("CreateStack imp refused: %v", err)
	}
	st, err := w.wait(created.StackId)
	if err != nil {
		w.t.Fatal(err)
	}
	w.logf("-> imp %s %q", st.StackStatus, st.StackStatusReason)
	w.checkInvariants()
	if st.StackStatus != string(statemachine.StackStatusCreateComplete) {
		w.t.Fatalf("the importer is %s (%s)", st.StackStatus, st.StackStatusReason)
	}
	return created.StackId
}

// deleteImporter deletes the importer, after (sometimes) trying to delete
// the random stack first, which its export in use must stop.
func (w *world) deleteImporter(id, imp string) {
	w.t.Helper()
	if imp == "" {
		return
	}
	if w.xr.IntN(2) == 0 {
		w.logf("DeleteStack rnd while imp imports from it")
		w.reopen()
		if _, err := w.e.DeleteStack(ctx(), DeleteStackInput{StackName: id}); err != nil {
			w.logf("   refused: %v", err)
		} else if st, err := w.wait(id); err != nil {
			w.t.Fatal(err)
		} else {
			w.logf("-> %s %q", st.StackStatus, st.StackStatusReason)
			if st.StackStatus == string(statemachine.StackStatusDeleteComplete) {
				w.t.Fatalf("the stack was deleted while %s imports its export", imp)
			}
		}
		w.checkInvariants()
	}
	w.logf("DeleteStack imp")
	w.reopen()
	if _, err := w.e.DeleteStack(ctx(), DeleteStackInput{StackName: imp}); err != nil {
		w.t.Fatalf("DeleteStack imp refused: %v", err)
	}
	if _, err := w.wait(imp); err != nil {
		w.t.Fatal(err)
	}
	w.logf("-> imp %s", w.stack(imp).StackStatus)
	w.checkInvariants()
}

// createByChangeSet makes the create a change set of type CREATE (the
// stack waits in REVIEW_IN_PROGRESS) and executes it.
func (w *world) createByChangeSet(in CreateStackInput) {
	w.t.Helper()
	onFailure := in.OnFailure
	if onFailure == "" && !in.DisableRollback {
		onFailure = OnFailureRollback
	}
	cs := CreateChangeSetInput{StackName: in.StackName, ChangeSetName: "v0", ChangeSetType: ChangeSetTypeCreate,
		TemplateBody: in.TemplateBody, Parameters: in.Parameters, RollbackConfiguration: in.RollbackConfiguration}
	if in.DisableRollback {
		onFailure = ""
	}
	cs.OnStackFailure = onFailure
	if _, err := w.e.CreateChangeSet(ctx(), cs); err != nil {
		w.t.Fatalf("CreateChangeSet (CREATE) refused: %v", err)
	}
	out, err := w.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: in.StackName, ChangeSetName: "v0"})
	if err != nil {
		w.t.Fatal(err)
	}
	w.logf("change set v0 (CREATE): %s %q, %d changes", out.Status, out.StatusReason, len(out.Changes))
	w.checkInvariants()
	w.reopen()
	ex := ExecuteChangeSetInput{StackName: in.StackName, ChangeSetName: "v0", DisableRollback: in.DisableRollback}
	ex.Faults = in.Faults
	if _, err := w.e.ExecuteChangeSet(ctx(), ex); err != nil {
		w.t.Fatalf("ExecuteChangeSet (CREATE) refused: %v", err)
	}
}

// updateByChangeSet makes the update a change set and executes it; a
// change set that changes nothing is refused as UpdateStack refuses it.
func (w *world) updateByChangeSet(up UpdateStackInput, v int) error {
	name := fmt.Sprintf("v%d", v)
	if _, err := w.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: up.StackName, ChangeSetName: name, TemplateBody: up.TemplateBody, Parameters: up.Parameters,
		RollbackConfiguration: up.RollbackConfiguration}); err != nil {
		return err
	}
	cs, err := w.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: up.StackName, ChangeSetName: name})
	if err != nil {
		w.t.Fatalf("DescribeChangeSet: %v", err)
	}
	w.logf("change set %s: %s %q, %d changes", name, cs.Status, cs.StatusReason, len(cs.Changes))
	if cs.Status == ChangeSetStatusFailed {
		if cs.StatusReason != noChangesReason {
			w.t.Fatalf("the change set failed: %s", cs.StatusReason)
		}
		return ValidationError("No updates are to be performed.")
	}
	w.reopen()
	in := ExecuteChangeSetInput{StackName: up.StackName, ChangeSetName: name, DisableRollback: up.DisableRollback}
	in.Faults = up.Faults
	_, err = w.e.ExecuteChangeSet(ctx(), in)
	return err
}

// cancelPartWay runs a few of the update's tasks, then cancels it while it
// is still UPDATE_IN_PROGRESS (after that CancelUpdateStack is refused, as
// AWS refuses it).
func (w *world) cancelPartWay(id string) {
	w.t.Helper()
	n := w.xr.IntN(12)
	if w.call(4) {
		n = 0 // before the update's first task
	} else if _, err := w.e.Step(ctx(), n); err != nil {
		w.t.Fatal(err)
	} else {
		w.untilWaiting(id)
	}
	st := w.stack(id)
	if st.StackStatus != string(statemachine.StackStatusUpdateInProgress) {
		w.logf("(not cancelled after %d tasks: %s)", n, st.StackStatus)
		return
	}
	w.logf("CancelUpdateStack after %d tasks", n)
	w.reopen()
	waited := w.waitingIDs(id)
	if _, err := w.e.CancelUpdateStack(ctx(), CancelUpdateStackInput{StackName: id}); err != nil {
		w.t.Fatalf("CancelUpdateStack refused in UPDATE_IN_PROGRESS: %v", err)
	}
	w.stops.cancelled(id)
	w.signalCancelled(id, waited)
}
