package suite_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract/suite"
)

const noteSchema = `{"typeName": "Test::Suite::Note",
 "properties": {
  "Id": {"type": "string"},
  "Title": {"type": "string", "pattern": "^[a-z][a-z0-9-]{2,10}$"},
  "Pages": {"type": "integer", "minimum": 2, "maximum": 9},
  "Kind": {"type": "string", "enum": ["memo", "letter"]},
  "Tags": {"type": "array", "items": {"$ref": "#/definitions/Tag"}},
  "Key": {"type": "string", "minLength": 8}
 },
 "definitions": {"Tag": {"type": "object", "properties": {"Key": {"type": "string"}, "Value": {"type": "string"}}}},
 "additionalProperties": false,
 "primaryIdentifier": ["/properties/Id"], "readOnlyProperties": ["/properties/Id"],
 "createOnlyProperties": ["/properties/Title"], "writeOnlyProperties": ["/properties/Key"],
 "handlers": {"create": {"permissions": [], "timeoutInMinutes": 2}, "read": {"permissions": []},
  "update": {"permissions": []}, "delete": {"permissions": []}, "list": {"permissions": []}}}`

func schema(t *testing.T) *resources.Schema {
	t.Helper()
	s, err := resources.ParseSchema("note.json", []byte(noteSchema))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// notes is a correct handler of Test::Suite::Note, in memory; delay is
// the callback its create asks for.
func notes(s *resources.Schema, delay int64) resources.Provider {
	store := map[string]map[string]any{}
	strip := func(m map[string]any) map[string]any {
		out := resources.CopyModel(m)
		delete(out, "Key")
		return out
	}
	find := func(r *resources.Request) (map[string]any, string) {
		id, _ := r.DesiredResourceState["Id"].(string)
		return store[id], id
	}
	h := resources.HandlerFuncs{
		CreateFunc: func(_ context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
			if r.CallbackContext != nil {
				return resources.Success(strip(store[r.CallbackContext["id"].(string)])), nil
			}
			if _, ok := r.DesiredResourceState["Id"]; ok {
				return resources.Failed(resources.ErrInvalidRequest, "Id is read-only"), nil
			}
			m := resources.CopyModel(r.DesiredResourceState)
			m["Id"] = "note-" + m["Title"].(string)
			if store[m["Id"].(string)] != nil {
				return resources.Failed(resources.ErrAlreadyExists, "exists"), nil
			}
			store[m["Id"].(string)] = m
			return resources.InProgress(strip(m), map[string]any{"id": m["Id"]}, delay), nil
		},
		ReadFunc: func(_ context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
			if m, id := find(r); m != nil {
				return resources.Success(strip(m)), nil
			} else {
				return resources.Failed(resources.ErrNotFound, "no note %s", id), nil
			}
		},
		UpdateFunc: func(_ context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
			m, id := find(r)
			if m == nil {
				return resources.Failed(resources.ErrNotFound, "no note %s", id), nil
			}
			if r.DesiredResourceState["Title"] != m["Title"] {
				return resources.Failed(resources.ErrNotUpdatable, "Title cannot change"), nil
			}
			store[id] = resources.CopyModel(r.DesiredResourceState)
			return resources.Success(strip(store[id])), nil
		},
		DeleteFunc: func(_ context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
			if m, id := find(r); m != nil {
				delete(store, id)
				return resources.Success(nil), nil
			} else {
				return resources.Failed(resources.ErrNotFound, "no note %s", id), nil
			}
		},
		ListFunc: func(context.Context, *resources.Request) (*resources.ProgressEvent, error) {
			models := []map[string]any{}
			for id := range store {
				models = append(models, map[string]any{"Id": id})
			}
			return &resources.ProgressEvent{Status: resources.StatusSuccess, ResourceModels: models}, nil
		},
	}
	return resources.NewHandlerProvider(s, h)
}

func TestGenerate(t *testing.T) {
	s := schema(t)
	set, notes := suite.Generate(s)
	if len(notes) != 0 {
		t.Fatalf("notes: %v", notes)
	}
	if set.Create["Id"] != nil || set.Create["Pages"] != "2" && set.Create["Pages"].(interface{ String() string }).String() != "2" {
		t.Fatalf("create: %v", set.Create)
	}
	title := regexp.MustCompile(`^[a-z][a-z0-9-]{2,10}$`)
	if !title.MatchString(set.Create["Title"].(string)) || !title.MatchString(set.Invalid["Title"].(string)) || set.Invalid["Title"] == set.Create["Title"] {
		t.Fatalf("titles: create %v invalid %v", set.Create["Title"], set.Invalid["Title"])
	}
	if _, ok := set.Update["Title"]; ok || set.Invalid["Id"] == nil || len(set.Create["Key"].(string)) < 8 || set.Create["Kind"] != "memo" || set.Update["Kind"] != "letter" {
		t.Fatalf("update %v invalid %v create %v", set.Update, set.Invalid, set.Create)
	}
	if err := s.ValidateInput(resources.StringifyModel(set.Create)); err != nil {
		t.Fatalf("the generated create input does not validate: %v", err)
	}
	again, _ := suite.Generate(s)
	var a, b bytes.Buffer
	suite.WriteText(&a, nil, suite.TextOptions{})
	if len(again.Create) != len(set.Create) || a.String() != b.String()+"0 passed, 0 failed, 0 skipped\n" {
		t.Fatal("not deterministic")
	}
}

func run(t *testing.T, p resources.Provider, sel string) []suite.Result {
	t.Helper()
	set, _ := suite.Generate(p.Schema())
	opts := suite.Options{}
	if sel != "" {
		m, err := suite.ParseSelect(sel)
		if err != nil {
			t.Fatal(err)
		}
		opts.Select = m
	}
	return suite.Run(context.Background(), p, &suite.Project{Schema: p.Schema(), Inputs: []suite.InputSet{set}}, opts)
}

func TestSuiteOnAGoodHandler(t *testing.T) {
	rs := run(t, notes(schema(t), 30), "")
	var out bytes.Buffer
	suite.WriteText(&out, rs, suite.TextOptions{})
	if !strings.HasSuffix(out.String(), "13 passed, 0 failed, 2 skipped\n") {
		t.Fatalf("%s", out.String())
	}
	var junit bytes.Buffer
	if err := suite.WriteJUnit(&junit, "Test::Suite::Note", rs); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Tests   int `xml:"tests,attr"`
			Skipped int `xml:"skipped,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(junit.Bytes(), &doc); err != nil || len(doc.Suites) != 1 || doc.Suites[0].Tests != 15 || doc.Suites[0].Skipped != 2 {
		t.Fatalf("junit: %+v %v\n%s", doc, err, junit.String())
	}
}

// TestHandlerTimeout: callbacks asking for more virtual time than the
// schema's timeoutInMinutes fail the test, at no real cost.
func TestHandlerTimeout(t *testing.T) {
	rs := run(t, notes(schema(t), 600), "create_delete")
	if len(rs) != 1 || rs[0].Outcome != suite.Fail || rs[0].Problems[0].ID() != "handler-timeout" || rs[0].Virtual != 600*1e9 {
		t.Fatalf("%+v", rs)
	}
}

func TestParseSelect(t *testing.T) {
	cases := map[string][]string{
		"create and not list":              {"contract_create_delete", "contract_invalid_create", "contract_create_create", "contract_create_read", "contract_delete_create", "contract_read_without_create", "contract_update_create_only_property", "contract_update_without_create"},
		"delete_read or (update and list)": {"contract_delete_read", "contract_update_list"},
		"not (create or delete or update)": {},
	}
	for expr, want := range cases {
		m, err := suite.ParseSelect(expr)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tc := range suite.Tests() {
			if m(tc.Name, tc.Markers) {
				got = append(got, tc.Name)
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("-k %q: %v, want %v", expr, got, want)
		}
	}
	for _, bad := range []string{"", "create and", "(create", "or list", "create )"} {
		if _, err := suite.ParseSelect(bad); err == nil {
			t.Errorf("-k %q accepted", bad)
		}
	}
}

// FuzzParseSelect: any -k expression is parsed or refused, never a panic.
func FuzzParseSelect(f *testing.F) {
	for _, s := range []string{"create and not list", "(a or b) and not (c)", "not not x", "((", "and", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		if m, err := suite.ParseSelect(expr); err == nil {
			m("contract_create_delete", []string{"create", "delete"})
		}
	})
}

// A project whose schema registering the type would refuse is refused
// before any test runs, naming the file and where (resources.Schema.Check).
func TestLoadProjectChecksTheSchema(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "test-suite-note.json")
	write := func(doc string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(noteSchema)
	if _, err := suite.LoadProject(dir, ""); err != nil {
		t.Fatalf("a good project: %v", err)
	}
	for from, want := range map[string]string{
		`"minimum": 2,`: `compile schema: at /properties/Pages/minimum: minimum is a number`,
		`"writeOnlyProperties": ["/properties/Key"]`: `writeOnlyProperties/0 is /properties/Kye: /properties defines no Kye`,
	} {
		to := map[string]string{`"minimum": 2,`: `"minimum": "2",`, `"writeOnlyProperties": ["/properties/Key"]`: `"writeOnlyProperties": ["/properties/Kye"]`}[from]
		write(strings.Replace(noteSchema, from, to, 1))
		if _, err := suite.LoadProject(dir, ""); err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %s: ...%s", to, err, path, want)
		}
	}
}
