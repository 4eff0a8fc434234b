package resources

import (
	"fmt"
	"slices"
	"strings"
)

// Check tells whether a schema can be used, as registering it would: every
// keyword of the input validator (and so of the contract's, made of the
// same document less some keywords) compiles (types, patterns, numbers,
// $refs), and every pointer of its lists (primaryIdentifier,
// additionalIdentifiers, readOnly, createOnly, conditionalCreateOnly,
// writeOnly and deprecated properties) names a property the schema
// defines, as the registry's meta-schema and the CloudFormation CLI's
// schema rules require. Each compiled part is kept for use; the first
// problem is returned, naming the schema's source and where in it. The
// answer is made once (a schema does not change).
//
// The registry's schemas and stacksim's embedded ones pass (their tests
// check it); a user's schema (--schemas, a handler's) is checked before a
// template that uses its type is accepted (Registry.CheckSchema).
func (s *Schema) Check() error {
	s.checkOnce.Do(func() { s.checkErr = s.check() })
	return s.checkErr
}

func (s *Schema) check() error {
	if err := s.compileInput(); err != nil {
		return err
	}
	if _, err := s.input.fullSchema(); err != nil {
		return err
	}
	root := s.shapeTree()
	lists := []struct {
		name string
		ptrs []string
	}{
		{"primaryIdentifier", s.PrimaryIdentifier},
		{"readOnlyProperties", s.ReadOnlyProperties},
		{"createOnlyProperties", s.CreateOnlyProperties},
		{"conditionalCreateOnlyProperties", s.ConditionalCreateOnlyProperties},
		{"writeOnlyProperties", s.WriteOnlyProperties},
		{"deprecatedProperties", s.DeprecatedProperties},
	}
	for i, ids := range s.AdditionalIdentifiers {
		lists = append(lists, struct {
			name string
			ptrs []string
		}{fmt.Sprintf("additionalIdentifiers/%d", i), ids})
	}
	for _, l := range lists {
		for i, p := range l.ptrs {
			if err := root.defines(p); err != "" {
				return fmt.Errorf("%s: %s/%d is %s: %s", s.Source, l.name, i, p, err)
			}
		}
	}
	return nil
}

// defines says why a pointer of a schema's lists names no property it
// defines ("" when it does). An object the schema leaves open (no
// properties, or additional or pattern properties) defines every member,
// and "*" an array's items.
func (n *shape) defines(p string) string {
	if !strings.HasPrefix(p, "/properties/") {
		return `a pointer to a property starts with "/properties/"`
	}
	cur, at := n, "/properties"
	for _, seg := range SplitPointer(p) {
		if cur == nil {
			return "" // a member of a schema the shapes do not follow (not an object's)
		}
		member, named := cur.props[seg]
		switch {
		case seg == "*" && cur.items != nil:
			cur = cur.items
		case named:
			cur = member
		case cur.additional != nil:
			cur = cur.additional
		case len(cur.props) == 0:
			return ""
		default:
			names := make([]string, 0, len(cur.props))
			for k := range cur.props {
				names = append(names, k)
			}
			slices.Sort(names)
			return fmt.Sprintf("%s defines no %s (it defines %s)", at, seg, strings.Join(names, ", "))
		}
		at += "/" + strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1")
	}
	return ""
}
