package faults

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/internal/nearest"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/internal/yamlerr"
	"github.com/stacksim/stacksim/internal/yamlkeys"
	"github.com/stacksim/stacksim/resources"
	"go.yaml.in/yaml/v4"
)

// Error is a problem in a fault file: where, what, and how to fix it.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// MaxFileBytes is the largest fault file read (1 MiB: thousands of
// faults).
const MaxFileBytes = 1 << 20

// FileLimit is how a fault file is read (internal/readfile); a scenario
// reading the fault files it names reads them with it too.
var FileLimit = readfile.Limit{Max: MaxFileBytes, What: "a fault file",
	Hint: "a fault file lists faults, a few lines each; check the path"}

// LoadFile reads a fault file (YAML or JSON).
func LoadFile(name string) (*Injector, error) {
	data, err := readfile.Read(name, FileLimit)
	if err != nil {
		return nil, fmt.Errorf("read fault file: %w", err)
	}
	return Load(name, data)
}

// Load reads a fault file's contents; name is used in error messages. The
// format is described in docs/faults.md.
func Load(name string, data []byte) (*Injector, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(name, data, err)
	}
	l := loader{file: name}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &Error{File: name, Msg: "the file is empty; write a list of faults under \"faults:\" (see docs/faults.md)"}
	}
	if dups := yamlkeys.Duplicates(&doc); len(dups) > 0 {
		return nil, l.errf(dups[0].Again, "%s", dups[0].Message())
	}
	root := doc.Content[0]
	list := root
	if root.Kind == yaml.MappingNode {
		list = nil
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], root.Content[i+1]
			if k.Value != "faults" {
				return nil, l.errf(k, "unknown top-level key %q; the file holds one key, \"faults\", a list of faults%s", readfile.Capped(k.Value), suggest(k.Value, []string{"faults"}))
			}
			list = v
		}
		if list == nil {
			return nil, l.errf(root, "no \"faults\" key; write \"faults:\" followed by a list of faults")
		}
	}
	if list.Kind != yaml.SequenceNode {
		return nil, l.errf(list, "\"faults\" must be a list (each fault starts with \"- \")")
	}
	var fs []Fault
	for _, item := range list.Content {
		f, err := l.fault(item)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	inj, err := New(fs...)
	if err != nil {
		return nil, &Error{File: name, Msg: err.Error()}
	}
	return inj, nil
}

func yamlError(name string, data []byte, err error) error {
	if s, ok := yamlerr.Of(err, data); ok {
		return &Error{File: name, Line: s.Line, Col: s.Col, Msg: "not valid YAML: " + s.Detail()}
	}
	return &Error{File: name, Msg: "not valid YAML: " + yamlerr.Message(err, data)}
}

type loader struct{ file string }

func (l loader) errf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: l.file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
}

var faultKeys = []string{"name", "match", "times", "fail", "throttle", "stall", "eventualConsistency", "noResponse", "panic", "newPhysicalId"}
var effectKeys = []string{"fail", "throttle", "stall", "eventualConsistency", "noResponse", "panic", "newPhysicalId"}

func (l loader) fault(n *yaml.Node) (Fault, error) {
	f := Fault{Pos: fmt.Sprintf("%s:%d:%d", l.file, n.Line, n.Column)}
	if n.Kind != yaml.MappingNode {
		return f, l.errf(n, "a fault is a mapping with \"match\" and one effect (%s)", strings.Join(effectKeys, ", "))
	}
	var effect *yaml.Node
	var timesNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "name":
			s, err := l.str(v, "name")
			if err != nil {
				return f, err
			}
			f.Name = s
		case "match":
			m, err := l.match(v)
			if err != nil {
				return f, err
			}
			f.Match = m
		case "times":
			timesNode = v
		case "fail", "throttle", "stall", "eventualConsistency", "noResponse", "panic", "newPhysicalId":
			if effect != nil {
				return f, l.errf(k, "a fault has one effect; this one has %q and %q. Split them into two faults", effect.Value, k.Value)
			}
			effect = k
			if err := l.effect(&f, k.Value, v); err != nil {
				return f, err
			}
		default:
			return f, l.errf(k, "unknown key %q in a fault; expected one of %s%s", readfile.Capped(k.Value), strings.Join(faultKeys, ", "), suggest(k.Value, faultKeys))
		}
	}
	if effect == nil {
		return f, l.errf(n, "this fault has no effect; add one of %s", strings.Join(effectKeys, ", "))
	}
	if timesNode != nil {
		if f.Kind == Throttle {
			return f, l.errf(timesNode, "\"throttle: N\" already says how many times; remove \"times\"")
		}
		t, err := l.times(timesNode)
		if err != nil {
			return f, err
		}
		f.Times = t
	}
	if f.Times == 0 {
		f.Times = 1
	}
	if err := f.check(); err != nil {
		return f, l.errf(effect, "%s", strings.TrimPrefix(err.Error(), f.label()+": "))
	}
	return f, nil
}

func (l loader) effect(f *Fault, kind string, v *yaml.Node) error {
	f.Kind = Kind(kind)
	switch f.Kind {
	case Fail:
		if v.Kind == yaml.ScalarNode { // fail: Throttling
			f.Code = resources.HandlerErrorCode(v.Value)
			break
		}
		return l.fields(v, "fail", map[string]func(*yaml.Node) error{
			"code": func(n *yaml.Node) error {
				s, err := l.str(n, "code")
				f.Code = resources.HandlerErrorCode(s)
				return err
			},
			"message": func(n *yaml.Node) error { s, err := l.str(n, "message"); f.Message = s; return err },
			"after":   func(n *yaml.Node) error { b, err := l.boolean(n, "after"); f.After = b; return err },
			"service": func(n *yaml.Node) error {
				err := l.fields(n, "service", map[string]func(*yaml.Node) error{
					"name":      func(n *yaml.Node) error { s, err := l.str(n, "name"); f.Service = s; return err },
					"errorCode": func(n *yaml.Node) error { s, err := l.str(n, "errorCode"); f.ServiceCode = s; return err },
					"status":    func(n *yaml.Node) error { c, err := l.count(n, "status"); f.StatusCode = c; return err },
				})
				if err == nil && (f.Service == "" || f.ServiceCode == "") {
					return l.errf(n, "fail.service needs name (AmazonRoute53) and errorCode (HostedZoneNotEmpty); status is 400 when left out")
				}
				if f.Code == "" {
					f.Code = resources.ErrGeneralServiceException
				}
				return err
			},
		})
	case Throttle:
		n, err := l.count(v, "throttle")
		f.Times = n
		return err
	case Stall:
		return l.fields(v, "stall", map[string]func(*yaml.Node) error{
			"callbacks":    func(n *yaml.Node) error { c, err := l.count(n, "callbacks"); f.Callbacks = c; return err },
			"delaySeconds": func(n *yaml.Node) error { c, err := l.count(n, "delaySeconds"); f.DelaySeconds = int64(c); return err },
		})
	case EventualConsistency:
		return l.fields(v, "eventualConsistency", map[string]func(*yaml.Node) error{
			"reads": func(n *yaml.Node) error { c, err := l.count(n, "reads"); f.Reads = c; return err },
		})
	case NoResponse, NewPhysicalID:
		b, err := l.boolean(v, kind)
		if err == nil && !b {
			return l.errf(v, "%s: false does nothing; remove the fault or write %s: true", kind, kind)
		}
		return err
	case Panic:
		s, err := l.str(v, "panic")
		f.Message = s
		return err
	}
	return nil
}

func (l loader) fields(v *yaml.Node, what string, set map[string]func(*yaml.Node) error) error {
	if v.Kind != yaml.MappingNode {
		keys := sortedKeys(set)
		return l.errf(v, "%s takes a mapping of %s", what, strings.Join(keys, ", "))
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, x := v.Content[i], v.Content[i+1]
		f, ok := set[k.Value]
		if !ok {
			keys := sortedKeys(set)
			return l.errf(k, "unknown key %q in %s; expected one of %s%s", readfile.Capped(k.Value), what, strings.Join(keys, ", "), suggest(k.Value, keys))
		}
		if err := f(x); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys(m map[string]func(*yaml.Node) error) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var matchKeys = []string{"logicalId", "type", "action", "phase", "attempt"}

func (l loader) match(v *yaml.Node) (Match, error) {
	var m Match
	if v.Kind != yaml.MappingNode {
		return m, l.errf(v, "match is a mapping of %s", strings.Join(matchKeys, ", "))
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, x := v.Content[i], v.Content[i+1]
		switch k.Value {
		case "logicalId", "type":
			s, err := l.str(x, k.Value)
			if err != nil {
				return m, err
			}
			if _, err := path.Match(s, ""); err != nil {
				return m, l.errf(x, "%s %q is not a valid glob (%v); use * and ? as wildcards", k.Value, readfile.Capped(s), err)
			}
			if k.Value == "logicalId" {
				m.LogicalID = s
			} else {
				m.Type = s
			}
		case "action":
			for _, n := range l.oneOrMany(x) {
				a, err := resources.ParseAction(n.Value)
				if err != nil || n.Kind != yaml.ScalarNode {
					return m, l.errf(n, "action %q: expected create, read, update, delete or list", readfile.Capped(n.Value))
				}
				m.Actions = append(m.Actions, a)
			}
		case "phase":
			for _, n := range l.oneOrMany(x) {
				p, err := resources.ParsePhase(n.Value)
				if err != nil || n.Kind != yaml.ScalarNode {
					return m, l.errf(n, "phase %q: expected forward, rollback or cleanup", readfile.Capped(n.Value))
				}
				m.Phases = append(m.Phases, p)
			}
		case "attempt":
			n, err := l.count(x, "attempt")
			if err != nil {
				return m, err
			}
			m.Attempt = n
		default:
			return m, l.errf(k, "unknown key %q in match; expected one of %s%s", readfile.Capped(k.Value), strings.Join(matchKeys, ", "), suggest(k.Value, matchKeys))
		}
	}
	return m, nil
}

func (l loader) oneOrMany(v *yaml.Node) []*yaml.Node {
	if v.Kind == yaml.SequenceNode {
		return v.Content
	}
	return []*yaml.Node{v}
}

func (l loader) str(v *yaml.Node, what string) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", l.errf(v, "%s must be a string", what)
	}
	return v.Value, nil
}

func (l loader) boolean(v *yaml.Node, what string) (bool, error) {
	var b bool
	if v.Kind != yaml.ScalarNode || v.Decode(&b) != nil {
		return false, l.errf(v, "%s must be true or false, not %q", what, readfile.Capped(v.Value))
	}
	return b, nil
}

func (l loader) count(v *yaml.Node, what string) (int, error) {
	n, err := strconv.Atoi(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil || n < 1 && what != "delaySeconds" || n < 0 {
		return 0, l.errf(v, "%s must be a whole number ≥ 1, not %q", what, readfile.Capped(v.Value))
	}
	return n, nil
}

func (l loader) times(v *yaml.Node) (int, error) {
	if v.Kind == yaml.ScalarNode && (v.Value == "always" || v.Value == "forever") {
		return Always, nil
	}
	if v.Kind == yaml.ScalarNode && v.Value == "once" {
		return 1, nil
	}
	n, err := strconv.Atoi(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil || n < 1 {
		return 0, l.errf(v, "times must be a whole number ≥ 1, \"once\" or \"always\", not %q", readfile.Capped(v.Value))
	}
	return n, nil
}

// suggest proposes the closest known key to a misspelt one.
func suggest(got string, known []string) string {
	if best := nearest.Name(got, known); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}
