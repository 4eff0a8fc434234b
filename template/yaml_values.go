package template

import (
	"fmt"
	"strings"
)

// What a YAML node means in the template's tree, shared by the YAML
// library's path (parse_yaml.go) and the fast path (yfast*.go), so that the
// two cannot drift apart.

// typeScalar gives the kind and value of a scalar: tag is its explicit tag
// ("" when it has none, or when a short-form tag is being unwrapped), quoted
// tells a quoted, literal or folded scalar from a plain one. A message
// instead is a fault of the template.
func typeScalar(tag string, quoted bool, value string) (Kind, string, string) {
	switch tag {
	case "":
	case "!!str", "!!binary", "!!timestamp":
		return String, value, ""
	case "!!int", "!!float":
		if isJSONNumber(value) {
			return Number, value, ""
		}
		return String, value, ""
	case "!!bool":
		if b, ok := yamlBool(value); ok {
			return Bool, b, ""
		}
		return Null, "", fmt.Sprintf("%q is not a boolean", value)
	case "!!null":
		return Null, "", ""
	default:
		return Null, "", fmt.Sprintf("tag %s is not supported on a scalar", tag)
	}
	if quoted {
		return String, value, ""
	}
	k, v := resolvePlain(value)
	return k, v, ""
}

// longForm wraps the content of a short-form tag (!GetAtt A.B) into the call
// it stands for ({"Fn::GetAtt": ["A", "B"]}). pos is the tag's position,
// inner the content, at its own position; quoted tells a single- or
// double-quoted scalar content. The nodes it makes are adopted (see link).
func longForm(a *arena, tag, key string, pos Pos, inner *Node, quoted bool) *Node {
	if tag == "!GetAtt" && inner.Kind == String {
		// !GetAtt Resource.Attribute: the attribute may itself hold dots
		// (Endpoint.Address, Outputs.Name), so split on the first one.
		if i := strings.IndexByte(inner.Value, '.'); i > 0 {
			attrPos := inner.Pos
			if !quoted && !strings.Contains(inner.Value, "\n") {
				attrPos.Col += i + 1
			}
			id, attr := a.node(String, inner.Value[:i], inner.Pos), a.node(String, inner.Value[i+1:], attrPos)
			id.adopt()
			attr.adopt()
			list := a.node(List, "", inner.Pos)
			list.Items = a.itemList([]*Node{id, attr})
			list.adopt()
			inner = list
		}
	}
	n := a.node(Map, "", pos)
	n.Tag = tag
	n.Fields = a.fieldList([]Field{{Key: key, KeyPos: pos, Value: inner}})
	n.adopt()
	return n
}
