package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/api"
	"github.com/stacksim/stacksim/internal/readfile"
)

// --cli-input-json checked as botocore's ParamValidator checks an input
// against the operation's shape in the service model before the AWS CLI
// calls: the required members missing, the unknown ones, then each member's
// type and minimum, in its words and order. stacksim's own flags (--faults,
// --until, ...) are members too, after the model's.

// checkInput checks the input d of operation (with the members the command
// line set left out: they win) and returns botocore's messages.
func checkInput(operation string, d *pyDict, given map[string]bool, extras []string) []string {
	name, ok := api.InputShape(operation)
	if !ok {
		return nil
	}
	s, _ := api.ShapeNamed(name)
	var problems []string
	checkStructShape(d, s, "input", "", given, extras, &problems)
	return problems
}

// checkStructShape checks a structure: name is what the messages call it
// ("input" at the top, its path below), prefix what its members' paths
// start with.
func checkStructShape(d *pyDict, s api.Shape, name, prefix string, given map[string]bool, extras []string, problems *[]string) {
	names := make([]string, 0, len(s.Members)+len(extras))
	members := map[string]api.Member{}
	for _, m := range s.Members {
		names = append(names, m.Name)
		members[m.Name] = m
		if _, ok := d.vals[m.Name]; m.Required && !ok && !given[m.Name] {
			*problems = append(*problems, fmt.Sprintf("Missing required parameter in %s: %q", name, m.Name))
		}
	}
	known := map[string]bool{}
	for _, e := range extras {
		if _, ok := members[e]; !ok {
			names = append(names, e)
			known[e] = true
		}
	}
	for _, k := range d.keys {
		if _, ok := members[k]; !ok && !known[k] {
			*problems = append(*problems, fmt.Sprintf("Unknown parameter in %s: %s, must be one of: %s", name, readfile.Quote(k), strings.Join(names, ", ")))
		}
	}
	for _, k := range d.keys {
		if m, ok := members[k]; ok {
			checkShapeValue(d.vals[k], m.Shape, prefix+k, problems)
		}
	}
}

// checkShapeValue checks one value against the model's shape named shape.
func checkShapeValue(v any, shape, path string, problems *[]string) {
	s, ok := api.ShapeNamed(shape)
	if !ok {
		return
	}
	bad := func(valid string) { *problems = append(*problems, invalidType(path, v, valid)) }
	short := func(n int) {
		if s.Min != nil && int64(n) < *s.Min {
			*problems = append(*problems, fmt.Sprintf("Invalid length for parameter %s, value: %d, valid min length: %d", path, n, *s.Min))
		}
	}
	switch s.Type {
	case "structure":
		d, ok := v.(*pyDict)
		if !ok {
			bad("<class 'dict'>")
			return
		}
		checkStructShape(d, s, path, path+".", nil, nil, problems)
	case "list":
		list, ok := v.([]any)
		if !ok {
			bad("<class 'list'>, <class 'tuple'>")
			return
		}
		short(len(list))
		for i, item := range list {
			checkShapeValue(item, s.Member, fmt.Sprintf("%s[%d]", path, i), problems)
		}
	case "map":
		d, ok := v.(*pyDict)
		if !ok {
			bad("<class 'dict'>")
			return
		}
		for _, k := range d.keys {
			checkShapeValue(k, s.Key, fmt.Sprintf("%s (key: %s)", path, k), problems)
			checkShapeValue(d.vals[k], s.Value, path+"."+k, problems)
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			bad("<class 'str'>")
			return
		}
		short(len([]rune(str)))
	case "boolean":
		if _, ok := v.(bool); !ok {
			bad("<class 'bool'>")
		}
	case "integer", "long":
		n, ok := v.(pyNumber)
		if !ok || !n.isInt() {
			bad("<class 'int'>")
			return
		}
		if s.Min != nil {
			if i, err := strconv.ParseInt(pyNumberRepr(n), 10, 64); err == nil && i < *s.Min {
				*problems = append(*problems, fmt.Sprintf("Invalid value for parameter %s, value: %d, valid min value: %d", path, i, *s.Min))
			}
		}
	}
}

// shorthandBooleans reads a shorthand structure's "true" and "false" (any
// case) as booleans where the shape's member is one, as the AWS CLI reads
// shorthand by the members' types.
func shorthandBooleans(d *pyDict, s api.Shape) *pyDict {
	for _, m := range s.Members {
		str, ok := d.vals[m.Name].(string)
		if !ok {
			continue
		}
		if ms, _ := api.ShapeNamed(m.Shape); ms.Type == "boolean" {
			switch strings.ToLower(str) {
			case "true":
				d.vals[m.Name] = true
			case "false":
				d.vals[m.Name] = false
			}
		}
	}
	return d
}
