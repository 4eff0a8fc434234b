// Command corpuscreate creates a stack from each template of a corpus
// directory and deletes it, as a careful user would try the templates: the
// parameters without a default given values that satisfy them and fit the
// resource properties that read them (corpus.MakeInputs, from the same
// schemas the engine simulates), the SSM parameters those name given to
// the account (as --ssm-parameter does), and so is the parameter of the
// author's account an SSM parameter type's default names (not AWS's
// public ones, which the engine answers), the parameters and secrets its
// dynamic references name in full given too (--ssm-parameter, --secret),
// a template whose resources name local artefacts that are all there
// packaged first into the run's S3 directory, as `stacksim package` does
// (package.go), and one that names code the corpus does not hold given a
// stand-in for it and packaged (standins.go), the nested stacks' child
// templates of the corpus uploaded where their TemplateURLs say
// (nested.go), every capability acknowledged, a template over 51,200 bytes
// given by URL, each macro the template names made in the account first
// (an AWS::CloudFormation::Macro in a stack of its own), its function a
// stand-in for one of AWS's sample macros (macros.go) or a pass-through
// (the macros' code is not in the corpus, so their output is what they
// were given), and the corpus templates that make the exports it imports
// created before it, under the stack names the imports need
// (corpus.Exports), and deleted after it. With -no-stand-ins, no template
// gets a stand-in (those listed as needing one then count as not
// created). It is `make corpus-create`.
//
// Each template runs in an engine of its own. It prints one line per
// template (CREATE_COMPLETE, or why it did not create; with -v, what it is
// given first), then those that did not create by verdict
// (corpus.Unmade: a fault of the template, or an input stacksim cannot
// have), each with stacksim's reason, the unexplained
// ones grouped by reason, and a summary. It exits with status 1 when a
// created stack (or one it imports from) did not delete to DELETE_COMPLETE,
// the engine panicked or broke an invariant, a template failed without a
// verdict, a template with a verdict created, or fewer than -min templates
// created.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/corpus"
	"github.com/stacksim/stacksim/internal/pkgexport"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/paramstore"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
	"github.com/stacksim/stacksim/transforms"
)

func main() {
	dir := flag.String("dir", "../shared/corpus/templates", "the corpus directory")
	schemas := flag.String("schemas", "", "a directory of resource schemas (as --schemas)")
	only := flag.String("only", "", "run only the templates whose path (relative to -dir) holds this text")
	minCreated := flag.Int("min", 0, "fail when fewer templates than this reach CREATE_COMPLETE")
	verbose := flag.Bool("v", false, "print the inputs each template is given")
	noStandIns := flag.Bool("no-stand-ins", false, "give no template a stand-in for its author's code or macros (standins.go)")
	flag.Parse()
	o := options{dir: *dir, schemas: *schemas, only: *only, minCreated: *minCreated, known: corpus.Unmade, noStandIns: *noStandIns}
	if *verbose {
		o.verbose = os.Stdout
	}
	os.Exit(run(o, os.Stdout))
}

// options of a run.
type options struct {
	dir, schemas, only string
	minCreated         int
	noStandIns         bool
	// known are the templates that do not create, with why
	// (corpus.Unmade).
	known   map[string]corpus.Why
	verbose io.Writer // the inputs given to each template, when set
}

// result is what became of one template.
type result struct {
	rel     string
	created bool
	deleted bool   // a created stack deleted to DELETE_COMPLETE
	status  string // CREATE_COMPLETE, ROLLBACK_COMPLETE, REFUSED...
	reason  string
	broken  string // a panic or a broken invariant: a bug of stacksim
	// standIns are what the stacks it made were given in their author's
	// place (standins.go): code the corpus does not hold, macros.
	standIns []string
}

func run(o options, w io.Writer) int {
	files, err := corpus.Templates(o.dir)
	if err != nil {
		fmt.Fprintf(w, "corpus-create: %v\n", err)
		return 2
	}
	scratch, err := os.MkdirTemp("", "corpus-create-")
	if err != nil {
		fmt.Fprintf(w, "corpus-create: %v\n", err)
		return 2
	}
	defer os.RemoveAll(scratch)
	rn := &runner{dir: o.dir, schemas: o.schemas, props: newSchemaValues(o.schemas), exports: &corpus.Exports{}, verbose: o.verbose,
		scratch: scratch, standIns: !o.noStandIns}
	defer rn.props.Close()
	// Every template's exports, for the templates that import them.
	for _, f := range files {
		rel, _ := filepath.Rel(o.dir, f)
		if body, err := readfile.Read(f, readfile.Limit{Max: template.MaxURLBodyBytes, What: "a template"}); err == nil {
			if root, err := template.ParseTree(rel, body); err == nil {
				rn.exports.Add(filepath.ToSlash(rel), root)
			}
		}
		rn.files = append(rn.files, filepath.ToSlash(rel))
	}
	var results []result
	for _, f := range files {
		rel, _ := filepath.Rel(o.dir, f)
		rel = filepath.ToSlash(rel)
		if o.only != "" && !strings.Contains(rel, o.only) {
			continue
		}
		r := rn.createOne(f, rel)
		results = append(results, r)
		line := fmt.Sprintf("%-18s %s", r.status, rel)
		if r.reason != "" {
			line += ": " + r.reason
		}
		if r.broken != "" {
			line += "\n    BROKEN: " + r.broken
		}
		fmt.Fprintln(w, line)
	}
	return summarize(w, results, o.known, o.minCreated, !o.noStandIns)
}

const stackName = "corpus"

// runner is what a run shares between templates.
type runner struct {
	dir, schemas string
	props        *schemaValues
	exports      *corpus.Exports
	files        []string // the corpus's templates, relative to dir
	verbose      io.Writer
	// scratch is the run's own folder (the copies of templates given
	// stand-ins); standIns says whether they are given (standins.go).
	scratch  string
	standIns bool
}

// stackSpec is one stack to create: a template and its inputs.
type stackSpec struct {
	name      string
	path, rel string
	body      []byte
	root      *template.Node // nil when the body does not parse
	in        corpus.Inputs
	params    []*template.Parameter
	macros    []string
	// packaged says what `stacksim package` uploads from the local paths
	// the template names (none: it is created as it is); packageErr is
	// why package failed.
	packaged   []string
	packageErr error
	// standIns are the stand-ins made for the code it names that the
	// corpus does not hold (path is then the scratch copy beside them).
	standIns []string
	// file is the template's file name in messages (rel unless it was
	// packaged); url, when set, is where the packaged template is read
	// from instead of body.
	file, url string
}

// spec reads a template and makes its inputs.
func (rn *runner) spec(name, path, rel string) (stackSpec, error) {
	sp := stackSpec{name: name, path: path, rel: rel}
	body, err := readfile.Read(path, readfile.Limit{Max: template.MaxURLBodyBytes, What: "a template"})
	if err != nil {
		return sp, err
	}
	sp.body = body
	root, err := template.ParseTree(rel, body)
	if err != nil {
		return sp, nil // CreateStack refuses it, in AWS's words
	}
	sp.root = root
	sp.in, sp.params, err = inputs(rel, root, body, rn.props)
	if err != nil {
		return sp, fmt.Errorf("parameters: %w", err)
	}
	sp.macros = macroNames(rel, root)
	sp.in.Referenced(body)
	sp.packaged, sp.packageErr = probePackage(path)
	var missing *pkgexport.InvalidLocalPathError
	if rn.standIns && errors.As(sp.packageErr, &missing) {
		if copyPath, made, err := standIns(path, root, rn.scratch); err == nil {
			sp.path, sp.standIns = copyPath, made
			sp.packaged, sp.packageErr = probePackage(copyPath)
		} else if !errors.Is(err, errNoStandIn) {
			return sp, fmt.Errorf("stand-ins: %w", err)
		}
	}
	return sp, nil
}

// createOne creates a stack from a template and deletes it (the stacks
// that make its imports created before it, deleted after it).
func (rn *runner) createOne(path, rel string) (r result) {
	r.rel = rel
	defer func() {
		if p := recover(); p != nil {
			r.status, r.broken = "PANIC", fmt.Sprint(p)+"\n"+string(debug.Stack())
		}
	}()
	sp, err := rn.spec(stackName, path, rel)
	switch {
	case err != nil && sp.body == nil:
		r.status, r.reason = "UNREADABLE", err.Error()
		return r
	case err != nil:
		r.status, r.reason = "REFUSED", err.Error()
		return r
	}
	var producers []stackSpec
	if sp.root != nil {
		for _, p := range rn.exports.Producers(rel, sp.root, &sp.in) {
			ps, err := rn.spec(p.StackName, filepath.Join(rn.dir, filepath.FromSlash(p.File)), p.File)
			if err != nil || ps.root == nil {
				continue // the import fails, as AWS's does without it
			}
			producers = append(producers, ps)
		}
	}
	// A template may need particular choices (a rule asserts them, a
	// resource's property holds only when a condition does): the other
	// allowed values of each parameter are tried before the template is
	// called broken, as a user would try them.
	attempts := append([]corpus.Inputs{sp.in}, corpus.VariationsOf(sp.params, sp.in)...)
	var refusal error
	var first *result
	for i, attempt := range attempts {
		if i > 8 {
			break
		}
		try := sp
		try.in = attempt
		if rn.verbose != nil {
			fmt.Fprintf(rn.verbose, "  %s: %s\n", rel, describeInputs(try, producers))
			if i == 0 {
				describePackage(rn.verbose, append([]stackSpec{sp}, producers...))
			}
		}
		done, res := rn.tryCreate(try, producers)
		switch {
		case done && (res.created || res.broken != ""):
			return res
		case done && first == nil:
			first = &res
		case !done && refusal == nil:
			refusal = errors.New(res.reason)
		}
	}
	if first != nil {
		return *first
	}
	r.status, r.reason = "REFUSED", refusal.Error()
	return r
}

// describeInputs says what a template is given: its parameters, and the
// stacks created before it.
func describeInputs(sp stackSpec, producers []stackSpec) string {
	var parts []string
	for _, p := range sp.in.Parameters {
		parts = append(parts, p.Key+"="+p.Value)
	}
	for _, name := range paramstore.SortedNames(sp.in.SSM) {
		parts = append(parts, "ssm "+name+"="+sp.in.SSM[name])
	}
	for _, p := range producers {
		parts = append(parts, "after stack "+p.name+" ("+p.rel+")")
	}
	if len(parts) == 0 {
		return "no parameters"
	}
	return strings.Join(parts, ", ")
}

// inputs are the values a template is given, and its parameters.
func inputs(rel string, root *template.Node, body []byte, props corpus.Properties) (corpus.Inputs, []*template.Parameter, error) {
	if t, err := template.Parse(rel, body); err == nil {
		in, err := corpus.MakeInputs(t, props)
		return in, t.Parameters, err
	}
	params, err := template.DeclaredParameters(rel, root)
	if err != nil {
		return corpus.Inputs{}, nil, nil
	}
	in, err := corpus.MakeInputsTree(rel, root, props)
	return in, params, err
}

// macroNames are the macros (not AWS's own transforms) a template names.
func macroNames(rel string, root *template.Node) []string {
	seen := map[string]bool{}
	var out []string
	add := func(ms []template.Macro) {
		for _, m := range ms {
			switch m.Name {
			case transforms.Serverless, transforms.Include, transforms.LanguageExtensions:
				continue
			}
			if !seen[m.Name] {
				seen[m.Name] = true
				out = append(out, m.Name)
			}
		}
	}
	if root.Kind != template.Map {
		return nil
	}
	declared, _ := template.DeclaredTransforms(rel, root)
	add(declared)
	var walk func(n *template.Node)
	walk = func(n *template.Node) {
		for _, c := range n.Items {
			walk(c)
		}
		for _, f := range n.Fields {
			if f.Key == "Fn::Transform" {
				ms, _ := template.SnippetTransforms(rel, f.Value)
				add(ms)
			}
			walk(f.Value)
		}
	}
	walk(root)
	sort.Strings(out)
	return out
}

// tryCreate creates the stack with one set of inputs, after the stacks
// that make its imports; done is false when the call was refused
// (another set may do).
func (rn *runner) tryCreate(sp stackSpec, producers []stackSpec) (bool, result) {
	r := result{rel: sp.rel}
	tokens := map[string]resources.CustomTarget{}
	ssm, secrets := map[string]string{}, map[string]string{}
	var macros, macroStandIns []string
	for _, s := range append([]stackSpec{sp}, producers...) {
		for _, m := range s.macros {
			if _, ok := tokens[macroFunction(m)]; !ok {
				target, standIn := macroTarget(m)
				if !rn.standIns {
					target, standIn = passThrough{}, false
				}
				tokens[macroFunction(m)] = target
				macros = append(macros, m)
				if standIn {
					macroStandIns = append(macroStandIns, s.rel+": macro "+m+" (a stand-in for AWS's sample macro, macros.go)")
				}
			}
		}
		for k, v := range s.in.SSM {
			ssm[k] = v
		}
		for k, v := range s.in.Secrets {
			secrets[k] = v
		}
	}
	sort.Strings(macros)
	var s3 s3Dir
	defer s3.remove()
	uploaded, err := rn.stageNested(append([]stackSpec{sp}, producers...), &s3)
	if err == nil {
		sp, producers, err = packageSpecs(sp, producers, &s3)
	}
	if err != nil {
		return true, result{rel: sp.rel, status: "S3", broken: err.Error()}
	}
	if rn.verbose != nil && len(uploaded) > 0 {
		fmt.Fprintf(rn.verbose, "  %s: uploaded %s\n", sp.rel, strings.Join(uploaded, ", "))
	}
	e, err := engine.New(engine.Options{SchemaDir: rn.schemas, SSMParameters: ssm, Secrets: secrets, ServiceTokens: tokens, S3Dir: s3.dir})
	if err != nil {
		return true, result{rel: sp.rel, status: "ENGINE", broken: err.Error()}
	}
	defer e.Close()
	ctx := context.Background()
	if len(macros) > 0 {
		if err := makeMacros(ctx, e, macros); err != nil {
			return true, result{rel: sp.rel, status: "MACROS", reason: err.Error()}
		}
	}
	// The stacks that make its imports: one that does not create leaves
	// its exports missing, and the template fails as AWS's would.
	var made []*engine.Stack
	var notes []string
	for _, p := range producers {
		st, err := create(ctx, e, p)
		var ie *engine.InternalError
		switch {
		case errors.As(err, &ie):
			return true, result{rel: sp.rel, status: "INTERNAL", broken: "stack " + p.name + ": " + err.Error()}
		case err != nil:
			notes = append(notes, fmt.Sprintf("stack %s (%s), which makes its imports, was refused: %s", p.name, p.rel, message(err)))
			continue
		case st.StackStatus != "CREATE_COMPLETE":
			notes = append(notes, fmt.Sprintf("stack %s (%s), which makes its imports, ended %s: %s", p.name, p.rel, st.StackStatus, failure(ctx, e, st)))
		}
		made = append(made, st)
	}
	note := func(reason string) string {
		if len(notes) > 0 {
			reason += " [" + strings.Join(notes, "; ") + "]"
		}
		return reason
	}
	st, err := create(ctx, e, sp)
	if err != nil {
		var ie *engine.InternalError
		if errors.As(err, &ie) {
			return true, result{rel: sp.rel, status: "INTERNAL", broken: err.Error()}
		}
		return false, result{rel: sp.rel, reason: note(message(err))}
	}
	r.status = string(st.StackStatus)
	r.created = st.StackStatus == "CREATE_COMPLETE"
	r.standIns = macroStandIns
	for _, s := range append([]stackSpec{sp}, producers...) {
		for _, m := range s.standIns {
			r.standIns = append(r.standIns, s.rel+": "+m)
		}
	}
	if !r.created {
		r.reason = note(failure(ctx, e, st))
	}
	if err := e.CheckInvariants(ctx); err != nil {
		r.broken = "after the create: " + err.Error()
	}
	if r.created && r.broken == "" {
		// Nothing changed the simulated cloud: drift detection finds
		// every resource as its template made it.
		if drift := driftAfterCreate(ctx, e, st); drift != "" {
			r.broken = "drift right after the create: " + drift
		}
	}
	// It, then the stacks it imports from, newest first.
	stacks := []*engine.Stack{st}
	for i := len(made) - 1; i >= 0; i-- {
		stacks = append(stacks, made[i])
	}
	for i, s := range stacks {
		what := "delete"
		if i > 0 {
			what = "delete of stack " + s.StackName + ", which makes its imports"
		}
		if _, err := e.DeleteStack(ctx, engine.DeleteStackInput{StackName: s.StackId}); err != nil {
			r.broken = what + " refused: " + message(err)
			return true, r
		}
		gone, err := e.WaitForStack(ctx, s.StackId)
		switch {
		case err != nil:
			r.broken = what + ": " + err.Error()
		case gone.StackStatus != "DELETE_COMPLETE":
			r.broken = fmt.Sprintf("%s ended %s: %s", what, gone.StackStatus, failure(ctx, e, gone))
		case i == 0 && r.created:
			r.deleted = true
		}
		if r.broken != "" {
			r.deleted = false
			return true, r
		}
	}
	if err := e.CheckInvariants(ctx); err != nil && r.broken == "" {
		r.broken = "after the delete: " + err.Error()
	}
	return true, r
}

// create creates one stack and waits for it; err is the call's refusal.
func create(ctx context.Context, e *engine.Engine, sp stackSpec) (*engine.Stack, error) {
	req := engine.CreateStackInput{StackName: sp.name, Parameters: engineParams(sp.in.Parameters),
		Capabilities: []string{template.CapabilityIAM, template.CapabilityNamedIAM, template.CapabilityAutoExpand}}
	switch {
	case sp.url != "":
		req.TemplateURL = sp.url
	case len(sp.body) > template.MaxBodyBytes:
		abs, _ := filepath.Abs(sp.path)
		req.TemplateURL = "file://" + abs
	default:
		req.TemplateBody = string(sp.body)
	}
	req.TemplateFile = sp.rel
	if sp.file != "" {
		req.TemplateFile = sp.file
	}
	if _, err := e.CreateStack(ctx, req); err != nil {
		return nil, err
	}
	st, err := e.WaitForStack(ctx, sp.name)
	if err != nil {
		return nil, &engine.InternalError{Err: fmt.Errorf("wait: %w", err)}
	}
	return st, nil
}

// macroFunction is the function of a macro the run makes.
func macroFunction(name string) string {
	return "arn:aws:lambda:us-east-1:123456789012:function:corpus-macro-" + strings.ReplaceAll(name, ":", "-")
}

// makeMacros makes the macros a template names, in a stack of their own.
func makeMacros(ctx context.Context, e *engine.Engine, macros []string) error {
	res := map[string]any{}
	for i, m := range macros {
		res[fmt.Sprintf("Macro%d", i+1)] = map[string]any{"Type": "AWS::CloudFormation::Macro",
			"Properties": map[string]any{"Name": m, "FunctionName": macroFunction(m)}}
	}
	body, _ := json.Marshal(map[string]any{"Resources": res})
	if _, err := e.CreateStack(ctx, engine.CreateStackInput{StackName: "corpus-macros", TemplateBody: string(body)}); err != nil {
		return fmt.Errorf("making the macros %v: %s", macros, message(err))
	}
	st, err := e.WaitForStack(ctx, "corpus-macros")
	if err != nil || st.StackStatus != "CREATE_COMPLETE" {
		return fmt.Errorf("making the macros %v: %v %v", macros, err, st)
	}
	return nil
}

// passThrough stands for a macro's function, whose code is not in the
// corpus: it answers the fragment it was given.
type passThrough struct{}

func (passThrough) Deliver(context.Context, *resources.CustomRequest) (*resources.CustomResponse, error) {
	return nil, errors.New("a macro's function, not a custom resource's")
}

func (passThrough) InvokeMacro(_ context.Context, req *resources.MacroRequest) ([]byte, error) {
	return json.Marshal(map[string]any{"requestId": req.RequestID, "status": "success", "fragment": req.Fragment})
}

func engineParams(ps []template.ParameterValue) []engine.Parameter {
	out := make([]engine.Parameter, len(ps))
	for i, p := range ps {
		out[i] = engine.Parameter{ParameterKey: p.Key, ParameterValue: p.Value}
	}
	return out
}

// message is an API error's message (its cause after it, when it adds
// something).
func message(err error) string {
	var api *engine.APIError
	if !errors.As(err, &api) {
		return err.Error()
	}
	msg := api.Message
	if list := template.AsList(err); len(list) > 0 && list[0].Line > 0 {
		msg += " (" + filepath.Base(list[0].File) + ":" + fmt.Sprint(list[0].Line) + ")"
	}
	return msg
}

// failure is why a stack did not create: its first failed resource (with
// its type), or its own reason.
func failure(ctx context.Context, e *engine.Engine, st *engine.Stack) string {
	out, err := e.DescribeStackEvents(ctx, engine.DescribeStackEventsInput{StackName: st.StackId})
	if err == nil {
		events := out.StackEvents
		for i := len(events) - 1; i >= 0; i-- { // oldest first
			ev := events[i]
			if strings.HasSuffix(string(ev.ResourceStatus), "_FAILED") && !ev.IsStackEvent() && ev.ResourceStatusReason != "" &&
				!strings.Contains(ev.ResourceStatusReason, "Resource creation cancelled") {
				return fmt.Sprintf("%s (%s): %s", ev.LogicalResourceId, ev.ResourceType, ev.ResourceStatusReason)
			}
		}
	}
	if err == nil {
		for i := len(out.StackEvents) - 1; i >= 0; i-- {
			ev := out.StackEvents[i]
			if ev.IsStackEvent() && ev.ResourceStatusReason != "" && ev.ResourceStatusReason != "User Initiated" {
				return ev.ResourceStatusReason
			}
		}
	}
	return st.StackStatusReason
}

// driftAfterCreate says which resources of a stack just created drift
// detection does not find IN_SYNC ("" when none).
func driftAfterCreate(ctx context.Context, e *engine.Engine, st *engine.Stack) string {
	if _, err := e.DetectStackDrift(ctx, engine.DetectStackDriftInput{StackName: st.StackId}); err != nil {
		return "DetectStackDrift: " + message(err)
	}
	var bad []string
	in := engine.DescribeStackResourceDriftsInput{StackName: st.StackId}
	for {
		out, err := e.DescribeStackResourceDrifts(ctx, in)
		if err != nil {
			return "DescribeStackResourceDrifts: " + message(err)
		}
		for _, d := range out.StackResourceDrifts {
			if d.StackResourceDriftStatus != engine.DriftInSync {
				bad = append(bad, fmt.Sprintf("%s (%s) %s %s %v", d.LogicalResourceId, d.ResourceType, d.StackResourceDriftStatus, d.DriftStatusReason, d.PropertyDifferences))
			}
		}
		if out.NextToken == "" {
			break
		}
		in.NextToken = out.NextToken
	}
	return strings.Join(bad, "; ")
}
