package template

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// Fn::Sub, Fn::Join, Fn::Select, Fn::Split, Fn::Base64, and the
// AWS::LanguageExtensions functions Fn::Length and Fn::ToJsonString.

func (e *evaluator) sub(n, arg *Node) (any, error) {
	text := arg
	var vars *Node
	if arg.Kind == List {
		text = arg.Items[0]
		if len(arg.Items) == 2 {
			vars = arg.Items[1]
		}
	}
	if !strings.Contains(text.Value, "${") {
		return text.Value, nil
	}
	var b strings.Builder
	b.Grow(len(text.Value) + 32)
	sc := subScanner{s: text.Value}
	for {
		p, more, ok := sc.next()
		if !ok {
			return "", nil // a name Validate refuses: the template never gets here
		}
		if !more {
			break
		}
		if !p.isVar {
			b.WriteString(p.text)
			continue
		}
		v, err := e.subVar(n, vars, p.text)
		if err != nil {
			return nil, err
		}
		switch t := v.(type) {
		case Unknown:
			return t, nil
		case noValueType:
			continue
		}
		s, ok := scalarText(v)
		if !ok {
			return nil, e.fail(n, "Template error: variable %s in Fn::Sub expression does not resolve to a string", p.text)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// subVar is the value of one ${name}: from the variable map, a pseudo
// parameter, a parameter, a resource (Ref) or a resource attribute.
func (e *evaluator) subVar(n, vars *Node, name string) (any, error) {
	if vars != nil {
		if v := vars.Get(name); v != nil {
			return e.eval(v)
		}
	}
	if v, ok := e.b.pseudo[name]; ok {
		return v, nil
	}
	if v, ok := e.b.paramValue[name]; ok {
		return v, nil
	}
	id, attr := name, ""
	if i := strings.IndexByte(name, '.'); i >= 0 {
		id, attr = name[:i], name[i+1:]
	}
	if !e.b.enabledSet[id] {
		return nil, e.fail(n, "%s", unresolvedMessage(e.block(n), name))
	}
	if e.r == nil {
		return nil, e.callError(n, nil, "Template error: Fn::Sub ${%s} needs the values of the stack's resources here", name)
	}
	var v any
	var err error
	if attr == "" {
		v, err = e.r.Ref(id)
	} else {
		v, err = e.r.GetAtt(id, attr)
	}
	if err != nil {
		return nil, e.callError(n, err, "%s", err.Error())
	}
	return v, nil
}

func (e *evaluator) join(n, arg *Node) (any, error) {
	delim, _ := arg.Items[0].scalarString()
	v, err := e.eval(arg.Items[1])
	if err != nil {
		return nil, err
	}
	if u, ok := v.(Unknown); ok {
		return u, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, e.fail(n, msgJoin)
	}
	var b strings.Builder
	first := true
	for _, item := range list {
		switch t := item.(type) {
		case noValueType:
			continue
		case Unknown:
			return t, nil
		}
		s, ok := scalarText(item)
		if !ok {
			return nil, e.fail(n, msgJoin)
		}
		if !first {
			b.WriteString(delim)
		}
		first = false
		b.WriteString(s)
	}
	return b.String(), nil
}

func (e *evaluator) selectFn(n, arg *Node) (any, error) {
	iv, err := e.eval(arg.Items[0])
	if err != nil {
		return nil, err
	}
	is, ok := scalarText(iv)
	if !ok {
		return nil, e.fail(n, msgSelectIndex)
	}
	index, ok := selectIndex(is)
	if !ok {
		return nil, e.fail(n, msgSelectIndex)
	}
	v, err := e.eval(arg.Items[1])
	if err != nil {
		return nil, err
	}
	if u, ok := v.(Unknown); ok {
		return u, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, e.fail(n, msgSelectArgs)
	}
	if index < 0 || index >= len(list) {
		return nil, e.fail(n, "Template error: Fn::Select cannot select nonexistent value at index %d", index)
	}
	return list[index], nil
}

func (e *evaluator) split(n, arg *Node) (any, error) {
	delim := arg.Items[0].Value
	v, err := e.eval(arg.Items[1])
	if err != nil {
		return nil, err
	}
	if u, ok := v.(Unknown); ok {
		return u, nil
	}
	s, ok := scalarText(v)
	if !ok {
		return nil, e.fail(n, msgSplit)
	}
	if delim == "" {
		return []any{s}, nil
	}
	parts := strings.Split(s, delim)
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, nil
}

func (e *evaluator) base64(n, arg *Node) (any, error) {
	v, err := e.eval(arg)
	if err != nil {
		return nil, err
	}
	if u, ok := v.(Unknown); ok {
		return u, nil
	}
	s, ok := scalarText(v)
	if !ok {
		return nil, e.fail(n, "Template error: every Fn::Base64 object must have a String-typed value.")
	}
	return base64.StdEncoding.EncodeToString([]byte(s)), nil
}

// length is Fn::Length: the number of elements of a list.
func (e *evaluator) length(n, arg *Node) (any, error) {
	v, err := e.eval(arg)
	if err != nil {
		return nil, err
	}
	if u, ok := v.(Unknown); ok {
		return u, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, e.fail(n, "Template error: Fn::Length requires a list or a function that returns a list")
	}
	return json.Number(itoa(len(list))), nil
}

// toJSONString is Fn::ToJsonString: an object or a list as compact JSON,
// its members in template order.
func (e *evaluator) toJSONString(n, arg *Node) (any, error) {
	if arg.Kind != List && (arg.Kind != Map || arg.fn != fnNone) {
		v, err := e.eval(arg)
		if err != nil {
			return nil, err
		}
		if u, ok := firstUnknown(v); ok {
			return u, nil
		}
		switch v.(type) {
		case map[string]any, []any:
		default:
			return nil, e.fail(n, "Template error: Fn::ToJsonString requires an object or a list")
		}
		return string(marshalJSON(v)), nil
	}
	var b strings.Builder
	if u, unknown, err := e.writeJSON(&b, arg); err != nil || unknown {
		return u, err
	}
	return b.String(), nil
}

// writeJSON writes the value of n as JSON, keeping the order of the
// template's maps. It reports the first Unknown met.
func (e *evaluator) writeJSON(b *strings.Builder, n *Node) (any, bool, error) {
	switch {
	case n.Kind == List:
		b.WriteByte('[')
		first := true
		for _, item := range n.Items {
			if item.Kind == Map && item.fn != fnNone {
				v, err := e.eval(item)
				if err != nil {
					return nil, false, err
				}
				if v == noValue {
					continue
				}
				if !first {
					b.WriteByte(',')
				}
				first = false
				if u, ok := firstUnknown(v); ok {
					return u, true, nil
				}
				out := marshalJSON(v)
				b.Write(out)
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			if u, unknown, err := e.writeJSON(b, item); err != nil || unknown {
				return u, unknown, err
			}
		}
		b.WriteByte(']')
	case n.Kind == Map && n.fn == fnNone:
		b.WriteByte('{')
		first := true
		for _, f := range n.Fields {
			if f.Value.Kind == Map && f.Value.fn != fnNone {
				v, err := e.eval(f.Value)
				if err != nil {
					return nil, false, err
				}
				if v == noValue {
					continue
				}
				if u, ok := firstUnknown(v); ok {
					return u, true, nil
				}
				if !first {
					b.WriteByte(',')
				}
				first = false
				k := marshalJSON(f.Key)
				b.Write(k)
				b.WriteByte(':')
				out := marshalJSON(v)
				b.Write(out)
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			k := marshalJSON(f.Key)
			b.Write(k)
			b.WriteByte(':')
			if u, unknown, err := e.writeJSON(b, f.Value); err != nil || unknown {
				return u, unknown, err
			}
		}
		b.WriteByte('}')
	default:
		v, err := e.eval(n)
		if err != nil {
			return nil, false, err
		}
		if u, ok := firstUnknown(v); ok {
			return u, true, nil
		}
		out := marshalJSON(v)
		b.Write(out)
	}
	return nil, false, nil
}

// marshalJSON renders a value as compact JSON without escaping HTML
// characters (as CloudFormation renders it).
func marshalJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
