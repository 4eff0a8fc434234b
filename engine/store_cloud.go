package engine

import (
	"fmt"
	"sync"

	"github.com/stacksim/stacksim/resources"
)

// storeCloud is the simulated cloud on the store: resources.Cloud for the
// providers of the engine's registry. Objects are the ground truth of what
// exists, against which leaks are measured; each is indexed by the stack
// that made it.
//
// During a handler invocation made by the engine, a write transaction is
// open and the cloud reads and writes through it, so that what a handler
// does is part of the step that called it (and rolled back with it).
// Otherwise each call is a transaction of its own, serialised with the
// engine by the engine's mutex. A provider must call the cloud from the
// goroutine of the handler invocation, as the built-in ones do.
type storeCloud struct {
	s  *store
	mu *sync.Mutex // the engine's
}

var _ resources.Cloud = (*storeCloud)(nil)

// do runs fn in the open write transaction, or in one of its own.
func (c *storeCloud) do(fn func(tx *txn) error) error {
	if tx := c.s.cur; tx != nil {
		return fn(tx)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	tx := c.s.begin()
	defer tx.end()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.commit()
}

// Get implements resources.Cloud.
func (c *storeCloud) Get(typeName, id string) (*resources.Object, error) {
	var out *resources.Object
	err := c.do(func(tx *txn) error {
		if o := tx.object(typeName, id); o != nil {
			out = o.Obj.Clone()
		}
		return nil
	})
	return out, err
}

// Put implements resources.Cloud.
func (c *storeCloud) Put(obj *resources.Object) error {
	if obj == nil || obj.Type == "" || obj.ID == "" {
		return fmt.Errorf("cloud: an object needs a type and an id")
	}
	return c.do(func(tx *txn) error { tx.putObject(obj.Clone()); return nil })
}

// Delete implements resources.Cloud.
func (c *storeCloud) Delete(typeName, id string) (bool, error) {
	var ok bool
	err := c.do(func(tx *txn) error {
		ok = tx.object(typeName, id) != nil
		if ok {
			tx.del(tObjects, objectKey(typeName, id))
		}
		return nil
	})
	return ok, err
}

// List implements resources.Cloud: the objects of a type in ascending id
// order.
func (c *storeCloud) List(typeName string) ([]*resources.Object, error) {
	var out []*resources.Object
	err := c.do(func(tx *txn) error {
		tx.scan(tObjects, ixID, strKey(typeName), func(r record) bool {
			out = append(out, r.(*objectRecord).Obj.Clone())
			return true
		})
		return nil
	})
	return out, err
}

// object returns the stored object, or nil. The object is shared: clone it
// before changing it.
func (tx *txn) object(typeName, id string) *objectRecord {
	var buf [keyBufSize]byte
	r := tx.getb(tObjects, appendStr(appendStr(buf[:0], typeName, true), id, false))
	if r == nil {
		return nil
	}
	return r.(*objectRecord)
}

// putObject stores an object the caller no longer changes, indexed by the
// Num of the stack its StackID names (0 when no stack of the store has it).
func (tx *txn) putObject(obj *resources.Object) {
	var num uint32
	if obj.StackID != "" {
		if st := tx.stackByID(obj.StackID); st != nil {
			num = st.Num
		}
	}
	tx.put(newObjectRecord(num, obj))
}

// objectsOf returns the objects made for a stack, in (type, id) order.
func (tx *txn) objectsOf(st *stackRecord) []*objectRecord {
	var out []*objectRecord
	tx.scan(tObjects, ixStack, numKey(st.Num), func(r record) bool {
		out = append(out, r.(*objectRecord))
		return true
	})
	return out
}
