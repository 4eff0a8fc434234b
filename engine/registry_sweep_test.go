package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// The registry-wide test (issue 13, item 2): one resource of every type of
// the AWS registry, created through the engine from a minimal model its
// schema gives (its required properties with values that fit the schema,
// and the objects on the way to every read-only attribute), every
// attribute the schema declares read with Fn::GetAtt in the template's
// outputs and checked against the schema through the engine's resolver
// (type, enum, pattern, lengths), Ref checked to be a string, and the
// stack deleted. testdata/registry-sweep.golden holds the count and every
// type that does not pass, with its reason: a change shows there.
//
// The full sweep runs in the test binary built without the race detector
// (make test runs it so after the -race pass: `go test -count=1 -run
// TestRegistrySweep ./engine`); with -race, or with -short, it checks every
// tenth type against the golden file.

// sweepSeed makes the minimal models.
const sweepSeed = 13

func TestRegistrySweep(t *testing.T) {
	types := resources.RegistryTypes()
	if len(types) < 1500 {
		t.Fatalf("%d registry types", len(types))
	}
	full := !raceEnabled && !testing.Short()
	if !full {
		var sample []string
		for i := 0; i < len(types); i += 10 {
			sample = append(sample, types[i])
		}
		types = sample
	}
	var e *Engine
	outcomes := map[string]string{}
	pass := 0
	for i, typ := range types {
		if i%50 == 0 {
			// a fresh account now and then: deleted stacks stay listed,
			// and every call would scan them all
			if e != nil {
				_ = e.Close()
			}
			e = newTestEngine(t, Options{Contract: ContractReport})
		}
		why := sweepType(t, e, fmt.Sprintf("s%04d", i), typ)
		outcomes[typ] = why
		if why == "" {
			pass++
		}
	}
	if full {
		golden(t, "registry-sweep.golden", []byte(sweepReport(len(types), pass, outcomes)))
		t.Logf("%d of %d registry types pass", pass, len(types))
		return
	}
	want := readSweepGolden(t)
	for typ, why := range outcomes {
		if want[typ] != why {
			t.Errorf("%s: %q, the golden file says %q (a change? run the full sweep with -update: go test -run TestRegistrySweep ./engine -update)", typ, orDefault(why, "passes"), orDefault(want[typ], "passes"))
		}
	}
}

// sweepType creates, reads and deletes one resource of a type; it returns
// why the type does not pass, "" when it does.
func sweepType(t *testing.T, e *Engine, stack, typ string) string {
	s, ok, err := resources.RegistrySchema(typ)
	if err != nil || !ok {
		return fmt.Sprintf("no schema: %v", err)
	}
	attrs := s.Attributes()
	var under []string
	for _, a := range attrs {
		under = append(under, "/properties/"+strings.ReplaceAll(a, ".", "/"))
	}
	props := s.ExampleModelWith(sweepSeed, under)
	attrs = slices.DeleteFunc(attrs, func(a string) bool { return !sweepHas(s, props, a) })
	body := sweepTemplate(s, typ, props, attrs)
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: stack, TemplateBody: body, Capabilities: []string{"CAPABILITY_NAMED_IAM", "CAPABILITY_AUTO_EXPAND"}}); err != nil {
		return "refused: " + err.Error()
	}
	st, err := e.WaitForStack(ctx(), stack)
	if err != nil {
		t.Fatal(err)
	}
	why := ""
	if st.StackStatus != "CREATE_COMPLETE" {
		why = "create: " + sweepFailure(t, e, stack, st)
	} else {
		why = sweepAttributes(t, e, stack, typ, s, attrs)
	}
	if why == "" {
		why = sweepViolations(t, e, st.StackId)
	}
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: st.StackId}); err != nil {
		t.Fatal(err)
	}
	if st, err := e.WaitForStack(ctx(), st.StackId); err != nil || st.StackStatus != "DELETE_COMPLETE" {
		if why == "" {
			why = fmt.Sprintf("delete: %v %v", st.StackStatus, err)
		}
	}
	if why == "" {
		why = sweepViolations(t, e, st.StackId)
	}
	return why
}

// sweepHas tells whether the model can have attribute a: every object on
// its way that the template gives is in props (ExampleModelWith leaves out
// those of a oneOf's other alternatives, whose attributes do not exist).
func sweepHas(s *resources.Schema, props map[string]any, a string) bool {
	segs := strings.Split(a, ".")
	var at any = props
	for i := 0; i < len(segs)-1; i++ {
		if segs[i] == "*" || s.IsReadOnly("/properties/"+strings.Join(segs[:i+1], "/")) {
			return true
		}
		m, _ := at.(map[string]any)
		if at = m[segs[i]]; at == nil {
			return false
		}
	}
	return true
}

// sweepViolations is the first contract violation of the stack's last
// operation, "" when it has none.
func sweepViolations(t *testing.T, e *Engine, stackID string) string {
	op, err := e.DescribeStackOperation(ctx(), DescribeStackOperationInput{StackName: stackID})
	if err != nil {
		t.Fatal(err)
	}
	if len(op.Operation.ContractViolations) == 0 {
		return ""
	}
	v := op.Operation.ContractViolations[0]
	return fmt.Sprintf("contract %s %s: %s", v.Action, v.Rule, shorten(v.Message))
}

// sweepTemplate is a stack of one resource R with an output per attribute
// (at most the template's 200).
func sweepTemplate(s *resources.Schema, typ string, props map[string]any, attrs []string) string {
	res := map[string]any{"Type": typ}
	if len(props) > 0 {
		res["Properties"] = props
	}
	doc := map[string]any{"Transform": "AWS::LanguageExtensions", "Resources": map[string]any{"R": res}}
	outs := map[string]any{"Ref": map[string]any{"Value": map[string]any{"Ref": "R"}}}
	for i, a := range attrs {
		if len(outs) == template.MaxOutputs {
			break
		}
		var v any = map[string]any{"Fn::GetAtt": []any{"R", a}}
		if !scalarAttribute(s, a) {
			v = map[string]any{"Fn::ToJsonString": v} // an output is a string
		}
		outs[fmt.Sprintf("A%03d", i)] = map[string]any{"Value": v}
	}
	doc["Outputs"] = outs
	b, _ := json.Marshal(doc)
	return string(b)
}

// sweepFailure is the reason a stack did not create: its resource's.
func sweepFailure(t *testing.T, e *Engine, stack string, st *Stack) string {
	out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: st.StackId})
	if err != nil {
		t.Fatal(err)
	}
	// the first failure (events come newest first)
	why := st.StackStatusReason
	for _, ev := range out.StackEvents {
		status := string(ev.ResourceStatus)
		if ev.ResourceStatusReason != "" && (strings.HasSuffix(status, "FAILED") || status == "ROLLBACK_IN_PROGRESS") {
			why = ev.ResourceStatusReason
		}
	}
	return shorten(why)
}

// sweepAttributes reads every attribute and Ref through the engine's
// resolver and checks them against the schema.
func sweepAttributes(t *testing.T, e *Engine, stack, typ string, s *resources.Schema, attrs []string) string {
	var why string
	e.mu.Lock()
	defer e.mu.Unlock()
	_ = e.view(func(tx *txn) error {
		st := tx.StackByName(stack)
		live := liveResolver{e: e, tx: tx, st: st}
		ref, err := live.Ref("R")
		if s, ok := ref.(string); err != nil || !ok || s == "" {
			why = fmt.Sprintf("Ref: %v %v", ref, err)
			return nil
		}
		for _, a := range attrs {
			v, err := live.GetAtt("R", a)
			if err != nil {
				why = "Fn::GetAtt " + a + ": " + shorten(err.Error())
				return nil
			}
			if resources.IsCustomType(typ) {
				continue // the Data of a custom resource is its target's
			}
			if err := s.CheckAttribute(a, v); err != nil {
				why = "attribute " + shorten(err.Error())
				return nil
			}
		}
		return nil
	})
	return why
}

// scalarAttribute tells whether an attribute's values are strings,
// numbers or booleans.
func scalarAttribute(s *resources.Schema, a string) bool {
	t := s.AttributeType(a)
	return t != "array" && t != "object"
}

func shorten(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 240 {
		return s[:240] + "..."
	}
	return s
}

// sweepReport is the golden file: the count, then every type that does
// not pass and why, by type.
func sweepReport(n, pass int, outcomes map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# The registry-wide test: one resource of each AWS registry type, created from\n")
	fmt.Fprintf(&b, "# its schema's minimal model, every attribute read and checked, deleted.\n")
	fmt.Fprintf(&b, "# go test -count=1 -run TestRegistrySweep ./engine  (-update rewrites this file)\n")
	fmt.Fprintf(&b, "pass %d of %d\n", pass, n)
	var failing []string
	for typ, why := range outcomes {
		if why != "" {
			failing = append(failing, typ)
		}
	}
	sort.Strings(failing)
	for _, typ := range failing {
		fmt.Fprintf(&b, "%s\t%s\n", typ, outcomes[typ])
	}
	return b.String()
}

// readSweepGolden reads the outcomes the golden file holds (types absent
// from it pass).
func readSweepGolden(t *testing.T) map[string]string {
	data, err := os.ReadFile("testdata/registry-sweep.golden")
	if err != nil {
		t.Fatalf("%v (run the full sweep with -update)", err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if typ, why, ok := strings.Cut(line, "\t"); ok {
			out[typ] = why
		}
	}
	return out
}
