package template

import "fmt"

// Rules: each rule whose RuleCondition holds (or that has none) asserts its
// Assertions against the parameter values; a false assertion refuses the
// operation with its AssertDescription.
//
// Fn::RefAll, Fn::ValueOf and Fn::ValueOfAll read the account (the VPCs,
// subnets, ... that exist). stacksim has no account: a rule condition or an
// assertion that needs them is not known, and is not enforced.

// ruleUnknown is a rule value that needs the account.
type ruleUnknownType struct{}

var ruleUnknown = ruleUnknownType{}

func (b *Bound) assertRules(c *collector) {
	for _, r := range b.t.Rules {
		if r.Condition != nil {
			v, err := b.ruleEval(r.Condition)
			if err != nil {
				c.list = append(c.list, AsList(err)...)
				continue
			}
			if v == ruleUnknown {
				continue
			}
			ok, isBool := v.(bool)
			if !isBool {
				c.at(r.Condition, "Template error: the RuleCondition of rule %s must evaluate to true or false", r.Name)
				continue
			}
			if !ok {
				continue
			}
		}
		for _, a := range r.Assertions {
			v, err := b.ruleEval(a.Assert)
			if err != nil {
				c.list = append(c.list, AsList(err)...)
				continue
			}
			if v == ruleUnknown {
				continue
			}
			ok, isBool := v.(bool)
			if !isBool {
				c.at(a.Assert, "Template error: every Assert of rule %s must evaluate to true or false", r.Name)
				continue
			}
			if !ok {
				msg := a.Description
				if msg == "" {
					msg = fmt.Sprintf("Template error: an assertion of rule %s failed", r.Name)
				}
				c.at(a.Assert, "%s", msg)
			}
		}
	}
}

// ruleEval evaluates a node of the Rules section.
func (b *Bound) ruleEval(n *Node) (any, error) {
	switch n.Kind {
	case List:
		out := make([]any, 0, len(n.Items))
		for _, item := range n.Items {
			v, err := b.ruleEval(item)
			if err != nil {
				return nil, err
			}
			if v == ruleUnknown {
				return ruleUnknown, nil
			}
			out = append(out, v)
		}
		return out, nil
	case Map:
	default:
		e := evaluator{b: b}
		return e.eval(n)
	}
	if n.fn == fnNone {
		e := evaluator{b: b}
		return e.eval(n)
	}
	arg := n.arg()
	evalArgs := func() ([]any, bool, error) {
		out := make([]any, len(arg.Items))
		for i, item := range arg.Items {
			v, err := b.ruleEval(item)
			if err != nil {
				return nil, false, err
			}
			if v == ruleUnknown {
				return nil, true, nil
			}
			out[i] = v
		}
		return out, false, nil
	}
	switch n.fn {
	case fnRef:
		if v, ok := b.paramValue[arg.Value]; ok {
			return v, nil
		}
		if v, ok := b.pseudo[arg.Value]; ok {
			return v, nil
		}
		return nil, nodeError(b.file, n, "Template format error: Unresolved resource dependencies [%s] in the Rules block of the template", arg.Value)
	case fnRefAll, fnValueOf, fnValueOfAll:
		return ruleUnknown, nil
	case fnIf:
		ok, err := b.condition(arg.Items[0].Value)
		if err != nil {
			return nil, err
		}
		if ok {
			return b.ruleEval(arg.Items[1])
		}
		return b.ruleEval(arg.Items[2])
	case fnNot:
		v, err := b.ruleEval(arg.Items[0])
		if err != nil || v == ruleUnknown {
			return v, err
		}
		t, ok := v.(bool)
		if !ok {
			return nil, nodeError(b.file, n, "Template error: every argument of Fn::Not must evaluate to true or false")
		}
		return !t, nil
	case fnAnd, fnOr:
		args, unknown, err := evalArgs()
		if err != nil || unknown {
			return ruleUnknown, err
		}
		for _, a := range args {
			t, ok := a.(bool)
			if !ok {
				return nil, nodeError(b.file, n, "Template error: every argument of %s must evaluate to true or false", n.Fields[0].Key)
			}
			if n.fn == fnAnd && !t {
				return false, nil
			}
			if n.fn == fnOr && t {
				return true, nil
			}
		}
		return n.fn == fnAnd, nil
	}
	args, unknown, err := evalArgs()
	if err != nil || unknown {
		return ruleUnknown, err
	}
	switch n.fn {
	case fnEquals:
		return valuesEqual(args[0], args[1]), nil
	case fnContains:
		list, ok := args[0].([]any)
		if !ok {
			return nil, nodeError(b.file, n, "Template error: Fn::Contains requires a list as its first parameter")
		}
		for _, m := range list {
			if valuesEqual(m, args[1]) {
				return true, nil
			}
		}
		return false, nil
	case fnEachMemberEquals:
		list, ok := args[0].([]any)
		if !ok {
			return nil, nodeError(b.file, n, "Template error: Fn::EachMemberEquals requires a list as its first parameter")
		}
		for _, m := range list {
			if !valuesEqual(m, args[1]) {
				return false, nil
			}
		}
		return true, nil
	case fnEachMemberIn:
		list, ok1 := args[0].([]any)
		allowed, ok2 := args[1].([]any)
		if !ok1 || !ok2 {
			return nil, nodeError(b.file, n, "Template error: Fn::EachMemberIn requires two lists")
		}
		for _, m := range list {
			found := false
			for _, a := range allowed {
				if valuesEqual(m, a) {
					found = true
					break
				}
			}
			if !found {
				return false, nil
			}
		}
		return true, nil
	}
	return nil, nodeError(b.file, n, "Template format error: Following functions are not supported in the Rules block of the template: [%s]", n.Fields[0].Key)
}
