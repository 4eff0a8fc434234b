package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Output: every command prints an AWS-CLI-shaped response (an ordered
// object of scalars, lists and objects) as the AWS CLI prints it with
// --output json, table or text (the global --output flag).

// Output formats.
const (
	outputJSON       = "json"
	outputTable      = "table"
	outputText       = "text"
	outputYAML       = "yaml"
	outputYAMLStream = "yaml-stream"
)

// object is a response or a structure in it: members in the order the
// API's shape lists them. A member whose value is nil is left out.
type object []member

type member struct {
	key   string
	value any // string, bool, int, json.Number, object, []any, []string
}

// checkOutput refuses an unknown format as the AWS CLI does.
func checkOutput(format string) error {
	switch format {
	case outputJSON, outputTable, outputText, outputYAML, outputYAMLStream:
		return nil
	}
	return badInput(fmt.Errorf("argument --output: Invalid choice, valid choices are:\n\njson                                     | text\ntable                                    | yaml\nyaml-stream"))
}

// render writes a response — or what --query selected of it: any value —
// in a format; operation titles a table.
func render(w io.Writer, format, operation string, resp any) error {
	var b strings.Builder
	switch format {
	case outputJSON:
		bw := bufio.NewWriterSize(w, 64<<10)
		writeJSON(bw, resp, 0)
		_ = bw.WriteByte('\n')
		return bw.Flush()
	case outputText:
		writeText(&b, resp, "", nil)
	case outputTable:
		writeTable(&b, operation, resp)
	case outputYAML, outputYAMLStream:
		if err := writeYAML(&b, resp, format == outputYAMLStream); err != nil {
			return err
		}
	default:
		return checkOutput(format)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ---- json: Python's json.dumps(indent=4, ensure_ascii=False) ----

// jsonWriter is where writeJSON writes: a strings.Builder, or a
// bufio.Writer straight to the output (a long answer is not built in
// memory first).
type jsonWriter interface {
	WriteString(s string) (int, error)
	WriteByte(c byte) error
}

func writeJSON(b jsonWriter, v any, depth int) {
	indent := strings.Repeat("    ", depth+1)
	closing := strings.Repeat("    ", depth)
	switch t := v.(type) {
	case object:
		fields := t.present()
		if len(fields) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, m := range fields {
			b.WriteString(indent)
			writeJSONString(b, m.key)
			b.WriteString(": ")
			writeJSON(b, m.value, depth+1)
			if i < len(fields)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(closing)
		b.WriteByte('}')
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, item := range t {
			b.WriteString(indent)
			writeJSON(b, item, depth+1)
			if i < len(t)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(closing)
		b.WriteByte(']')
	case []string:
		writeJSON(b, stringsToAny(t), depth)
	case string:
		writeJSONString(b, t)
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case int:
		b.WriteString(strconv.Itoa(t))
	case json.Number:
		b.WriteString(t.String())
	case nil, jsonNull:
		b.WriteString("null")
	default:
		writeJSONString(b, fmt.Sprint(t))
	}
}

// writeJSONString escapes like Python's json module with ensure_ascii off:
// quotes, backslashes and control characters only.
func writeJSONString(b jsonWriter, s string) {
	b.WriteByte('"')
	start := 0 // the bytes from start to i need no escape
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' {
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError {
				i += size
				continue
			}
		}
		b.WriteString(s[start:i])
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default: // a control character, or U+FFFD (written so, or invalid UTF-8)
			b.WriteString(fmt.Sprintf(`\u%04x`, r))
		}
		i += size
		start = i
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// present returns the members with a value.
func (o object) present() object {
	out := make(object, 0, len(o))
	for _, m := range o {
		if m.value != nil {
			out = append(out, m)
		}
	}
	return out
}

func (o object) get(key string) (any, bool) {
	for _, m := range o {
		if m.key == key && m.value != nil {
			return m.value, true
		}
	}
	return nil, false
}

// sortedKeys returns the keys of the members with a value, sorted.
func (o object) sortedKeys() []string {
	var keys []string
	for _, m := range o.present() {
		keys = append(keys, m.key)
	}
	sort.Strings(keys)
	return keys
}

func isScalar(v any) bool {
	switch v.(type) {
	case object, []any, []string:
		return false
	}
	return true
}

// pyStr renders a scalar as Python's str() does (the AWS CLI's text and
// table formats).
func pyStr(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case bool:
		if t {
			return "True"
		}
		return "False"
	case nil, jsonNull:
		return "None"
	case json.Number:
		return t.String()
	}
	return fmt.Sprint(v)
}

// ---- text: the AWS CLI's text formatter ----

// writeText follows awscli's text.format_text: the scalars of an object on
// one tab-separated line (keys sorted, the identifier in upper case first),
// then its lists and objects; a list of scalars as IDENTIFIER<TAB>value
// lines; a list of objects one line each, with the scalar keys of all
// elements as columns.
func writeText(b *strings.Builder, v any, identifier string, scalarKeys []string) {
	switch t := v.(type) {
	case object:
		var scalars []string
		var more []string
		if scalarKeys == nil {
			for _, k := range t.sortedKeys() {
				val, _ := t.get(k)
				if isScalar(val) {
					scalars = append(scalars, pyStr(val))
				} else {
					more = append(more, k)
				}
			}
		} else {
			for _, k := range scalarKeys {
				val, ok := t.get(k)
				if !ok {
					scalars = append(scalars, "")
					continue
				}
				scalars = append(scalars, pyStr(val))
			}
			in := map[string]bool{}
			for _, k := range scalarKeys {
				in[k] = true
			}
			for _, k := range t.sortedKeys() {
				if !in[k] {
					more = append(more, k)
				}
			}
		}
		if len(scalars) > 0 {
			if identifier != "" {
				scalars = append([]string{strings.ToUpper(identifier)}, scalars...)
			}
			b.WriteString(strings.Join(scalars, "\t"))
			b.WriteByte('\n')
		}
		for _, k := range more {
			val, _ := t.get(k)
			writeText(b, val, k, nil)
		}
	case []string:
		writeText(b, stringsToAny(t), identifier, nil)
	case []any:
		if len(t) == 0 {
			return
		}
		hasObject := false
		for _, el := range t {
			if _, ok := el.(object); ok {
				hasObject = true
			}
		}
		if hasObject {
			keys := allScalarKeys(t)
			for _, el := range t {
				writeText(b, el, identifier, keys)
			}
			return
		}
		var scalars []string
		var lists []any
		for _, el := range t {
			if isScalar(el) {
				scalars = append(scalars, pyStr(el))
			} else {
				lists = append(lists, el)
			}
		}
		if len(scalars) > 0 {
			if identifier != "" {
				for _, s := range scalars {
					fmt.Fprintf(b, "%s\t%s\n", strings.ToUpper(identifier), s)
				}
			} else {
				b.WriteString(strings.Join(scalars, "\t"))
				b.WriteByte('\n')
			}
		}
		for _, l := range lists {
			writeText(b, l, identifier, nil)
		}
	default:
		b.WriteString(pyStr(t))
		b.WriteByte('\n')
	}
}

func allScalarKeys(list []any) []string {
	seen := map[string]bool{}
	for _, el := range list {
		o, ok := el.(object)
		if !ok {
			continue
		}
		for _, m := range o.present() {
			if isScalar(m.value) {
				seen[m.key] = true
			}
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
