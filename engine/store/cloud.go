package store

import (
	"fmt"
	"sync"

	"github.com/stacksim/stacksim/resources"
)

// Cloud is the simulated cloud on the store: resources.Cloud for the
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
//
// Objects cross the interface as values (resources.Cloud): the store keeps
// the *Object it is given and hands the same one out, never copying — a
// copy would also defeat what the generic provider keeps with an object
// (its answer, made once).
type Cloud struct {
	s  *Store
	mu *sync.Mutex // the engine's
}

// NewCloud returns the cloud on s. mu is the engine's mutex, which every
// transaction of s runs under.
func NewCloud(s *Store, mu *sync.Mutex) *Cloud { return &Cloud{s: s, mu: mu} }

var _ resources.Cloud = (*Cloud)(nil)

// do runs fn in the open write transaction, or in one of its own.
func (c *Cloud) do(fn func(tx *Txn) error) error {
	if tx := c.s.Cur; tx != nil {
		return fn(tx)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	tx := c.s.Begin()
	defer tx.End()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// Get implements resources.Cloud.
func (c *Cloud) Get(typeName, id string) (*resources.Object, error) {
	var out *resources.Object
	err := c.do(func(tx *Txn) error {
		if o := tx.object(typeName, id); o != nil {
			out = o.Obj
		}
		return nil
	})
	return out, err
}

// Put implements resources.Cloud.
func (c *Cloud) Put(obj *resources.Object) error {
	if obj == nil || obj.Type == "" || obj.ID == "" {
		return fmt.Errorf("cloud: an object needs a type and an id")
	}
	return c.do(func(tx *Txn) error { tx.PutObject(obj); return nil })
}

// Delete implements resources.Cloud.
func (c *Cloud) Delete(typeName, id string) (bool, error) {
	var ok bool
	err := c.do(func(tx *Txn) error {
		ok = tx.object(typeName, id) != nil
		if ok {
			tx.Del(TObjects, ObjectKey(typeName, id))
		}
		return nil
	})
	return ok, err
}

// List implements resources.Cloud: the objects of a type in ascending id
// order.
func (c *Cloud) List(typeName string) ([]*resources.Object, error) {
	var out []*resources.Object
	err := c.do(func(tx *Txn) error {
		tx.Scan(TObjects, IxID, strKey(typeName), func(r Record) bool {
			out = append(out, r.(*ObjectRecord).Obj)
			return true
		})
		return nil
	})
	return out, err
}

// object returns the stored object, or nil. The object is shared and never
// changed: put a new one.
func (tx *Txn) object(typeName, id string) *ObjectRecord {
	var buf [keyBufSize]byte
	r := tx.getb(TObjects, appendStr(appendStr(buf[:0], typeName, true), id, false))
	if r == nil {
		return nil
	}
	return r.(*ObjectRecord)
}

// Object returns the object of a type and id, or nil. It is shared and
// never changed.
func (tx *Txn) Object(typeName, id string) *resources.Object {
	if o := tx.object(typeName, id); o != nil {
		return o.Obj
	}
	return nil
}

// Objects returns the objects of a type, in ascending id order.
func (tx *Txn) Objects(typeName string) []*resources.Object {
	var out []*resources.Object
	tx.Scan(TObjects, IxID, strKey(typeName), func(r Record) bool {
		out = append(out, r.(*ObjectRecord).Obj)
		return true
	})
	return out
}

// PutObject stores an object the caller no longer changes, indexed by the
// Num of the stack its StackID names (0 when no stack of the store has it).
func (tx *Txn) PutObject(obj *resources.Object) {
	var num uint32
	if obj.StackID != "" {
		if st := tx.StackByID(obj.StackID); st != nil {
			num = st.Num
		}
	}
	tx.Put(NewObjectRecord(num, obj))
}

// ObjectsOf returns the objects made for a stack, in (type, id) order.
func (tx *Txn) ObjectsOf(st *StackRecord) []*ObjectRecord {
	var out []*ObjectRecord
	tx.Scan(TObjects, ixStack, NumKey(st.Num), func(r Record) bool {
		out = append(out, r.(*ObjectRecord))
		return true
	})
	return out
}
