package store

import (
	"strings"

	memdb "github.com/hashicorp/go-memdb"
)

// TableID numbers the store's tables.
type TableID uint8

const (
	TStacks TableID = iota
	TResources
	TRetired
	TEvents
	TExports
	TImports
	TObjects
	TOperations
	TSteps
	TReleased
	TChangeSets
	numTables
)

func (t TableID) String() string {
	switch t {
	case TStacks:
		return "stacks"
	case TResources:
		return "resources"
	case TRetired:
		return "retired"
	case TEvents:
		return "events"
	case TExports:
		return "exports"
	case TImports:
		return "imports"
	case TObjects:
		return "objects"
	case TOperations:
		return "operations"
	case TSteps:
		return "steps"
	case TReleased:
		return "released"
	case TChangeSets:
		return "changesets"
	}
	return "unknown"
}

// Index names. Every table has "id", its primary key.
const (
	IxID    = "id"
	ixName  = "name"  // stacks: the name of a live stack
	ixNum   = "num"   // stacks: Num
	ixStack = "stack" // exports, imports, operations, change sets: stack ARN; objects: stack Num
)

// secondary is one secondary index: how a row is keyed in it.
type secondary struct {
	table TableID
	name  string
	of    func(r Record) (string, bool)
	// whole reports whether a prefix is a whole key of the index (a
	// name's strKey, a NumKey), not the start of one.
	whole func(prefix string) bool
}

// wholeStr and wholeNum tell whole keys of the two kinds of index keys: a
// string and its terminating zero byte (strings in keys hold none), a
// 4-byte Num.
func wholeStr(p string) bool { return strings.HasSuffix(p, "\x00") }
func wholeNum(p string) bool { return len(p) == 4 }

// secondaries lists every secondary index. Each is non-unique in memdb (see
// keyIndexer), and each of its keys ends where the primary key memdb
// appends begins: with a fixed-width field or a zero byte.
func secondaries() []secondary {
	return []secondary{
		{TStacks, ixName, func(r Record) (string, bool) {
			s := r.(*StackRecord)
			if !s.Live() {
				return "", false
			}
			return strKey(s.StackName), true
		}, wholeStr},
		{TStacks, ixNum, func(r Record) (string, bool) { return NumKey(r.(*StackRecord).Num), true }, wholeNum},
		{TExports, ixStack, func(r Record) (string, bool) { return strKey(r.(*ExportRecord).StackId), true }, wholeStr},
		{TImports, ixStack, func(r Record) (string, bool) { return strKey(r.(*ImportRecord).StackId), true }, wholeStr},
		{TObjects, ixStack, func(r Record) (string, bool) { return NumKey(r.(*ObjectRecord).Num), true }, wholeNum},
		{TOperations, ixStack, func(r Record) (string, bool) { return strKey(r.(*OperationRecord).StackId), true }, wholeStr},
		{TChangeSets, ixStack, func(r Record) (string, bool) { return strKey(r.(*ChangeSetRecord).StackId), true }, wholeStr},
	}
}

// schema is the go-memdb schema of the store.
func schema() *memdb.DBSchema {
	s := &memdb.DBSchema{Tables: map[string]*memdb.TableSchema{}}
	for t := TableID(0); t < numTables; t++ {
		name := t.String()
		s.Tables[name] = &memdb.TableSchema{Name: name, Indexes: map[string]*memdb.IndexSchema{
			IxID: {Name: IxID, Unique: true, Indexer: keyIndexer{name: name + "." + IxID,
				of: func(r Record) (string, bool) { return r.Key(), true }}},
		}}
	}
	for _, ix := range secondaries() {
		tbl := s.Tables[ix.table.String()]
		tbl.Indexes[ix.name] = &memdb.IndexSchema{
			Name: ix.name, AllowMissing: true,
			Indexer: keyIndexer{name: tbl.Name + "." + ix.name, of: ix.of},
		}
	}
	return s
}

// IndexKey is a row's key in one secondary index: Key, the index's own
// part (the primary key follows it in the index's order).
type IndexKey struct {
	Index string
	Key   string
}

// IndexKeys returns the row's keys in the secondary indexes of its table,
// in a fixed order (a state file keeps the indexes beside the rows).
func IndexKeys(r Record) []IndexKey {
	var out []IndexKey
	for _, ix := range secondaries() {
		if ix.table != r.Table() {
			continue
		}
		if k, ok := ix.of(r); ok {
			out = append(out, IndexKey{Index: ix.name, Key: k})
		}
	}
	return out
}

// Indexes returns the names of the secondary indexes of table t.
func Indexes(t TableID) []string {
	var out []string
	for _, ix := range secondaries() {
		if ix.table == t {
			out = append(out, ix.name)
		}
	}
	return out
}
