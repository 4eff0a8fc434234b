package resources

import (
	"strconv"
	"strings"
	"testing"
)

// seqWorld creates and deletes objects of registry types through their
// simulated providers, as a stack's steps would.
type seqWorld struct {
	t   *testing.T
	reg *Registry
	n   int
}

func (w *seqWorld) create(typ string, props map[string]any) map[string]any {
	w.t.Helper()
	w.n++
	ev := drive(w.t, registryProvider(w.t, w.reg, typ), newReq(ActionCreate, "R"+strconv.Itoa(w.n), "tok-"+strconv.Itoa(w.n), StringifyModel(props)))
	if ev.Status != StatusSuccess {
		w.t.Fatalf("create %s: %v", typ, ev)
	}
	return ev.ResourceModel
}

func (w *seqWorld) delete(typ string, model map[string]any) {
	w.t.Helper()
	w.n++
	if ev := drive(w.t, registryProvider(w.t, w.reg, typ), newReq(ActionDelete, "R", "tok-"+strconv.Itoa(w.n), model)); ev.Status != StatusSuccess {
		w.t.Fatalf("delete %s: %v", typ, ev)
	}
}

// number is the number that ends a model's value at key.
func number(t *testing.T, m map[string]any, key string) int64 {
	t.Helper()
	s, _ := m[key].(string)
	n, ok := trailingNumber(s)
	if !ok {
		t.Fatalf("%s = %q: no number at its end", key, s)
	}
	return n
}

// A task definition family's revisions are never given twice: not after
// the newest is deregistered, not after all are (AWS keeps the family's
// name and increments the revision); another family counts from 1.
func TestTaskDefinitionRevisionsAreNotReused(t *testing.T) {
	w := &seqWorld{t: t, reg: NewRegistry(RegistryOptions{Seed: 7})}
	const td = "AWS::ECS::TaskDefinition"
	web := map[string]any{"Family": "web"}
	r1 := w.create(td, web)
	r2 := w.create(td, web)
	if a, b := number(t, r1, "TaskDefinitionArn"), number(t, r2, "TaskDefinitionArn"); a != 1 || b != 2 {
		t.Fatalf("revisions %d, %d; want 1, 2", a, b)
	}
	if arn := r1["TaskDefinitionArn"].(string); !strings.HasSuffix(arn, ":task-definition/web:1") {
		t.Errorf("ARN %s", arn)
	}
	if n := number(t, w.create(td, map[string]any{"Family": "worker"}), "TaskDefinitionArn"); n != 1 {
		t.Errorf("another family's first revision is %d, want 1", n)
	}
	w.delete(td, r2)
	r3 := w.create(td, web)
	if n := number(t, r3, "TaskDefinitionArn"); n != 3 {
		t.Errorf("after revision 2 is deregistered the next is %d, want 3", n)
	}
	w.delete(td, r1)
	w.delete(td, r3)
	if n := number(t, w.create(td, web), "TaskDefinitionArn"); n != 4 {
		t.Errorf("after every revision is deregistered the next is %d, want 4", n)
	}
}

// A Lambda function's versions are not numbered again while it lives; the
// function deleted and made again numbers them from 1.
func TestLambdaVersionsStartAgainWithTheirFunction(t *testing.T) {
	w := &seqWorld{t: t, reg: NewRegistry(RegistryOptions{Seed: 7})}
	const fn, ver = "AWS::Lambda::Function", "AWS::Lambda::Version"
	s, ok, err := RegistrySchema(fn)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	props := s.ExampleModel(1)
	props["FunctionName"] = "orders"
	f := w.create(fn, props)
	v1 := w.create(ver, map[string]any{"FunctionName": "orders"})
	v2 := w.create(ver, map[string]any{"FunctionName": "orders"})
	if a, b := number(t, v1, "Version"), number(t, v2, "Version"); a != 1 || b != 2 {
		t.Fatalf("versions %d, %d; want 1, 2", a, b)
	}
	if arn := v2["FunctionArn"].(string); !strings.HasSuffix(arn, ":function:orders:2") {
		t.Errorf("version 2's ARN %s", arn)
	}
	w.delete(ver, v2)
	v3 := w.create(ver, map[string]any{"FunctionName": "orders"})
	if n := number(t, v3, "Version"); n != 3 {
		t.Errorf("after version 2 is deleted the next is %d, want 3", n)
	}
	w.delete(ver, v1)
	w.delete(ver, v3)
	w.delete(fn, f)
	w.create(fn, props)
	if n := number(t, w.create(ver, map[string]any{"FunctionName": "orders"}), "Version"); n != 1 {
		t.Errorf("the function made again numbers its first version %d, want 1", n)
	}
}

// An account saved before sequences were kept has the objects and no
// sequence object (nor the type's marker): the sequence goes on from the
// largest number its group's objects hold, and another family starts at 1.
func TestSequenceGoesOnFromAnAccountWithoutIt(t *testing.T) {
	w := &seqWorld{t: t, reg: NewRegistry(RegistryOptions{Seed: 7})}
	const td = "AWS::ECS::TaskDefinition"
	web := map[string]any{"Family": "web"}
	for i := 0; i < 5; i++ {
		w.create(td, web)
	}
	seqs, err := w.reg.Cloud().List(SequenceType)
	if err != nil || len(seqs) != 2 {
		t.Fatalf("sequences %v, %v; want the family's and the type's marker", seqs, err)
	}
	for _, s := range seqs {
		if _, err := w.reg.Cloud().Delete(SequenceType, s.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n := number(t, w.create(td, web), "TaskDefinitionArn"); n != 6 {
		t.Errorf("next revision %d, want 6", n)
	}
	if n := number(t, w.create(td, map[string]any{"Family": "worker"}), "TaskDefinitionArn"); n != 1 {
		t.Errorf("another family's first revision %d, want 1", n)
	}
}

// listCounting is a Cloud that counts the listings of each type.
type listCounting struct {
	Cloud
	lists map[string]int
}

func (c *listCounting) List(typeName string) ([]*Object, error) {
	c.lists[typeName]++
	return c.Cloud.List(typeName)
}

// Numbering n task definitions of n families looks at the type's objects
// once (to find it has none), not once per create: a stack of many task
// definitions costs n lookups, not n².
func TestSequencesDoNotListTheType(t *testing.T) {
	cloud := &listCounting{Cloud: NewMemCloud(), lists: map[string]int{}}
	w := &seqWorld{t: t, reg: NewRegistry(RegistryOptions{Seed: 7, Cloud: cloud})}
	for i := 0; i < 20; i++ {
		if n := number(t, w.create("AWS::ECS::TaskDefinition", map[string]any{"Family": "f" + strconv.Itoa(i)}), "TaskDefinitionArn"); n != 1 {
			t.Fatalf("family f%d's first revision is %d", i, n)
		}
	}
	if got := cloud.lists["AWS::ECS::TaskDefinition"]; got != 1 {
		t.Errorf("the type's objects listed %d times, want once", got)
	}
}
