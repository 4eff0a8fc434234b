// Command corpus runs every template of a directory through the template
// package: Parse (the checks ValidateTemplate makes), Capabilities, Bind
// (parameters given a value that satisfies them, rules, conditions; SSM
// parameter types read from the sources the command line reads: AWS's
// public parameters and the parameters the run gives the account), and the
// resolution of every property, attribute and output of every resource that
// exists. It is `make corpus`.
//
// A template with a transform stacksim does not run is skipped, with the
// reason. The last line is "N passed, M failed, K skipped".
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/stacksim/stacksim/internal/corpus"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/template"
)

func main() {
	dir := flag.String("dir", "../shared/corpus/templates", "the corpus directory")
	verbose := flag.Bool("v", false, "list the templates that pass too")
	flag.Parse()
	os.Exit(run(*dir, *verbose, os.Stdout))
}

// outcome of one template.
type outcome int

const (
	passed outcome = iota
	failed
	skipped
)

func run(dir string, verbose bool, w io.Writer) int {
	files, err := corpus.Templates(dir)
	if err != nil {
		fmt.Fprintf(w, "corpus: %v\n", err)
		return 2
	}
	counts := [3]int{}
	unexpected := 0
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		rel = filepath.ToSlash(rel)
		o, reason := check(f, rel)
		counts[o]++
		why, known := corpus.Unmade[rel]
		known = known && why.Validation
		switch {
		case o == failed && known:
			fmt.Fprintf(w, "FAIL %s (%s: %s)\n    %s\n", rel, why.Verdict, why.Reason, strings.ReplaceAll(reason, "\n", "\n    "))
		case o == failed:
			unexpected++
			fmt.Fprintf(w, "FAIL %s\n    %s\n", rel, strings.ReplaceAll(reason, "\n", "\n    "))
		case known:
			unexpected++
			fmt.Fprintf(w, "STALE %s is listed as failing validation (%s: %s) but passes: correct internal/corpus/unmade.go\n", rel, why.Verdict, why.Reason)
		case o == skipped:
			fmt.Fprintf(w, "SKIP %s: %s\n", rel, reason)
		case verbose:
			fmt.Fprintf(w, "ok   %s\n", rel)
		}
	}
	if unexpected > 0 {
		fmt.Fprintf(w, "%d unexpected result(s)\n", unexpected)
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", counts[passed], counts[failed], counts[skipped])
	if unexpected > 0 {
		return 1
	}
	return 0
}

// check runs one template through the package.
func check(path, name string) (outcome, string) {
	body, err := readfile.Read(path, readfile.Limit{Max: template.MaxURLBodyBytes, What: "a template"})
	if err != nil {
		return failed, err.Error()
	}
	t, err := template.Parse(name, body)
	if errors.Is(err, template.ErrUnsupported) {
		first := template.AsList(err)[0]
		return skipped, first.Message
	}
	if err != nil {
		return failed, err.Error()
	}
	_ = t.Capabilities()
	in, err := corpus.MakeInputs(t, nil)
	if err != nil {
		return failed, "parameters: " + err.Error()
	}
	b, err := t.Bind(in.BindInput())
	if err != nil {
		// A template may need particular choices (a rule asserts them, a
		// resource is referenced only when its condition holds): try the
		// other allowed values of each parameter before calling it broken.
		for _, alt := range corpus.Variations(t, in) {
			if b2, err2 := t.Bind(alt.BindInput()); err2 == nil {
				b, err = b2, nil
				break
			}
		}
	}
	if err != nil {
		return failed, "bind: " + err.Error()
	}
	r := fakeResolver{}
	for _, res := range b.Resources() {
		for _, attr := range []string{"Properties", "Metadata", "CreationPolicy", "UpdatePolicy"} {
			if _, err := b.ResourceAttribute(res.LogicalID, attr, r); err != nil {
				return failed, "resolve " + res.LogicalID + " " + attr + ": " + err.Error()
			}
		}
	}
	for _, o := range b.Outputs() {
		if _, err := b.OutputValue(o.Name, r); err != nil {
			return failed, "output " + o.Name + ": " + err.Error()
		}
		if _, _, err := b.ExportName(o.Name, r); err != nil {
			return failed, "export " + o.Name + ": " + err.Error()
		}
	}
	return passed, ""
}

// fakeResolver stands for a stack in which every resource exists: a Ref is
// a physical id, an attribute is not known (its type depends on the
// resource type), an export is a string.
type fakeResolver struct{}

// Ref is ARN-shaped, so that a template that splits it on ':' or '/' finds
// the pieces it expects.
func (fakeResolver) Ref(id string) (any, error) {
	return "arn:aws:service:us-east-1:123456789012:resource/corpus-" + id + "/0123456789abcdef", nil
}
func (fakeResolver) GetAtt(id, attr string) (any, error) {
	return template.Unknown{LogicalID: id, Attribute: attr}, nil
}
func (fakeResolver) ImportValue(name string) (any, error) { return "export-" + name, nil }
func (fakeResolver) GetStackOutput(stack, output, region, role string) (any, error) {
	return "output-" + stack + "-" + output, nil
}
