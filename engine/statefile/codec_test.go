package statefile

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
)

// Every kind of row comes back from its stored value as it was, and a
// value damaged in any byte, or read under another key, is refused.
func TestCodecRoundTrip(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 5, 0, time.UTC)
	stack := &store.StackRecord{Num: 3, StackId: "arn:aws:cloudformation:us-east-1:123456789012:stack/app/x", StackName: "app",
		StackStatus: "CREATE_COMPLETE", CreationTime: now, TemplateBody: "Resources: {}", Outputs: []store.Output{{OutputKey: "K", OutputValue: "V"}}}
	rows := []store.Record{
		stack,
		&store.ResourceRecord{Num: 3, StackId: stack.StackId, LogicalResourceId: "Queue", PhysicalResourceId: "q",
			ResourceType: "AWS::SQS::Queue", ResourceStatus: "CREATE_COMPLETE",
			Properties: map[string]any{"N": json.Number("12345678901234567890.5"), "L": []any{"a", true}}},
		&store.ResourceRecord{Num: 3, StackId: stack.StackId, LogicalResourceId: "Queue", PhysicalResourceId: "old",
			ResourceType: "AWS::SQS::Queue", ResourceStatus: "UPDATE_COMPLETE", Retired: "Replaced"},
		&store.EventChunk{Num: 3, Chunk: 1, Events: []store.EventRecord{
			{Time: now.UnixNano(), Logical: "app", Physical: stack.StackId, Type: store.StackResourceType, Status: "CREATE_IN_PROGRESS", Reason: "User Initiated", OfStack: true},
			{Time: now.UnixNano(), Logical: "Queue", Type: "AWS::SQS::Queue", Status: "CREATE_IN_PROGRESS", Properties: `{"A":"b\"c"}`, Token: "t"},
			{Time: now.UnixNano(), Logical: "Queue", Physical: "q", Type: "AWS::SQS::Queue", Status: "CREATE_IN_PROGRESS", Reason: "Resource creation Initiated", Dup: 1},
		}},
		&store.ExportRecord{Name: "e", Value: "v", StackId: stack.StackId},
		&store.ImportRecord{ExportName: "e", StackId: "arn:other"},
		store.NewObjectRecord(3, &resources.Object{Type: "AWS::SQS::Queue", ID: "q", StackID: stack.StackId, LogicalID: "Queue",
			Model: map[string]any{"QueueUrl": "q", "N": json.Number("3.0")}}),
		&store.OperationRecord{Id: stack.StackId + "/op/1", StackId: stack.StackId, Kind: "CreateStack", StartTime: now, Seq: 1},
		&store.StepRecord{OperationId: stack.StackId + "/op/1", Index: 7, LogicalId: "Queue", State: store.StepDone},
		&store.ReleasedRecord{Type: "AWS::SQS::Queue", PhysicalId: "kept", StackId: stack.StackId, LogicalId: "Q", Why: "retained", Time: now},
		&store.ChangeSetRecord{Id: "arn:cs", Name: "cs", StackId: stack.StackId, StackName: "app", Seq: 2, Type: "UPDATE",
			Status: "CREATE_COMPLETE", ExecutionStatus: "AVAILABLE", CreationTime: now},
	}
	in := interner{}
	for _, r := range rows {
		k := r.Key()
		val, idx, err := encodeValue(newRowEncoder(), k, r)
		if err != nil {
			t.Fatal(err)
		}
		v, err := splitValue(k, val)
		if err != nil {
			t.Fatalf("%s: %v", r.Table(), err)
		}
		if len(v.idx)+len(idx) > 0 && !reflect.DeepEqual(v.idx, idx) {
			t.Errorf("%s: index keys %v, want %v", r.Table(), v.idx, idx)
		}
		back, err := decodeRow(r.Table(), k, v.payload, in)
		if err != nil {
			t.Fatalf("%s: %v", r.Table(), err)
		}
		want := r
		if c, ok := r.(*store.EventChunk); ok {
			// Properties of a stored event come back as their JSON text.
			c2 := *c
			c2.Events = append([]store.EventRecord(nil), c.Events...)
			want = &c2
		}
		if !reflect.DeepEqual(back, want) {
			t.Errorf("%s: round trip\n got %#v\nwant %#v", r.Table(), back, want)
		}
		// Every byte of the value is covered by the checksum.
		for i := range val {
			bad := append([]byte(nil), val...)
			bad[i] ^= 0x04
			if _, err := splitValue(k, bad); err == nil {
				t.Fatalf("%s: a value damaged at byte %d was accepted", r.Table(), i)
			}
		}
		if _, err := splitValue(k+"x", val); err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Errorf("%s: a value read under another key: %v", r.Table(), err)
		}
	}
}
