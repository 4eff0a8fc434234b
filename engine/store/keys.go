package store

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Keys are compact byte strings. A stack is named inside keys by its Num, a
// small number given at creation (4 bytes), never by its ARN (about 100
// bytes): every resource, event chunk and cloud object key starts with it,
// so that a stack's rows are one contiguous range of each table.
//
// Layouts (| separates parts, 0 is a zero byte ending a variable part that
// is followed by another):
//
//	stacks      ARN
//	resources   num | logicalID
//	retired     num | logicalID 0 | physicalID
//	events      num | chunk (4 bytes)
//	exports     name
//	imports     exportName 0 | stackARN
//	objects     type 0 | id
//	operations  id
//	steps       operationID 0 | index (4 bytes)
//
// Logical ids, type names, export names and ARNs never hold a zero byte.
// A key is built once, as a string (the overlay's map key); memdb gets it as
// bytes when a transaction commits.

// keyBuilder builds a key with one allocation.
type keyBuilder struct{ b strings.Builder }

func newKey(size int) *keyBuilder {
	k := &keyBuilder{}
	k.b.Grow(size)
	return k
}

func (k *keyBuilder) num(n uint32) *keyBuilder {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], n)
	k.b.Write(b[:])
	return k
}

// str appends s and, when more parts follow, a zero byte.
func (k *keyBuilder) str(s string, more bool) *keyBuilder {
	k.b.WriteString(s)
	if more {
		k.b.WriteByte(0)
	}
	return k
}

func (k *keyBuilder) String() string { return k.b.String() }

// keyBufSize is the size of the lookup buffers on the stack.
const keyBufSize = 192

// appendNum and appendStr build a key into a caller's buffer: lookups use
// them with a buffer on the stack (keyBufSize bytes: a step's key, an
// operation id of about a hundred bytes and an index, fits), and allocate
// nothing when the row is in the transaction's overlay.
func appendNum(b []byte, n uint32) []byte { return binary.BigEndian.AppendUint32(b, n) }

func appendStr(b []byte, s string, more bool) []byte {
	b = append(b, s...)
	if more {
		b = append(b, 0)
	}
	return b
}

func NumKey(n uint32) string { return newKey(4).num(n).String() }

// strKey is s followed by a zero byte: the prefix of every key whose first
// part is s.
func strKey(s string) string { return newKey(len(s)+1).str(s, true).String() }

func ResourceKey(num uint32, logicalID string) string {
	return newKey(4+len(logicalID)).num(num).str(logicalID, false).String()
}

func retiredKey(num uint32, logicalID, physicalID string) string {
	return newKey(5+len(logicalID)+len(physicalID)).num(num).str(logicalID, true).str(physicalID, false).String()
}

func chunkKey(num, chunk uint32) string { return newKey(8).num(num).num(chunk).String() }

func importKey(exportName, stackID string) string {
	return newKey(1+len(exportName)+len(stackID)).str(exportName, true).str(stackID, false).String()
}

func ObjectKey(typeName, id string) string {
	return newKey(1+len(typeName)+len(id)).str(typeName, true).str(id, false).String()
}

func StepKey(opID string, index uint32) string {
	return newKey(5+len(opID)).str(opID, true).num(index).String()
}

// keyIndexer is the go-memdb indexer of every index in the schema: the key
// of a stored row comes from a function of the row, and queries pass the
// key (or a prefix of it) already encoded, as a single []byte argument.
// Reflection-free and allocation-light, unlike memdb's field indexers.
//
// Secondary indexes are declared non-unique, so that memdb appends the
// primary key to theirs and the order in which rows are written cannot
// matter; uniqueness where the model needs it (a live stack's name) is the
// store's own check.
type keyIndexer struct {
	name string
	// of returns the row's key in this index, and false when the row is not
	// in the index.
	of func(r Record) (string, bool)
}

func (x keyIndexer) FromObject(obj any) (bool, []byte, error) {
	r, ok := obj.(Record)
	if !ok {
		return false, nil, fmt.Errorf("index %s: %T is not a stored row", x.name, obj)
	}
	k, ok := x.of(r)
	// memdb keeps the slice as the key of its tree's leaf: a fresh copy.
	return ok, []byte(k), nil
}

func (x keyIndexer) FromArgs(args ...any) ([]byte, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("index %s: want one encoded key, got %d arguments", x.name, len(args))
	}
	k, ok := args[0].([]byte)
	if !ok {
		return nil, fmt.Errorf("index %s: want an encoded key ([]byte), got %T", x.name, args[0])
	}
	return k, nil
}

func (x keyIndexer) PrefixFromArgs(args ...any) ([]byte, error) { return x.FromArgs(args...) }
