package resources

import (
	"fmt"
	"reflect"
	"sort"
	"sync"
)

// Object is one thing that exists in the simulated cloud: what a simulated
// provider made. The engine uses objects as the ground truth for leak checks.
type Object struct {
	// Type is the resource type (AWS::S3::Bucket).
	Type string
	// ID is the physical id (composite identifiers joined with "|").
	ID string
	// Model is the resource's full model, writeOnly properties included.
	Model map[string]any
	// StackID and LogicalID are the stack and logical id whose request made
	// the object; RequestToken is that request's client request token.
	StackID      string
	LogicalID    string
	RequestToken string

	// answer is Model as the provider that made the object answers it
	// (writeOnly properties removed), made once when it was made; it holds
	// only while Model is the very map it was made from, under the same
	// schema (models are never changed in place: see Cloud).
	answer       map[string]any
	answerOf     map[string]any
	answerSchema *Schema
	// lastStep is the callback context of the last step of a simulated
	// duration for this object (lastStepContext), made once and
	// shared by its create, update and delete (contexts are never changed
	// in place either).
	lastStep map[string]any
}

// answerFor is o's cached answer under s, or nil and false.
func (o *Object) answerFor(s *Schema) (map[string]any, bool) {
	if o.answerSchema != s || o.answerOf == nil || !SameModel(o.answerOf, o.Model) {
		return nil, false
	}
	return o.answer, true
}

// SameModel reports whether a and b are the same map (not equal ones):
// models are never changed in place once handed over, so the same map is
// the same model (the engine and the contract checker skip work on it).
func SameModel(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// Clone returns a deep copy of o.
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	c := *o
	c.Model = CopyModel(o.Model)
	return &c
}

// Cloud is the simulated cloud's store: objects keyed by type and physical
// id. The engine implements it on its go-memdb store; MemCloud is a plain
// in-memory one. List answers in ascending ID order, so that providers stay
// deterministic.
//
// Ownership: what crosses this interface is immutable. The *Object given to
// Put, with its Model, belongs to the Cloud from then on (the caller
// changes neither); the *Object that Get and List return, with its Model,
// may be the very one the Cloud stores, and is read only. To change an
// object, Put a new one, copying what changes (a model is a value: build a
// new map rather than change one, CopyModel or a copy of the path that
// changes). Implementations may share (MemCloud keeps and returns what it
// is given) or copy (always correct, only slower).
type Cloud interface {
	// Get returns the object, or nil (and no error) when there is none.
	Get(typeName, id string) (*Object, error)
	// Put stores an object, replacing one with the same type and id. The
	// Cloud owns obj and obj.Model from then on.
	Put(obj *Object) error
	// Delete removes an object and reports whether it was there.
	Delete(typeName, id string) (bool, error)
	// List returns the objects of a type in ascending ID order.
	List(typeName string) ([]*Object, error)
}

// MemCloud is an in-memory Cloud, safe for concurrent use. It keeps the
// objects it is given and returns them as they are, never copying (see
// Cloud).
type MemCloud struct {
	mu      sync.RWMutex
	objects map[string]map[string]*Object
}

// NewMemCloud returns an empty MemCloud.
func NewMemCloud() *MemCloud { return &MemCloud{objects: map[string]map[string]*Object{}} }

// Get implements Cloud.
func (c *MemCloud) Get(typeName, id string) (*Object, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.objects[typeName][id], nil
}

// Put implements Cloud.
func (c *MemCloud) Put(obj *Object) error {
	if obj == nil || obj.Type == "" || obj.ID == "" {
		return fmt.Errorf("cloud: an object needs a type and an id")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	byID := c.objects[obj.Type]
	if byID == nil {
		byID = map[string]*Object{}
		c.objects[obj.Type] = byID
	}
	byID[obj.ID] = obj
	return nil
}

// Delete implements Cloud.
func (c *MemCloud) Delete(typeName, id string) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.objects[typeName][id]
	delete(c.objects[typeName], id)
	return ok, nil
}

// List implements Cloud.
func (c *MemCloud) List(typeName string) ([]*Object, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	byID := c.objects[typeName]
	out := make([]*Object, 0, len(byID))
	for _, o := range byID {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Len is the number of objects of every type (for tests and leak checks).
func (c *MemCloud) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := 0
	for _, byID := range c.objects {
		n += len(byID)
	}
	return n
}
