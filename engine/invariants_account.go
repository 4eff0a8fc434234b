package engine

import (
	"fmt"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

// account checks what is not of one stack: the simulated cloud's objects,
// exports and imports, the task queue.
func (c *checker) account(stacks []*store.StackRecord) {
	c.objects(stacks)
	c.exports(stacks)
	c.tasks()
}

// objects finds leaks: objects a stack made that belong to no resource and
// were not released; and objects owned twice: by two resources, or by one
// and released too (an import adopts a released object: it is no longer
// released; a resource that leaves its stack releases it).
func (c *checker) objects(stacks []*store.StackRecord) {
	owned := map[string]bool{}
	owner := map[string]string{} // the live resource whose object it is
	for _, st := range stacks {
		for _, rec := range c.tx.ResourcesOf(st.Num) {
			if rec.PhysicalResourceId != "" && rec.ResourceStatus != statemachine.ResourceStatusDeleteComplete {
				owned[store.ObjectKey(rec.ResourceType, rec.PhysicalResourceId)] = true
			}
			if rec.PhysicalResourceId == "" || rec.ResourceStatus == statemachine.ResourceStatusDeleteComplete ||
				rec.ResourceStatus == statemachine.ResourceStatusDeleteSkipped || !st.Live() ||
				c.tx.Object(rec.ResourceType, rec.PhysicalResourceId) == nil {
				continue
			}
			k := store.ObjectKey(rec.ResourceType, rec.PhysicalResourceId)
			where := whereResource(st, rec)
			if other, ok := owner[k]; ok {
				c.add(where, "its physical resource %s is also %s's", rec.PhysicalResourceId, other)
			}
			owner[k] = where
			if rel := c.tx.Released(rec.ResourceType, rec.PhysicalResourceId); rel != nil && !importing(rec.ResourceStatus) {
				c.add(where, "its physical resource %s is the stack's (%s) and also released (%s from %s of %s)",
					rec.PhysicalResourceId, rec.ResourceStatus, rel.Why, rel.LogicalId, resources.StackName(rel.StackId))
			}
		}
		for _, rec := range c.tx.RetiredOf(st.Num) {
			if rec.ResourceStatus != statemachine.ResourceStatusDeleteComplete {
				owned[store.ObjectKey(rec.ResourceType, rec.PhysicalResourceId)] = true
			}
		}
	}
	c.tx.Scan(store.TObjects, store.IxID, "", func(r store.Record) bool {
		o := r.(*store.ObjectRecord).Obj
		if o.StackID == "" {
			return true // not made by a stack
		}
		if p, err := c.e.providerOf(o.Type); err == nil && o.Model != nil {
			if id, err := p.PhysicalID(o.Model); err == nil && id != o.ID {
				c.add("objects/"+o.Type+"/"+o.ID, "its model names %q", id)
			}
		}
		k := store.ObjectKey(o.Type, o.ID)
		if !owned[k] && c.tx.Released(o.Type, o.ID) == nil {
			c.add("objects/"+o.Type+"/"+o.ID, "it leaks: made for %s in stack %s, it belongs to no resource and was not released", o.LogicalID, resources.StackName(o.StackID))
		}
		return true
	})
}

// exports checks that every export is an output of the live stack that
// makes it, and that every import names an export of another stack.
func (c *checker) exports(stacks []*store.StackRecord) {
	byID := make(map[string]*store.StackRecord, len(stacks))
	for _, st := range stacks {
		byID[st.StackId] = st
	}
	c.tx.Scan(store.TExports, store.IxID, "", func(r store.Record) bool {
		x := r.(*store.ExportRecord)
		where := "exports/" + x.Name
		st := byID[x.StackId]
		switch {
		case st == nil:
			c.add(where, "it is made by stack %s, which does not exist", x.StackId)
		case !st.Live():
			c.add(where, "it is made by stack %s, which is deleted", st.StackName)
		default:
			found := false
			for _, o := range st.Outputs {
				if o.ExportName == x.Name {
					found = true
					if o.OutputValue != x.Value {
						c.add(where, "its value %q is not the one of output %s of stack %s (%q)", x.Value, o.OutputKey, st.StackName, o.OutputValue)
					}
				}
			}
			if !found {
				c.add(where, "stack %s, which makes it, has no output that exports it", st.StackName)
			}
		}
		return true
	})
	c.tx.Scan(store.TImports, store.IxID, "", func(r store.Record) bool {
		x := r.(*store.ImportRecord)
		where := fmt.Sprintf("imports/%s/%s", x.ExportName, resources.StackName(x.StackId))
		if st := byID[x.StackId]; st == nil || !st.Live() {
			c.add(where, "the importing stack %s does not exist or is deleted", x.StackId)
		}
		if c.tx.Export(x.ExportName) == nil {
			c.add(where, "it imports %s, which no stack exports", x.ExportName)
		}
		return true
	})
}

// tasks checks the queue: every task is of a kind the engine runs, for a
// stack that exists.
func (c *checker) tasks() {
	for _, t := range c.tx.Tasks(nil) {
		where := fmt.Sprintf("tasks/#%d", t.Seq)
		if _, ok := c.e.handlers[t.Kind]; !ok {
			c.add(where, "its kind %q is not one the engine runs", t.Kind)
		}
		if t.StackId != "" && c.tx.StackByID(t.StackId) == nil {
			c.add(where, "it names stack %s, which does not exist", t.StackId)
		}
		if op := c.tx.Operation(t.OperationId); t.OperationId != "" && op != nil && op.StackId != t.StackId {
			c.add(where, "it names operation %s of another stack (%s)", t.OperationId, op.StackId)
		}
	}
}

// importing tells whether a resource is being imported, or its import
// failed or rolls back: the physical resource it names is adopted only when
// the import completes.
func importing(s statemachine.ResourceStatus) bool {
	switch s {
	case statemachine.ResourceStatusImportInProgress, statemachine.ResourceStatusImportFailed,
		statemachine.ResourceStatusImportRollbackInProgress, statemachine.ResourceStatusImportRollbackFailed,
		statemachine.ResourceStatusImportRollbackComplete:
		return true
	}
	return false
}
