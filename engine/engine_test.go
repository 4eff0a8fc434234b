package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	zapobserver "go.uber.org/zap/zaptest/observer"

	"github.com/stacksim/stacksim/resources"
)

func TestOptionsDefaults(t *testing.T) {
	e := newTestEngine(t, Options{})
	if e.Region() != "us-east-1" || e.AccountID() != "123456789012" || e.Partition() != "aws" || e.Seed() != 0 {
		t.Fatalf("%s %s %s %d", e.Region(), e.AccountID(), e.Partition(), e.Seed())
	}
	if !e.Now().Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatal(e.Now())
	}
	epoch := time.Date(2030, 6, 1, 12, 0, 0, 0, time.FixedZone("x", 3600))
	e2 := newTestEngine(t, Options{Epoch: epoch, Partition: "aws-cn", Region: "cn-north-1"})
	if !e2.Now().Equal(epoch) || e2.Now().Location() != time.UTC {
		t.Fatal(e2.Now())
	}
	st := seed(t, e2).stack("s")
	if want := "arn:aws-cn:cloudformation:cn-north-1:123456789012:stack/s/"; st.StackId[:len(want)] != want {
		t.Fatal(st.StackId)
	}
}

// echoHandler answers every action with the request's desired state.
func echoHandler() resources.Handler {
	ok := func(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
		return resources.Success(req.DesiredResourceState), nil
	}
	return resources.HandlerFuncs{CreateFunc: ok, ReadFunc: ok, UpdateFunc: ok, DeleteFunc: ok, ListFunc: ok}
}

func testSchema(t *testing.T) *resources.Schema {
	t.Helper()
	s, err := resources.ParseSchema("test", []byte(`{"typeName":"Test::Echo::Thing","description":"x",
		"properties":{"Name":{"type":"string"}},"primaryIdentifier":["/properties/Name"],"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHandlersAndDebugLogging(t *testing.T) {
	core, logs := zapobserver.New(zapcore.DebugLevel)
	e := newTestEngine(t, Options{Logger: zap.New(core),
		Handlers: []TypeHandler{{TypeName: "Test::Echo::Thing", Schema: testSchema(t), Handler: echoHandler()}}})
	p, err := e.Registry().Provider("Test::Echo::Thing")
	if err != nil {
		t.Fatal(err)
	}
	req := &resources.Request{Action: resources.ActionCreate, ResourceType: "Test::Echo::Thing", LogicalResourceIdentifier: "Thing",
		ClientRequestToken: "tok", Attempt: 1, DesiredResourceState: map[string]any{"Name": "n"}}
	ev, err := e.invoke(ctx(), p, req)
	if err != nil || ev.Status != resources.StatusSuccess {
		t.Fatalf("%+v %v", ev, err)
	}
	msgs := []string{}
	for _, entry := range logs.All() {
		msgs = append(msgs, entry.Message)
	}
	if len(msgs) != 2 || msgs[0] != "handler request" || msgs[1] != "handler response" {
		t.Fatalf("logged %v", msgs)
	}
	if f := logs.All()[0].ContextMap(); f["logicalId"] != "Thing" || f["action"] != "CREATE" {
		t.Fatalf("fields %v", f)
	}

	// A handler that panics is an error of the handler, not of the engine.
	bad := resources.HandlerFuncs{CreateFunc: func(context.Context, *resources.Request) (*resources.ProgressEvent, error) {
		panic("oops")
	}}
	if err := e.Registry().Register("Test::Echo::Thing", testSchema(t), bad); err != nil {
		t.Fatal(err)
	}
	p, _ = e.Registry().Provider("Test::Echo::Thing")
	_, err = e.invoke(ctx(), p, req)
	var pe *resources.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("%v", err)
	}

	if _, err := New(Options{Handlers: []TypeHandler{{TypeName: "bad name", Handler: echoHandler()}}}); err == nil {
		t.Fatal("a bad handler registration was accepted")
	}
}

// The engine serialises concurrent callers: readers and the loop from
// several goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	e := newTestEngine(t, Options{PageSize: 1000})
	w := newLoopWorld(t, e)
	w.queue(t, "chain A 0 50", "chain B 1 50")
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				if _, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "app"}); err != nil {
					t.Error(err)
					return
				}
				if _, err := e.Step(ctx(), 1); err != nil {
					t.Error(err)
					return
				}
				_, _ = e.MarshalState()
			}
		}()
	}
	wg.Wait()
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	out, _ := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "app"})
	if len(out.StackEvents) != 1+100 {
		t.Fatalf("%d events", len(out.StackEvents))
	}
}

// A panic inside the engine becomes an *InternalError that says what
// panicked and where, without the stack trace (kept in Stack for the log).
func TestGuardPanicMessage(t *testing.T) {
	err := guard(func() error {
		var m map[string]int
		//lint:ignore SA5000 the assignment panics on purpose
		m["x"] = 1
		return nil
	})
	var ie *InternalError
	if !errors.As(err, &ie) {
		t.Fatalf("%T %v", err, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "panic: assignment to entry in nil map (at engine/engine_test.go:") || strings.Contains(msg, "goroutine") {
		t.Fatalf("message: %s", msg)
	}
	if !strings.Contains(ie.Stack, "goroutine") || !strings.Contains(ie.Stack, "TestGuardPanicMessage") {
		t.Fatalf("stack: %s", ie.Stack)
	}
}
