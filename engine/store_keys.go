package engine

import (
	"encoding/binary"
	"fmt"
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

// keyNum appends the 4-byte big-endian form of n.
func keyNum(b []byte, n uint32) []byte { return binary.BigEndian.AppendUint32(b, n) }

func numKey(n uint32) []byte { return keyNum(make([]byte, 0, 4), n) }

// keyStr appends s and, when more parts follow, a zero byte.
func keyStr(b []byte, s string, more bool) []byte {
	b = append(b, s...)
	if more {
		b = append(b, 0)
	}
	return b
}

func resourceKey(num uint32, logicalID string) []byte {
	b := make([]byte, 0, 4+len(logicalID))
	return keyStr(keyNum(b, num), logicalID, false)
}

func retiredKey(num uint32, logicalID, physicalID string) []byte {
	b := make([]byte, 0, 5+len(logicalID)+len(physicalID))
	return keyStr(keyStr(keyNum(b, num), logicalID, true), physicalID, false)
}

func chunkKey(num, chunk uint32) []byte {
	return keyNum(keyNum(make([]byte, 0, 8), num), chunk)
}

func importKey(exportName, stackID string) []byte {
	b := make([]byte, 0, 1+len(exportName)+len(stackID))
	return keyStr(keyStr(b, exportName, true), stackID, false)
}

func objectKey(typeName, id string) []byte {
	b := make([]byte, 0, 1+len(typeName)+len(id))
	return keyStr(keyStr(b, typeName, true), id, false)
}

func stepKey(opID string, index uint32) []byte {
	b := make([]byte, 0, 5+len(opID))
	return keyNum(keyStr(b, opID, true), index)
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
	of func(r record) ([]byte, bool)
}

func (x keyIndexer) FromObject(obj any) (bool, []byte, error) {
	r, ok := obj.(record)
	if !ok {
		return false, nil, fmt.Errorf("index %s: %T is not a stored row", x.name, obj)
	}
	k, ok := x.of(r)
	return ok, k, nil
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
