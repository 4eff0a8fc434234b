package resources

import (
	"encoding/json"
	"strconv"
)

// Sequences. {$seq:Group} numbers the objects of a type that share the
// value of their Group property, as AWS numbers task definition revisions
// (by Family), Lambda versions (by function) and state machine versions
// (by state machine): 1, 2, 3, ... AWS never gives a number twice. A
// deregistered task definition's revision is not given again ("The task
// definition name is retained by Amazon ECS and the revision is
// incremented the next time you create a task definition with that
// name", Deleting an Amazon ECS task definition revision), nor a deleted
// Lambda or state machine version's while its function or state machine
// lives. Versions start again at 1 when the function or state machine
// they belong to is deleted and made again (sequenceOwners).
//
// So the last number a group was given is kept in the Cloud, beside the
// objects, as an object of type SequenceType that no stack owns: it is
// saved with the account, taken back with a rolled-back step, and found
// in one lookup (listing the type's objects for each create made a stack
// of n task definitions cost n² lookups). A group that has no such object
// yet starts from 1, or, in an account saved before sequences were kept
// (sequencesKept), from the largest number its objects hold.

// SequenceType is the type of the Cloud's objects that keep the last
// number of a sequence. It is no resource type (it has no "::" triple of
// AWS's form), and its objects belong to no stack.
const SequenceType = "Stacksim::Internal::Sequence"

// sequenceOwners are the types whose objects own the sequences of others:
// deleting a Lambda function ends the sequence of its versions (by its
// name or ARN, as a version's FunctionName gives it), deleting a state
// machine the sequence of its versions.
var sequenceOwners = map[string]struct {
	numbered string   // the type whose objects the sequence numbers
	groups   []string // the owner's properties whose value is the group's
}{
	"AWS::Lambda::Function":            {"AWS::Lambda::Version", []string{"/FunctionName", "/Arn"}},
	"AWS::StepFunctions::StateMachine": {"AWS::StepFunctions::StateMachineVersion", []string{"/Arn"}},
}

// sequenceID is the id of the object that keeps the sequence of a type's
// objects at path in one group: the type, the group's value and the path.
func sequenceID(typeName, path string, group any) string {
	g, ok := scalarString(group)
	if !ok {
		b, _ := json.Marshal(group) // map keys sorted: the same value, the same id
		g = string(b)
	}
	return typeName + " " + g + " " + path
}

// sequence is {$seq:group}: the next number of the sequence of the
// type's objects at path whose group property equals model's, which it
// takes (the number that ends the value: a Lambda version's "3", a task
// definition ARN's ":3").
func (g *generic) sequence(path, group string, model map[string]any) (int64, error) {
	want, _ := Get(model, "/"+group)
	id := sequenceID(g.schema.TypeName, path, want)
	kept, err := g.cloud.Get(SequenceType, id)
	if err != nil {
		return 0, err
	}
	var last int64
	if kept != nil {
		s, _ := kept.Model["Last"].(string)
		last, _ = strconv.ParseInt(s, 10, 64)
	} else if all, err := g.sequencesKept(); err != nil {
		return 0, err
	} else if !all {
		if last, err = g.largestInGroup(path, group, want); err != nil {
			return 0, err
		}
	}
	next := last + 1
	obj := &Object{Type: SequenceType, ID: id, Model: map[string]any{
		"Type": g.schema.TypeName, "Group": want, "Path": path, "Last": strconv.FormatInt(next, 10)}}
	if err := g.cloud.Put(obj); err != nil {
		return 0, err
	}
	return next, nil
}

// sequencesKept tells whether every sequence of the type's objects is
// kept: the type has a marker (a SequenceType object whose id is the type's
// name), put when its first numbered object was made. A group without a
// kept sequence then has no object yet, and starts from 1 without a look
// at the type's objects. An account saved before sequences were kept has
// objects of the type and no marker: each new group looks at them
// (largestInGroup).
func (g *generic) sequencesKept() (bool, error) {
	marker, err := g.cloud.Get(SequenceType, g.schema.TypeName)
	if err != nil || marker != nil {
		return marker != nil, err
	}
	objs, err := g.cloud.List(g.schema.TypeName)
	if err != nil || len(objs) > 0 {
		return false, err
	}
	return true, g.cloud.Put(&Object{Type: SequenceType, ID: g.schema.TypeName, Model: map[string]any{"Type": g.schema.TypeName}})
}

// largestInGroup is the largest number at path among the type's objects
// in the group: where a sequence that is not kept yet goes on from.
func (g *generic) largestInGroup(path, group string, want any) (int64, error) {
	objs, err := g.cloud.List(g.schema.TypeName)
	if err != nil {
		return 0, err
	}
	var largest int64
	for _, o := range objs {
		if v, ok := Get(o.Model, "/"+group); !ok || !LooseEqual(v, want) {
			continue
		}
		if v, ok := Get(o.Model, path); ok {
			if s, ok := scalarString(v); ok {
				if n, ok := trailingNumber(s); ok && n > largest {
					largest = n
				}
			}
		}
	}
	return largest, nil
}

// EndSequences deletes the sequences obj owned (sequenceOwners), when it
// is deleted: a function made again under the same name numbers its
// versions from 1. The generic provider calls it when it deletes an
// object; whoever deletes one behind its back (the engine's DriftResource,
// someone deleting it by hand) calls it too.
func EndSequences(c Cloud, obj *Object) error {
	owner, ok := sequenceOwners[obj.Type]
	if !ok {
		return nil
	}
	var values []string
	for _, p := range owner.groups {
		if v, ok := Get(obj.Model, p); ok {
			if s, ok := scalarString(v); ok && s != "" {
				values = append(values, s)
			}
		}
	}
	if len(values) == 0 {
		return nil
	}
	seqs, err := c.List(SequenceType)
	if err != nil {
		return err
	}
	for _, s := range seqs {
		t, _ := s.Model["Type"].(string)
		g, _ := scalarString(s.Model["Group"])
		if t != owner.numbered || !contains(values, g) {
			continue
		}
		if _, err := c.Delete(SequenceType, s.ID); err != nil {
			return err
		}
	}
	return nil
}
