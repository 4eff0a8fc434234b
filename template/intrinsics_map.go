package template

import "strconv"

// Fn::FindInMap (with the DefaultValue of AWS::LanguageExtensions) and
// Fn::GetAZs.

func (e *evaluator) findInMap(n, arg *Node) (any, error) {
	var keys [3]string
	for i := 0; i < 3; i++ {
		v, err := e.eval(arg.Items[i])
		if err != nil {
			return nil, err
		}
		if u, ok := v.(Unknown); ok {
			return u, nil
		}
		s, ok := scalarText(v)
		if !ok {
			return nil, e.fail(n, msgFindInMap)
		}
		keys[i] = s
	}
	if m := e.b.t.mappings[keys[0]]; m != nil {
		if v := m.Lookup(keys[1], keys[2]); v != nil {
			return v.Literal(), nil
		}
	}
	if len(arg.Items) == 4 {
		return e.eval(arg.Items[3].Fields[0].Value)
	}
	if e.b.t.mappings[keys[0]] == nil {
		return nil, e.fail(n, "Template error: Mapping named '%s' is not present in the 'Mappings' section of template", keys[0])
	}
	return nil, e.fail(n, "Template error: Unable to get mapping for %s::%s::%s", keys[0], keys[1], keys[2])
}

// getAZs returns the availability zones of the stack's region; for any
// other region, an empty list (what CloudFormation answers).
func (e *evaluator) getAZs(n, arg *Node) (any, error) {
	region := ""
	if arg.Kind != Null {
		v, err := e.eval(arg)
		if err != nil {
			return nil, err
		}
		s, ok := scalarText(v)
		if !ok {
			return nil, e.fail(n, "Template error: every Fn::GetAZs object must have a String-typed value.")
		}
		region = s
	}
	if region != "" && region != e.b.region {
		return []any{}, nil
	}
	out := make([]any, len(e.b.azs))
	for i, az := range e.b.azs {
		out[i] = az
	}
	return out, nil
}

func itoa(i int) string { return strconv.Itoa(i) }
