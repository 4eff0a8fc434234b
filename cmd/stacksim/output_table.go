package main

import (
	"math"
	"strings"
	"unicode/utf8"
)

// The table format: the AWS CLI's TableFormatter and MultiTable (awscli
// table.py), rule for rule, so that a response looks the same as `aws ...
// --output table` prints it when stdout is not a terminal (80 columns).

const tableTerminalWidth = 80

type tableSection struct {
	title     string
	indent    int
	headers   []string
	rows      [][]string
	maxWidths []int
	numCols   int
}

func (s *tableSection) updateWidths(cells []string) {
	if s.maxWidths == nil {
		s.maxWidths = make([]int, len(cells))
		for i, c := range cells {
			s.maxWidths[i] = textLen(c)
		}
		return
	}
	for i, c := range cells {
		if i < len(s.maxWidths) && textLen(c) > s.maxWidths[i] {
			s.maxWidths[i] = textLen(c)
		}
	}
}

func (s *tableSection) addHeader(headers []string) {
	s.updateWidths(headers)
	if s.numCols == 0 {
		s.numCols = len(headers)
	}
	s.headers = headers
}

func (s *tableSection) addRow(row []string) {
	if s.numCols == 0 {
		s.numCols = len(row)
	}
	s.rows = append(s.rows, row)
	s.updateWidths(row)
}

// columnWidths scales the natural widths (plus padding) to fill maxWidth.
func (s *tableSection) columnWidths(padding, maxWidth int) []int {
	widths := make([]int, len(s.maxWidths))
	sum := 0
	for i, w := range s.maxWidths {
		widths[i] = w + padding
		sum += widths[i]
	}
	if maxWidth < 0 || len(widths) == 0 {
		return widths
	}
	factor := float64(maxWidth) / float64(sum)
	total := 0
	for i, w := range widths {
		widths[i] = int(math.RoundToEven(factor * float64(w)))
		total += widths[i]
	}
	off := total - maxWidth
	for off != 0 {
		if off > 0 {
			for i := 0; i < len(widths) && off != 0; i++ {
				widths[i]--
				off--
			}
		} else {
			for i := len(widths) - 1; i >= 0 && off != 0; i-- {
				widths[i]++
				off++
			}
		}
	}
	return widths
}

func (s *tableSection) totalWidth(padding int, border bool, outer int) int {
	total := 0
	for _, w := range s.columnWidths(0, -1) {
		total += w + padding
	}
	if border {
		total += 2
	}
	total += 2 * outer
	if t := textLen(s.title) + 2 + 2*outer; t > total {
		return t
	}
	return total
}

func textLen(s string) int { return utf8.RuneCountInString(s) }

// tableBuilder turns a response into sections (awscli's TableFormatter).
type tableBuilder struct {
	sections []*tableSection
	current  *tableSection
}

func (t *tableBuilder) newSection(title string, indent int) {
	t.current = &tableSection{title: title, indent: indent}
	t.sections = append(t.sections, t.current)
}

func (t *tableBuilder) build(title string, v any, indent int) bool {
	switch c := v.(type) {
	case object:
		if len(c.present()) == 0 {
			return false
		}
	case []any:
		if len(c) == 0 {
			return false
		}
	case []string:
		if len(c) == 0 {
			return false
		}
		v = stringsToAny(c)
	case nil:
		return false
	}
	if title != "" {
		t.newSection(title, indent)
	}
	switch c := v.(type) {
	case []any:
		if _, ok := c[0].(object); ok {
			t.fromList(c, indent, title)
		} else {
			for _, item := range c {
				if isScalar(item) {
					t.current.addRow([]string{pyStr(item)})
				} else {
					t.build("", item, indent)
				}
			}
		}
	case object:
		t.fromObject(c, indent)
	}
	return true
}

func groupScalarKeys(o object) (headers, more []string) {
	for _, k := range o.sortedKeys() {
		v, _ := o.get(k)
		if isScalar(v) {
			headers = append(headers, k)
		} else {
			more = append(more, k)
		}
	}
	return headers, more
}

func (t *tableBuilder) fromObject(o object, indent int) {
	headers, more := groupScalarKeys(o)
	switch {
	case len(headers) == 1:
		v, _ := o.get(headers[0])
		t.current.addRow([]string{headers[0], pyStr(v)})
	case len(headers) > 1:
		t.current.addHeader(headers)
		row := make([]string, len(headers))
		for i, h := range headers {
			v, _ := o.get(h)
			row[i] = pyStr(v)
		}
		t.current.addRow(row)
	}
	for _, k := range more {
		v, _ := o.get(k)
		t.build(k, v, indent+1)
	}
}

func (t *tableBuilder) fromList(list []any, indent int, title string) {
	seenH, seenM := map[string]bool{}, map[string]bool{}
	var headers, more []string
	for _, el := range list {
		o, _ := el.(object)
		h, m := groupScalarKeys(o)
		for _, k := range h {
			if !seenH[k] {
				seenH[k] = true
				headers = append(headers, k)
			}
		}
		for _, k := range m {
			if !seenM[k] {
				seenM[k] = true
				more = append(more, k)
			}
		}
	}
	sortStrings(headers)
	sortStrings(more)
	t.current.addHeader(headers)
	for i, el := range list {
		o, _ := el.(object)
		if i > 0 && len(more) > 0 {
			t.newSection(title, indent)
			t.current.addHeader(headers)
		}
		row := make([]string, len(headers))
		for j, h := range headers {
			if v, ok := o.get(h); ok {
				row[j] = pyStr(v)
			}
		}
		t.current.addRow(row)
		for _, k := range more {
			if v, ok := o.get(k); ok {
				t.build(k, v, indent+1)
			}
		}
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// writeTable renders a response titled by its operation.
func writeTable(b *strings.Builder, operation string, resp any) {
	t := &tableBuilder{}
	if !t.build(operation, resp, 0) {
		return
	}
	maxWidth := t.maxWidth()
	if maxWidth > tableTerminalWidth {
		// Too wide for the terminal: single-row sections become key/value
		// rows (awscli's convert_to_vertical_table).
		for i, s := range t.sections {
			if len(s.rows) == 1 && len(s.headers) > 0 {
				ns := &tableSection{title: s.title, indent: s.indent}
				for j, h := range s.headers {
					ns.addRow([]string{h, s.rows[0][j]})
				}
				t.sections[i] = ns
			}
		}
		maxWidth = t.maxWidth()
	}
	b.WriteString(strings.Repeat("-", maxWidth))
	b.WriteByte('\n')
	for _, s := range t.sections {
		renderSection(b, s, maxWidth)
	}
}

func (t *tableBuilder) maxWidth() int {
	max := 0
	for _, s := range t.sections {
		if w := s.totalWidth(4, true, s.indent); w > max {
			max = w
		}
	}
	return max
}

func renderSection(b *strings.Builder, s *tableSection, maxWidth int) {
	edge := strings.Repeat("|", s.indent)
	line := func(text string) {
		b.WriteString(edge)
		b.WriteString(text)
		b.WriteString(edge)
		b.WriteByte('\n')
	}
	width := maxWidth - 2*s.indent
	if s.title != "" {
		line(centerText(s.title, width, "|", "|"))
		if len(s.headers) == 0 && len(s.rows) == 0 {
			line("+" + strings.Repeat("-", width-2) + "+")
		}
	}
	if len(s.headers) > 0 {
		widths := s.columnWidths(4, width)
		line(lineBreak(widths))
		var cur strings.Builder
		for i, h := range s.headers {
			left := ""
			if i == 0 {
				left = "|"
			}
			cur.WriteString(centerText(h, widths[i], left, "|"))
		}
		line(cur.String())
	}
	if len(s.rows) > 0 {
		widths := s.columnWidths(4, width)
		line(lineBreak(widths))
		for _, row := range s.rows {
			var cur strings.Builder
			for i, cell := range row {
				left := ""
				if i == 0 {
					left = "|"
				}
				cur.WriteString(alignLeft(cell, widths[i], left, "|"))
			}
			line(cur.String())
		}
		line(lineBreak(widths))
	}
}

func lineBreak(widths []int) string {
	var b strings.Builder
	for i, w := range widths {
		if i == 0 {
			b.WriteString("+" + strings.Repeat("-", max(w-2, 0)) + "+")
		} else {
			b.WriteString(strings.Repeat("-", max(w-1, 0)) + "+")
		}
	}
	return b.String()
}

func centerText(text string, length int, left, right string) string {
	n := textLen(text)
	start := length/2 - n/2 - 1
	if start < 0 {
		start = 0
	}
	out := left + strings.Repeat(" ", start) + text
	rest := length - textLen(right) - (textLen(left) + start + n)
	if rest > 0 {
		out += strings.Repeat(" ", rest)
	}
	return out + right
}

func alignLeft(text string, length int, left, right string) string {
	n := textLen(text)
	padding := 2
	if length-(n+padding+textLen(left)+textLen(right)) < 0 {
		padding = 0
	}
	out := left + strings.Repeat(" ", padding) + text
	rest := length - (textLen(left) + padding + n) - textLen(right)
	if rest > 0 {
		out += strings.Repeat(" ", rest)
	}
	return out + right
}
