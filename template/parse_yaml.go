package template

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/stacksim/stacksim/internal/yamlerr"
)

// yamlConv turns a go.yaml.in/yaml/v4 node tree into the template's own
// nodes: short-form tags become their long form, aliases are expanded into
// copies, merge keys (<<) are applied, and plain scalars are typed by the
// rules in scalars.go.
type yamlConv struct {
	file   string
	src    []byte
	budget int // nodes left to create; bounds alias expansion
	nodes  *arena
	lines  []int        // offsets of the starts of lines, computed on first use
	ascii  map[int]bool // whether a line is ASCII, by line, computed on use
}

// contentPos is where the content of a tagged node starts: the YAML library
// gives the position of the tag. When the content follows the tag on the
// same line, the position moves past the tag and the blanks after it.
func (c *yamlConv) contentPos(y *yaml.Node) Pos {
	pos := Pos{y.Line, y.Column}
	if c.lines == nil {
		c.lines = []int{0}
		for i, b := range c.src {
			if b == '\n' {
				c.lines = append(c.lines, i+1)
			}
		}
	}
	if y.Line < 1 || y.Line > len(c.lines) {
		return pos
	}
	line := c.src[c.lines[y.Line-1]:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	// Skip to the tag's column (counted in characters).
	if c.ascii == nil {
		c.ascii = map[int]bool{}
	}
	ascii, known := c.ascii[y.Line]
	if !known {
		ascii = isASCII(line)
		c.ascii[y.Line] = ascii
	}
	rest := line
	if ascii {
		if y.Column-1 > len(line) {
			return pos
		}
		rest = line[y.Column-1:]
	} else {
		for col := 1; col < y.Column && len(rest) > 0; col++ {
			_, size := utf8.DecodeRune(rest)
			rest = rest[size:]
		}
	}
	if !bytes.HasPrefix(rest, []byte(y.Tag)) {
		return pos
	}
	col := y.Column + utf8.RuneCountInString(y.Tag)
	rest = rest[len(y.Tag):]
	for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
		rest = rest[1:]
		col++
	}
	if len(rest) == 0 || rest[0] == '#' || rest[0] == '|' || rest[0] == '>' {
		return pos
	}
	return Pos{y.Line, col}
}

// parseYAML reads a YAML body: on the fast path (yfast.go) when it takes
// the body, with the YAML library otherwise.
func parseYAML(file string, src []byte) (*Node, *Error) {
	if root, ok := parseYAMLFast(src); ok {
		return root, nil
	}
	return parseYAMLLibrary(file, src)
}

// parseYAMLLibrary reads a YAML body with go.yaml.in/yaml/v4 and converts
// its node tree.
func parseYAMLLibrary(file string, src []byte) (root *Node, err *Error) {
	var doc yaml.Node
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				root, err = nil, e
				return
			}
			// The YAML library panicked on a malformed body.
			root, err = nil, yamlError(file, src, 0, 0, fmt.Sprint(r))
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if derr := dec.Decode(&doc); derr != nil {
		if errors.Is(derr, io.EOF) {
			root = &Node{Kind: Null, Pos: Pos{1, 1}}
			root.link()
			return root, nil
		}
		return nil, yamlSyntaxError(file, src, derr)
	}
	var next yaml.Node
	if derr := dec.Decode(&next); !errors.Is(derr, io.EOF) {
		if derr != nil {
			return nil, yamlSyntaxError(file, src, derr)
		}
		return nil, yamlError(file, src, next.Line, next.Column, "a template is a single YAML document")
	}
	c := &yamlConv{file: file, src: src, budget: 16*len(src) + 4096, nodes: newArena(len(src), 0, 0, 0)}
	root = c.node(&doc, 0, false)
	root.link()
	return root, nil
}

// yamlSyntaxError turns the library's error into AWS's message at the
// problem's line and column, which are PyYAML's (what CloudFormation
// reports); the detail names the construct it was found in.
func yamlSyntaxError(file string, src []byte, err error) *Error {
	if s, ok := yamlerr.Of(err, src); ok {
		return yamlError(file, src, s.Line, s.Col, s.Detail())
	}
	return yamlError(file, src, 0, 0, yamlerr.Message(err, src))
}

// yamlError builds "Template format error: YAML not well-formed." at a line;
// without a column it points at the first character of the line.
func yamlError(file string, src []byte, line, col int, detail string) *Error {
	if line <= 0 {
		line = 1
	}
	if col <= 0 {
		col = firstColumn(src, line)
	}
	return &Error{
		File: file, Line: line, Col: col,
		Message: fmt.Sprintf("Template format error: YAML not well-formed. (line %d, column %d)", line, col),
		Detail:  detail,
	}
}

// firstColumn returns the column of the first non-blank character of a line.
func firstColumn(src []byte, line int) int {
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return 1
		}
		src = src[i+1:]
	}
	col := 1
	for _, b := range src {
		if b != ' ' && b != '\t' {
			break
		}
		col++
	}
	return col
}

func (c *yamlConv) fail(y *yaml.Node, format string, args ...any) {
	panic(yamlError(c.file, c.src, y.Line, y.Column, fmt.Sprintf(format, args...)))
}

func (c *yamlConv) node(y *yaml.Node, depth int, ignoreTag bool) *Node {
	if depth > maxDepth {
		c.fail(y, "nesting deeper than %d levels (or a recursive alias)", maxDepth)
	}
	c.budget--
	if c.budget < 0 {
		c.fail(y, "aliases expand to too many values")
	}
	pos := Pos{y.Line, y.Column}
	if !ignoreTag && y.Style&yaml.TaggedStyle != 0 && strings.HasPrefix(y.Tag, "!") && !strings.HasPrefix(y.Tag, "!!") {
		return c.shortForm(y, depth, pos)
	}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return c.nodes.node(Null, "", pos)
		}
		return c.node(y.Content[0], depth, false)
	case yaml.AliasNode:
		if y.Alias == nil {
			c.fail(y, "unknown alias %q", y.Value)
		}
		n := c.node(y.Alias, depth+1, false)
		return n
	case yaml.ScalarNode:
		return c.scalar(y, ignoreTag, pos)
	case yaml.SequenceNode:
		if !ignoreTag {
			c.checkCollectionTag(y, "!!seq")
		}
		n := c.nodes.node(List, "", pos)
		n.Items = make([]*Node, 0, len(y.Content))
		for _, item := range y.Content {
			n.Items = append(n.Items, c.node(item, depth+1, false))
		}
		return n
	case yaml.MappingNode:
		if !ignoreTag {
			c.checkCollectionTag(y, "!!map")
		}
		return c.mapping(y, depth, pos)
	}
	c.fail(y, "unexpected YAML node")
	return nil
}

func (c *yamlConv) checkCollectionTag(y *yaml.Node, want string) {
	if y.Style&yaml.TaggedStyle != 0 && y.Tag != want {
		c.fail(y, "tag %s is not supported here", y.Tag)
	}
}

// shortForm turns a node tagged !Ref, !GetAtt, ... into its long form.
func (c *yamlConv) shortForm(y *yaml.Node, depth int, pos Pos) *Node {
	key, ok := shortTags[y.Tag]
	if !ok {
		c.fail(y, "unknown tag %s", y.Tag)
	}
	inner := c.node(y, depth+1, true)
	inner.Pos = c.contentPos(y)
	quoted := y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
	return longForm(c.nodes, y.Tag, key, pos, inner, quoted)
}

func (c *yamlConv) scalar(y *yaml.Node, ignoreTag bool, pos Pos) *Node {
	quoted := y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	tag := ""
	if !ignoreTag && y.Style&yaml.TaggedStyle != 0 {
		tag = y.Tag
	}
	k, v, msg := typeScalar(tag, quoted, y.Value)
	if msg != "" {
		c.fail(y, "%s", msg)
	}
	return c.nodes.node(k, v, pos)
}

func (c *yamlConv) mapping(y *yaml.Node, depth int, pos Pos) *Node {
	n := c.nodes.node(Map, "", pos)
	n.Fields = make([]Field, 0, len(y.Content)/2)
	var index map[string]bool
	has := func(k string) bool {
		if index != nil {
			return index[k]
		}
		return n.Get(k) != nil
	}
	var merged []Field
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if isMergeKey(k) {
			merged = append(merged, c.mergeFields(v, depth)...)
			continue
		}
		key := c.key(k)
		if has(key) {
			c.fail(k, "mapping key %q already defined", key)
		}
		if index == nil && len(n.Fields) >= 8 {
			index = make(map[string]bool, len(y.Content)/2)
			for _, f := range n.Fields {
				index[f.Key] = true
			}
		}
		if index != nil {
			index[key] = true
		}
		n.Fields = append(n.Fields, Field{Key: key, KeyPos: Pos{k.Line, k.Column}, Value: c.node(v, depth+1, false)})
	}
	// Keys written in the map win over merged ones; among merged maps the
	// first wins (YAML's merge key).
	for _, f := range merged {
		if !has(f.Key) {
			n.Fields = append(n.Fields, f)
			if index != nil {
				index[f.Key] = true
			}
		}
	}
	return n
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 &&
		(k.Tag == "" || k.Tag == "!!merge")
}

// mergeFields returns the fields a merge key brings: a map, or a list of maps.
func (c *yamlConv) mergeFields(v *yaml.Node, depth int) []Field {
	target := v
	if target.Kind == yaml.AliasNode && target.Alias != nil {
		target = target.Alias
	}
	switch target.Kind {
	case yaml.MappingNode:
		m := c.node(target, depth+1, false)
		return m.Fields
	case yaml.SequenceNode:
		var out []Field
		seen := map[string]bool{}
		for _, item := range target.Content {
			for _, f := range c.mergeFields(item, depth+1) {
				if !seen[f.Key] {
					seen[f.Key] = true
					out = append(out, f)
				}
			}
		}
		return out
	}
	c.fail(v, "a merge key (<<) takes a map or a list of maps")
	return nil
}

// key returns the text of a mapping key.
func (c *yamlConv) key(k *yaml.Node) string {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		c.fail(k, "a mapping key must be a scalar")
	}
	if k.Style&yaml.TaggedStyle != 0 && !strings.HasPrefix(k.Tag, "!!") {
		c.fail(k, "a mapping key cannot be tagged %s", k.Tag)
	}
	return k.Value
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
