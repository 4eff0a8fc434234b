package engine

import (
	memdb "github.com/hashicorp/go-memdb"
)

// tableID numbers the store's tables.
type tableID uint8

const (
	tStacks tableID = iota
	tResources
	tRetired
	tEvents
	tExports
	tImports
	tObjects
	tOperations
	tSteps
	tReleased
	tChangeSets
	numTables
)

func (t tableID) String() string {
	switch t {
	case tStacks:
		return "stacks"
	case tResources:
		return "resources"
	case tRetired:
		return "retired"
	case tEvents:
		return "events"
	case tExports:
		return "exports"
	case tImports:
		return "imports"
	case tObjects:
		return "objects"
	case tOperations:
		return "operations"
	case tSteps:
		return "steps"
	case tReleased:
		return "released"
	case tChangeSets:
		return "changesets"
	}
	return "unknown"
}

// Index names. Every table has "id", its primary key.
const (
	ixID    = "id"
	ixName  = "name"  // stacks: the name of a live stack
	ixNum   = "num"   // stacks: Num
	ixStack = "stack" // exports, imports, operations, change sets: stack ARN; objects: stack Num
)

// secondary is one secondary index: how a row is keyed in it.
type secondary struct {
	table tableID
	name  string
	of    func(r record) (string, bool)
}

// secondaries lists every secondary index. Each is non-unique in memdb (see
// keyIndexer), and each of its keys ends where the primary key memdb
// appends begins: with a fixed-width field or a zero byte.
func secondaries() []secondary {
	return []secondary{
		{tStacks, ixName, func(r record) (string, bool) {
			s := r.(*stackRecord)
			if !s.live() {
				return "", false
			}
			return strKey(s.StackName), true
		}},
		{tStacks, ixNum, func(r record) (string, bool) { return numKey(r.(*stackRecord).Num), true }},
		{tExports, ixStack, func(r record) (string, bool) { return strKey(r.(*exportRecord).StackId), true }},
		{tImports, ixStack, func(r record) (string, bool) { return strKey(r.(*importRecord).StackId), true }},
		{tObjects, ixStack, func(r record) (string, bool) { return numKey(r.(*objectRecord).Num), true }},
		{tOperations, ixStack, func(r record) (string, bool) { return strKey(r.(*operationRecord).StackId), true }},
		{tChangeSets, ixStack, func(r record) (string, bool) { return strKey(r.(*changeSetRecord).StackId), true }},
	}
}

// schema is the go-memdb schema of the store.
func schema() *memdb.DBSchema {
	s := &memdb.DBSchema{Tables: map[string]*memdb.TableSchema{}}
	for t := tableID(0); t < numTables; t++ {
		name := t.String()
		s.Tables[name] = &memdb.TableSchema{Name: name, Indexes: map[string]*memdb.IndexSchema{
			ixID: {Name: ixID, Unique: true, Indexer: keyIndexer{name: name + "." + ixID,
				of: func(r record) (string, bool) { return r.key(), true }}},
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
