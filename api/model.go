package api

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The constraints of the service model (model_gen.go, generated from
// botocore's copy of it) checked on a decoded input before it reaches the
// engine, worded as AWS words them:
//
//	1 validation error detected: Value 'x y' at 'stackName' failed to
//	satisfy constraint: Member must satisfy regular expression pattern: ...
//
// Several are joined with "; " after "N validation errors detected: ".

// modelShape is a shape of the model: its type and constraints.
type modelShape struct {
	Type    string
	Members []modelMember
	// Member, Key and Value name the shapes of a list's items and a map's
	// keys and values.
	Member, Key, Value string
	Min, Max           *int64
	Pattern            string
	Enum               []string
}

// modelMember is a member of a structure, in the model's order.
type modelMember struct {
	Name     string
	Shape    string
	Required bool
}

func limit(n int64) *int64 { return &n }

var patterns sync.Map // pattern → *regexp.Regexp (nil: RE2 cannot compile it)

// patternOf compiles a model pattern, which (as Java's matches) must match
// the whole value.
func patternOf(p string) *regexp.Regexp {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(`^(?:` + p + `)$`)
	if err != nil {
		re = nil
	}
	patterns.Store(p, re)
	return re
}

// validateInput checks the decoded input v (a pointer to an SDK input
// struct) against the constraints of the model's shape, and returns AWS's
// message, or "" when it satisfies them.
func validateInput(shape string, v any) string {
	var errs []string
	validateStruct(reflect.ValueOf(v).Elem(), shape, "", &errs)
	switch len(errs) {
	case 0:
		return ""
	case 1:
		return "1 validation error detected: " + errs[0]
	}
	return fmt.Sprintf("%d validation errors detected: %s", len(errs), strings.Join(errs, "; "))
}

func validateStruct(v reflect.Value, shape, path string, errs *[]string) {
	s, ok := modelShapes[shape]
	if !ok || v.Kind() != reflect.Struct {
		return
	}
	for _, m := range s.Members {
		f := v.FieldByName(m.Name)
		if !f.IsValid() {
			continue // a member the SDK's version of the model lacks
		}
		p := joinPath(path, m.Name)
		if absent(f) {
			if m.Required {
				*errs = append(*errs, fmt.Sprintf("Value null at '%s' failed to satisfy constraint: Member must not be null", p))
			}
			continue
		}
		validateValue(f, m.Shape, p, errs)
	}
}

// absent reports whether a field holds no value: a nil pointer, slice or
// map, or an enum's empty string (the SDK keeps enums as values).
func absent(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return f.IsNil()
	case reflect.String:
		return f.Len() == 0
	}
	return false
}

func validateValue(f reflect.Value, shape, path string, errs *[]string) {
	for f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return
		}
		f = f.Elem()
	}
	s := modelShapes[shape]
	switch s.Type {
	case "structure":
		validateStruct(f, shape, path, errs)
	case "list":
		n := int64(f.Len())
		item := modelShapes[s.Member]
		// A list of scalars is quoted; a list of structures is not (its
		// items have no text of their own), as for a map.
		value := "Value '" + listText(f) + "'"
		if item.Type == "structure" || item.Type == "list" || item.Type == "map" {
			value = "Value"
		}
		if s.Min != nil && n < *s.Min {
			*errs = append(*errs, fmt.Sprintf("%s at '%s' failed to satisfy constraint: Member must have length greater than or equal to %d", value, path, *s.Min))
		}
		if s.Max != nil && n > *s.Max {
			*errs = append(*errs, fmt.Sprintf("%s at '%s' failed to satisfy constraint: Member must have length less than or equal to %d", value, path, *s.Max))
		}
		if item.Type == "structure" || item.Type == "list" || item.Type == "map" {
			for i := 0; i < f.Len(); i++ {
				validateValue(f.Index(i), s.Member, path+"."+strconv.Itoa(i+1)+".member", errs)
			}
			return
		}
		// A list of scalars: AWS reports the list, and what its items
		// must satisfy.
		for i := 0; i < f.Len(); i++ {
			if msgs := scalarViolations(f.Index(i), item); len(msgs) > 0 {
				*errs = append(*errs, fmt.Sprintf("Value '%s' at '%s' failed to satisfy constraint: Member must satisfy constraint: [%s]", listText(f), path, strings.Join(msgs, ", ")))
				return
			}
		}
	case "map":
		n := int64(f.Len())
		if s.Min != nil && n < *s.Min {
			*errs = append(*errs, fmt.Sprintf("Value at '%s' failed to satisfy constraint: Member must have length greater than or equal to %d", path, *s.Min))
		}
		if s.Max != nil && n > *s.Max {
			*errs = append(*errs, fmt.Sprintf("Value at '%s' failed to satisfy constraint: Member must have length less than or equal to %d", path, *s.Max))
		}
	default:
		for _, msg := range scalarViolations(f, s) {
			*errs = append(*errs, fmt.Sprintf("Value '%s' at '%s' failed to satisfy constraint: %s", scalarText(f), path, msg))
		}
	}
}

// scalarViolations lists what a scalar value fails of its shape's
// constraints.
func scalarViolations(f reflect.Value, s modelShape) []string {
	for f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return nil
		}
		f = f.Elem()
	}
	var out []string
	switch f.Kind() {
	case reflect.String:
		str := f.String()
		n := int64(utf8.RuneCountInString(str))
		if s.Min != nil && n < *s.Min {
			out = append(out, fmt.Sprintf("Member must have length greater than or equal to %d", *s.Min))
		}
		if s.Max != nil && n > *s.Max {
			out = append(out, fmt.Sprintf("Member must have length less than or equal to %d", *s.Max))
		}
		if len(s.Enum) > 0 && !contains(s.Enum, str) {
			out = append(out, fmt.Sprintf("Member must satisfy enum value set: [%s]", strings.Join(s.Enum, ", ")))
		}
		if s.Pattern != "" {
			if re := patternOf(s.Pattern); re != nil && !re.MatchString(str) {
				out = append(out, "Member must satisfy regular expression pattern: "+s.Pattern)
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i := f.Int()
		if s.Min != nil && i < *s.Min {
			out = append(out, fmt.Sprintf("Member must have value greater than or equal to %d", *s.Min))
		}
		if s.Max != nil && i > *s.Max {
			out = append(out, fmt.Sprintf("Member must have value less than or equal to %d", *s.Max))
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// scalarText is a value as AWS quotes it in a message.
func scalarText(f reflect.Value) string {
	for f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return "null"
		}
		f = f.Elem()
	}
	return fmt.Sprint(f.Interface())
}

// listText is a list of scalars as AWS (Java's toString) prints it: [a, b].
func listText(f reflect.Value) string {
	parts := make([]string, f.Len())
	for i := range parts {
		parts[i] = scalarText(f.Index(i))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
