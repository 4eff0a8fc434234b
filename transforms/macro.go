package transforms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// A macro of the account: its function is called with the macro event,
// and its answer is checked as CloudFormation checks it
// (template-macros-author.html, "response format"): requestId must be the
// one sent, status "success" (in any case) or the macro failed, fragment
// the processed content.

// macroAnswer is what a macro's function answers.
type macroAnswer struct {
	RequestID    *string         `json:"requestId"`
	Status       *string         `json:"status"`
	Fragment     json.RawMessage `json:"fragment"`
	ErrorMessage string          `json:"errorMessage"`
}

// macro runs one macro on a fragment and returns what replaces it.
func (p *processor) macro(m template.Macro, fragment *template.Node) (*template.Node, error) {
	id := p.transformID(m.Name)
	if p.env.Macro == nil {
		return nil, &Error{Message: fmt.Sprintf("No transform named %s found.", id)}
	}
	target, found, err := p.env.Macro(m.Name)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, &Error{Message: fmt.Sprintf("No transform named %s found.", id),
			Detail: "a macro is made by a stack with an AWS::CloudFormation::Macro resource of that Name, in this account"}
	}
	params, err := p.params(m)
	if err != nil {
		return nil, err
	}
	p.n++
	reqID := fmt.Sprintf("%d", p.n)
	if p.env.RequestID != nil {
		reqID = p.env.RequestID(p.n)
	}
	values := p.env.Parameters
	if values == nil {
		values = map[string]any{}
	}
	req := &resources.MacroRequest{Region: p.env.Region, AccountID: p.env.AccountID, Fragment: fragment.JSON(),
		TransformID: id, Params: params, RequestID: reqID, TemplateParameterValues: values}
	raw, err := target.InvokeMacro(p.ctx, req)
	if err != nil {
		return nil, &Error{Message: fmt.Sprintf("Received malformed response from transform %s", id), Detail: err.Error()}
	}
	out, err := p.answer(id, reqID, raw)
	if err != nil {
		return nil, err
	}
	p.ran = append(p.ran, m.Name)
	return out, nil
}

// answer checks a macro's answer and reads its fragment.
func (p *processor) answer(id, reqID string, raw []byte) (*template.Node, error) {
	malformed := func(why string) error {
		return &Error{Message: fmt.Sprintf("Received malformed response from transform %s", id), Detail: why}
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var a macroAnswer
	if err := d.Decode(&a); err != nil {
		return nil, malformed("the answer is not a JSON object: " + err.Error())
	}
	if a.RequestID == nil || *a.RequestID != reqID {
		got := "none"
		if a.RequestID != nil {
			got = fmt.Sprintf("%q", *a.RequestID)
		}
		return nil, malformed(fmt.Sprintf("its requestId is %s, not the request's %q", got, reqID))
	}
	if a.Status == nil || !strings.EqualFold(*a.Status, "success") {
		if a.ErrorMessage != "" {
			return nil, &Error{Message: fmt.Sprintf("Transform %s failed with: %s", id, a.ErrorMessage)}
		}
		return nil, &Error{Message: fmt.Sprintf("Transform %s failed without an error message.", id)}
	}
	if len(bytes.TrimSpace(a.Fragment)) == 0 || bytes.Equal(bytes.TrimSpace(a.Fragment), []byte("null")) {
		return nil, malformed("its answer has no fragment")
	}
	n, err := fragmentNode(id, a.Fragment)
	if err != nil {
		return nil, malformed(err.Error())
	}
	return n, nil
}

// fragmentNode reads a JSON fragment (any JSON value) into a tree.
func fragmentNode(name string, fragment []byte) (*template.Node, error) {
	wrapped := make([]byte, 0, len(fragment)+8)
	wrapped = append(wrapped, `{"f":`...)
	wrapped = append(wrapped, fragment...)
	wrapped = append(wrapped, '}')
	root, err := template.ParseTree(name, wrapped)
	if err != nil {
		return nil, err
	}
	f := root.Get("f")
	if f == nil || len(root.Fields) != 1 {
		return nil, fmt.Errorf("the fragment is not one JSON value")
	}
	return f, nil
}

// params are a transform's Parameters as its function receives them: Refs
// to the template's parameters and pseudo parameters replaced by their
// values (AWS's own examples pass !Ref InputString), the rest as written.
// A value must come to a string, a number, a boolean or a list of them.
func (p *processor) params(m template.Macro) (map[string]any, error) {
	out := map[string]any{}
	if m.Parameters == nil || m.Parameters.Kind == template.Null {
		return out, nil
	}
	if m.Parameters.Kind != template.Map {
		return nil, &Error{Message: fmt.Sprintf("Template format error: the Parameters of transform %s must be an object", m.Name)}
	}
	for _, f := range m.Parameters.Fields {
		v, err := p.value(f.Value)
		if err != nil {
			return nil, err
		}
		if !plainParam(v) {
			return nil, &Error{Message: fmt.Sprintf("The value of parameter %s under transform %s must resolve to a string, number, boolean or a list of any of these.", f.Key, m.Name)}
		}
		out[f.Key] = v
	}
	return out, nil
}

// value is a parameter's value with its Refs (and the ${NAME} of an
// Fn::Sub that names only parameters) resolved.
func (p *processor) value(n *template.Node) (any, error) {
	switch n.Kind {
	case template.Map:
		if len(n.Fields) == 1 && n.Fields[0].Key == "Ref" && n.Fields[0].Value.Kind == template.String {
			name := n.Fields[0].Value.Value
			if v, ok := p.lookup(name); ok {
				return v, nil
			}
		}
		if len(n.Fields) == 1 && n.Fields[0].Key == "Fn::Sub" {
			if s, ok := p.sub(n.Fields[0].Value); ok {
				return s, nil
			}
		}
		out := map[string]any{}
		for _, f := range n.Fields {
			v, err := p.value(f.Value)
			if err != nil {
				return nil, err
			}
			out[f.Key] = v
		}
		return out, nil
	case template.List:
		out := make([]any, len(n.Items))
		for i, c := range n.Items {
			v, err := p.value(c)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return n.Literal(), nil
}

// lookup is the value of a parameter or a pseudo parameter.
func (p *processor) lookup(name string) (any, bool) {
	if v, ok := p.env.Parameters[name]; ok {
		return v, true
	}
	v, ok := p.env.Pseudo[name]
	return v, ok
}

// subVar is a ${NAME} of Fn::Sub (${!NAME} is the text ${NAME}).
var subVar = regexp.MustCompile(`\$\{(!?)([^}]*)\}`)

// sub evaluates an Fn::Sub whose variables are all parameters, pseudo
// parameters or its own scalar variables; ok is false otherwise.
func (p *processor) sub(arg *template.Node) (string, bool) {
	text, vars := arg, (*template.Node)(nil)
	if arg.Kind == template.List && len(arg.Items) == 2 {
		text, vars = arg.Items[0], arg.Items[1]
	}
	if text.Kind != template.String {
		return "", false
	}
	ok := true
	out := subVar.ReplaceAllStringFunc(text.Value, func(m string) string {
		g := subVar.FindStringSubmatch(m)
		if g[1] == "!" {
			return "${" + g[2] + "}"
		}
		if v := vars.Get(g[2]); v != nil {
			if val, err := p.value(v); err == nil {
				if s, isStr := val.(string); isStr {
					return s
				}
			}
			ok = false
			return m
		}
		if v, found := p.lookup(g[2]); found {
			if s, isStr := v.(string); isStr {
				return s
			}
		}
		ok = false
		return m
	})
	return out, ok
}

// plainParam tells whether a parameter's value is a scalar or a list of
// scalars.
func plainParam(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		return false
	case []any:
		for _, e := range t {
			if !plainParam(e) {
				return false
			}
			if _, isList := e.([]any); isList {
				return false
			}
		}
	case nil:
		return false
	}
	return true
}
