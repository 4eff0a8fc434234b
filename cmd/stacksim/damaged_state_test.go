package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine"
)

// A state file edited into a world the engine could not have made is
// refused by every command, read or write, with what is wrong and where;
// nothing is written. The reproduction of a file that wedged the account:
// a stack stopped in motion whose operation lost its plan. Before the
// load-time checks, every later command that ran the loop hit an internal
// error (a recovered nil-pointer panic, printed with its stack trace),
// exited 2 ("nothing changed"), yet saved its own stack stuck in
// CREATE_IN_PROGRESS.
func TestDamagedStateIsRefused(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.must(0, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml",
		"--until", "Queue:CREATE_IN_PROGRESS", "--quiet")
	// The state as JSON (format 1, what 'state export' writes and older
	// versions kept), edited, is the state file.
	e, err := engine.OpenReadOnly(c.state, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	valid, err := e.MarshalState()
	_ = e.Close()
	if err != nil {
		t.Fatal(err)
	}
	damaged := removeKeyFromRow(t, valid, `{"Id":"arn:aws:cloudformation:`, "Plan")
	c.state += ".edited.json"
	if err := os.WriteFile(c.state, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"create-stack", "--stack-name", "other", "--template-body", "file://" + dir + "template-v1.yaml"},
		{"step", "--stack-name", "orders", "--to-rest"},
		{"describe-stacks"},
	} {
		out, errOut, code := c.run(args...)
		if code != exitBadInput || out != "" {
			t.Errorf("%s: exit %d, stdout %q, want 2 and nothing", args[0], code, out)
		}
		for _, want := range []string{c.state, "is inconsistent (1 problem(s))", "operations/arn:aws:cloudformation:us-east-1:123456789012:stack/orders/",
			"it is in motion but has no plan", "left as it is"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("%s: stderr does not say %q:\n%s", args[0], want, errOut)
			}
		}
		if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "internal error") {
			t.Errorf("%s: stderr shows an internal error:\n%s", args[0], errOut)
		}
		if got, _ := os.ReadFile(c.state); !bytes.Equal(got, damaged) {
			t.Fatalf("%s changed the refused state file", args[0])
		}
	}
}

// removeKeyFromRow removes a key from the first row (line) of a state file
// that starts with prefix.
func removeKeyFromRow(t *testing.T, state []byte, prefix, key string) []byte {
	t.Helper()
	lines := bytes.Split(state, []byte("\n"))
	for i, l := range lines {
		if !bytes.HasPrefix(l, []byte(prefix)) {
			continue
		}
		// A row is an object, followed by "," or by the end of its table.
		var row map[string]json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(l))
		if err := dec.Decode(&row); err != nil {
			t.Fatal(err)
		}
		rest := l[dec.InputOffset():]
		if _, ok := row[key]; !ok {
			t.Fatalf("the row has no %s", key)
		}
		delete(row, key)
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		lines[i] = append(b, rest...)
		return bytes.Join(lines, []byte("\n"))
	}
	t.Fatalf("no row starts with %s", prefix)
	return nil
}

// A state database whose bytes were damaged is refused by every command
// that reads the damaged row, with where the damage is; nothing is
// written.
func TestDamagedDatabaseIsRefused(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.must(0, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml", "--quiet")
	data, err := os.ReadFile(c.state)
	if err != nil {
		t.Fatal(err)
	}
	// A byte of the stack's row (its description of itself).
	i := bytes.Index(data, []byte(`"StackName":"orders"`))
	if i < 0 {
		t.Fatal("the stack's row is not in the file")
	}
	data[i+14] ^= 0x20 // "orders" -> "Orders"
	if err := os.WriteFile(c.state, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"describe-stacks", "--stack-name", "orders"},
		{"update-stack", "--stack-name", "orders", "--template-body", "file://" + dir + "template-v2.yaml"},
		{"delete-stack", "--stack-name", "orders"},
	} {
		out, errOut, code := c.run(args...)
		if code != exitBadInput || out != "" {
			t.Errorf("%s: exit %d, stdout %q, want 2 and nothing", args[0], code, out)
		}
		for _, want := range []string{c.state, "stacks", "its checksum does not match: the value is damaged", "left as it is"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("%s: stderr does not say %q:\n%s", args[0], want, errOut)
			}
		}
		if got, _ := os.ReadFile(c.state); !bytes.Equal(got, data) {
			t.Fatalf("%s changed the damaged state file", args[0])
		}
	}
}
