package corpus

import (
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/template"
)

// A parameter that a resource property reads gets, as a careful user
// would give it, a value of the kind the property takes: an EKS version
// for an AWS::EKS::Cluster's Version, subnet ids for a list whose members
// are MountTargets' SubnetId, policy ARNs for a role's ManagedPolicyArns.
// The values come from the property's schema (Properties), and the
// parameter's own constraints still have the last word (Parameter.Check).

// Properties makes a value for a property of a resource type from the
// type's schema: path names the property from the top of Properties ("*"
// for a member of an array), key varies the value (two keys, two values
// where the schema allows it). ok is false when the schema does not
// describe a scalar there.
type Properties interface {
	PropertyValue(typeName string, path []string, key string) (value string, ok bool)
}

// propertyUse is one place a resource property reads a parameter.
type propertyUse struct {
	typeName string
	path     []string // "*" where the parameter is one member of an array property
	// member: the property reads one member of a list parameter
	// (Fn::Select over its Ref).
	member bool
}

// propertyUses finds, in the Resources section of a template tree, the
// properties that read each parameter: whole (a Ref, also as a member of
// a list or in a branch of Fn::If), or one member of it (Fn::Select over
// a Ref). A parameter used inside another function (Fn::Sub, Fn::Join,
// ...) is not a property's value, and is not counted.
func propertyUses(root *template.Node) map[string][]propertyUse {
	uses := map[string][]propertyUse{}
	resources := root.Get("Resources")
	if resources == nil || resources.Kind != template.Map {
		return uses
	}
	for _, f := range resources.Fields {
		r := f.Value
		if r.Kind != template.Map {
			continue
		}
		typ, props := r.Get("Type"), r.Get("Properties")
		if typ == nil || typ.Kind != template.String || props == nil || props.Kind != template.Map {
			continue
		}
		for _, pf := range props.Fields {
			walkUses(typ.Value, []string{pf.Key}, pf.Value, uses)
		}
	}
	return uses
}

func walkUses(typeName string, path []string, n *template.Node, uses map[string][]propertyUse) {
	add := func(p string, member bool) {
		uses[p] = append(uses[p], propertyUse{typeName: typeName, path: append([]string(nil), path...), member: member})
	}
	switch n.Kind {
	case template.List:
		for _, it := range n.Items {
			walkUses(typeName, append(path, "*"), it, uses)
		}
	case template.Map:
		switch n.Func() {
		case "":
			for _, f := range n.Fields {
				walkUses(typeName, append(path, f.Key), f.Value, uses)
			}
		case "Ref":
			if arg := n.Fields[0].Value; arg.Kind == template.String && !strings.HasPrefix(arg.Value, "AWS::") {
				add(arg.Value, false)
			}
		case "Fn::Select":
			if args := n.Fields[0].Value; args.Kind == template.List && len(args.Items) == 2 {
				if p := refName(args.Items[1]); p != "" {
					add(p, true)
				}
			}
		case "Fn::If":
			if args := n.Fields[0].Value; args.Kind == template.List && len(args.Items) == 3 {
				walkUses(typeName, path, args.Items[1], uses)
				walkUses(typeName, path, args.Items[2], uses)
			}
		}
	}
}

// refName is the name a {Ref: NAME} node refers to ("" for any other node).
func refName(n *template.Node) string {
	if n != nil && n.Func() == "Ref" && n.Fields[0].Value.Kind == template.String {
		return n.Fields[0].Value.Value
	}
	return ""
}

// fromProperties are the values the properties that read a parameter
// take: for a scalar parameter one candidate a use, for a list parameter
// one candidate list of count members (each made with a key of its own).
func fromProperties(props Properties, p *template.Parameter, uses []propertyUse, count int) []string {
	if props == nil || len(p.AllowedValues) > 0 {
		return nil
	}
	list, _, _, _ := p.Kind()
	var out []string
	for _, u := range uses {
		switch {
		case !list && !u.member:
			if v, ok := props.PropertyValue(u.typeName, u.path, p.Name); ok {
				out = append(out, v)
			}
		case list:
			// A list read whole fills an array property: its members are
			// the array's items.
			path := u.path
			if !u.member {
				path = append(append([]string(nil), path...), "*")
			}
			members := make([]string, 0, count)
			for i := 0; i < count; i++ {
				v, ok := props.PropertyValue(u.typeName, path, p.Name+"#"+strconv.Itoa(i))
				if !ok || strings.Contains(v, ",") {
					break
				}
				members = append(members, v)
			}
			if len(members) == count {
				out = append(out, strings.Join(members, ","))
			}
		}
	}
	return out
}
