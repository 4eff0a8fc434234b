package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/stacksim/stacksim/internal/readfile"
)

// A flag's JSON value as the AWS CLI (v1, the machine's) holds it, and the
// words botocore's parameter validation writes it in. The CLI reads JSON
// with json.loads(object_pairs_hook=OrderedDict): an object keeps its
// members in order, and its validation reports them in that order; an
// integer and a float are different types. Its messages print a value with
// str() (repr() inside a list or a dict) and name its class:
//
//	Invalid type for parameter Capabilities[2], value: OrderedDict([('x', "it's")]), type: <class 'collections.OrderedDict'>, valid types: <class 'str'>

// pyDict is a JSON object as an OrderedDict: a repeated key keeps the
// place of its first occurrence and the value of its last, as
// OrderedDict's assignments do.
type pyDict struct {
	keys []string
	vals map[string]any
}

func (d *pyDict) set(k string, v any) {
	if _, ok := d.vals[k]; !ok {
		d.keys = append(d.keys, k)
	}
	d.vals[k] = v
}

// pyNumber is a JSON number: its literal, an int when Python's json
// reads it as one (no fraction, no exponent), a float otherwise.
type pyNumber string

func (n pyNumber) isInt() bool { return !strings.ContainsAny(string(n), ".eE") }

// decodePyJSON reads a JSON value the AWS CLI has accepted (checkJSONArg
// ran first) into pyDict, []any, string, pyNumber, bool and nil.
func decodePyJSON(text string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := pyValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func pyValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			list := []any{}
			for dec.More() {
				v, err := pyValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
		d := &pyDict{vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := pyValue(dec)
			if err != nil {
				return nil, err
			}
			d.set(k.(string), v)
		}
		_, err := dec.Token()
		return d, err
	case json.Number:
		return pyNumber(t), nil
	}
	return tok, nil // string, bool, nil
}

// pyArgStr is str(v), as botocore's messages print a value.
func pyArgStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyReprOf(v)
}

// pyReprOf is repr(v).
func pyReprOf(v any) string {
	switch t := v.(type) {
	case string:
		return pyStrRepr(t)
	case bool:
		if t {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	case pyNumber:
		return pyNumberRepr(t)
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = pyReprOf(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *pyDict:
		if len(t.keys) == 0 {
			return "OrderedDict()"
		}
		parts := make([]string, len(t.keys))
		for i, k := range t.keys {
			parts[i] = "(" + pyStrRepr(k) + ", " + pyReprOf(t.vals[k]) + ")"
		}
		return "OrderedDict([" + strings.Join(parts, ", ") + "])"
	}
	return fmt.Sprint(v)
}

// pyClass is type(v) as botocore prints it.
func pyClass(v any) string {
	switch t := v.(type) {
	case string:
		return "<class 'str'>"
	case bool:
		return "<class 'bool'>"
	case nil:
		return "<class 'NoneType'>"
	case pyNumber:
		if t.isInt() {
			return "<class 'int'>"
		}
		return "<class 'float'>"
	case []any:
		return "<class 'list'>"
	case *pyDict:
		return "<class 'collections.OrderedDict'>"
	}
	return fmt.Sprintf("<class '%T'>", v)
}

// pyNumberRepr writes a number as Python does once json.loads read it: an
// int as its digits; a float as repr(float), the shortest digits that read
// back, in fixed notation when the exponent is in [-4, 16) (with ".0" when
// whole) and as d.ddde±XX otherwise; inf beyond the float range.
func pyNumberRepr(n pyNumber) string {
	s := string(n)
	if n.isInt() {
		neg := strings.HasPrefix(s, "-")
		digits := strings.TrimLeft(strings.TrimPrefix(s, "-"), "0")
		if digits == "" {
			return "0"
		}
		if neg {
			return "-" + digits
		}
		return digits
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return s
	}
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	// Shortest digits and their exponent: d.ddde±X.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	sign := ""
	if strings.HasPrefix(mant, "-") {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		out := digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		es := strconv.Itoa(max(exp, -exp))
		if len(es) < 2 {
			es = "0" + es
		}
		if exp < 0 {
			return sign + out + "e-" + es
		}
		return sign + out + "e+" + es
	}
	point := exp + 1 // digits before the point
	switch {
	case point <= 0:
		return sign + "0." + strings.Repeat("0", -point) + digits
	case point >= len(digits):
		return sign + digits + strings.Repeat("0", point-len(digits)) + ".0"
	}
	return sign + digits[:point] + "." + digits[point:]
}

// pyStrRepr is repr(s): single quotes, or double quotes when s holds a
// single quote and no double quote; backslashes, the quote, \t \n \r and
// unprintable characters escaped.
func pyStrRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == '\\' || r == rune(quote):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || !unicode.IsPrint(r):
			switch {
			case r < 0x100:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r < 0x10000:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// invalidType is botocore's message for a value of the wrong type at path
// (a long value cut, readfile.Excerpt).
func invalidType(path string, v any, valid string) string {
	return readfile.Excerpt(fmt.Sprintf("Invalid type for parameter %s, value: %s, type: %s, valid types: %s", path, pyArgStr(v), pyClass(v), valid))
}

// shorthandDict is a structure shorthand wrote inside a list
// ({Arn=...,Type=...}), its members in name order (the shorthand parser
// keeps no order there).
func shorthandDict(m map[string]any) *pyDict {
	d := &pyDict{keys: make([]string, 0, len(m)), vals: m}
	for k := range m {
		d.keys = append(d.keys, k)
	}
	slices.Sort(d.keys)
	return d
}
