package suite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/resources"
)

// InputSet is one set of a project's inputs (inputs/inputs_N_*.json):
// the model a create sends, what an update lays on the created model, and
// an invalid model (readOnly properties set, createOnly ones changed).
type InputSet struct {
	N                       int
	Create, Update, Invalid map[string]any
	// Generated: made from the schema, the project giving none.
	Generated bool
	// Files names the files read, by kind ("create", "update", "invalid").
	Files map[string]string
}

// Project is a resource-type project as cfn test reads it: the schema and
// the input sets.
type Project struct {
	Dir    string
	Schema *resources.Schema
	Inputs []InputSet
	// Notes say what was generated, and where a generated value may not
	// satisfy the schema.
	Notes []string
}

var inputFile = regexp.MustCompile(`^inputs_([0-9]+)_(create|update|invalid)\.json$`)

var inputLimit = readfile.Limit{Max: 4 << 20, What: "a contract test input", Hint: "an input file holds one model"}

// LoadProject reads a project's directory: its schema (schemaFile, or the
// one *.json file at the top of dir that is a resource schema) and its
// inputs/ directory (generated from the schema when it has none).
func LoadProject(dir, schemaFile string) (*Project, error) {
	p := &Project{Dir: dir}
	if schemaFile == "" {
		found, err := findSchema(dir)
		if err != nil {
			return nil, err
		}
		schemaFile = found
	}
	s, err := resources.LoadSchemaFile(schemaFile)
	if err == nil {
		err = s.Check() // what registering the type would refuse
	}
	if err != nil {
		return nil, err
	}
	p.Schema = s
	sets, err := loadInputs(filepath.Join(dir, "inputs"))
	if err != nil {
		return nil, err
	}
	gen, notes := Generate(s)
	if len(sets) == 0 {
		p.Inputs = []InputSet{gen}
		p.Notes = append([]string{"no inputs/inputs_N_create.json: the inputs are generated from the schema"}, notes...)
		return p, nil
	}
	for i := range sets {
		set := &sets[i]
		if set.Create == nil {
			return nil, fmt.Errorf("%s: inputs set %d has no inputs_%d_create.json", filepath.Join(dir, "inputs"), set.N, set.N)
		}
		if set.Update == nil {
			set.Update = gen.Update
			p.Notes = append(p.Notes, fmt.Sprintf("inputs set %d has no inputs_%d_update.json: its update is generated from the schema", set.N, set.N))
		}
		if set.Invalid == nil {
			set.Invalid = gen.Invalid
			p.Notes = append(p.Notes, fmt.Sprintf("inputs set %d has no inputs_%d_invalid.json: its invalid input is generated from the schema", set.N, set.N))
		}
	}
	p.Inputs = sets
	return p, nil
}

// findSchema finds the resource schema at the top of a project directory.
func findSchema(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("resource-type project %s: %w", dir, err)
	}
	var found []string
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".json" {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := readfile.Read(path, inputLimit)
		if err != nil {
			continue
		}
		var head struct {
			TypeName   string `json:"typeName"`
			Properties any    `json:"properties"`
		}
		if json.Unmarshal(data, &head) == nil && head.TypeName != "" && head.Properties != nil {
			found = append(found, path)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("resource-type project %s: no resource schema (a *.json file with typeName and properties) at its top; give it with --schema FILE", dir)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("resource-type project %s: %d resource schemas at its top (%v); name one with --schema FILE", dir, len(found), found)
}

// loadInputs reads inputs_N_KIND.json files, sets in order of N.
func loadInputs(dir string) ([]InputSet, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("contract test inputs: %w", err)
	}
	byN := map[int]*InputSet{}
	for _, e := range entries {
		m := inputFile.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		path := filepath.Join(dir, e.Name())
		data, err := readfile.Read(path, inputLimit)
		if err != nil {
			return nil, fmt.Errorf("contract test inputs: %w", err)
		}
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var model map[string]any
		if err := d.Decode(&model); err != nil || model == nil {
			return nil, fmt.Errorf("%s: an input is a JSON object of the resource's properties: %v", path, err)
		}
		set := byN[n]
		if set == nil {
			set = &InputSet{N: n, Files: map[string]string{}}
			byN[n] = set
		}
		set.Files[m[2]] = path
		switch m[2] {
		case "create":
			set.Create = model
		case "update":
			set.Update = model
		case "invalid":
			set.Invalid = model
		}
	}
	ns := make([]int, 0, len(byN))
	for n := range byN {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	out := make([]InputSet, 0, len(ns))
	for _, n := range ns {
		out = append(out, *byN[n])
	}
	return out, nil
}
