package scenario

import (
	"testing"

	"github.com/stacksim/stacksim/engine"
)

// Until.For follows a stack's nested stacks from their parents' resources
// and matches a nested resource by its dotted path; the root's own events
// match as Matches does; other stacks' never do.
func TestUntilForNestedStacks(t *testing.T) {
	const root, app, leaf, other = "arn:aws:cloudformation:us-east-1:1:stack/shop/r", "arn:aws:cloudformation:us-east-1:1:stack/shop-App-X/a",
		"arn:aws:cloudformation:us-east-1:1:stack/shop-App-X-Leaf-Y/l", "arn:aws:cloudformation:us-east-1:1:stack/other/o"
	res := func(stack, logical, typ, physical, status string) engine.StackEvent {
		return engine.StackEvent{StackId: stack, LogicalResourceId: logical, ResourceType: typ, PhysicalResourceId: physical, ResourceStatus: status}
	}
	own := func(stack, name, status string) engine.StackEvent {
		return engine.StackEvent{StackId: stack, StackName: name, LogicalResourceId: name, ResourceType: engine.StackResourceType, PhysicalResourceId: stack, ResourceStatus: status}
	}
	stream := []engine.StackEvent{
		own(root, "shop", "CREATE_IN_PROGRESS"),
		res(root, "App", engine.StackResourceType, "", "CREATE_IN_PROGRESS"),
		own(app, "shop-App-X", "CREATE_IN_PROGRESS"),
		res(app, "Param", "AWS::SSM::Parameter", "p1", "CREATE_COMPLETE"), // before App names its stack: not yet known
		res(root, "App", engine.StackResourceType, app, "CREATE_IN_PROGRESS"),
		res(app, "Leaf", engine.StackResourceType, leaf, "CREATE_IN_PROGRESS"),
		res(other, "Param", "AWS::SSM::Parameter", "p2", "CREATE_COMPLETE"),
		res(leaf, "Param", "AWS::SSM::Parameter", "p3", "CREATE_COMPLETE"),
		res(app, "Param", "AWS::SSM::Parameter", "p1", "CREATE_COMPLETE"),
		res(root, "Param", "AWS::SSM::Parameter", "p4", "CREATE_COMPLETE"),
		own(app, "shop-App-X", "CREATE_COMPLETE"),
		own(root, "shop", "CREATE_COMPLETE"),
	}
	for _, c := range []struct {
		until string
		want  int // the index of the first event that matches, -1: none
	}{
		{"App.Leaf.Param:CREATE_COMPLETE", 7},
		{"App.Param:CREATE_COMPLETE", 8},
		{"Param:CREATE_COMPLETE", 9},
		{"App:CREATE_IN_PROGRESS", 1},
		{"shop:CREATE_COMPLETE", 11},
		{"shop-App-X:CREATE_COMPLETE", -1}, // a nested stack's own status is its resource's in the parent
		{"Other.Param:CREATE_COMPLETE", -1},
	} {
		u, err := ParseUntil(c.until, "shop")
		if err != nil {
			t.Fatal(err)
		}
		match, got := u.For(root), -1
		for i, ev := range stream {
			if match(ev) {
				got = i
				break
			}
		}
		if got != c.want {
			t.Errorf("--until %s matched event %d, want %d", c.until, got, c.want)
		}
	}
	for _, bad := range []string{"App..Param:CREATE_COMPLETE", ".Param:CREATE_COMPLETE", "App.:CREATE_COMPLETE"} {
		if _, err := ParseUntil(bad, "shop"); err == nil {
			t.Errorf("ParseUntil(%q) accepted it", bad)
		}
	}
	var none *Until
	if none.For(root) != nil {
		t.Error("a nil Until gave a matcher")
	}
}
