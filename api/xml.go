package api

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"math"
	"math/big"
	"sort"
	"strconv"
	"time"

	smithy "github.com/aws/smithy-go"
	"github.com/aws/smithy-go/document"
	smithytime "github.com/aws/smithy-go/time"
	"github.com/aws/smithy-go/traits"
)

// xmlSerializer writes a shape as the query protocol's XML: one
// implementation of smithy.ShapeSerializer, driven by the Serialize methods
// that aws-sdk-go-v2 generates for every output type over its schemas
// (member names, list members, map keys and values, timestamp formats).
// A structure is an element named after its member; a list is an element
// holding one <member> per item (unless the list is flattened); a map
// holds one <entry><key/><value/></entry> per key, sorted by key (the SDK
// hands map entries over in Go's random order); a timestamp is ISO 8601
// (date-time) unless the schema says otherwise. The root structure's
// element is named by the caller (XResult).
type xmlSerializer struct {
	buf   *bytes.Buffer
	root  string
	stack []xmlFrame
}

type xmlFrameKind int

const (
	frameStruct xmlFrameKind = iota
	frameList
	frameMap
	frameUnion
)

type xmlFrame struct {
	kind xmlFrameKind
	// name is the element that closes the frame ("" for a flattened list).
	name string
	// item names the elements of a list's items.
	item   string
	schema *smithy.Schema
	// A map's entries, buffered to be written sorted by key.
	entries []mapEntry
	// valueAt is where the value of the entry being written starts in
	// the buffer (-1: none is).
	valueAt int
}

type mapEntry struct {
	key   string
	value []byte
}

var _ smithy.ShapeSerializer = (*xmlSerializer)(nil)

// newXMLSerializer returns a serializer whose root structure is written as
// <root>, into buf (a new buffer when nil).
func newXMLSerializer(root string, buf *bytes.Buffer) *xmlSerializer {
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	return &xmlSerializer{root: root, buf: buf}
}

// Bytes returns the XML written.
func (s *xmlSerializer) Bytes() []byte { return s.buf.Bytes() }

func (s *xmlSerializer) top() *xmlFrame {
	if len(s.stack) == 0 {
		return nil
	}
	return &s.stack[len(s.stack)-1]
}

// ename is the element name of a member outside a list or map.
func ename(schema *smithy.Schema) string {
	if t, ok := smithy.SchemaDirectTrait[*traits.XMLName](schema); ok {
		return t.Name
	}
	return schema.MemberName()
}

// name is the element name of a value written now: a list's item name
// inside a list, "value" (or the map's value name) inside a map entry, the
// member's name otherwise, the root's name at the root.
func (s *xmlSerializer) name(schema *smithy.Schema) string {
	top := s.top()
	switch {
	case top == nil:
		if s.root != "" {
			return s.root
		}
		return schema.ID().Name
	case top.kind == frameList:
		return top.item
	case top.kind == frameMap:
		if v := top.schema.MapValue(); v != nil {
			return ename(v)
		}
		return "value"
	}
	return ename(schema)
}

func (s *xmlSerializer) start(name string) {
	s.buf.WriteByte('<')
	s.buf.WriteString(name)
	s.buf.WriteByte('>')
}

func (s *xmlSerializer) end(name string) {
	s.buf.WriteString("</")
	s.buf.WriteString(name)
	s.buf.WriteByte('>')
}

func (s *xmlSerializer) scalar(schema *smithy.Schema, v string) {
	n := s.name(schema)
	s.start(n)
	s.text(v)
	s.end(n)
}

// text writes v escaped as xml.EscapeText escapes it; most values (names,
// ARNs, statuses, timestamps) have nothing to escape and are written as
// they are, without EscapeText's copy and rune walk.
func (s *xmlSerializer) text(v string) {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\'', c == '&', c == '<', c == '>':
			_ = xml.EscapeText(s.buf, []byte(v))
			return
		}
	}
	s.buf.WriteString(v)
}

func (s *xmlSerializer) WriteInt8(schema *smithy.Schema, v int8) {
	s.scalar(schema, strconv.FormatInt(int64(v), 10))
}
func (s *xmlSerializer) WriteInt16(schema *smithy.Schema, v int16) {
	s.scalar(schema, strconv.FormatInt(int64(v), 10))
}
func (s *xmlSerializer) WriteInt32(schema *smithy.Schema, v int32) {
	s.scalar(schema, strconv.FormatInt(int64(v), 10))
}
func (s *xmlSerializer) WriteInt64(schema *smithy.Schema, v int64) {
	s.scalar(schema, strconv.FormatInt(v, 10))
}
func (s *xmlSerializer) WriteFloat32(schema *smithy.Schema, v float32) {
	s.scalar(schema, formatFloat(float64(v), 32))
}
func (s *xmlSerializer) WriteFloat64(schema *smithy.Schema, v float64) {
	s.scalar(schema, formatFloat(v, 64))
}
func (s *xmlSerializer) WriteBool(schema *smithy.Schema, v bool) {
	s.scalar(schema, strconv.FormatBool(v))
}
func (s *xmlSerializer) WriteString(schema *smithy.Schema, v string) { s.scalar(schema, v) }
func (s *xmlSerializer) WriteBigInt(schema *smithy.Schema, v *big.Int) {
	if v != nil {
		s.scalar(schema, v.String())
	}
}
func (s *xmlSerializer) WriteBigFloat(schema *smithy.Schema, v *big.Float) {
	if v != nil {
		s.scalar(schema, v.Text('g', -1))
	}
}
func (s *xmlSerializer) WriteBlob(schema *smithy.Schema, v []byte) {
	if v != nil {
		s.scalar(schema, base64.StdEncoding.EncodeToString(v))
	}
}

func (s *xmlSerializer) WriteTime(schema *smithy.Schema, v time.Time) {
	format := "date-time"
	if t, ok := smithy.SchemaTrait[*traits.TimestampFormat](schema); ok {
		format = t.Format
	}
	switch format {
	case "http-date":
		s.scalar(schema, smithytime.FormatHTTPDate(v))
	case "epoch-seconds":
		s.scalar(schema, strconv.FormatFloat(smithytime.FormatEpochSeconds(v), 'f', -1, 64))
	default:
		s.scalar(schema, smithytime.FormatDateTime(v))
	}
}

func (s *xmlSerializer) WriteUnion(schema, _ *smithy.Schema) {
	n := s.name(schema)
	s.start(n)
	s.stack = append(s.stack, xmlFrame{kind: frameUnion, name: n, schema: schema})
}

func (s *xmlSerializer) CloseUnion() { s.pop() }

// WriteDocument: the query protocol has no documents; CloudFormation's
// model has none.
func (s *xmlSerializer) WriteDocument(*smithy.Schema, document.Value) {}

// WriteNil writes nothing: an absent member is left out.
func (s *xmlSerializer) WriteNil(*smithy.Schema) {}

func (s *xmlSerializer) WriteStruct(schema *smithy.Schema) {
	if schema == nil {
		// An operation without output (DeleteStack...): no XResult.
		s.stack = append(s.stack, xmlFrame{kind: frameStruct})
		return
	}
	n := s.name(schema)
	s.start(n)
	s.stack = append(s.stack, xmlFrame{kind: frameStruct, name: n, schema: schema})
}

func (s *xmlSerializer) CloseStruct() { s.pop() }

func (s *xmlSerializer) WriteList(schema *smithy.Schema) {
	f := xmlFrame{kind: frameList, schema: schema, item: "member"}
	if lm := schema.ListMember(); lm != nil {
		if t, ok := smithy.SchemaDirectTrait[*traits.XMLName](lm); ok {
			f.item = t.Name
		}
	}
	if _, flat := smithy.SchemaTrait[*traits.XMLFlattened](schema); flat {
		f.item = s.name(schema)
	} else {
		f.name = s.name(schema)
		s.start(f.name)
	}
	s.stack = append(s.stack, f)
}

func (s *xmlSerializer) CloseList() { s.pop() }

func (s *xmlSerializer) WriteMap(schema *smithy.Schema) {
	n := s.name(schema)
	s.start(n)
	s.stack = append(s.stack, xmlFrame{kind: frameMap, name: n, schema: schema, valueAt: -1})
}

// WriteKey starts a map entry: what is written until the next key (or the
// map's end) is its value.
func (s *xmlSerializer) WriteKey(_ *smithy.Schema, key string) {
	top := s.top()
	if top == nil || top.kind != frameMap {
		return
	}
	s.flushEntry(top)
	top.entries = append(top.entries, mapEntry{key: key})
	top.valueAt = s.buf.Len()
}

// flushEntry ends the value of the map entry being written, if one is.
func (s *xmlSerializer) flushEntry(f *xmlFrame) {
	if f.valueAt < 0 {
		return
	}
	f.entries[len(f.entries)-1].value = bytes.Clone(s.buf.Bytes()[f.valueAt:])
	s.buf.Truncate(f.valueAt)
	f.valueAt = -1
}

func (s *xmlSerializer) CloseMap() {
	top := s.top()
	if top == nil || top.kind != frameMap {
		return
	}
	s.flushEntry(top)
	keyName := "key"
	if k := top.schema.MapKey(); k != nil {
		keyName = ename(k)
	}
	sort.SliceStable(top.entries, func(i, j int) bool { return top.entries[i].key < top.entries[j].key })
	for _, e := range top.entries {
		s.start("entry")
		s.start(keyName)
		s.text(e.key)
		s.end(keyName)
		s.buf.Write(e.value)
		s.end("entry")
	}
	s.pop()
}

func (s *xmlSerializer) pop() {
	top := s.top()
	if top == nil {
		return
	}
	if top.name != "" {
		s.end(top.name)
	}
	s.stack = s.stack[:len(s.stack)-1]
}

func formatFloat(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}
