package stackpolicy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Action is an update action a stack policy allows or denies.
type Action string

// The update actions (protect-stack-resources.html): Modify changes a
// resource in place (it keeps its physical id), Replace makes a new
// physical resource, Delete removes the resource from the stack.
const (
	Modify  Action = "Update:Modify"
	Replace Action = "Update:Replace"
	Delete  Action = "Update:Delete"
)

// Actions are the three, in AWS's order.
var Actions = []Action{Modify, Replace, Delete}

// InvalidMessage is AWS's answer to a policy it cannot read.
const InvalidMessage = "Error validating stack policy: Invalid stack policy"

// MaxBodyLength is the length a policy body may have (the
// StackPolicyBody member's constraint in the service model: 1 to 16384).
const MaxBodyLength = 16384

// Error is a policy refused: Detail says what is wrong and where; AWS's
// answer to it is InvalidMessage, whatever the detail.
type Error struct {
	Detail string
}

func (e *Error) Error() string { return "invalid stack policy: " + e.Detail }

func invalid(format string, args ...any) *Error {
	return &Error{Detail: fmt.Sprintf(format, args...)}
}

// Policy is a parsed stack policy.
type Policy struct {
	Statements []Statement
}

// Statement is one statement of a policy. Exactly one of Action and
// NotAction, and one of Resource and NotResource, is set.
type Statement struct {
	Effect      string
	Action      []string
	NotAction   []string
	Resource    []string
	NotResource []string
	// Conditions must all hold (each: one of its values matches).
	Conditions []Condition
}

// Condition is one operator on the key ResourceType.
type Condition struct {
	Operator string // StringEquals or StringLike
	Values   []string
}

// Parse reads a policy body. An empty body is refused as AWS refuses it.
func Parse(body string) (*Policy, error) {
	if strings.TrimSpace(body) == "" {
		return nil, invalid("the policy body is empty")
	}
	var doc any
	d := json.NewDecoder(bytes.NewReader([]byte(body)))
	if err := d.Decode(&doc); err != nil {
		return nil, invalid("the policy is not JSON: %v", err)
	}
	if d.More() {
		return nil, invalid("the policy has more than one JSON value")
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return nil, invalid("a policy is a JSON object")
	}
	p := &Policy{}
	for _, k := range sortedKeys(top) {
		switch k {
		case "Statement":
		case "Version", "Id":
			if _, ok := top[k].(string); !ok {
				return nil, invalid("%s is a string", k)
			}
		default:
			return nil, invalid("unknown key %q (a policy has Statement)", k)
		}
	}
	raw, ok := top["Statement"]
	if !ok {
		return p, nil
	}
	var list []any
	switch v := raw.(type) {
	case []any:
		list = v
	case map[string]any:
		list = []any{v}
	default:
		return nil, invalid("Statement is a list of statements")
	}
	for i, s := range list {
		m, ok := s.(map[string]any)
		if !ok {
			return nil, invalid("statement #%d is not an object", i+1)
		}
		st, err := parseStatement(m)
		if err != nil {
			return nil, invalid("statement #%d: %s", i+1, err.(*Error).Detail)
		}
		p.Statements = append(p.Statements, st)
	}
	return p, nil
}

func parseStatement(m map[string]any) (Statement, error) {
	var st Statement
	for _, k := range sortedKeys(m) {
		switch k {
		case "Effect", "Action", "NotAction", "Principal", "Resource", "NotResource", "Condition", "Sid":
		default:
			return st, invalid("unknown key %q", k)
		}
	}
	switch e := m["Effect"]; e {
	case "Allow", "Deny":
		st.Effect = e.(string)
	default:
		return st, invalid("Effect is Allow or Deny, not %v", e)
	}
	if m["Principal"] != "*" {
		return st, invalid(`Principal must be "*"`)
	}
	var err error
	if st.Action, st.NotAction, err = pair(m, "Action", "NotAction", checkAction); err != nil {
		return st, err
	}
	if st.Resource, st.NotResource, err = pair(m, "Resource", "NotResource", checkResource); err != nil {
		return st, err
	}
	if c, ok := m["Condition"]; ok {
		if st.Conditions, err = parseConditions(c); err != nil {
			return st, err
		}
	}
	return st, nil
}

// pair reads one of two exclusive keys, each a string or a list of them.
func pair(m map[string]any, key, notKey string, check func(string) error) ([]string, []string, error) {
	v, has := m[key]
	nv, hasNot := m[notKey]
	if has == hasNot {
		return nil, nil, invalid("a statement has one of %s and %s", key, notKey)
	}
	name, raw := key, v
	if hasNot {
		name, raw = notKey, nv
	}
	list, err := strings1(raw)
	if err != nil {
		return nil, nil, invalid("%s is a string or a list of strings", name)
	}
	for _, s := range list {
		if err := check(s); err != nil {
			return nil, nil, invalid("%s %q: %s", name, s, err.(*Error).Detail)
		}
	}
	if hasNot {
		return nil, list, nil
	}
	return list, nil, nil
}

func checkAction(s string) error {
	if !strings.HasPrefix(s, "Update:") {
		return invalid("an action is Update:Modify, Update:Replace, Update:Delete or Update:*")
	}
	for _, a := range Actions {
		if match(s, string(a)) {
			return nil
		}
	}
	return invalid("it matches none of Update:Modify, Update:Replace, Update:Delete")
}

func checkResource(s string) error {
	if s == "*" || (strings.HasPrefix(s, "LogicalResourceId/") && len(s) > len("LogicalResourceId/")) {
		return nil
	}
	return invalid(`a resource is "*" or LogicalResourceId/NAME`)
}

func parseConditions(v any) ([]Condition, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("Condition is an object")
	}
	var out []Condition
	for _, op := range sortedKeys(m) {
		if op != "StringEquals" && op != "StringLike" {
			return nil, invalid("condition operator %q: stack policies take StringEquals and StringLike", op)
		}
		keys, ok := m[op].(map[string]any)
		if !ok {
			return nil, invalid("Condition.%s is an object", op)
		}
		for _, k := range sortedKeys(keys) {
			if k != "ResourceType" {
				return nil, invalid("condition key %q: stack policies take ResourceType", k)
			}
			vals, err := strings1(keys[k])
			if err != nil {
				return nil, invalid("Condition.%s.ResourceType is a string or a list of strings", op)
			}
			out = append(out, Condition{Operator: op, Values: vals})
		}
	}
	return out, nil
}

// strings1 reads a string or a non-empty list of strings.
func strings1(v any) ([]string, error) {
	switch t := v.(type) {
	case string:
		return []string{t}, nil
	case []any:
		if len(t) == 0 {
			return nil, invalid("empty list")
		}
		out := make([]string, len(t))
		for i, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, invalid("not a string")
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, invalid("not a string")
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
