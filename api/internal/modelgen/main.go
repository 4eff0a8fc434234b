// Command modelgen writes api/model_gen.go: the constraints of
// CloudFormation's input shapes (required members, lengths, ranges,
// patterns, enum values) and the model's operations, read from the AWS
// service model that botocore ships (cloudformation/2010-05-15/
// service-2.json). aws-sdk-go-v2's schemas carry the shapes' structure but
// not these constraints, which the API checks before a call reaches the
// engine (AWS's "1 validation error detected: ..." messages).
//
//	go run ./api/internal/modelgen            # write api/model_gen.go
//	go run ./api/internal/modelgen -check     # fail when it is stale
//
// The model is found through the machine's python3 (botocore's data
// directory) unless -model names the file (.json or .json.gz).
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	model := flag.String("model", "", "the service model (service-2.json or .json.gz); found through python3's botocore when empty")
	out := flag.String("out", "api/model_gen.go", "the Go file to write")
	check := flag.Bool("check", false, "compare with -out instead of writing it; exit 1 when it differs")
	flag.Parse()
	if err := run(*model, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "modelgen:", err)
		os.Exit(1)
	}
}

func run(model, out string, check bool) error {
	if model == "" {
		var err error
		if model, err = FindModel(); err != nil {
			return err
		}
	}
	data, err := ReadModel(model)
	if err != nil {
		return err
	}
	src, err := Generate(data)
	if err != nil {
		return err
	}
	if check {
		old, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		if !bytes.Equal(old, src) {
			return fmt.Errorf("%s is stale: run 'go run ./api/internal/modelgen' and commit it", out)
		}
		return nil
	}
	return os.WriteFile(out, src, 0o644)
}

// ErrNoModel: the machine has no botocore to read the model from.
var ErrNoModel = errors.New("botocore's CloudFormation model was not found (python3 -c 'import botocore' failed)")

// FindModel returns the path of CloudFormation's service model in the
// botocore of the machine's python3.
func FindModel() (string, error) {
	outb, err := exec.Command("python3", "-c", "import botocore,os;print(os.path.dirname(botocore.__file__))").Output()
	if err != nil {
		return "", ErrNoModel
	}
	dir := filepath.Join(strings.TrimSpace(string(outb)), "data", "cloudformation", "2010-05-15")
	for _, name := range []string{"service-2.json", "service-2.json.gz"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", ErrNoModel
}

// ReadModel reads a model file, decompressing a .gz one.
func ReadModel(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r = z
	}
	return io.ReadAll(r)
}

type modelFile struct {
	Metadata struct {
		APIVersion   string `json:"apiVersion"`
		XMLNamespace string `json:"xmlNamespace"`
	} `json:"metadata"`
	Operations map[string]struct {
		Input *struct {
			Shape string `json:"shape"`
		} `json:"input"`
	} `json:"operations"`
	Shapes map[string]shape `json:"shapes"`
}

type shape struct {
	Type     string   `json:"type"`
	Required []string `json:"required"`
	// Members keeps the model's order (orderedMembers).
	Members orderedMembers `json:"members"`
	Member  *ref           `json:"member"`
	Key     *ref           `json:"key"`
	Value   *ref           `json:"value"`
	Min     *json.Number   `json:"min"`
	Max     *json.Number   `json:"max"`
	Pattern string         `json:"pattern"`
	Enum    []string       `json:"enum"`
}

type ref struct {
	Shape string `json:"shape"`
}

type member struct {
	Name  string
	Shape string
}

// orderedMembers decodes a JSON object of members in the order written.
type orderedMembers []member

func (m *orderedMembers) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var r ref
		if err := dec.Decode(&r); err != nil {
			return err
		}
		*m = append(*m, member{Name: t.(string), Shape: r.Shape})
	}
	return nil
}

// Generate returns the Go source of api/model_gen.go for a model.
func Generate(data []byte) ([]byte, error) {
	var m modelFile
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("the model: %w", err)
	}
	sum := sha256.Sum256(data)
	// The shapes reachable from the operations' inputs.
	reach := map[string]bool{}
	var visit func(string)
	visit = func(name string) {
		if name == "" || reach[name] {
			return
		}
		s, ok := m.Shapes[name]
		if !ok {
			return
		}
		reach[name] = true
		for _, mm := range s.Members {
			visit(mm.Shape)
		}
		for _, r := range []*ref{s.Member, s.Key, s.Value} {
			if r != nil {
				visit(r.Shape)
			}
		}
	}
	ops := make([]string, 0, len(m.Operations))
	for name, op := range m.Operations {
		ops = append(ops, name)
		if op.Input != nil {
			visit(op.Input.Shape)
		}
	}
	sort.Strings(ops)
	names := make([]string, 0, len(reach))
	for n := range reach {
		names = append(names, n)
	}
	sort.Strings(names)

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by api/internal/modelgen from botocore's cloudformation/%s/service-2.json (sha256 %s); DO NOT EDIT.\n", m.Metadata.APIVersion, hex.EncodeToString(sum[:8]))
	b.WriteString("// Regenerate with: go run ./api/internal/modelgen\n\npackage api\n\n")
	fmt.Fprintf(&b, "// modelVersion and modelNamespace are the API version and XML namespace of the model.\nconst (\n\tmodelVersion = %q\n\tmodelNamespace = %q\n)\n\n", m.Metadata.APIVersion, m.Metadata.XMLNamespace)
	b.WriteString("// modelOperations maps every operation of the model to its input shape (\"\" when it has none).\nvar modelOperations = map[string]string{\n")
	for _, name := range ops {
		in := ""
		if op := m.Operations[name]; op.Input != nil {
			in = op.Input.Shape
		}
		fmt.Fprintf(&b, "\t%q: %q,\n", name, in)
	}
	b.WriteString("}\n\n// modelShapes are the shapes the operations' inputs are made of, with their constraints.\nvar modelShapes = map[string]modelShape{\n")
	for _, name := range names {
		s := m.Shapes[name]
		fmt.Fprintf(&b, "\t%q: {Type: %q", name, s.Type)
		if len(s.Members) > 0 {
			req := map[string]bool{}
			for _, r := range s.Required {
				req[r] = true
			}
			b.WriteString(", Members: []modelMember{")
			for i, mm := range s.Members {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "{%q, %q, %t}", mm.Name, mm.Shape, req[mm.Name])
			}
			b.WriteString("}")
		}
		for _, f := range []struct {
			name string
			r    *ref
		}{{"Member", s.Member}, {"Key", s.Key}, {"Value", s.Value}} {
			if f.r != nil {
				fmt.Fprintf(&b, ", %s: %q", f.name, f.r.Shape)
			}
		}
		for _, f := range []struct {
			name string
			n    *json.Number
		}{{"Min", s.Min}, {"Max", s.Max}} {
			if f.n != nil {
				v, err := strconv.ParseInt(f.n.String(), 10, 64)
				if err != nil {
					return nil, fmt.Errorf("shape %s: %s %s is not an integer", name, f.name, f.n)
				}
				fmt.Fprintf(&b, ", %s: limit(%d)", f.name, v)
			}
		}
		if s.Pattern != "" {
			fmt.Fprintf(&b, ", Pattern: %q", s.Pattern)
		}
		if len(s.Enum) > 0 {
			b.WriteString(", Enum: []string{")
			for i, e := range s.Enum {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%q", e)
			}
			b.WriteString("}")
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
