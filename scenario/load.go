package scenario

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/internal/yamlerr"
	"github.com/stacksim/stacksim/internal/yamlkeys"
	"github.com/stacksim/stacksim/paramstore"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// MaxFileBytes is the largest scenario file read (4 MiB); the files it
// names are read with their own limits (faults.FileLimit, AWS's
// TemplateBody quota).
const MaxFileBytes = 4 << 20

var fileLimit = readfile.Limit{Max: MaxFileBytes, What: "a scenario file",
	Hint: "keep large templates in files of their own (TemplateBody: file://PATH); check the path"}

// LoadFile reads a scenario file.
func LoadFile(path string) (*Scenario, error) {
	data, err := readfile.Read(path, fileLimit)
	var tl *readfile.TooLargeError
	if errors.As(err, &tl) {
		return nil, err // it names the file
	}
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", path, err)
	}
	return Load(path, data)
}

// Load reads a scenario from its text; path names it in errors and is the
// base of the relative paths it holds. A bad scenario is refused with every
// problem found, each at its FILE:LINE:COL.
func Load(path string, data []byte) (*Scenario, error) {
	l := &loader{errs: errs{file: path}, dir: filepath.Dir(path)}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(path, data, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &Error{File: path, Msg: "the file is empty; a scenario has a name and steps (see docs/scenarios.md)"}
	}
	for _, d := range yamlkeys.Duplicates(&doc) {
		l.at(d.Again, "%s", d.Message())
	}
	sc := l.scenario(doc.Content[0])
	if err := l.err(); err != nil {
		return nil, err
	}
	sc.File = path
	return sc, nil
}

// templateBodyLimit is AWS's TemplateBody quota, for a file a scenario
// names; the error is AWS's (template.BodySizeError).
var templateBodyLimit = readfile.Limit{Max: template.MaxBodyBytes, What: "a template body"}

// readError is what a scenario says when a file it names cannot be read:
// os's reason without the path (the scenario names the file as written),
// or the limit it passed.
func readError(err error) error {
	var tl *readfile.TooLargeError
	if errors.As(err, &tl) {
		return err
	}
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// yamlError places a YAML syntax error at its line and column.
func yamlError(path string, data []byte, err error) error {
	if s, ok := yamlerr.Of(err, data); ok {
		return &Error{File: path, Line: s.Line, Col: s.Col, Msg: "YAML: " + s.Detail()}
	}
	return &Error{File: path, Msg: "YAML: " + yamlerr.Message(err, data)}
}

type loader struct {
	errs
	dir    string
	stacks []string // stack names seen, for defaults
}

func (l *loader) pos(n *yaml.Node) string {
	return fmt.Sprintf("%s:%d:%d", l.file, n.Line, n.Column)
}

var topKeys = []string{"name", "description", "seed", "contract", "signals", "serviceTokens", "handlers", "ssmParameters", "secrets", "alarms", "s3Dir", "steps"}

func (l *loader) scenario(root *yaml.Node) *Scenario {
	sc := &Scenario{Contract: engine.ContractReport, ServiceTokens: map[string]resources.CustomTarget{}}
	if root.Kind != yaml.MappingNode {
		l.at(root, "a scenario is a mapping with %s, not %s", strings.Join(topKeys, ", "), kindName(root))
		return sc
	}
	var steps *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], resolveAlias(root.Content[i+1])
		switch k.Value {
		case "name":
			sc.Name = l.str(v, "name")
		case "description":
			sc.Description = l.str(v, "description")
		case "seed":
			if i, err := strconv.ParseInt(v.Value, 10, 64); err != nil || v.Kind != yaml.ScalarNode {
				l.at(v, "seed must be a whole number, not %s", kindName(v))
			} else {
				sc.Seed = i
			}
		case "contract":
			switch l.str(v, "contract") {
			case "off":
				sc.Contract = engine.ContractOff
			case "report":
				sc.Contract = engine.ContractReport
			case "strict":
				sc.Contract = engine.ContractStrict
			default:
				l.at(v, "contract must be off, report or strict, not %q", readfile.Capped(v.Value))
			}
		case "signals":
			switch s := l.str(v, "signals"); s {
			case engine.SignalsAuto, engine.SignalsManual:
				sc.Signals = s
			default:
				l.at(v, "signals must be auto or manual, not %q", readfile.Capped(v.Value))
			}
		case "serviceTokens":
			l.serviceTokens(v, sc)
		case "ssmParameters":
			sc.SSMParameters = l.assignments(v, "ssmParameters", paramstore.CheckUserName)
		case "secrets":
			sc.Secrets = l.assignments(v, "secrets", paramstore.CheckSecretName)
		case "alarms":
			sc.Alarms = l.assignments(v, "alarms", func(string) string { return "" })
			for name, state := range sc.Alarms {
				if !slices.Contains(engine.AlarmStates, state) {
					l.at(v, "alarms %s: the state is %q; an alarm's state is one of %s", name, readfile.Capped(state), strings.Join(engine.AlarmStates, ", "))
				}
			}
		case "s3Dir":
			if dir := l.str(v, "s3Dir"); dir != "" {
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(l.dir, dir)
				}
				if st, err := os.Stat(dir); err != nil || !st.IsDir() {
					l.at(v, "s3Dir %s is not a directory (a directory that stands for S3: BUCKET/KEY under it)", v.Value)
				}
				sc.S3Dir = dir
			}
		case "handlers":
			l.handlers(v, sc)
		case "steps":
			steps = v
		default:
			l.at(k, "unknown key %q; a scenario has %s%s", readfile.Capped(k.Value), strings.Join(topKeys, ", "), suggest(k.Value, topKeys))
		}
	}
	if sc.Name == "" {
		l.at(root, "the scenario has no name; add name: SHORT-NAME")
	}
	if steps == nil {
		l.at(root, "the scenario has no steps; add steps: followed by a list of operations and expectations")
		return sc
	}
	if steps.Kind != yaml.SequenceNode {
		l.at(steps, "steps must be a list (each step starts with \"- \"), not %s", kindName(steps))
		return sc
	}
	for _, n := range steps.Content {
		if st := l.step(resolveAlias(n), sc); st != nil {
			sc.Steps = append(sc.Steps, st)
		}
	}
	return sc
}

// assignments reads a mapping of names to string values (ssmParameters,
// secrets).
func (l *loader) assignments(n *yaml.Node, what string, check func(string) string) map[string]string {
	if n.Kind != yaml.MappingNode {
		l.at(n, "%s must be a mapping of names to values, not %s", what, kindName(n))
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		if msg := check(k.Value); msg != "" {
			l.at(k, "%s %q: %s", what, k.Value, msg)
			continue
		}
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			l.at(v, "%s %s: the value must be a string, not %s", what, k.Value, kindName(v))
			continue
		}
		out[k.Value] = v.Value
	}
	return out
}

func (l *loader) serviceTokens(n *yaml.Node, sc *Scenario) {
	if n.Kind != yaml.MappingNode {
		l.at(n, "serviceTokens must be a mapping of ServiceTokens to targets (builtin:echo, exec:COMMAND ARGS..., http://URL), not %s", kindName(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		var target resources.CustomTarget
		var err error
		switch v.Kind {
		case yaml.ScalarNode:
			target, err = ParseTarget(v.Value, l.dir)
		case yaml.MappingNode:
			opts := map[string]any{}
			name := ""
			for j := 0; j+1 < len(v.Content); j += 2 {
				kk, vv := v.Content[j], resolveAlias(v.Content[j+1])
				if kk.Value == "builtin" {
					name = vv.Value
					continue
				}
				var val any
				if err := vv.Decode(&val); err != nil {
					l.at(vv, "%v", err)
				}
				opts[kk.Value] = val
			}
			if name == "" {
				err = fmt.Errorf("a target written as a mapping names a built-in responder: {builtin: fail, reason: ..., on: [Create]}")
			} else {
				target, err = Builtin(name, opts)
			}
		default:
			err = fmt.Errorf("a target is builtin:NAME, exec:COMMAND ARGS..., an http(s):// URL, or {builtin: NAME, ...}; not %s", kindName(v))
		}
		if err != nil {
			l.at(v, "service token %s: %v", readfile.Capped(k.Value), err)
			continue
		}
		if r, ok := target.(*Responder); ok {
			sc.responders = append(sc.responders, r)
		}
		sc.ServiceTokens[k.Value] = target
	}
}

// ParseTarget reads a service token target: builtin:NAME, exec:COMMAND
// ARGS... (split into words as a shell would, never run through a shell;
// or a JSON list of words), or an http(s):// URL. dir is where a command
// runs ("" for the current directory).
func ParseTarget(spec, dir string) (resources.CustomTarget, error) {
	switch {
	case strings.HasPrefix(spec, "exec:"):
		argv, err := SplitCommand(strings.TrimPrefix(spec, "exec:"))
		if err != nil {
			return nil, err
		}
		return resources.CommandTarget{Argv: argv, Dir: dir}, nil
	case strings.HasPrefix(spec, "http://"), strings.HasPrefix(spec, "https://"):
		return resources.URLTarget{URL: spec}, nil
	case strings.HasPrefix(spec, "builtin:"):
		return Builtin(strings.TrimPrefix(spec, "builtin:"), nil)
	}
	return nil, fmt.Errorf("unknown target %q: write builtin:NAME (%s), exec:COMMAND ARGS... or an http(s):// URL", readfile.Capped(spec), strings.Join(builtinKinds, ", "))
}

func (l *loader) step(n *yaml.Node, sc *Scenario) *Step {
	st := &Step{Pos: l.pos(n), line: n.Line}
	if n.Kind != yaml.MappingNode {
		l.at(n, "a step is a mapping: an operation (%s), step, advance, note or expect; not %s", strings.Join(operationNames(), ", "), kindName(n))
		return nil
	}
	var opKey, opVal, faultsNode, stopNode, expectNode *yaml.Node
	main := ""
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		if _, ok := operations[k.Value]; ok {
			if main != "" {
				l.at(k, "a step does one thing: it has %s and %s; split it into two steps", main, k.Value)
				continue
			}
			main, opKey, opVal = k.Value, k, v
			continue
		}
		switch k.Value {
		case "faults":
			faultsNode = v
		case "stopAt":
			stopNode = v
		case "expect":
			expectNode = v
		case "note", "step", "advance":
			if main != "" {
				l.at(k, "a step does one thing: it has %s and %s; split it into two steps", main, k.Value)
				continue
			}
			main = k.Value
			switch k.Value {
			case "note":
				st.Note = l.str(v, "note")
			case "step":
				st.Step = l.stepSpec(v)
			case "advance":
				d, err := time.ParseDuration(v.Value)
				if err != nil || v.Kind != yaml.ScalarNode || d <= 0 {
					l.at(v, "advance takes a duration of virtual time, such as 90s or 5m, not %s", kindName(v))
				}
				st.Advance = d
			}
		default:
			all := append(operationNames(), "faults", "stopAt", "expect", "note", "step", "advance")
			l.at(k, "unknown key %q in a step; expected an operation (%s), or faults, stopAt, expect, note, step, advance%s", readfile.Capped(k.Value), strings.Join(operationNames(), ", "), suggest(k.Value, all))
		}
	}
	if opKey != nil {
		st.Op = l.operation(opKey, opVal)
	} else {
		if faultsNode != nil {
			l.at(faultsNode, "faults go with an operation (CreateStack, UpdateStack...), in the same step")
		}
		if stopNode != nil {
			l.at(stopNode, "stopAt goes with an operation (CreateStack, UpdateStack...), in the same step")
		}
	}
	if st.Op != nil {
		if faultsNode != nil {
			st.Op.Faults = l.faults(faultsNode)
		}
		if stopNode != nil {
			st.Op.StopAt = l.str(stopNode, "stopAt")
			u, err := ParseUntil(st.Op.StopAt, st.Op.StackName)
			if err != nil {
				l.at(stopNode, "stopAt %v", err)
			}
			st.Op.stopAt = u
		}
	}
	if expectNode != nil {
		st.Expect = l.expect(expectNode)
	}
	if main == "" && expectNode == nil {
		l.at(n, "this step does nothing: give it an operation (%s), step, advance, note or expect", strings.Join(operationNames(), ", "))
		return nil
	}
	if st.Expect != nil && st.Expect.Stack == "" {
		switch {
		case st.Op != nil:
			st.Expect.Stack = st.Op.StackName
		case st.Step != nil && st.Step.Stack != "":
			st.Expect.Stack = st.Step.Stack
		case len(l.stacks) > 0:
			st.Expect.Stack = l.stacks[len(l.stacks)-1]
		}
	}
	if st.Step != nil && st.Step.Stack == "" && len(l.stacks) > 0 {
		st.Step.Stack = l.stacks[len(l.stacks)-1]
	}
	return st
}

func (l *loader) stepSpec(n *yaml.Node) *StepSpec {
	s := &StepSpec{Events: 1}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Value == "rest" {
			s.Events = 0
			return s
		}
		s.Events = l.count(n, "step")
		if s.Events == 0 {
			l.at(n, "step takes a number of events (1 or more), rest, or {stack, events}")
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], resolveAlias(n.Content[i+1])
			switch k.Value {
			case "stack":
				s.Stack = l.str(v, "step.stack")
			case "events":
				if v.Value == "rest" {
					s.Events = 0
				} else {
					s.Events = l.count(v, "step.events")
				}
			default:
				l.at(k, "unknown key %q in step; expected stack or events%s", readfile.Capped(k.Value), suggest(k.Value, []string{"stack", "events"}))
			}
		}
	default:
		l.at(n, "step takes a number of events, rest, or {stack, events}; not %s", kindName(n))
	}
	return s
}

// faults reads a step's faults: a fault file (path relative to the
// scenario, file:// optional) or the list of faults itself.
func (l *loader) faults(n *yaml.Node) []faults.Fault {
	switch n.Kind {
	case yaml.ScalarNode:
		rel := strings.TrimPrefix(n.Value, "file://")
		data, err := readfile.Read(l.path(rel), faults.FileLimit)
		if err != nil {
			l.at(n, "faults: cannot read %s: %v", rel, readError(err))
			return nil
		}
		// Named as the scenario writes it: logs do not depend on where
		// stacksim runs from.
		inj, err := faults.Load(rel, data)
		if err != nil {
			l.at(n, "faults: %v", err)
			return nil
		}
		return inj.Faults()
	case yaml.SequenceNode:
		// Inline: the list is written out again and read by the fault
		// file loader; its positions are mapped back onto the scenario.
		text, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "faults"}, n}})
		if err != nil {
			l.at(n, "faults: %v", err)
			return nil
		}
		inj, err := faults.Load(l.file, text)
		if err != nil {
			var fe *faults.Error
			if errors.As(err, &fe) && fe.Line > 0 {
				line, col := mapPosition(text, n, fe.Line, fe.Col)
				l.list = append(l.list, &Error{File: l.file, Line: line, Col: col, Msg: "faults: " + fe.Msg})
			} else {
				l.at(n, "faults: %v", err)
			}
			return nil
		}
		fs := inj.Faults()
		for i := range fs {
			// "FILE:LINE:COL" of the text written out: the scenario's.
			parts := strings.Split(fs[i].Pos, ":")
			if len(parts) >= 3 {
				line, _ := strconv.Atoi(parts[len(parts)-2])
				col, _ := strconv.Atoi(parts[len(parts)-1])
				line, col = mapPosition(text, n, line, col)
				fs[i].Pos = fmt.Sprintf("%s:%d:%d", filepath.Base(l.file), line, col)
			}
		}
		return fs
	}
	l.at(n, "faults is a fault file's path or a list of faults (docs/faults.md), not %s", kindName(n))
	return nil
}

// mapPosition finds, in the node n of the scenario, the node that sits at
// line:col of text (n written out again under "faults:"), and returns its
// position in the scenario.
func mapPosition(text []byte, n *yaml.Node, line, col int) (int, int) {
	var doc yaml.Node
	if yaml.Unmarshal(text, &doc) != nil || len(doc.Content) == 0 || len(doc.Content[0].Content) < 2 {
		return n.Line, n.Column
	}
	bestLine, bestCol := n.Line, n.Column
	var walk func(a, b *yaml.Node)
	walk = func(a, b *yaml.Node) {
		if a == nil || b == nil {
			return
		}
		if a.Line == line && a.Column == col {
			bestLine, bestCol = b.Line, b.Column
		}
		for i := 0; i < len(a.Content) && i < len(b.Content); i++ {
			walk(a.Content[i], b.Content[i])
		}
	}
	walk(doc.Content[0].Content[1], n)
	return bestLine, bestCol
}

// path resolves a path relative to the scenario file.
func (l *loader) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(l.dir, p)
}

func (l *loader) str(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		l.at(n, "%s must be a string, not %s", what, kindName(n))
		return ""
	}
	return n.Value
}

func (l *loader) boolean(n *yaml.Node, what string) bool {
	b, err := strconv.ParseBool(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		l.at(n, "%s must be true or false, not %s", what, kindName(n))
	}
	return b
}

func (l *loader) count(n *yaml.Node, what string) int {
	i, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || i < 0 {
		l.at(n, "%s must be a number, 0 or more, not %s", what, kindName(n))
	}
	return i
}

func (l *loader) stackStatus(n *yaml.Node, what string) string {
	s := l.str(n, what)
	if s == "" {
		return ""
	}
	st, err := statemachine.ParseStackStatus(s)
	if err != nil {
		l.at(n, "%s: %v", what, err)
		return s
	}
	return string(st)
}

func (l *loader) resourceStatus(n *yaml.Node, what string) string {
	s := l.str(n, what)
	if s == "" {
		return ""
	}
	st, err := statemachine.ParseResourceStatus(s)
	if err != nil {
		l.at(n, "%s: %v", what, err)
		return s
	}
	return string(st)
}

// anyStatus: an event's status is a resource's or the stack's.
func (l *loader) anyStatus(n *yaml.Node, s string) string {
	if st, err := statemachine.ParseResourceStatus(s); err == nil {
		return string(st)
	}
	st, err := statemachine.ParseStackStatus(s)
	if err != nil {
		l.at(n, "%v", err)
		return s
	}
	return string(st)
}

// ---- operations ----

// opDef is an API call a step can make.
type opDef struct {
	newInput func() any
	// call makes the call (ext set on the input beforehand).
	call func(ctx context.Context, e *engine.Engine, in any) error
	runs bool // the call starts an operation
}

var operations = map[string]opDef{
	"CreateStack": {func() any { return &engine.CreateStackInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.CreateStack(ctx, *in.(*engine.CreateStackInput))
		return err
	}, true},
	"UpdateStack": {func() any { return &engine.UpdateStackInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.UpdateStack(ctx, *in.(*engine.UpdateStackInput))
		return err
	}, true},
	"DeleteStack": {func() any { return &engine.DeleteStackInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.DeleteStack(ctx, *in.(*engine.DeleteStackInput))
		return err
	}, true},
	"ContinueUpdateRollback": {func() any { return &engine.ContinueUpdateRollbackInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.ContinueUpdateRollback(ctx, *in.(*engine.ContinueUpdateRollbackInput))
		return err
	}, true},
	"CancelUpdateStack": {func() any { return &engine.CancelUpdateStackInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.CancelUpdateStack(ctx, *in.(*engine.CancelUpdateStackInput))
		return err
	}, true},
	"RollbackStack": {func() any { return &engine.RollbackStackInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.RollbackStack(ctx, *in.(*engine.RollbackStackInput))
		return err
	}, true},
	"CreateChangeSet": {func() any { return &engine.CreateChangeSetInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.CreateChangeSet(ctx, *in.(*engine.CreateChangeSetInput))
		return err
	}, false},
	"ExecuteChangeSet": {func() any { return &engine.ExecuteChangeSetInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.ExecuteChangeSet(ctx, *in.(*engine.ExecuteChangeSetInput))
		return err
	}, true},
	"DeleteChangeSet": {func() any { return &engine.DeleteChangeSetInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.DeleteChangeSet(ctx, *in.(*engine.DeleteChangeSetInput))
		return err
	}, false},
	"SignalResource": {func() any { return &engine.SignalResourceInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.SignalResource(ctx, *in.(*engine.SignalResourceInput))
		return err
	}, true},
	"DetectStackDrift": {func() any { return &engine.DetectStackDriftInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.DetectStackDrift(ctx, *in.(*engine.DetectStackDriftInput))
		return err
	}, false},
	"DriftResource": {func() any { return &engine.DriftResourceInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		_, err := e.DriftResource(ctx, *in.(*engine.DriftResourceInput))
		return err
	}, false},
	// SetAlarmState is CloudWatch's: the alarm's state from then on, which
	// the rollback triggers of the operations in motion see at once.
	"SetAlarmState": {func() any { return &engine.SetAlarmStateInput{} }, func(ctx context.Context, e *engine.Engine, in any) error {
		return e.SetAlarmState(ctx, *in.(*engine.SetAlarmStateInput))
	}, false},
}

func operationNames() []string {
	return []string{"CreateStack", "UpdateStack", "DeleteStack", "CreateChangeSet", "ExecuteChangeSet", "DeleteChangeSet",
		"ContinueUpdateRollback", "CancelUpdateStack", "RollbackStack", "SignalResource", "DetectStackDrift", "DriftResource", "SetAlarmState"}
}

func (l *loader) operation(k, v *yaml.Node) *Operation {
	def := operations[k.Value]
	in := def.newInput()
	op := &Operation{Name: k.Value, Input: in, runs: def.runs}
	rv := reflect.ValueOf(in).Elem()
	var templateFile string
	l.decodeInto(v, rv, k.Value, func(field string, n *yaml.Node) (any, bool) {
		switch field {
		case "TemplateBody":
			name, body := l.templateBody(n)
			templateFile = name
			return body, true
		case "TemplateURL":
			// file://PATH is relative to the scenario, as TemplateBody's.
			if p, ok := strings.CutPrefix(n.Value, "file://"); ok && n.Kind == yaml.ScalarNode && !filepath.IsAbs(p) {
				return "file://" + filepath.Join(l.dir, p), true
			}
		}
		return nil, false
	})
	if f := rv.FieldByName("StackName"); f.IsValid() {
		op.StackName = f.String()
	}
	if op.StackName == "" && k.Value != "ExecuteChangeSet" && k.Value != "DeleteChangeSet" && k.Value != "SetAlarmState" {
		l.at(v, "%s needs a StackName", k.Value)
	}
	if op.StackName != "" {
		l.stacks = append(l.stacks, op.StackName)
	}
	if f := rv.FieldByName("TemplateFile"); f.IsValid() && templateFile != "" {
		f.SetString(templateFile)
	}
	op.call = func(ctx context.Context, e *engine.Engine) error { return def.call(ctx, e, in) }
	return op
}

// templateBody reads TemplateBody: file://PATH (relative to the scenario),
// the template as a string, or the template written as YAML in place. It
// returns the name template errors carry, and the body.
func (l *loader) templateBody(n *yaml.Node) (string, string) {
	switch {
	case n.Kind == yaml.ScalarNode && strings.HasPrefix(n.Value, "file://"):
		rel := strings.TrimPrefix(n.Value, "file://")
		data, err := readfile.Read(l.path(rel), templateBodyLimit)
		var tl *readfile.TooLargeError
		if errors.As(err, &tl) {
			l.at(n, "TemplateBody: %v", template.BodySizeError(rel, tl.Size))
			return "", ""
		}
		if err != nil {
			l.at(n, "TemplateBody: cannot read %s: %v", rel, readError(err))
			return "", ""
		}
		return rel, string(data)
	case n.Kind == yaml.ScalarNode:
		return fmt.Sprintf("%s:%d(TemplateBody)", filepath.Base(l.file), n.Line), n.Value
	case n.Kind == yaml.MappingNode:
		text, err := yaml.Marshal(n)
		if err != nil {
			l.at(n, "TemplateBody: %v", err)
			return "", ""
		}
		return fmt.Sprintf("%s:%d(TemplateBody)", filepath.Base(l.file), n.Line), string(text)
	}
	l.at(n, "TemplateBody is file://PATH, a template as a string, or a template written in place; not %s", kindName(n))
	return "", ""
}
