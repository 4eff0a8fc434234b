package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
)

// Converting between the engine's shapes and the SDK's. Both carry
// CloudFormation's member names: the engine's as JSON names, the SDK's as
// field names. The conversion means exactly a JSON round trip (marshal the
// source, unmarshal into the target: omitempty fields left out, a null
// leaves the target empty), done by reflection over cached field plans
// instead, since the round trip dominated the cost of a read call. Values
// with JSON methods of their own (other than time.Time) go through JSON.
// Under strictShapes the tests compare every conversion with the round
// trip itself.

var (
	timeType        = reflect.TypeOf(time.Time{})
	marshalerType   = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
)

// convert copies from (a value or a pointer) into to (a pointer). strict
// refuses a source field that the target has no place for; check compares
// the result with the JSON round trip (tests).
func convert(from, to any, strict, check bool) error {
	dst := reflect.ValueOf(to).Elem()
	if err := assign(dst, reflect.ValueOf(from), strict); err != nil {
		return err
	}
	if check {
		want := reflect.New(dst.Type())
		if err := convertJSON(from, want.Interface(), strict); err != nil {
			return err
		}
		if !reflect.DeepEqual(dst.Interface(), want.Elem().Interface()) {
			return fmt.Errorf("converting %T: reflection gave %+v, JSON %+v", from, dst.Interface(), want.Elem().Interface())
		}
	}
	return nil
}

// convertJSON is the round trip that convert stands for.
func convertJSON(from, to any, strict bool) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if strict {
		dec.DisallowUnknownFields()
	}
	return dec.Decode(to)
}

// assign sets dst (settable, zero) from src as the round trip would.
func assign(dst, src reflect.Value, strict bool) error {
	for src.Kind() == reflect.Pointer || src.Kind() == reflect.Interface {
		if src.IsNil() {
			return nil // null: the target stays empty
		}
		src = src.Elem()
	}
	if (src.Type() != timeType && src.Type().Implements(marshalerType)) || reflect.PointerTo(dst.Type()).Implements(unmarshalerType) && dst.Type() != timeType {
		return viaJSON(dst, src)
	}
	if dst.Kind() == reflect.Pointer {
		p := reflect.New(dst.Type().Elem())
		if err := assign(p.Elem(), src, strict); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	}
	switch {
	case dst.Type() == timeType && src.Type() == timeType:
		dst.Set(src)
		return nil
	case dst.Kind() == reflect.String && src.Kind() == reflect.String:
		dst.SetString(src.String())
		return nil
	case dst.Kind() == reflect.Bool && src.Kind() == reflect.Bool:
		dst.SetBool(src.Bool())
		return nil
	case isInt(dst.Kind()) && isInt(src.Kind()):
		if dst.OverflowInt(src.Int()) {
			return fmt.Errorf("%d does not fit a %s", src.Int(), dst.Type())
		}
		dst.SetInt(src.Int())
		return nil
	case dst.Kind() == reflect.Slice && src.Kind() == reflect.Slice:
		if src.IsNil() {
			return nil
		}
		s := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			if err := assign(s.Index(i), src.Index(i), strict); err != nil {
				return err
			}
		}
		dst.Set(s)
		return nil
	case dst.Kind() == reflect.Map && src.Kind() == reflect.Map && dst.Type().Key().Kind() == reflect.String && src.Type().Key().Kind() == reflect.String:
		if src.IsNil() {
			return nil
		}
		m := reflect.MakeMapWithSize(dst.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			v := reflect.New(dst.Type().Elem()).Elem()
			if err := assign(v, it.Value(), strict); err != nil {
				return err
			}
			k := reflect.New(dst.Type().Key()).Elem()
			k.SetString(it.Key().String())
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
		return nil
	case dst.Kind() == reflect.Struct && src.Kind() == reflect.Struct:
		return assignStruct(dst, src, strict)
	}
	return viaJSON(dst, src)
}

func isInt(k reflect.Kind) bool {
	return k == reflect.Int || k == reflect.Int8 || k == reflect.Int16 || k == reflect.Int32 || k == reflect.Int64
}

func viaJSON(dst, src reflect.Value) error {
	b, err := json.Marshal(src.Interface())
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst.Addr().Interface())
}

// fieldPlan says where each source field goes.
type fieldPlan struct {
	fields []fieldMove
}

type fieldMove struct {
	name      string
	src       []int // index path (through embedded structs)
	dst       int   // -1: the target has no such field
	omitEmpty bool
	// fast is what assign would do, decided once from the fields' types
	// for the common moves (a string into a string or a *string, a time
	// into a *time.Time, a bool into a *bool); fastNone leaves it to
	// assign. Under strictShapes (the api tests) every conversion is
	// compared with the JSON round trip it stands for.
	fast fastMove
}

type fastMove uint8

const (
	fastNone fastMove = iota
	fastString
	fastPtrString
	fastPtrTime
	fastPtrBool
)

// fastMoveOf decides a field's fast move from the types assign would look
// at: neither side has JSON methods of its own (then assign goes through
// JSON), and the kinds are those of the move.
func fastMoveOf(dst, src reflect.Type) fastMove {
	plain := func(t reflect.Type) bool {
		return !t.Implements(marshalerType) && !reflect.PointerTo(t).Implements(unmarshalerType)
	}
	if src == timeType {
		// time.Time's JSON methods are not used: assign copies it.
		if dst.Kind() == reflect.Pointer && dst.Elem() == timeType {
			return fastPtrTime
		}
		return fastNone
	}
	if src.Kind() == reflect.Interface || src.Kind() == reflect.Pointer || !plain(src) || !plain(dst) {
		return fastNone
	}
	switch {
	case dst.Kind() == reflect.String && src.Kind() == reflect.String:
		return fastString
	case dst.Kind() == reflect.Pointer && plain(dst.Elem()):
		switch e := dst.Elem(); {
		case e.Kind() == reflect.String && src.Kind() == reflect.String:
			return fastPtrString
		case e.Kind() == reflect.Bool && src.Kind() == reflect.Bool:
			return fastPtrBool
		}
	}
	return fastNone
}

var plans sync.Map // [2]reflect.Type → *fieldPlan

func planOf(dstT, srcT reflect.Type) *fieldPlan {
	key := [2]reflect.Type{dstT, srcT}
	if p, ok := plans.Load(key); ok {
		return p.(*fieldPlan)
	}
	p := &fieldPlan{}
	var walk func(t reflect.Type, path []int)
	walk = func(t reflect.Type, path []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if name == "-" && opts == "" {
				continue
			}
			idx := append(append([]int(nil), path...), i)
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type, idx)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			m := fieldMove{name: name, src: idx, dst: dstField(dstT, name), omitEmpty: strings.Contains(","+opts+",", ",omitempty,")}
			if m.dst >= 0 {
				m.fast = fastMoveOf(dstT.Field(m.dst).Type, f.Type)
			}
			p.fields = append(p.fields, m)
		}
	}
	walk(srcT, nil)
	plans.Store(key, p)
	return p
}

// dstField finds a target field as encoding/json does: the exact name
// first, then the name in any case.
func dstField(t reflect.Type, name string) int {
	if f, ok := t.FieldByName(name); ok && len(f.Index) == 1 && f.IsExported() && f.Tag.Get("json") == "" {
		return f.Index[0]
	}
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() && !f.Anonymous && strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

func assignStruct(dst, src reflect.Value, strict bool) error {
	for _, m := range planOf(dst.Type(), src.Type()).fields {
		v := src.FieldByIndex(m.src)
		if m.omitEmpty && isEmpty(v) {
			continue
		}
		if m.dst < 0 {
			if strict {
				return fmt.Errorf("%s has no field for %s's %s", dst.Type(), src.Type(), m.name)
			}
			continue
		}
		switch d := dst.Field(m.dst); m.fast {
		case fastString:
			d.SetString(v.String())
		case fastPtrString:
			p := reflect.New(d.Type().Elem())
			p.Elem().SetString(v.String())
			d.Set(p)
		case fastPtrTime:
			p := reflect.New(timeType)
			p.Elem().Set(v)
			d.Set(p)
		case fastPtrBool:
			p := reflect.New(d.Type().Elem())
			p.Elem().SetBool(v.Bool())
			d.Set(p)
		default:
			if err := assign(d, v, strict); err != nil {
				return fmt.Errorf("%s: %w", m.name, err)
			}
		}
	}
	return nil
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
