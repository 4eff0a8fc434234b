package template

// Conditions: Fn::Equals, Fn::And, Fn::Or, Fn::Not and Condition, evaluated
// once per binding against parameters, pseudo parameters and mappings.

// condition returns the value of a named condition, evaluating it once.
func (b *Bound) condition(name string) (bool, error) {
	if v, ok := b.conds[name]; ok {
		return v, nil
	}
	c := b.t.conditions[name]
	if c == nil {
		return false, &Error{File: b.file, Message: "Template error: unresolved condition dependency " + name + " in Fn::If"}
	}
	v, err := b.evalBool(c.Expr)
	if err != nil {
		return false, err
	}
	b.conds[name] = v
	return v, nil
}

// evalCondition evaluates a condition function as a value.
func (b *Bound) evalCondition(n *Node) (any, error) {
	v, err := b.evalBool(n)
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (b *Bound) evalBool(n *Node) (bool, error) {
	if n.Kind != Map {
		return false, nodeError(b.file, n, "Template format error: Conditions can only be boolean operations on parameters and other conditions")
	}
	switch n.fn {
	case fnCondition:
		return b.condition(n.arg().Value)
	case fnEquals:
		e := evaluator{b: b}
		items := n.arg().Items
		l, err := e.eval(items[0])
		if err != nil {
			return false, err
		}
		r, err := e.eval(items[1])
		if err != nil {
			return false, err
		}
		if l == noValue {
			l = ""
		}
		if r == noValue {
			r = ""
		}
		return valuesEqual(l, r), nil
	case fnAnd:
		for _, item := range n.arg().Items {
			v, err := b.evalBool(item)
			if err != nil || !v {
				return false, err
			}
		}
		return true, nil
	case fnOr:
		for _, item := range n.arg().Items {
			v, err := b.evalBool(item)
			if err != nil || v {
				return v, err
			}
		}
		return false, nil
	case fnNot:
		v, err := b.evalBool(n.arg().Items[0])
		return !v, err
	}
	return false, nodeError(b.file, n, "Template format error: Conditions can only be boolean operations on parameters and other conditions")
}
