package engine

import (
	"errors"
	"testing"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
)

func TestStoreCloud(t *testing.T) {
	e := newTestEngine(t, Options{})
	c := e.reg.Cloud()
	if _, ok := c.(*store.Cloud); !ok {
		t.Fatalf("the registry's cloud is %T, not the store's", c)
	}
	st := seed(t, e).stack("app")
	// Outside any transaction, each call is its own.
	put := map[string]*resources.Object{}
	for _, id := range []string{"b", "a"} {
		put[id] = &resources.Object{Type: "AWS::S3::Bucket", ID: id, StackID: st.StackId, LogicalID: "B",
			Model: map[string]any{"BucketName": id}}
		if err := c.Put(put[id]); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Put(&resources.Object{Type: "AWS::SNS::Topic", ID: "t"}); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get("AWS::S3::Bucket", "a")
	if err != nil || got == nil || got.Model["BucketName"] != "a" {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	// Objects are values (resources.Cloud): the store keeps the one it is
	// given and hands it out as it is.
	if got != put["a"] {
		t.Fatal("Get returned a copy of the stored object")
	}
	list, _ := c.List("AWS::S3::Bucket")
	if len(list) != 2 || list[0].ID != "a" || list[1].ID != "b" {
		t.Fatalf("List = %+v", list)
	}
	e.mu.Lock()
	objs := e.st.Read().ObjectsOf(st)
	e.mu.Unlock()
	if len(objs) != 2 {
		t.Fatalf("objectsOf = %d objects, want 2", len(objs))
	}
	if ok, _ := c.Delete("AWS::S3::Bucket", "a"); !ok {
		t.Fatal("Delete of an existing object said false")
	}
	if ok, _ := c.Delete("AWS::S3::Bucket", "a"); ok {
		t.Fatal("Delete of a missing object said true")
	}
	if err := c.Put(&resources.Object{Type: "", ID: "x"}); err == nil {
		t.Fatal("an object without a type was stored")
	}

	// Inside a transaction (a handler invocation), the cloud writes through
	// it, and an abort takes the writes back.
	e.mu.Lock()
	err = e.update(func(tx *txn) error {
		if err := c.Put(&resources.Object{Type: "AWS::S3::Bucket", ID: "in-txn"}); err != nil {
			return err
		}
		if o, _ := c.Get("AWS::S3::Bucket", "in-txn"); o == nil {
			return errors.New("the cloud does not see its own write in the transaction")
		}
		return errors.New("refused")
	})
	e.mu.Unlock()
	if err == nil || err.Error() != "refused" {
		t.Fatal(err)
	}
	if o, _ := c.Get("AWS::S3::Bucket", "in-txn"); o != nil {
		t.Fatal("a cloud write of an aborted transaction survived")
	}
}

func TestStoreGenericProviderUsesTheStore(t *testing.T) {
	e := newTestEngine(t, Options{})
	st := seed(t, e).stack("app")
	p, err := e.reg.Provider("AWS::SNS::Topic")
	if err != nil {
		t.Fatal(err)
	}
	req := &resources.Request{Action: resources.ActionCreate, ClientRequestToken: "tok", StackID: st.StackId,
		LogicalResourceIdentifier: "Topic", ResourceType: "AWS::SNS::Topic", Region: "us-east-1",
		AWSAccountID: "123456789012", AWSPartition: "aws", Attempt: 1,
		DesiredResourceState: map[string]any{"TopicName": "t1"}}
	res, err := resources.Drive(ctx(), p, req, 0)
	if err != nil || res.Last().Status != resources.StatusSuccess {
		t.Fatalf("create: %+v %v", res.Last(), err)
	}
	e.mu.Lock()
	objs := e.st.Read().ObjectsOf(st)
	e.mu.Unlock()
	if len(objs) != 1 || objs[0].Obj.LogicalID != "Topic" {
		t.Fatalf("objects of the stack: %+v", objs)
	}
}
