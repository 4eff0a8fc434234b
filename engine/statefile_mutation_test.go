package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources/faults"
)

// The state file never accepts damage: every mutation of a valid state
// file is either refused with a clear message (and its bytes left as they
// were), or loads into a state that passes every invariant and on which
// operations on another stack work.

var mutations = flag.Int("state.mutations", 1200, "how many random mutations TestStateMutations tries")

// mutationWorld builds, through the API, a state with every kind of row:
// stacks complete, failed, in motion (with queued tasks) and deleted, an
// export and its import, a failed update whose rollback failed (retired
// physical resources, a journal of steps), a change set in review.
func mutationWorld(t testing.TB) []byte {
	t.Helper()
	e := newTestEngine(t, Options{Seed: 7, Contract: ContractReport})
	motleyWorld(t, e)
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatalf("the world to mutate is not consistent: %v", err)
	}
	return state(t, e)
}

// motleyWorld makes the world of mutationWorld in e.
func motleyWorld(t testing.TB, e *Engine) {
	t.Helper()
	read := func(f string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "lifecycles", f))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	inj, err := faults.Load("faults.yaml", []byte(read("save-load-mid-operation/faults.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	run := func() {
		t.Helper()
		must(e.Run(ctx()))
	}
	must(e.CreateStack(ctx(), CreateStackInput{StackName: "base", TemplateBody: read("exports-imports/exporter-v1.yaml")}))
	run()
	must(e.CreateStack(ctx(), CreateStackInput{StackName: "consumer", TemplateBody: read("exports-imports/importer.yaml")}))
	run()
	must(e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: read("save-load-mid-operation/v1.yaml")}))
	run()
	up := UpdateStackInput{StackName: "app", TemplateBody: read("save-load-mid-operation/v2.yaml")}
	up.Faults = inj.Faults()
	must(e.UpdateStack(ctx(), up))
	run()
	must(e.CreateStack(ctx(), CreateStackInput{StackName: "gone", TemplateBody: read("save-load-mid-operation/v1.yaml")}))
	run()
	must(e.DeleteStack(ctx(), DeleteStackInput{StackName: "gone"}))
	run()
	must(e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "review", ChangeSetName: "first", ChangeSetType: "CREATE",
		TemplateBody: read("exports-imports/exporter-v2.yaml")}))
	run()
	mid := CreateStackInput{StackName: "mid", TemplateBody: read("save-load-mid-operation/v1.yaml")}
	mid.Faults = inj.Faults()
	must(e.CreateStack(ctx(), mid))
	must(e.Step(ctx(), 4))
}

// mutate returns a damaged copy of a state file and what was done to it.
func mutate(r *rand.Rand, data []byte) ([]byte, string) {
	lines := bytes.Split(data, []byte("\n"))
	switch k := r.IntN(10); k {
	case 0: // truncation
		n := r.IntN(len(data))
		return append([]byte(nil), data[:n]...), fmt.Sprintf("truncated at byte %d", n)
	case 1: // a flipped byte
		out := append([]byte(nil), data...)
		i := r.IntN(len(out))
		out[i] ^= byte(1 << r.IntN(8))
		return out, fmt.Sprintf("bit flipped at byte %d", i)
	case 2: // a removed line (a row)
		i := 1 + r.IntN(len(lines)-2)
		out := append(append([][]byte(nil), lines[:i]...), lines[i+1:]...)
		return bytes.Join(out, []byte("\n")), fmt.Sprintf("line %d removed", i+1)
	case 3: // a duplicated line (a row twice)
		i := 1 + r.IntN(len(lines)-2)
		out := append(append(append([][]byte(nil), lines[:i+1]...), lines[i]), lines[i+1:]...)
		return bytes.Join(out, []byte("\n")), fmt.Sprintf("line %d duplicated", i+1)
	default: // a structural change of one row
		return mutateRow(r, lines)
	}
}

// mutateRow changes one value of one row: a key removed, a value of
// another type, a value taken from another row (a row moved to another
// stack, a status from elsewhere), a number changed.
func mutateRow(r *rand.Rand, lines [][]byte) ([]byte, string) {
	// Row lines are JSON objects, with a trailing comma or not.
	var rows []int
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte("{\"")) && i > 0 {
			rows = append(rows, i)
		}
	}
	i := rows[r.IntN(len(rows))]
	row, rest := splitRow(lines[i])
	if len(row) == 0 {
		return bytes.Join(lines, []byte("\n")), "nothing (a row that is not an object)"
	}
	keys := make([]string, 0, len(row))
	for k := range row {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	key := keys[r.IntN(len(keys))]
	var what string
	switch r.IntN(6) {
	case 0:
		delete(row, key)
		what = "removed"
	case 1:
		row[key] = otherType(r, row[key])
		what = fmt.Sprintf("given a value of another type (%v)", row[key])
	case 2, 3:
		// A value of the same key from another row: a resource moved to
		// another stack, a status of another row, another operation id.
		var donors []any
		for _, j := range rows {
			other, _ := splitRow(lines[j])
			if v, ok := other[key]; ok && fmt.Sprint(v) != fmt.Sprint(row[key]) {
				donors = append(donors, v)
			}
		}
		if len(donors) == 0 {
			delete(row, key)
			what = "removed"
			break
		}
		row[key] = donors[r.IntN(len(donors))]
		what = fmt.Sprintf("given another row's value %.80v", row[key])
	case 4:
		if n, ok := row[key].(json.Number); ok {
			v, _ := n.Int64()
			row[key] = json.Number(fmt.Sprint(v + int64(r.IntN(5)) - 2))
			what = fmt.Sprintf("changed to %v", row[key])
		} else {
			row[key] = otherType(r, row[key])
			what = fmt.Sprintf("given a value of another type (%v)", row[key])
		}
	case 5:
		row[key+"X"] = row[key]
		delete(row, key)
		what = "renamed to " + key + "X"
	}
	b, _ := json.Marshal(row)
	out := append([][]byte(nil), lines...)
	out[i] = append(b, rest...)
	return bytes.Join(out, []byte("\n")), fmt.Sprintf("line %d: %q %s", i+1, key, what)
}

// splitRow splits a row line into the row (an object) and what follows it
// on the line: "," or the end of its table ("],").
func splitRow(line []byte) (map[string]any, []byte) {
	var row map[string]any
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&row); err != nil {
		return nil, nil
	}
	return row, line[d.InputOffset():]
}

func otherType(r *rand.Rand, v any) any {
	switch v.(type) {
	case string:
		return []any{json.Number("1")}
	case json.Number:
		return "x"
	case bool:
		return json.Number("0")
	case map[string]any:
		return "x"
	case []any:
		return map[string]any{"x": json.Number(fmt.Sprint(r.IntN(3)))}
	}
	return "x"
}

func TestStateMutations(t *testing.T) {
	valid := mutationWorld(t)
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(11, 13))
	var refused, accepted, unchanged int
	probe := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties: {DisplayName: v1}\n"
	for n := 0; n < *mutations; n++ {
		data, what := mutate(r, valid)
		if bytes.Equal(data, valid) {
			unchanged++
			continue
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("mutation %d (%s): %s", n, what, fmt.Sprintf(format, args...))
		}
		// Every eighth file goes through Open on disk (the lock, the
		// read, and the bytes of a refused file checked); the others are
		// loaded from memory, the same checks without the file system.
		var (
			e    *Engine
			err  error
			path string
		)
		if n%8 == 0 {
			path = filepath.Join(dir, fmt.Sprintf("m%04d.json", n))
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			e, err = Open(path, Options{})
		} else {
			e, err = NewFromState(data, Options{})
		}
		if err != nil {
			refused++
			var se *StateError
			switch {
			case !errors.As(err, &se):
				fail("refused with a %T, not a *StateError: %v", err, err)
			case strings.Contains(err.Error(), "goroutine ") || strings.Contains(err.Error(), "panic"):
				fail("refused with a stack trace: %v", err)
			}
			if path != "" {
				if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
					fail("the refused file was changed")
				}
			}
			continue
		}
		accepted++
		if msg := probeLoaded(e, probe); msg != "" {
			fail("accepted, but %s", msg)
		}
		_ = e.Close()
	}
	t.Logf("%d mutations: %d refused, %d accepted (%d left the file as it was)", *mutations, refused, accepted, unchanged)
	if *mutations >= 1200 && refused+accepted < 1000 {
		t.Errorf("only %d of the mutations changed the file: want at least 1,000", refused+accepted)
	}
}

// probeLoaded uses a loaded state as users would: it must pass every
// invariant, every read call on every stack must answer (an API error is
// an answer; an internal error is not), what was in motion must run to
// rest, and create, update and delete of another stack, and then of every
// stack, must work. It returns what went wrong, or "".
func probeLoaded(e *Engine, probe string) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v", r)
		}
	}()
	if err := e.CheckInvariants(ctx()); err != nil {
		return err.Error()
	}
	internal := func(what string, err error) string {
		var ie *InternalError
		if errors.As(err, &ie) {
			return fmt.Sprintf("%s: %v", what, err)
		}
		return ""
	}
	list, err := e.ListStacks(ctx(), ListStacksInput{})
	if err != nil {
		return "ListStacks: " + err.Error()
	}
	var ids []string
	for _, s := range list.StackSummaries {
		ids = append(ids, s.StackId)
	}
	for _, id := range ids {
		for what, call := range map[string]func() error{
			"DescribeStacks": func() error { _, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: id}); return err },
			"DescribeStackEvents": func() error {
				_, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: id})
				return err
			},
			"DescribeStackResources": func() error {
				_, err := e.DescribeStackResources(ctx(), DescribeStackResourcesInput{StackName: id})
				return err
			},
			"ListStackResources": func() error {
				_, err := e.ListStackResources(ctx(), ListStackResourcesInput{StackName: id})
				return err
			},
			"GetTemplate": func() error { _, err := e.GetTemplate(ctx(), GetTemplateInput{StackName: id}); return err },
			"DescribeStackOperation": func() error {
				_, err := e.DescribeStackOperation(ctx(), DescribeStackOperationInput{StackName: id})
				return err
			},
			"ListStackOperations/all": func() error {
				ops, err := e.ListStackOperations(ctx(), ListStackOperationsInput{StackName: id})
				if err != nil {
					return err
				}
				for _, op := range ops.Operations {
					if _, err := e.DescribeStackOperation(ctx(), DescribeStackOperationInput{StackName: id, OperationId: op.OperationId}); err != nil {
						return err
					}
				}
				return nil
			},
			"ListChangeSets/all": func() error {
				cs, err := e.ListChangeSets(ctx(), ListChangeSetsInput{StackName: id})
				if err != nil {
					return err
				}
				for _, c := range cs.Summaries {
					if _, err := e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: id, ChangeSetName: c.ChangeSetId}); err != nil {
						return err
					}
				}
				return nil
			},
		} {
			if m := internal(what, call()); m != "" {
				return m
			}
		}
	}
	if _, err := e.ListExports(ctx(), ListExportsInput{}); err != nil {
		return "ListExports: " + err.Error()
	}
	steps := []struct {
		what string
		call func() error
	}{
		{"running what was in motion", func() error { _, err := e.Run(ctx()); return err }},
		{"a create of another stack", func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "probe", TemplateBody: probe})
			return err
		}},
		{"running the create", func() error { _, err := e.Run(ctx()); return err }},
		{"an update of another stack", func() error {
			_, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "probe", TemplateBody: strings.Replace(probe, "v1", "v9", 1)})
			return err
		}},
		{"running the update", func() error { _, err := e.Run(ctx()); return err }},
	}
	for _, s := range steps {
		if err := s.call(); err != nil {
			return fmt.Sprintf("%s: %v", s.what, err)
		}
	}
	st, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "probe"})
	if err != nil || st.Stacks[0].StackStatus != "UPDATE_COMPLETE" {
		return fmt.Sprintf("the other stack is not UPDATE_COMPLETE: %v %v", st, err)
	}
	// Every stack can be deleted (or is refused with an answer).
	for _, id := range append(ids, "probe") {
		if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: id}); err != nil {
			if m := internal("DeleteStack "+id, err); m != "" {
				return m
			}
		}
		if _, err := e.Run(ctx()); err != nil {
			return fmt.Sprintf("running the delete of %s: %v", id, err)
		}
	}
	if err := e.CheckInvariants(ctx()); err != nil {
		return "after the deletes: " + err.Error()
	}
	return ""
}

var dbDamages = flag.Int("state.dbdamage", 150, "how many random damages TestStateDatabaseDamage tries")

// A state database damaged on disk — truncated, bits flipped, a page
// zeroed — is refused when opened, or when a call reads a damaged row
// (a *StateError), and otherwise works: never a panic, an internal error,
// or a world that breaks an invariant without the damage being reported.
func TestStateDatabaseDamage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	e, err := Open(path, Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	motleyWorld(t, e)
	if err := e.Save(); err != nil {
		t.Fatal(err)
	}
	_ = e.Close()
	valid, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	probe := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties: {DisplayName: v1}\n"
	r := rand.New(rand.NewPCG(17, 19))
	var refusedAtOpen, refusedLater, worked int
	for n := 0; n < *dbDamages; n++ {
		data := append([]byte(nil), valid...)
		var what string
		switch r.IntN(3) {
		case 0:
			k := r.IntN(len(data))
			data = data[:k]
			what = fmt.Sprintf("truncated at %d", k)
		case 1:
			for i := 0; i < 1+r.IntN(4); i++ {
				k := r.IntN(len(data))
				data[k] ^= byte(1 << r.IntN(8))
				what += fmt.Sprintf("bit flipped at %d; ", k)
			}
		case 2:
			page := r.IntN(len(data) / 4096)
			clear(data[page*4096 : (page+1)*4096])
			what = fmt.Sprintf("page %d zeroed", page)
		}
		p := filepath.Join(dir, fmt.Sprintf("d%04d.db", n))
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("damage %d (%s): %s", n, what, fmt.Sprintf(format, args...))
		}
		e, err := Open(p, Options{})
		if err != nil {
			refusedAtOpen++
			if se := (*StateError)(nil); !errors.As(err, &se) {
				fail("refused with a %T, not a *StateError: %v", err, err)
			}
			if got, _ := os.ReadFile(p); !bytes.Equal(got, data) {
				fail("the refused file was changed")
			}
			continue
		}
		msg := probeLoaded(e, probe)
		if msg == "" {
			if err := e.Save(); err != nil {
				msg = "save: " + err.Error()
			}
		}
		_ = e.Close()
		switch {
		case msg == "":
			worked++
		case strings.Contains(msg, "state file "+p+":") && !strings.Contains(msg, "internal error") && !strings.Contains(msg, "panic"):
			refusedLater++ // a damaged row, met and refused
		default:
			fail("%s", msg)
		}
	}
	t.Logf("%d damages: %d refused when opened, %d refused when a call met the damage, %d harmless", *dbDamages, refusedAtOpen, refusedLater, worked)
}
