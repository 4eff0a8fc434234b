package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// state export writes the whole account as stable JSON; state import makes
// a state file from it, checked in full; the two round trip byte for byte.
func TestStateExportImport(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.must(0, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml", "--quiet")
	c.must(1, "update-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v2.yaml", "--faults", dir+"faults.yaml", "--quiet")
	exported, _ := c.must(0, "state", "export")
	if !strings.HasPrefix(exported, `{"format":"stacksim-state","version":1,`) || !strings.Contains(exported, "UPDATE_ROLLBACK_FAILED") {
		t.Fatalf("export:\n%.300s", exported)
	}
	again, _ := c.must(0, "state", "export")
	if again != exported {
		t.Fatal("two exports of one state differ")
	}
	tmp := t.TempDir()
	file := filepath.Join(tmp, "account.json")
	c.must(0, "state", "export", "--output-file", file)
	if b, _ := os.ReadFile(file); string(b) != exported {
		t.Fatal("--output-file wrote other bytes than stdout")
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("--output-file mode %v, want 0600", fi.Mode().Perm())
	}

	other := &cli{t: t, state: filepath.Join(tmp, "other.db")}
	_, errOut := other.must(0, "state", "import", file)
	if !strings.Contains(errOut, "imported "+file+" into the state file "+other.state) {
		t.Errorf("import says: %s", errOut)
	}
	if out, _ := other.must(0, "state", "export"); out != exported {
		t.Fatal("export of the imported state differs from what was imported")
	}
	// The imported state works: the rollback continues.
	other.must(0, "continue-update-rollback", "--stack-name", "orders", "--quiet")

	// An existing state file is not replaced without --force.
	before, _ := os.ReadFile(other.state)
	_, errOut, code := other.run("state", "import", file)
	if code != exitBadInput || !strings.Contains(errOut, "it exists already") || !strings.Contains(errOut, "--force") {
		t.Errorf("import over a state: exit %d\n%s", code, errOut)
	}
	if after, _ := os.ReadFile(other.state); !bytes.Equal(before, after) {
		t.Fatal("a refused import changed the state file")
	}
	other.must(0, "state", "import", file, "--force")
	if out, _ := other.must(0, "state", "export"); out != exported {
		t.Fatal("--force did not replace the state")
	}

	// JSON that is not a consistent state is refused, and nothing written.
	bad := filepath.Join(tmp, "bad.json")
	edited := strings.Replace(exported, `"StackStatus":"UPDATE_ROLLBACK_FAILED"`, `"StackStatus":"UPDATE_COMPLETE"`, 1)
	if err := os.WriteFile(bad, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	fresh := &cli{t: t, state: filepath.Join(tmp, "fresh.db")}
	_, errOut, code = fresh.run("state", "import", bad)
	if code != exitBadInput || !strings.Contains(errOut, "state import "+bad+": it is inconsistent") || !strings.Contains(errOut, "stacks/orders: its last event says UPDATE_ROLLBACK_FAILED, its record UPDATE_COMPLETE") ||
		!strings.Contains(errOut, "the state file was not touched") {
		t.Errorf("import of an inconsistent state: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(fresh.state); !os.IsNotExist(err) {
		t.Error("a refused import wrote a state file")
	}
	// A truncated export is refused at its end, naming it (not the state
	// file, which the refusal of a damaged state file would name).
	truncated := filepath.Join(tmp, "truncated.json")
	if err := os.WriteFile(truncated, []byte(exported[:len(exported)/2]), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = fresh.run("state", "import", truncated)
	if code != exitBadInput || !strings.HasPrefix(errOut, "stacksim: state import "+truncated+":") || !strings.Contains(errOut, "the file ends in the middle of the state") ||
		!strings.Contains(errOut, "not a state that 'stacksim state export' wrote") || strings.Contains(errOut, fresh.state) {
		t.Errorf("import of a truncated export: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(fresh.state); !os.IsNotExist(err) {
		t.Error("a refused import wrote a state file")
	}
	_, errOut, code = fresh.run("state", "import", filepath.Join(tmp, "nope.json"))
	if code != exitBadInput || !strings.Contains(errOut, "no such file") {
		t.Errorf("import of a missing file: exit %d\n%s", code, errOut)
	}
}

// A state of an earlier version (JSON, format 1) is read as it is, and the
// first command that writes upgrades it, keeping the JSON beside it.
func TestStateUpgradeFromFormat1(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.must(0, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml", "--quiet")
	exported, _ := c.must(0, "state", "export")
	v1 := &cli{t: t, state: filepath.Join(t.TempDir(), "state.json")}
	if err := os.WriteFile(v1.state, []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := v1.must(0, "describe-stacks", "--stack-name", "orders", "--output", "text")
	if !strings.Contains(out, "CREATE_COMPLETE") {
		t.Fatalf("describe-stacks of a file of format 1:\n%s", out)
	}
	if b, _ := os.ReadFile(v1.state); string(b) != exported {
		t.Fatal("a read changed the file of format 1")
	}
	_, errOut := v1.must(0, "update-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v2.yaml", "--quiet")
	if !strings.Contains(errOut, "upgraded the state file "+v1.state+" to format 2") || !strings.Contains(errOut, v1.state+".v1.json") {
		t.Errorf("the upgrade is not reported:\n%s", errOut)
	}
	if b, _ := os.ReadFile(v1.state + ".v1.json"); string(b) != exported {
		t.Error("the JSON of format 1 was not kept")
	}
	out, _ = v1.must(0, "describe-stacks", "--stack-name", "orders", "--output", "text")
	if !strings.Contains(out, "UPDATE_COMPLETE") {
		t.Fatalf("after the upgrade:\n%s", out)
	}
}

// A state file of version 2 (objects keyed by type and physical id; this
// one written by stacksim of 2026-12-01: testdata/state-v2) is read as it
// is, and laid out anew by the first save: objects under their stacks
// (engine/statefile/objects.go), the account unchanged.
func TestStateUpgradeFromVersion2(t *testing.T) {
	dir := "testdata/state-v2/"
	gz, err := os.ReadFile(dir + "account.db.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	c := &cli{t: t, state: filepath.Join(t.TempDir(), "state.db")}
	if err := os.WriteFile(c.state, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(dir + "export-v2.json")
	if err != nil {
		t.Fatal(err)
	}
	// The export is the one the stacksim that wrote the file made, but for
	// the event column added since (Operation: empty for its events).
	oldCols := `"ClientRequestToken"],`
	if !bytes.Contains(want, []byte(oldCols)) {
		t.Fatal("the fixture's export has no eventColumns of 8 columns")
	}
	want = bytes.Replace(want, []byte(oldCols), []byte(`"ClientRequestToken","Operation"],`), 1)
	exported, _ := c.must(0, "state", "export")
	if exported != string(want) {
		t.Fatalf("the export of the file of version 2 is not what the stacksim that wrote it exported:\n%s", exported)
	}
	// That export, of 8 event columns as it was written, imports again.
	old := filepath.Join(t.TempDir(), "export-v2.json")
	if err := os.WriteFile(old, []byte(strings.Replace(string(want), `"ClientRequestToken","Operation"],`, oldCols, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	imported := &cli{t: t, state: filepath.Join(t.TempDir(), "imported.db")}
	imported.must(0, "state", "import", old)
	if again, _ := imported.must(0, "state", "export"); again != exported {
		t.Fatalf("the export of 8 event columns imports as another account:\n%s", again)
	}
	if b, _ := os.ReadFile(c.state); !bytes.Equal(b, raw) {
		t.Fatal("a read changed the file of version 2")
	}
	if v, where := dbLayout(t, c.state); v != "2" || where != -1 {
		t.Fatalf("the fixture is version %s with %d where entries, not version 2", v, where)
	}

	_, errOut := c.must(0, "create-stack", "--stack-name", "fourth", "--template-body", "file://"+dir+"template.yaml", "--quiet")
	if !strings.Contains(errOut, "laid the state file "+c.state+" out anew, from version 2 to 4") ||
		!strings.Contains(errOut, "a stacksim from before 2026-12-02 cannot read it now") {
		t.Errorf("the first save does not say it laid the file out anew:\n%s", errOut)
	}
	if v, where := dbLayout(t, c.state); v != "4" || where != 11+5 {
		t.Fatalf("after a save: version %s, %d where entries; want version 4 and 16 (11 objects of before, 5 of the new stack)", v, where)
	}
	var before, after struct {
		Stacks  []map[string]any `json:"stacks"`
		Objects []map[string]any `json:"objects"`
	}
	after2, _ := c.must(0, "state", "export")
	if err := json.Unmarshal(want, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(after2), &after); err != nil {
		t.Fatal(err)
	}
	for _, o := range before.Objects {
		found := false
		for _, n := range after.Objects {
			if reflect.DeepEqual(o, n) {
				found = true
			}
		}
		if !found {
			t.Errorf("object %v %v is gone or changed after the upgrade", o["Type"], o["ID"])
		}
	}
	if len(after.Objects) != len(before.Objects)+5 {
		t.Errorf("%d objects after the create, want %d", len(after.Objects), len(before.Objects)+5)
	}
	// Objects are found by key, by type and by stack in the new layout: a
	// delete removes the stack's objects but the retained bucket, and the
	// deleted stack's retained bucket is still there.
	if _, errOut := c.must(0, "delete-stack", "--stack-name", "first", "--quiet"); strings.Contains(errOut, "out anew") {
		t.Errorf("a later save says it again:\n%s", errOut)
	}
	out, _ := c.must(0, "state", "export")
	if err := json.Unmarshal([]byte(out), &after); err != nil {
		t.Fatal(err)
	}
	if got := len(after.Objects); got != len(before.Objects)+5-4 {
		t.Errorf("%d objects after deleting first, want %d (its bucket is retained)", got, len(before.Objects)+1)
	}
	if _, where := dbLayout(t, c.state); where != len(after.Objects) {
		t.Errorf("%d where entries for %d objects", where, len(after.Objects))
	}
}

// dbLayout reads a state database's format version and the number of
// entries of its objects.where bucket (-1: none).
func dbLayout(t *testing.T, path string) (version string, where int) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	where = -1
	if err := db.View(func(tx *bolt.Tx) error {
		version = string(tx.Bucket([]byte("meta")).Get([]byte("version")))
		if b := tx.Bucket([]byte("objects.where")); b != nil {
			where = b.Stats().KeyN
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return version, where
}

// An objects.where entry that names a stack the row does not lie under (a
// damaged file) fails the command that reads that object with the row
// named; nothing is written, no internal error.
func TestStateObjectsWhereDamaged(t *testing.T) {
	c := newCLI(t)
	dir := "testdata/state-v2/"
	c.must(0, "create-stack", "--stack-name", "first", "--template-body", "file://"+dir+"template.yaml", "--quiet")
	db, err := bolt.Open(c.state, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var damagedKey string
	if err := db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("objects.where"))
		k, _ := b.Cursor().Last() // an SSM parameter (the first is the retained bucket, which a delete leaves alone)
		damagedKey = string(k)
		return b.Put(bytes.Clone(k), []byte{0, 0, 0, 0x63})
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(c.state)
	out, errOut, code := c.run("delete-stack", "--stack-name", "first")
	if code == 0 || out != "" {
		t.Fatalf("delete-stack over a damaged where entry: exit %d, stdout %q", code, out)
	}
	typ, _, _ := strings.Cut(damagedKey, "\x00")
	for _, want := range []string{c.state, "objects.where names it under stack #00000063, the table does not hold it there", typ} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "internal error") || strings.Contains(errOut, "--help") {
		t.Errorf("an internal error, or a usage hint for a damaged file:\n%s", errOut)
	}
	if code != exitBadInput {
		t.Errorf("exit %d, want %d (nothing changed)", code, exitBadInput)
	}
	if after, _ := os.ReadFile(c.state); !bytes.Equal(after, before) {
		t.Error("a refused command changed the state file")
	}
}

// A state file of version 3 (before events recorded their operation) is
// read as it is and becomes version 4 at its first save, which says so;
// a version this stacksim does not know is refused, the file unchanged.
func TestStateUpgradeFromVersion3(t *testing.T) {
	c := newCLI(t)
	dir := "testdata/state-v2/"
	c.must(0, "create-stack", "--stack-name", "first", "--template-body", "file://"+dir+"template.yaml", "--quiet")
	setVersion := func(v string) {
		t.Helper()
		db, err := bolt.Open(c.state, 0o600, &bolt.Options{Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("meta")).Put([]byte("version"), []byte(v)) }); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	setVersion("3")
	c.must(0, "describe-stacks", "--stack-name", "first")
	if v, _ := dbLayout(t, c.state); v != "3" {
		t.Fatalf("a read changed the version to %s", v)
	}
	_, errOut := c.must(0, "delete-stack", "--stack-name", "first")
	if !strings.Contains(errOut, "the state file "+c.state+" is version 4 now, from version 3") {
		t.Errorf("the first save does not say the version changed:\n%s", errOut)
	}
	if v, _ := dbLayout(t, c.state); v != "4" {
		t.Fatalf("after a save: version %s", v)
	}
	setVersion("5")
	before, _ := os.ReadFile(c.state)
	_, errOut, code := c.run("describe-stacks")
	if code == 0 || !strings.Contains(errOut, "its format version is 5; this stacksim reads version 4 (and 3, 2 and 1, which it upgrades)") {
		t.Fatalf("a file of version 5: exit %d\n%s", code, errOut)
	}
	if after, _ := os.ReadFile(c.state); !bytes.Equal(before, after) {
		t.Fatal("refusing the file changed it")
	}
}
