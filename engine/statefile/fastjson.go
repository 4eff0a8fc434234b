package statefile

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/internal/jsonvalue"
	"github.com/stacksim/stacksim/statemachine"
)

// A command that plans an update reads every resource of its stack, and
// encoding/json spends most of that time in its scanner. Resources — the
// rows a stack has most of — are decoded here instead, by a parser of
// JSON values (objects as map[string]any, numbers as json.Number, strings
// interned) and an assignment of the row's members by name. It accepts
// what encoding/json accepts of these rows and gives the same row
// (TestFastResourceMatchesEncodingJSON, FuzzFastResource); anything it
// does not expect is left to encoding/json (errFallBack).

var errFallBack = fmt.Errorf("not a row the fast decoder reads")

// decodeResource decodes a resource's row: fast, or — for a row the fast
// path does not read — with encoding/json.
func decodeResource(payload []byte, in interner) (*store.ResourceRecord, error) {
	rec, err := fastResource(payload, in)
	if err == errFallBack {
		rec = &store.ResourceRecord{}
		err = decodeJSON(payload, rec)
	}
	return rec, err
}

func fastResource(payload []byte, in interner) (*store.ResourceRecord, error) {
	p := valueParser{b: payload, in: in}
	rec := &store.ResourceRecord{}
	p.space()
	if !p.eat('{') {
		return nil, errFallBack
	}
	p.space()
	if p.eat('}') {
		return p.end(rec)
	}
	for {
		p.space()
		key, err := p.str()
		if err != nil {
			return nil, errFallBack
		}
		p.space()
		if !p.eat(':') {
			return nil, errFallBack
		}
		p.space()
		if err := p.member(rec, key); err != nil {
			return nil, err
		}
		p.space()
		if p.eat(',') {
			continue
		}
		if p.eat('}') {
			return p.end(rec)
		}
		return nil, errFallBack
	}
}

func (p *valueParser) end(rec *store.ResourceRecord) (*store.ResourceRecord, error) {
	p.space()
	if p.i != len(p.b) {
		return nil, errFallBack
	}
	return rec, nil
}

// member reads one member of a resource's row into it.
func (p *valueParser) member(rec *store.ResourceRecord, key string) error {
	str := func(dst *string) error {
		s, err := p.str()
		if err != nil {
			return errFallBack
		}
		*dst = s
		return nil
	}
	switch key {
	case "StackId":
		return str(&rec.StackId)
	case "LogicalResourceId":
		return str(&rec.LogicalResourceId)
	case "PhysicalResourceId":
		return str(&rec.PhysicalResourceId)
	case "ResourceType":
		return str(&rec.ResourceType)
	case "ResourceStatus":
		var s string
		if err := str(&s); err != nil {
			return err
		}
		rec.ResourceStatus = statusOf(s)
		return nil
	case "ResourceStatusReason":
		return str(&rec.ResourceStatusReason)
	case "Description":
		return str(&rec.Description)
	case "Metadata":
		return str(&rec.Metadata)
	case "DeletionPolicy":
		return str(&rec.DeletionPolicy)
	case "UpdateReplacePolicy":
		return str(&rec.UpdateReplacePolicy)
	case "Retired":
		return str(&rec.Retired)
	case "LastUpdatedTimestamp":
		var s string
		if err := str(&s); err != nil {
			return err
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return errFallBack
		}
		rec.LastUpdatedTimestamp = t
		return nil
	case "RollbackFailed", "Skipped":
		v, err := p.value()
		b, ok := v.(bool)
		if err != nil || !ok {
			return errFallBack
		}
		if key == "Skipped" {
			rec.Skipped = b
		} else {
			rec.RollbackFailed = b
		}
		return nil
	case "Properties", "Model":
		v, err := p.value()
		if err != nil {
			return errFallBack
		}
		m, ok := v.(map[string]any)
		if !ok && v != nil {
			return errFallBack
		}
		if key == "Properties" {
			rec.Properties = m
		} else {
			rec.Model = m
		}
		return nil
	case "DependsOn":
		v, err := p.value()
		if err != nil {
			return errFallBack
		}
		if v == nil {
			rec.DependsOn = nil
			return nil
		}
		list, ok := v.([]any)
		if !ok {
			return errFallBack
		}
		out := make([]string, len(list))
		for i, x := range list {
			s, ok := x.(string)
			if !ok {
				return errFallBack
			}
			out[i] = s
		}
		rec.DependsOn = out
		return nil
	case "Drift":
		start := p.i
		if _, err := p.value(); err != nil {
			return errFallBack
		}
		var d *store.ResourceDrift
		if err := json.Unmarshal(p.b[start:p.i], &d); err != nil {
			return errFallBack
		}
		rec.Drift = d
		return nil
	case "Instances", "HandleSignals":
		// Rare (an Auto Scaling group that rolled, a handle signalled
		// early): encoding/json's.
		start := p.i
		if _, err := p.value(); err != nil {
			return errFallBack
		}
		to := any(&rec.Instances)
		if key == "HandleSignals" {
			to = &rec.HandleSignals
		}
		if err := json.Unmarshal(p.b[start:p.i], to); err != nil {
			return errFallBack
		}
		return nil
	case "CreationPolicy", "UpdatePolicy":
		v, err := p.value()
		if err != nil {
			return errFallBack
		}
		if key == "CreationPolicy" {
			rec.CreationPolicy = v
		} else {
			rec.UpdatePolicy = v
		}
		return nil
	}
	return errFallBack
}

func statusOf(s string) statemachine.ResourceStatus { return statemachine.ResourceStatus(s) }

// intern returns a string for b: interned when short (keys, types,
// statuses, names repeat), copied otherwise.
func (p *valueParser) intern(b []byte) string {
	if len(b) <= 64 {
		return p.in.of(b)
	}
	return string(b)
}

// valueParser parses JSON values; p.b is known to be small (one row).
type valueParser struct {
	b   []byte
	i   int
	in  interner
	buf []byte
}

func (p *valueParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *valueParser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// value reads any JSON value.
func (p *valueParser) value() (any, error) {
	p.space()
	if p.i >= len(p.b) {
		return nil, errFallBack
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		p.space()
		if p.eat('}') {
			return m, nil
		}
		for {
			p.space()
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if !p.eat(':') {
				return nil, errFallBack
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			m[k] = v // a key given twice: the last wins, as encoding/json
			p.space()
			if p.eat(',') {
				continue
			}
			if p.eat('}') {
				return m, nil
			}
			return nil, errFallBack
		}
	case c == '[':
		p.i++
		list := []any{}
		p.space()
		if p.eat(']') {
			return list, nil
		}
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			list = append(list, v)
			p.space()
			if p.eat(',') {
				continue
			}
			if p.eat(']') {
				return list, nil
			}
			return nil, errFallBack
		}
	case c == '"':
		return p.str()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, errFallBack
}

func (p *valueParser) literal(lit string, v any) (any, error) {
	if len(p.b)-p.i >= len(lit) && string(p.b[p.i:p.i+len(lit)]) == lit {
		p.i += len(lit)
		return v, nil
	}
	return nil, errFallBack
}

// number reads a JSON number (its grammar exactly, as encoding/json
// checks it) as a json.Number.
func (p *valueParser) number() (any, error) {
	start := p.i
	p.eat('-')
	switch {
	case p.eat('0'):
	case p.i < len(p.b) && p.b[p.i] >= '1' && p.b[p.i] <= '9':
		p.digits()
	default:
		return nil, errFallBack
	}
	if p.eat('.') {
		if !p.digits() {
			return nil, errFallBack
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if !p.eat('+') {
			p.eat('-')
		}
		if !p.digits() {
			return nil, errFallBack
		}
	}
	return json.Number(p.in.of(p.b[start:p.i])), nil
}

func (p *valueParser) digits() bool {
	start := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// str reads a JSON string, interned, as encoding/json reads it; a string
// that is not valid falls back to encoding/json, which says what is wrong.
func (p *valueParser) str() (string, error) {
	if !p.eat('"') {
		return "", errFallBack
	}
	var problem jsonvalue.StringProblem
	if p.buf, p.i, problem = jsonvalue.AppendUnquoted(p.buf[:0], p.b, p.i); problem != jsonvalue.StringOK {
		return "", errFallBack
	}
	return p.intern(p.buf), nil
}
