package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"sort"
	"strings"
	"unsafe"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/paramstore"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/template"
)

// Templates as the operations read them. A stack keeps its template body
// and parameter values (current and previous) in its record; an operation
// binds them again whenever it needs the bound template, and the engine
// keeps the result in a small cache (derived data: a loaded state file
// starts with an empty cache and gets the same bindings).

// boundTemplate is what the operations read of a bound template.
// *template.Bound satisfies it; benchmarks give a larger one (bench_test.go)
// through Engine.bindHook, since templates cannot hold more than 500
// resources.
type boundTemplate interface {
	plan.Bound
	Outputs() []*template.Output
	OutputValue(name string, r template.Resolver) (any, error)
	ExportName(name string, r template.Resolver) (any, bool, error)
	Capabilities() template.Requirement
	Resolve(n *template.Node, r template.Resolver) (any, error)
	// LogicalIDs are the resources' logical ids in template order, a
	// slice the binding may share with every caller: not to be changed.
	LogicalIDs() []string
}

var _ boundTemplate = (*template.Bound)(nil)

// bindRequest is what a template is bound with.
type bindRequest struct {
	File    string
	Body    string
	Params  []template.ParameterValue
	Prev    map[string]string
	Stack   *store.StackRecord
	NoCache bool
	// SSM are the values of the SSM parameters the template's
	// AWS::SSM::Parameter::Value<...> parameters name (ssmValues; for a
	// stored binding, the values the stack was given: storedSSM).
	SSM map[string]string
	// ssmFrom, when set, is where the SSM parameters of a call are read
	// (SSM is then made from it).
	ssmFrom *paramstore.Sources
	// stored: Body and Params are a stack's stored template and params
	// (its current or previous template).
	stored bool
	params []store.ParamValue
}

// maxBoundCache bounds the cache of bound templates.
const maxBoundCache = 64

// internBody returns body, or an equal string the engine holds already.
// A stack's record keeps its template body, and a deleted stack's record
// stays (DescribeStacks and GetTemplate answer for it by its ARN), so a
// long session — serve, driven by a test suite that creates stacks from a
// few templates over and over — would hold a copy per stack; with this,
// one per template. The strings are the same, so nothing a caller reads
// changes.
func (e *Engine) internBody(body string) string {
	if len(body) < minInterned {
		return body
	}
	key := sha256.Sum256(unsafe.Slice(unsafe.StringData(body), len(body)))
	if s, ok := e.bodies[key]; ok {
		return s
	}
	if len(e.bodies) >= maxBoundCache {
		clear(e.bodies)
	}
	e.bodies[key] = body
	return body
}

// minInterned is the shortest body internBody shares: below it, a copy
// costs less than the map's entry.
const minInterned = 256

// parseTemplate parses a body (cached by its hash).
func (e *Engine) parseTemplate(file, body string) (*template.Template, error) {
	if file == "" {
		file = "template"
	}
	key := sha256.Sum256([]byte(file + "\x00" + body))
	if t, ok := e.parsed[key]; ok {
		return t, nil
	}
	t, err := template.Parse(file, []byte(body))
	if err != nil {
		return nil, err
	}
	if len(e.parsed) >= maxBoundCache {
		clear(e.parsed)
	}
	e.parsed[key] = t
	return t, nil
}

// bindIdentity names a binding by the identity of what it is made from:
// the stack's template body, parameter slice and notification ARNs (the
// AWS::NotificationARNs the template sees), which its records share from
// one copy to the next. It saves hashing the body on every task; the
// pointers keep what they point to alive while the cache holds them.
type bindIdentity struct {
	stack   string
	file    string
	body    unsafe.Pointer
	bodyLen int
	params  unsafe.Pointer
	nParams int
	arns    unsafe.Pointer
	nARNs   int
}

// bind parses and binds a template for a stack.
func (e *Engine) bind(r bindRequest) (boundTemplate, error) {
	if e.bindHook != nil {
		if b, ok := e.bindHook(r.Body); ok {
			return b, nil
		}
	}
	var fast bindIdentity
	if r.stored && r.Prev == nil && !r.NoCache {
		fast = bindIdentity{stack: r.Stack.StackId, file: r.File, body: unsafe.Pointer(unsafe.StringData(r.Body)), bodyLen: len(r.Body),
			params: unsafe.Pointer(unsafe.SliceData(r.params)), nParams: len(r.params),
			arns: unsafe.Pointer(unsafe.SliceData(r.Stack.NotificationARNs)), nARNs: len(r.Stack.NotificationARNs)}
		if b, ok := e.boundByIdentity[fast]; ok {
			return b, nil
		}
	}
	var t *template.Template
	if r.ssmFrom != nil {
		// The SSM parameters the call names are read now, and the values
		// are part of what the binding is made from.
		var err error
		if t, err = e.parseTemplate(r.File, r.Body); err != nil {
			return nil, err
		}
		r.SSM = ssmValues(t, r.Params, r.Prev, *r.ssmFrom)
	}
	key := bindKey(r)
	if !r.NoCache {
		if b, ok := e.bounds[key]; ok {
			e.rememberIdentity(fast, b)
			return b, nil
		}
	}
	if t == nil {
		var err error
		if t, err = e.parseTemplate(r.File, r.Body); err != nil {
			return nil, err
		}
	}
	st := r.Stack
	b, err := t.Bind(template.BindInput{
		Parameters: r.Params,
		Previous:   r.Prev,
		SSM:        r.SSM,
		Pseudo: template.Pseudo{
			AccountID:        e.opts.AccountID,
			Region:           e.opts.Region,
			Partition:        e.opts.Partition,
			StackName:        st.StackName,
			StackID:          st.StackId,
			NotificationARNs: st.NotificationARNs,
		},
	})
	if err != nil {
		return nil, err
	}
	if len(e.bounds) >= maxBoundCache {
		clear(e.bounds)
	}
	e.bounds[key] = b
	e.rememberIdentity(fast, b)
	return b, nil
}

func (e *Engine) rememberIdentity(k bindIdentity, b boundTemplate) {
	if k.body == nil && k.params == nil {
		return
	}
	if len(e.boundByIdentity) >= maxBoundCache {
		clear(e.boundByIdentity)
	}
	e.boundByIdentity[k] = b
}

func bindKey(r bindRequest) [32]byte {
	h := sha256.New()
	w := func(s string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		// the string's bytes, not a copy (a body is up to a megabyte): a
		// hash reads what it is given and keeps none of it
		h.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
	}
	w(r.File)
	w(r.Body)
	w(r.Stack.StackId)
	w(r.Stack.StackName)
	for _, a := range r.Stack.NotificationARNs {
		w(a)
	}
	w("\x03")
	for _, p := range r.Params {
		w(p.Key)
		w(p.Value)
		if p.UsePreviousValue {
			w("\x01")
		}
	}
	for _, m := range []map[string]string{r.Prev, r.SSM} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			w(k)
			w(m[k])
		}
		w("\x02")
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// storedParams turns a stack's stored parameter values into binding input.
func storedParams(ps []store.ParamValue) []template.ParameterValue {
	out := make([]template.ParameterValue, len(ps))
	for i, p := range ps {
		out[i] = template.ParameterValue{Key: p.Key, Value: p.Value}
	}
	return out
}

// paramMap is a stack's parameter values by key.
func paramMap(ps []store.ParamValue) map[string]string {
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.Key] = p.Value
	}
	return m
}

// boundParams are the parameter values a binding gave, as the stack
// stores them.
func boundParams(b boundTemplate) []store.ParamValue {
	var out []store.ParamValue
	for _, p := range b.Parameters() {
		out = append(out, store.ParamValue{Key: p.Key, Value: p.Value, NoEcho: p.NoEcho, ResolvedValue: p.ResolvedValue})
	}
	return out
}

// currentTemplate binds the template the stack is on now.
func (e *Engine) currentTemplate(st *store.StackRecord) (boundTemplate, error) {
	file, body := runTemplate(st.TemplateFile, st.TemplateBody, st.ProcessedTemplateBody)
	return e.bind(bindRequest{File: file, Body: body, Params: storedParams(st.Parameters),
		Stack: st, stored: true, params: st.Parameters, SSM: storedSSM(st.Parameters)})
}

// templateError turns an error of the template package into the API's:
// a ValidationError with AWS's message (the first fault's), wrapping the
// positioned errors so that a caller can print FILE:LINE:COL.
func templateError(err error) error {
	var api *APIError
	if errors.As(err, &api) {
		return err
	}
	list := template.AsList(err)
	if len(list) == 0 {
		return &APIError{Code: CodeValidationError, Message: err.Error(), cause: err}
	}
	msg := list[0].Message
	if template.IsUnsupported(err) {
		msg = strings.TrimSpace(msg)
	}
	return &APIError{Code: CodeValidationError, Message: msg, cause: err}
}
