package engine

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/stacksim/stacksim/engine/store"
)

// A session that creates stacks from one template over and over (a test
// suite against serve) holds the template's body and resource order once,
// not once per stack: a deleted stack's record stays in memory, so copies
// would grow without end. Each caller's body is its own string, as a
// request's is; the records share one. A stack whose conditions leave a
// resource out has an order of its own; what every stack answers is
// unchanged.
func TestStacksShareTheirTemplate(t *testing.T) {
	var b strings.Builder
	b.WriteString("Parameters:\n  Extra: {Type: String, Default: without}\nConditions:\n  WithExtra: !Equals [!Ref Extra, with]\nResources:\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "  P%02d: {Type: AWS::SSM::Parameter, Properties: {Type: String, Value: v%d}}\n", i, i)
	}
	b.WriteString("  X: {Type: AWS::SSM::Parameter, Condition: WithExtra, Properties: {Type: String, Value: x}}\n")
	e := newTestEngine(t, Options{})
	create := func(name, extra string) {
		t.Helper()
		body := strings.Clone(b.String()) // a request's own copy
		if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: name, TemplateBody: body,
			Parameters: []Parameter{{ParameterKey: "Extra", ParameterValue: extra}}}); err != nil {
			t.Fatal(err)
		}
		if st, err := e.WaitForStack(ctx(), name); err != nil || st.StackStatus != "CREATE_COMPLETE" {
			t.Fatalf("%s: %v %v", name, st.StackStatus, err)
		}
	}
	create("one", "with")
	create("two", "with")
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "one"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WaitForStack(ctx(), "one"); err != nil {
		t.Fatal(err)
	}
	create("three", "with")
	create("narrow", "without")
	recs := map[string]*store.StackRecord{}
	if err := e.view(func(tx *txn) error {
		for _, st := range tx.AllStacks() {
			recs[st.StackName] = st
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	one, two, three, narrow := recs["one"], recs["two"], recs["three"], recs["narrow"]
	if one == nil || two == nil || three == nil || narrow == nil {
		t.Fatalf("records: %v", recs)
	}
	for _, st := range []*store.StackRecord{two, three, narrow} {
		if st.TemplateBody != b.String() {
			t.Fatalf("%s: the body changed", st.StackName)
		}
		if unsafe.StringData(st.TemplateBody) != unsafe.StringData(one.TemplateBody) {
			t.Errorf("%s holds a copy of the body the deleted stack one holds", st.StackName)
		}
	}
	if len(two.ResourceOrder) != 21 || len(narrow.ResourceOrder) != 20 {
		t.Fatalf("orders: %d and %d resources, want 21 and 20", len(two.ResourceOrder), len(narrow.ResourceOrder))
	}
	if &two.ResourceOrder[0] != &three.ResourceOrder[0] {
		t.Error("stacks two and three of one template each hold a copy of its resource order")
	}
	if cap(two.ResourceOrder) != len(two.ResourceOrder) {
		t.Error("a shared order has room past its length: an append would write into every stack's")
	}
	if &narrow.ResourceOrder[0] == &two.ResourceOrder[0] {
		t.Error("a stack without X shares the order of the stacks with it")
	}
}
