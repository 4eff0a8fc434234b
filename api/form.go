package api

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	smithy "github.com/aws/smithy-go"
	smithytime "github.com/aws/smithy-go/time"
)

// Decoding a query-protocol form into an aws-sdk-go-v2 input struct,
// generically: the input's schema (the one its Serialize method names)
// says which members exist and what they are; the struct's fields carry
// the members' names (the SDK names a field after its member). The form's
// keys are dotted paths: Member, List.member.N, Map.entry.N.key and
// .value, Struct.Member; lists count from 1. A key present with an empty
// value and nothing below it is an empty list (Tags=): "absent" and
// "present and empty" stay apart, as nil and empty slices.

// formNode is one segment of the form's dotted keys.
type formNode struct {
	value    string
	hasValue bool
	kids     map[string]*formNode
}

// parseFormTree arranges the form's keys as a tree of their segments. The
// first value of a repeated key is the one taken.
func parseFormTree(vals url.Values) *formNode {
	root := &formNode{}
	for key, vs := range vals {
		n := root
		for _, seg := range strings.Split(key, ".") {
			if n.kids == nil {
				n.kids = map[string]*formNode{}
			}
			k := n.kids[seg]
			if k == nil {
				k = &formNode{}
				n.kids[seg] = k
			}
			n = k
		}
		if len(vs) > 0 {
			n.value, n.hasValue = vs[0], true
		}
	}
	return root
}

// formError is a form that cannot be decoded: a value that is not of its
// member's type, a list index that is not a number.
type formError struct {
	path string
	msg  string
}

func (e *formError) Error() string {
	return fmt.Sprintf("1 validation error detected: Value at '%s' failed to satisfy constraint: %s", e.path, e.msg)
}

// lowerFirst is a member's name as AWS writes it in validation messages
// (StackName: stackName).
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func joinPath(path, member string) string {
	if path == "" {
		return lowerFirst(member)
	}
	return path + "." + lowerFirst(member)
}

// decodeForm fills the struct v points to from the form tree, as schema
// describes it.
func decodeForm(root *formNode, schema *smithy.Schema, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("api: decodeForm needs a pointer to a struct, got %T", v)
	}
	return decodeStruct(rv.Elem(), schema, root, "")
}

func decodeStruct(v reflect.Value, schema *smithy.Schema, n *formNode, path string) error {
	if n == nil || len(n.kids) == 0 {
		return nil
	}
	// Members in name order, so that the first error is always the same.
	members := schema.Members()
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		kid := n.kids[name]
		if kid == nil {
			continue
		}
		f := v.FieldByName(name)
		if !f.IsValid() || !f.CanSet() {
			return fmt.Errorf("api: %s has no field for member %s", v.Type(), name)
		}
		if err := decodeValue(f, members[name], kid, joinPath(path, name)); err != nil {
			return err
		}
	}
	return nil
}

// decodeValue sets f from the node, as the member's schema says.
func decodeValue(f reflect.Value, schema *smithy.Schema, n *formNode, path string) error {
	switch schema.Type() {
	case smithy.ShapeTypeStructure, smithy.ShapeTypeUnion:
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				f.Set(reflect.New(f.Type().Elem()))
			}
			f = f.Elem()
		}
		if f.Kind() != reflect.Struct {
			return fmt.Errorf("api: member at %s is a %s, not a struct", path, f.Type())
		}
		return decodeStruct(f, schema, n, path)
	case smithy.ShapeTypeList, smithy.ShapeTypeSet:
		return decodeList(f, schema, n, path)
	case smithy.ShapeTypeMap:
		return decodeMap(f, schema, n, path)
	}
	if len(n.kids) > 0 {
		return &formError{path, "Member must be a value, not a structure"}
	}
	return decodeScalar(f, schema, n.value, path)
}

// indexed returns the children of a list's "member" (or a map's "entry")
// node in the order of their indexes, which must be numbers from 1.
func indexed(n *formNode, seg, path string) ([]*formNode, []int, error) {
	items := n.kids[seg]
	if items == nil {
		if len(n.kids) > 0 {
			for k := range n.kids {
				return nil, nil, &formError{path, fmt.Sprintf("Member must be a list of %s.N values, found %s.%s", seg, path, k)}
			}
		}
		return nil, nil, nil
	}
	idx := make([]int, 0, len(items.kids))
	byIdx := make(map[int]*formNode, len(items.kids))
	for k, kid := range items.kids {
		i, err := strconv.Atoi(k)
		if err != nil || i < 1 || strconv.Itoa(i) != k {
			return nil, nil, &formError{path, fmt.Sprintf("list index '%s' is not a number from 1", k)}
		}
		idx = append(idx, i)
		byIdx[i] = kid
	}
	sort.Ints(idx)
	out := make([]*formNode, len(idx))
	for j, i := range idx {
		out[j] = byIdx[i]
	}
	return out, idx, nil
}

// maxListItems bounds the items of one list in a form (the model's largest
// list limits are in the hundreds; the body cap bounds the rest).
const maxListItems = 10000

func decodeList(f reflect.Value, schema *smithy.Schema, n *formNode, path string) error {
	if f.Kind() != reflect.Slice {
		return fmt.Errorf("api: member at %s is a %s, not a slice", path, f.Type())
	}
	items, idx, err := indexed(n, "member", path)
	if err != nil {
		return err
	}
	if len(items) > maxListItems {
		return &formError{path, fmt.Sprintf("Member must have at most %d items", maxListItems)}
	}
	member := schema.ListMember()
	if member == nil {
		return fmt.Errorf("api: list at %s has no member schema", path)
	}
	s := reflect.MakeSlice(f.Type(), len(items), len(items))
	for j, it := range items {
		if err := decodeValue(s.Index(j), member, it, path+"."+strconv.Itoa(idx[j])+".member"); err != nil {
			return err
		}
	}
	f.Set(s)
	return nil
}

func decodeMap(f reflect.Value, schema *smithy.Schema, n *formNode, path string) error {
	if f.Kind() != reflect.Map || f.Type().Key().Kind() != reflect.String {
		return fmt.Errorf("api: member at %s is a %s, not a map of strings", path, f.Type())
	}
	entries, _, err := indexed(n, "entry", path)
	if err != nil {
		return err
	}
	if len(entries) > maxListItems {
		return &formError{path, fmt.Sprintf("Member must have at most %d entries", maxListItems)}
	}
	keyName, valueName := "key", "value"
	if k := schema.MapKey(); k != nil {
		keyName = k.MemberName()
	}
	vs := schema.MapValue()
	if vs == nil {
		return fmt.Errorf("api: map at %s has no value schema", path)
	}
	valueName = vs.MemberName()
	m := reflect.MakeMapWithSize(f.Type(), len(entries))
	for _, e := range entries {
		k := e.kids[keyName]
		if k == nil || !k.hasValue {
			return &formError{path, "Member must have a key in every entry"}
		}
		val := reflect.New(f.Type().Elem()).Elem()
		if v := e.kids[valueName]; v != nil {
			if err := decodeValue(val, vs, v, path+"."+k.value); err != nil {
				return err
			}
		}
		key := reflect.New(f.Type().Key()).Elem()
		key.SetString(k.value)
		m.SetMapIndex(key, val)
	}
	f.Set(m)
	return nil
}

func decodeScalar(f reflect.Value, schema *smithy.Schema, s, path string) error {
	if f.Kind() == reflect.Pointer {
		p := reflect.New(f.Type().Elem())
		if err := decodeScalar(p.Elem(), schema, s, path); err != nil {
			return err
		}
		f.Set(p)
		return nil
	}
	switch schema.Type() {
	case smithy.ShapeTypeString, smithy.ShapeTypeEnum:
		if f.Kind() != reflect.String {
			break
		}
		f.SetString(s)
		return nil
	case smithy.ShapeTypeBoolean:
		if f.Kind() != reflect.Bool {
			break
		}
		switch strings.ToLower(s) {
		case "true":
			f.SetBool(true)
		case "false":
			f.SetBool(false)
		default:
			return &formError{path, fmt.Sprintf("Member must be true or false, not '%s'", s)}
		}
		return nil
	case smithy.ShapeTypeByte, smithy.ShapeTypeShort, smithy.ShapeTypeInteger, smithy.ShapeTypeLong, smithy.ShapeTypeIntEnum:
		switch f.Kind() {
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
			i, err := strconv.ParseInt(s, 10, f.Type().Bits())
			if err != nil {
				return &formError{path, fmt.Sprintf("Member must be an integer of %d bits, not '%s'", f.Type().Bits(), s)}
			}
			f.SetInt(i)
			return nil
		}
	case smithy.ShapeTypeFloat, smithy.ShapeTypeDouble:
		if f.Kind() == reflect.Float32 || f.Kind() == reflect.Float64 {
			x, err := strconv.ParseFloat(s, f.Type().Bits())
			if err != nil {
				return &formError{path, fmt.Sprintf("Member must be a number, not '%s'", s)}
			}
			f.SetFloat(x)
			return nil
		}
	case smithy.ShapeTypeTimestamp:
		if f.Type() == reflect.TypeOf(time.Time{}) {
			t, err := parseTimestamp(s)
			if err != nil {
				return &formError{path, fmt.Sprintf("Member must be a timestamp (ISO 8601, e.g. 2025-01-01T00:00:00Z, or epoch seconds), not '%s'", s)}
			}
			f.Set(reflect.ValueOf(t))
			return nil
		}
	case smithy.ShapeTypeBlob:
		if f.Type() == reflect.TypeOf([]byte(nil)) {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return &formError{path, "Member must be base64"}
			}
			f.SetBytes(b)
			return nil
		}
	}
	return fmt.Errorf("api: member at %s: cannot decode a %v into %s", path, schema.Type(), f.Type())
}

func parseTimestamp(s string) (time.Time, error) {
	if t, err := smithytime.ParseDateTime(s); err == nil {
		return t, nil
	}
	secs, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return time.Time{}, err
	}
	return smithytime.ParseEpochSeconds(secs), nil
}
