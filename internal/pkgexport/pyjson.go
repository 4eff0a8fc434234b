package pkgexport

import (
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/template"
)

// JSON writes the tree as the AWS CLI's package --use-json does:
// Python's json.dumps(template, indent=4, ensure_ascii=False) — members in
// their order, four spaces a level, ", " never at a line's end, non-ASCII
// as it is, control characters as \uXXXX in lower-case hex, and no line
// break at the end. Numbers keep the template's literal (Python writes
// the float it read: 1.50 as 1.5).
func JSON(root *template.Node) []byte {
	var b strings.Builder
	writePyJSON(&b, root, 0)
	return []byte(b.String())
}

func writePyJSON(b *strings.Builder, n *template.Node, depth int) {
	newline := func(d int) {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("    ", d))
	}
	switch n.Kind {
	case template.Map:
		if len(n.Fields) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, f := range n.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			writePyJSONString(b, f.Key)
			b.WriteString(": ")
			writePyJSON(b, f.Value, depth+1)
		}
		newline(depth)
		b.WriteByte('}')
	case template.List:
		if len(n.Items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			writePyJSON(b, it, depth+1)
		}
		newline(depth)
		b.WriteByte(']')
	case template.String:
		writePyJSONString(b, n.Value)
	case template.Number, template.Bool:
		b.WriteString(n.Value)
	default:
		b.WriteString("null")
	}
}

// writePyJSONString is json's py_encode_basestring.
func writePyJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
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
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}
