package scenario

import (
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// decodeInto decodes a YAML node into a struct of the engine's API (an
// input such as engine.UpdateStackInput), by the fields' JSON names, with
// every problem positioned: unknown members (with a suggestion), values of
// the wrong kind. Scalars become strings for string fields, as the AWS CLI
// takes them. hook, when set, decodes a field itself (TemplateBody).
func (c *errs) decodeInto(n *yaml.Node, v reflect.Value, what string, hook func(field string, n *yaml.Node) (any, bool)) {
	n = resolveAlias(n)
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		c.decodeInto(n, v.Elem(), what, hook)
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			c.at(n, "%s must be a mapping of %s, not %s", what, strings.Join(jsonNames(v.Type()), ", "), kindName(n))
			return
		}
		fields := map[string]reflect.Value{}
		var names []string
		collectFields(v, fields, &names)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			f, ok := fields[k.Value]
			if !ok {
				c.at(k, "unknown member %q in %s; expected one of %s%s", k.Value, what, strings.Join(names, ", "), suggest(k.Value, names))
				continue
			}
			if hook != nil {
				if got, handled := hook(k.Value, val); handled {
					if got != nil {
						f.Set(reflect.ValueOf(got))
					}
					continue
				}
			}
			c.decodeInto(val, f, what+"."+k.Value, nil)
		}
	case reflect.Slice:
		if n.Kind == yaml.MappingNode && v.Type().Elem().Kind() == reflect.Struct {
			// A mapping for a list of key/value structures: Parameters
			// {Env: prod}, Tags {team: core}.
			if list, ok := pairsToList(n, v.Type().Elem()); ok {
				v.Set(list)
				return
			}
		}
		if n.Kind == yaml.ScalarNode && v.Type().Elem().Kind() == reflect.String && n.Tag != "!!null" {
			v.Set(reflect.Append(reflect.MakeSlice(v.Type(), 0, 1), reflect.ValueOf(n.Value)))
			return
		}
		if n.Kind != yaml.SequenceNode {
			c.at(n, "%s must be a list, not %s", what, kindName(n))
			return
		}
		out := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			c.decodeInto(item, out.Index(i), what+"["+strconv.Itoa(i)+"]", nil)
		}
		v.Set(out)
	case reflect.String:
		if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
			c.at(n, "%s must be a string, not %s", what, kindName(n))
			return
		}
		v.SetString(n.Value)
	case reflect.Bool:
		b, err := strconv.ParseBool(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			c.at(n, "%s must be true or false, not %s", what, kindName(n))
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64:
		i, err := strconv.ParseInt(n.Value, 10, 64)
		if n.Kind != yaml.ScalarNode || err != nil {
			c.at(n, "%s must be a whole number, not %s", what, kindName(n))
			return
		}
		v.SetInt(i)
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String && v.Type().Elem().Kind() == reflect.Interface {
			// Values of any shape: DriftResource's Properties.
			if n.Kind != yaml.MappingNode {
				c.at(n, "%s must be a mapping, not %s", what, kindName(n))
				return
			}
			var m map[string]any
			if err := n.Decode(&m); err != nil {
				c.at(n, "%s: %v", what, err)
				return
			}
			v.Set(reflect.ValueOf(m))
			return
		}
		if v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() != reflect.String {
			c.at(n, "%s: values of type %s cannot be written in a scenario", what, v.Type())
			return
		}
		// A map of strings: ResourcesToImport's ResourceIdentifier.
		if n.Kind != yaml.MappingNode {
			c.at(n, "%s must be a mapping of names to strings, not %s", what, kindName(n))
			return
		}
		out := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i], resolveAlias(n.Content[i+1])
			if val.Kind != yaml.ScalarNode || val.Tag == "!!null" {
				c.at(val, "%s.%s must be a string, not %s", what, key.Value, kindName(val))
				continue
			}
			out.SetMapIndex(reflect.ValueOf(key.Value), reflect.ValueOf(val.Value))
		}
		v.Set(out)
	default:
		c.at(n, "%s: values of type %s cannot be written in a scenario", what, v.Type())
	}
}

// pairsToList turns {K: V} into the list of a key/value structure whose
// first two fields are the key and the value (ParameterKey/ParameterValue,
// Key/Value).
func pairsToList(n *yaml.Node, elem reflect.Type) (reflect.Value, bool) {
	if elem.NumField() < 2 || elem.Field(0).Type.Kind() != reflect.String || elem.Field(1).Type.Kind() != reflect.String {
		return reflect.Value{}, false
	}
	out := reflect.MakeSlice(reflect.SliceOf(elem), 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		item := reflect.New(elem).Elem()
		item.Field(0).SetString(n.Content[i].Value)
		item.Field(1).SetString(resolveAlias(n.Content[i+1]).Value)
		out = reflect.Append(out, item)
	}
	return out, true
}

// collectFields lists a struct's fields by JSON name, skipping json:"-"
// and the embedded stacksim Extensions.
func collectFields(v reflect.Value, fields map[string]reflect.Value, names *[]string) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = v.Field(i)
		*names = append(*names, name)
	}
}

func jsonNames(t reflect.Type) []string {
	var names []string
	collectFields(reflect.New(t).Elem(), map[string]reflect.Value{}, &names)
	return names
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}
