package store

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/statemachine"
)

// Typed access to the store's tables. Rows returned are shared: copy before
// changing (records.go). Lists are in key order.

// --- stacks

// StackByID returns the stack with this ARN (deleted stacks included), or
// nil.
func (tx *Txn) StackByID(id string) *StackRecord {
	if r := tx.get(TStacks, id); r != nil {
		return r.(*StackRecord)
	}
	return nil
}

// StackByName returns the live (not DELETE_COMPLETE) stack with this name,
// or nil.
func (tx *Txn) StackByName(name string) *StackRecord {
	var out *StackRecord
	tx.Scan(TStacks, ixName, strKey(name), func(r Record) bool {
		out = r.(*StackRecord)
		return false
	})
	return out
}

// LiveStacks counts the live stacks (not DELETE_COMPLETE), up to max: it
// visits the live stacks only, not every stack the account ever made.
func (tx *Txn) LiveStacks(max int) int {
	n := 0
	tx.Scan(TStacks, ixName, "", func(Record) bool {
		n++
		return n < max
	})
	return n
}

// StackByNum returns the stack with this Num, or nil.
func (tx *Txn) StackByNum(num uint32) *StackRecord {
	var out *StackRecord
	tx.Scan(TStacks, ixNum, NumKey(num), func(r Record) bool {
		out = r.(*StackRecord)
		return false
	})
	return out
}

// isStackID reports whether s is a stack ARN rather than a name (a name
// cannot contain ':').
func isStackID(s string) bool { return strings.HasPrefix(s, "arn:") }

// FindStack returns the stack a StackName parameter names: by ARN, any stack
// (deleted ones included); by name, the live one. nil when there is none.
func (tx *Txn) FindStack(nameOrID string) *StackRecord {
	if isStackID(nameOrID) {
		return tx.StackByID(nameOrID)
	}
	return tx.StackByName(nameOrID)
}

// CheckOperation returns the stack a StackName parameter names (nil when
// there is none) and whether op is allowed on it now
// (statemachine.CheckOperation: an *OperationError with AWS's code and
// message when it is not).
func (tx *Txn) CheckOperation(op statemachine.Operation, nameOrID string) (*StackRecord, error) {
	st := tx.FindStack(nameOrID)
	info := statemachine.StackInfo{StackName: nameOrID}
	if st != nil {
		info = st.Info()
	}
	return st, statemachine.CheckOperation(op, info)
}

// PutStack writes a stack. A new stack (Num 0) is given its Num here; its
// name must be free (no live stack has it).
func (tx *Txn) PutStack(st *StackRecord) error {
	if st.StackId == "" || st.StackName == "" {
		return fmt.Errorf("store: a stack needs an id and a name")
	}
	if st.Live() {
		if other := tx.StackByName(st.StackName); other != nil && other.StackId != st.StackId {
			return fmt.Errorf("store: stack name %s is taken by %s", st.StackName, other.StackId)
		}
	}
	if st.Num == 0 {
		if tx.StackByID(st.StackId) != nil {
			return fmt.Errorf("store: stack %s exists", st.StackId)
		}
		tx.Meta.Stacks++
		st.Num = tx.Meta.Stacks
	}
	tx.Put(st)
	return nil
}

// AllStacks returns every stack, deleted ones included, in creation order.
func (tx *Txn) AllStacks() []*StackRecord {
	var out []*StackRecord
	tx.Scan(TStacks, ixNum, "", func(r Record) bool {
		out = append(out, r.(*StackRecord))
		return true
	})
	return out
}

// --- resources

// Resource returns the current physical resource of a logical resource, or
// nil.
func (tx *Txn) Resource(num uint32, logicalID string) *ResourceRecord {
	var buf [keyBufSize]byte
	if r := tx.getb(TResources, appendStr(appendNum(buf[:0], num), logicalID, false)); r != nil {
		return r.(*ResourceRecord)
	}
	return nil
}

// PutResource writes the current physical resource of a logical resource.
func (tx *Txn) PutResource(r *ResourceRecord) {
	if r.Num == 0 || r.StackId == "" || r.Retired != "" {
		panic("store: putResource needs the stack's Num and StackId, and a current resource")
	}
	if !r.pkValid() {
		r.pk = ResourceKey(r.Num, r.LogicalResourceId) // r is the caller's fresh copy
	}
	tx.Put(r)
}

// DeleteResource removes a logical resource's current record.
func (tx *Txn) DeleteResource(num uint32, logicalID string) {
	tx.Del(TResources, ResourceKey(num, logicalID))
}

// ResourcesOf returns a stack's current resources, by logical id.
func (tx *Txn) ResourcesOf(num uint32) []*ResourceRecord {
	var out []*ResourceRecord
	tx.Scan(TResources, IxID, NumKey(num), func(r Record) bool {
		out = append(out, r.(*ResourceRecord))
		return true
	})
	return out
}

// ResourcesWithPhysicalID returns every current resource of every stack
// whose physical id is pid. It scans: DescribeStackResources by physical id
// is rare, and an index would cost every resource several hundred bytes.
func (tx *Txn) ResourcesWithPhysicalID(pid string) []*ResourceRecord {
	var out []*ResourceRecord
	tx.Scan(TResources, IxID, "", func(r Record) bool {
		if rr := r.(*ResourceRecord); rr.PhysicalResourceId == pid {
			out = append(out, rr)
		}
		return true
	})
	return out
}

// Retire moves a logical resource's current physical resource to the
// retired table (why: "Replaced" or "Removed") and returns the retired
// record. The logical resource has no current record afterwards.
func (tx *Txn) Retire(r *ResourceRecord, why string) *ResourceRecord {
	if why == "" {
		panic("store: retire needs a reason")
	}
	tx.DeleteResource(r.Num, r.LogicalResourceId)
	c := r.Clone()
	c.Retired = why
	tx.Put(c)
	return c
}

// PutRetired writes a retired physical resource.
func (tx *Txn) PutRetired(r *ResourceRecord) {
	if r.Num == 0 || r.StackId == "" || r.Retired == "" {
		panic("store: putRetired needs the stack's Num and StackId, and a retired resource")
	}
	tx.Put(r)
}

// RetiredRecord returns a retired physical resource, or nil.
func (tx *Txn) RetiredRecord(num uint32, logicalID, physicalID string) *ResourceRecord {
	if r := tx.get(TRetired, retiredKey(num, logicalID, physicalID)); r != nil {
		return r.(*ResourceRecord)
	}
	return nil
}

// DeleteRetired removes a retired physical resource (its cleanup is done).
func (tx *Txn) DeleteRetired(r *ResourceRecord) {
	tx.Del(TRetired, retiredKey(r.Num, r.LogicalResourceId, r.PhysicalResourceId))
}

// RetiredOf returns a stack's retired physical resources, by logical and
// physical id.
func (tx *Txn) RetiredOf(num uint32) []*ResourceRecord {
	var out []*ResourceRecord
	tx.Scan(TRetired, IxID, NumKey(num), func(r Record) bool {
		out = append(out, r.(*ResourceRecord))
		return true
	})
	return out
}

// --- exports and imports

// Export returns the export with this name, or nil.
func (tx *Txn) Export(name string) *ExportRecord {
	if r := tx.get(TExports, name); r != nil {
		return r.(*ExportRecord)
	}
	return nil
}

// PutExport writes an export. Export names are unique in the account and
// region: a name another stack exports is refused.
func (tx *Txn) PutExport(x *ExportRecord) error {
	if old := tx.Export(x.Name); old != nil && old.StackId != x.StackId {
		return fmt.Errorf("store: export %s belongs to %s", x.Name, old.StackId)
	}
	tx.Put(x)
	return nil
}

// DeleteExport removes an export.
func (tx *Txn) DeleteExport(name string) { tx.Del(TExports, name) }

// ExportsOf returns the exports of a stack, by name.
func (tx *Txn) ExportsOf(stackID string) []*ExportRecord {
	var out []*ExportRecord
	tx.Scan(TExports, ixStack, strKey(stackID), func(r Record) bool {
		out = append(out, r.(*ExportRecord))
		return true
	})
	return out
}

// SetImports records the exports a stack imports (replacing what it
// imported before); none removes them all.
func (tx *Txn) SetImports(stackID string, exportNames []string) {
	for _, x := range tx.importsOf(stackID) {
		tx.Del(TImports, x.Key())
	}
	for _, name := range exportNames {
		tx.Put(&ImportRecord{ExportName: name, StackId: stackID})
	}
}

// importsOf returns what a stack imports, by export name.
func (tx *Txn) importsOf(stackID string) []*ImportRecord {
	var out []*ImportRecord
	tx.Scan(TImports, ixStack, strKey(stackID), func(r Record) bool {
		out = append(out, r.(*ImportRecord))
		return true
	})
	return out
}

// Importers returns the ARNs of the stacks that import an export, in ARN
// order.
func (tx *Txn) Importers(exportName string) []string {
	var out []string
	tx.Scan(TImports, IxID, strKey(exportName), func(r Record) bool {
		out = append(out, r.(*ImportRecord).StackId)
		return true
	})
	return out
}

// --- operations and their steps

// Operation returns the operation with this id, or nil.
func (tx *Txn) Operation(id string) *OperationRecord {
	if r := tx.get(TOperations, id); r != nil {
		return r.(*OperationRecord)
	}
	return nil
}

// OperationOf returns the stack's open operation (in motion, or at rest and
// continuable), or nil.
func (tx *Txn) OperationOf(stackID string) *OperationRecord {
	var out *OperationRecord
	tx.Scan(TOperations, ixStack, strKey(stackID), func(r Record) bool {
		if op := r.(*OperationRecord); op.Open {
			out = op
			return false
		}
		return true
	})
	return out
}

// OperationsOf returns a stack's operations, in the order they began.
func (tx *Txn) OperationsOf(stackID string) []*OperationRecord {
	var out []*OperationRecord
	tx.Scan(TOperations, ixStack, strKey(stackID), func(r Record) bool {
		out = append(out, r.(*OperationRecord))
		return true
	})
	slices.SortFunc(out, func(a, b *OperationRecord) int { return int(a.Seq) - int(b.Seq) })
	return out
}

// LastOperationOf returns the stack's latest operation, or nil.
func (tx *Txn) LastOperationOf(stackID string) *OperationRecord {
	var out *OperationRecord
	tx.Scan(TOperations, ixStack, strKey(stackID), func(r Record) bool {
		if op := r.(*OperationRecord); out == nil || op.Seq > out.Seq {
			out = op
		}
		return true
	})
	return out
}

// PutOperation writes an operation. A stack has at most one open.
func (tx *Txn) PutOperation(op *OperationRecord) error {
	if op.Id == "" || op.StackId == "" {
		return fmt.Errorf("store: an operation needs an id and a stack")
	}
	if op.Open {
		if other := tx.OperationOf(op.StackId); other != nil && other.Id != op.Id {
			return fmt.Errorf("store: stack %s already has operation %s open", op.StackId, other.Id)
		}
	}
	tx.Put(op)
	return nil
}

// DeleteOperation removes an operation and its steps.
func (tx *Txn) DeleteOperation(id string) {
	for _, s := range tx.StepsOf(id) {
		tx.Del(TSteps, s.Key())
	}
	tx.Del(TOperations, id)
}

// Step returns a step of an operation, or nil.
func (tx *Txn) Step(opID string, index uint32) *StepRecord {
	var buf [keyBufSize]byte
	if r := tx.getb(TSteps, appendNum(appendStr(buf[:0], opID, true), index)); r != nil {
		return r.(*StepRecord)
	}
	return nil
}

// PutStep writes a step.
func (tx *Txn) PutStep(s *StepRecord) { tx.Put(s) }

// StepsOf returns the steps of an operation, by index.
func (tx *Txn) StepsOf(opID string) []*StepRecord {
	var out []*StepRecord
	tx.Scan(TSteps, IxID, strKey(opID), func(r Record) bool {
		out = append(out, r.(*StepRecord))
		return true
	})
	return out
}

// --- released physical resources

// Released returns the record of a physical resource a stack let go of, or
// nil.
func (tx *Txn) Released(typeName, physicalID string) *ReleasedRecord {
	if r := tx.get(TReleased, ObjectKey(typeName, physicalID)); r != nil {
		return r.(*ReleasedRecord)
	}
	return nil
}

// --- change sets

// ChangeSet returns a change set by ARN, or nil.
func (tx *Txn) ChangeSet(id string) *ChangeSetRecord {
	if r := tx.get(TChangeSets, id); r != nil {
		return r.(*ChangeSetRecord)
	}
	return nil
}

// ChangeSetsOf returns a stack's change sets, in the order they were made.
func (tx *Txn) ChangeSetsOf(stackID string) []*ChangeSetRecord {
	var out []*ChangeSetRecord
	tx.Scan(TChangeSets, ixStack, strKey(stackID), func(r Record) bool {
		out = append(out, r.(*ChangeSetRecord))
		return true
	})
	slices.SortFunc(out, func(a, b *ChangeSetRecord) int { return int(a.Seq) - int(b.Seq) })
	return out
}
