package engine

import (
	"testing"

	"github.com/stacksim/stacksim/template"
)

// countingStack is a bigStack that counts the resolutions of each
// resource's properties.
type countingStack struct {
	*bigStack
	resolved map[string]int
}

func (c *countingStack) Properties(id string, r template.Resolver) (map[string]any, error) {
	c.resolved[id]++
	return c.bigStack.Properties(id, r)
}

// A create resolves the properties of a resource that reads no other
// resource once (the template check's pass serves its start), and those of
// one that reads another twice: the check sees Unknown where the step sees
// the value.
func TestCreateResolvesOnceWhatReadsNothing(t *testing.T) {
	e := opsEngine(t)
	st := &countingStack{bigStack: newBigStack(2, 0, 0), resolved: map[string]int{}}
	e.bindHook = func(string) (boundTemplate, bool) { return st, true }
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "big", TemplateBody: "counted"}); err != nil {
		t.Fatal(err)
	}
	benchRun(t, e, "CREATE_COMPLETE")
	if got := st.resolved; got["R00000"] != 1 || got["R00001"] != 2 {
		t.Errorf("resolutions %v, want R00000 once and R00001 twice", got)
	}
	first, err := e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "big", LogicalResourceId: "R00000"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "big", LogicalResourceId: "R00001"})
	if err != nil {
		t.Fatal(err)
	}
	d := first.StackResourceDetail
	if d.PhysicalResourceId != "thing-00000" {
		t.Fatalf("R00000 is %q", d.PhysicalResourceId)
	}
	obj, err := e.Registry().Cloud().Get(benchType, second.StackResourceDetail.PhysicalResourceId)
	if err != nil || obj == nil {
		t.Fatal(obj, err)
	}
	if obj.Model["Peer"] != "thing-00000" || obj.Model["Name"] != "thing-00001" {
		t.Errorf("R00001's model %v, want Peer thing-00000", obj.Model)
	}
}
