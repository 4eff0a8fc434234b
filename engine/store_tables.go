package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/statemachine"
)

// Typed access to the store's tables. Rows returned are shared: copy before
// changing (store_records.go). Lists are in key order.

// --- stacks

// stackByID returns the stack with this ARN (deleted stacks included), or
// nil.
func (tx *txn) stackByID(id string) *stackRecord {
	if r := tx.get(tStacks, id); r != nil {
		return r.(*stackRecord)
	}
	return nil
}

// stackByName returns the live (not DELETE_COMPLETE) stack with this name,
// or nil.
func (tx *txn) stackByName(name string) *stackRecord {
	var out *stackRecord
	tx.scan(tStacks, ixName, strKey(name), func(r record) bool {
		out = r.(*stackRecord)
		return false
	})
	return out
}

// stackByNum returns the stack with this Num, or nil.
func (tx *txn) stackByNum(num uint32) *stackRecord {
	var out *stackRecord
	tx.scan(tStacks, ixNum, numKey(num), func(r record) bool {
		out = r.(*stackRecord)
		return false
	})
	return out
}

// isStackID reports whether s is a stack ARN rather than a name (a name
// cannot contain ':').
func isStackID(s string) bool { return strings.HasPrefix(s, "arn:") }

// findStack returns the stack a StackName parameter names: by ARN, any stack
// (deleted ones included); by name, the live one. nil when there is none.
func (tx *txn) findStack(nameOrID string) *stackRecord {
	if isStackID(nameOrID) {
		return tx.stackByID(nameOrID)
	}
	return tx.stackByName(nameOrID)
}

// checkOperation returns the stack a StackName parameter names (nil when
// there is none) and whether op is allowed on it now
// (statemachine.CheckOperation: an *OperationError with AWS's code and
// message when it is not).
func (tx *txn) checkOperation(op statemachine.Operation, nameOrID string) (*stackRecord, error) {
	st := tx.findStack(nameOrID)
	info := statemachine.StackInfo{StackName: nameOrID}
	if st != nil {
		info = st.info()
	}
	return st, statemachine.CheckOperation(op, info)
}

// putStack writes a stack. A new stack (Num 0) is given its Num here; its
// name must be free (no live stack has it).
func (tx *txn) putStack(st *stackRecord) error {
	if st.StackId == "" || st.StackName == "" {
		return fmt.Errorf("store: a stack needs an id and a name")
	}
	if st.live() {
		if other := tx.stackByName(st.StackName); other != nil && other.StackId != st.StackId {
			return fmt.Errorf("store: stack name %s is taken by %s", st.StackName, other.StackId)
		}
	}
	if st.Num == 0 {
		if tx.stackByID(st.StackId) != nil {
			return fmt.Errorf("store: stack %s exists", st.StackId)
		}
		tx.meta.Stacks++
		st.Num = tx.meta.Stacks
	}
	tx.put(st)
	return nil
}

// allStacks returns every stack, deleted ones included, in creation order.
func (tx *txn) allStacks() []*stackRecord {
	var out []*stackRecord
	tx.scan(tStacks, ixNum, "", func(r record) bool {
		out = append(out, r.(*stackRecord))
		return true
	})
	return out
}

// --- resources

// resource returns the current physical resource of a logical resource, or
// nil.
func (tx *txn) resource(num uint32, logicalID string) *resourceRecord {
	var buf [keyBufSize]byte
	if r := tx.getb(tResources, appendStr(appendNum(buf[:0], num), logicalID, false)); r != nil {
		return r.(*resourceRecord)
	}
	return nil
}

// putResource writes the current physical resource of a logical resource.
func (tx *txn) putResource(r *resourceRecord) {
	if r.Num == 0 || r.StackId == "" || r.Retired != "" {
		panic("store: putResource needs the stack's Num and StackId, and a current resource")
	}
	tx.put(r)
}

// deleteResource removes a logical resource's current record.
func (tx *txn) deleteResource(num uint32, logicalID string) {
	tx.del(tResources, resourceKey(num, logicalID))
}

// resourcesOf returns a stack's current resources, by logical id.
func (tx *txn) resourcesOf(num uint32) []*resourceRecord {
	var out []*resourceRecord
	tx.scan(tResources, ixID, numKey(num), func(r record) bool {
		out = append(out, r.(*resourceRecord))
		return true
	})
	return out
}

// resourcesWithPhysicalID returns every current resource of every stack
// whose physical id is pid. It scans: DescribeStackResources by physical id
// is rare, and an index would cost every resource several hundred bytes.
func (tx *txn) resourcesWithPhysicalID(pid string) []*resourceRecord {
	var out []*resourceRecord
	tx.scan(tResources, ixID, "", func(r record) bool {
		if rr := r.(*resourceRecord); rr.PhysicalResourceId == pid {
			out = append(out, rr)
		}
		return true
	})
	return out
}

// retire moves a logical resource's current physical resource to the
// retired table (why: "Replaced" or "Removed") and returns the retired
// record. The logical resource has no current record afterwards.
func (tx *txn) retire(r *resourceRecord, why string) *resourceRecord {
	if why == "" {
		panic("store: retire needs a reason")
	}
	tx.deleteResource(r.Num, r.LogicalResourceId)
	c := r.clone()
	c.Retired = why
	tx.put(c)
	return c
}

// putRetired writes a retired physical resource.
func (tx *txn) putRetired(r *resourceRecord) {
	if r.Num == 0 || r.StackId == "" || r.Retired == "" {
		panic("store: putRetired needs the stack's Num and StackId, and a retired resource")
	}
	tx.put(r)
}

// retiredRecord returns a retired physical resource, or nil.
func (tx *txn) retiredRecord(num uint32, logicalID, physicalID string) *resourceRecord {
	if r := tx.get(tRetired, retiredKey(num, logicalID, physicalID)); r != nil {
		return r.(*resourceRecord)
	}
	return nil
}

// deleteRetired removes a retired physical resource (its cleanup is done).
func (tx *txn) deleteRetired(r *resourceRecord) {
	tx.del(tRetired, retiredKey(r.Num, r.LogicalResourceId, r.PhysicalResourceId))
}

// retiredOf returns a stack's retired physical resources, by logical and
// physical id.
func (tx *txn) retiredOf(num uint32) []*resourceRecord {
	var out []*resourceRecord
	tx.scan(tRetired, ixID, numKey(num), func(r record) bool {
		out = append(out, r.(*resourceRecord))
		return true
	})
	return out
}

// --- exports and imports

// export returns the export with this name, or nil.
func (tx *txn) export(name string) *exportRecord {
	if r := tx.get(tExports, name); r != nil {
		return r.(*exportRecord)
	}
	return nil
}

// putExport writes an export. Export names are unique in the account and
// region: a name another stack exports is refused.
func (tx *txn) putExport(x *exportRecord) error {
	if old := tx.export(x.Name); old != nil && old.StackId != x.StackId {
		return fmt.Errorf("store: export %s belongs to %s", x.Name, old.StackId)
	}
	tx.put(x)
	return nil
}

// deleteExport removes an export.
func (tx *txn) deleteExport(name string) { tx.del(tExports, name) }

// allExports returns every export, by name.
func (tx *txn) allExports() []*exportRecord {
	var out []*exportRecord
	tx.scan(tExports, ixID, "", func(r record) bool {
		out = append(out, r.(*exportRecord))
		return true
	})
	return out
}

// exportsOf returns the exports of a stack, by name.
func (tx *txn) exportsOf(stackID string) []*exportRecord {
	var out []*exportRecord
	tx.scan(tExports, ixStack, strKey(stackID), func(r record) bool {
		out = append(out, r.(*exportRecord))
		return true
	})
	return out
}

// setImports records the exports a stack imports (replacing what it
// imported before); none removes them all.
func (tx *txn) setImports(stackID string, exportNames []string) {
	for _, x := range tx.importsOf(stackID) {
		tx.del(tImports, x.key())
	}
	for _, name := range exportNames {
		tx.put(&importRecord{ExportName: name, StackId: stackID})
	}
}

// importsOf returns what a stack imports, by export name.
func (tx *txn) importsOf(stackID string) []*importRecord {
	var out []*importRecord
	tx.scan(tImports, ixStack, strKey(stackID), func(r record) bool {
		out = append(out, r.(*importRecord))
		return true
	})
	return out
}

// importers returns the ARNs of the stacks that import an export, in ARN
// order.
func (tx *txn) importers(exportName string) []string {
	var out []string
	tx.scan(tImports, ixID, strKey(exportName), func(r record) bool {
		out = append(out, r.(*importRecord).StackId)
		return true
	})
	return out
}

// --- operations and their steps

// operation returns the operation with this id, or nil.
func (tx *txn) operation(id string) *operationRecord {
	if r := tx.get(tOperations, id); r != nil {
		return r.(*operationRecord)
	}
	return nil
}

// operationOf returns the stack's open operation (in motion, or at rest and
// continuable), or nil.
func (tx *txn) operationOf(stackID string) *operationRecord {
	var out *operationRecord
	tx.scan(tOperations, ixStack, strKey(stackID), func(r record) bool {
		if op := r.(*operationRecord); op.Open {
			out = op
			return false
		}
		return true
	})
	return out
}

// operationsOf returns a stack's operations, in the order they began.
func (tx *txn) operationsOf(stackID string) []*operationRecord {
	var out []*operationRecord
	tx.scan(tOperations, ixStack, strKey(stackID), func(r record) bool {
		out = append(out, r.(*operationRecord))
		return true
	})
	slices.SortFunc(out, func(a, b *operationRecord) int { return int(a.Seq) - int(b.Seq) })
	return out
}

// lastOperationOf returns the stack's latest operation, or nil.
func (tx *txn) lastOperationOf(stackID string) *operationRecord {
	var out *operationRecord
	tx.scan(tOperations, ixStack, strKey(stackID), func(r record) bool {
		if op := r.(*operationRecord); out == nil || op.Seq > out.Seq {
			out = op
		}
		return true
	})
	return out
}

// putOperation writes an operation. A stack has at most one open.
func (tx *txn) putOperation(op *operationRecord) error {
	if op.Id == "" || op.StackId == "" {
		return fmt.Errorf("store: an operation needs an id and a stack")
	}
	if op.Open {
		if other := tx.operationOf(op.StackId); other != nil && other.Id != op.Id {
			return fmt.Errorf("store: stack %s already has operation %s open", op.StackId, other.Id)
		}
	}
	tx.put(op)
	return nil
}

// deleteOperation removes an operation and its steps.
func (tx *txn) deleteOperation(id string) {
	for _, s := range tx.stepsOf(id) {
		tx.del(tSteps, s.key())
	}
	tx.del(tOperations, id)
}

// step returns a step of an operation, or nil.
func (tx *txn) step(opID string, index uint32) *stepRecord {
	var buf [keyBufSize]byte
	if r := tx.getb(tSteps, appendNum(appendStr(buf[:0], opID, true), index)); r != nil {
		return r.(*stepRecord)
	}
	return nil
}

// putStep writes a step.
func (tx *txn) putStep(s *stepRecord) { tx.put(s) }

// stepsOf returns the steps of an operation, by index.
func (tx *txn) stepsOf(opID string) []*stepRecord {
	var out []*stepRecord
	tx.scan(tSteps, ixID, strKey(opID), func(r record) bool {
		out = append(out, r.(*stepRecord))
		return true
	})
	return out
}

// --- released physical resources

// released returns the record of a physical resource a stack let go of, or
// nil.
func (tx *txn) released(typeName, physicalID string) *releasedRecord {
	if r := tx.get(tReleased, objectKey(typeName, physicalID)); r != nil {
		return r.(*releasedRecord)
	}
	return nil
}

// --- change sets

// changeSet returns a change set by ARN, or nil.
func (tx *txn) changeSet(id string) *changeSetRecord {
	if r := tx.get(tChangeSets, id); r != nil {
		return r.(*changeSetRecord)
	}
	return nil
}

// changeSetsOf returns a stack's change sets, in the order they were made.
func (tx *txn) changeSetsOf(stackID string) []*changeSetRecord {
	var out []*changeSetRecord
	tx.scan(tChangeSets, ixStack, strKey(stackID), func(r record) bool {
		out = append(out, r.(*changeSetRecord))
		return true
	})
	slices.SortFunc(out, func(a, b *changeSetRecord) int { return int(a.Seq) - int(b.Seq) })
	return out
}
