package resources

import (
	"fmt"
	"net/netip"
	"reflect"
	"testing"
)

// A VPCCidrBlock adds its association, and its IPv6 block (Amazon's /56
// when AmazonProvidedIpv6CidrBlock), to its VPC as the Cloud holds it; its
// removal takes them away again, leaving the VPC as it was. The VPC's
// Ipv6CidrBlocks and CidrBlockAssociations are read live; its other
// attributes are not.
func TestVPCCidrBlockChangesItsVPC(t *testing.T) {
	cloud := NewMemCloud()
	reg := NewRegistry(RegistryOptions{Seed: 3, Cloud: cloud})
	defer reg.Close()
	vpcs, blocks := registryProvider(t, reg, "AWS::EC2::VPC"), registryProvider(t, reg, "AWS::EC2::VPCCidrBlock")
	vpc := drive(t, vpcs, newReq(ActionCreate, "VPC", "t1", StringifyModel(map[string]any{"CidrBlock": "10.0.0.0/16"})))
	if vpc.Status != StatusSuccess {
		t.Fatalf("vpc: %v", vpc)
	}
	vpcID := vpc.ResourceModel["VpcId"].(string)
	before, _ := cloud.Get("AWS::EC2::VPC", vpcID)
	beforeModel := copyValue(before.Model)

	v6 := drive(t, blocks, newReq(ActionCreate, "V6", "t2", StringifyModel(map[string]any{"VpcId": vpcID, "AmazonProvidedIpv6CidrBlock": true})))
	v4 := drive(t, blocks, newReq(ActionCreate, "V4", "t3", StringifyModel(map[string]any{"VpcId": vpcID, "CidrBlock": "10.1.0.0/16"})))
	if v6.Status != StatusSuccess || v4.Status != StatusSuccess {
		t.Fatalf("blocks: %v %v", v6, v4)
	}
	now, _ := cloud.Get("AWS::EC2::VPC", vpcID)
	assocs := now.Model["CidrBlockAssociations"].([]any)
	if len(assocs) != 3 || assocs[1] != v6.ResourceModel["Id"] || assocs[2] != v4.ResourceModel["Id"] {
		t.Errorf("CidrBlockAssociations = %v, want the VPC's own and the two blocks'", assocs)
	}
	blocks6 := now.Model["Ipv6CidrBlocks"].([]any)
	if len(blocks6) != 1 {
		t.Fatalf("Ipv6CidrBlocks = %v, want one", blocks6)
	}
	if p, err := netip.ParsePrefix(blocks6[0].(string)); err != nil || p.Bits() != 56 || !p.Addr().Is6() || p.String() != blocks6[0] {
		t.Errorf("Ipv6CidrBlocks[0] = %v (%v): want an IPv6 /56 written as AWS writes it", blocks6[0], err)
	}
	if !ReadsLive(vpcs, "Ipv6CidrBlocks") || !ReadsLive(vpcs, "CidrBlockAssociations") || ReadsLive(vpcs, "DefaultSecurityGroup") || ReadsLive(blocks, "Id") {
		t.Error("live attributes: want the VPC's Ipv6CidrBlocks and CidrBlockAssociations only")
	}

	for _, b := range []*ProgressEvent{v6, v4} {
		if ev := drive(t, blocks, newReq(ActionDelete, "B", "t9", b.ResourceModel)); ev.Status != StatusSuccess {
			t.Fatalf("delete: %v", ev)
		}
	}
	after, _ := cloud.Get("AWS::EC2::VPC", vpcID)
	if !reflect.DeepEqual(after.Model, beforeModel) {
		t.Errorf("the VPC after its blocks went: %v, want it as before: %v", after.Model, beforeModel)
	}
}

// A SubnetCidrBlock adds its block to its subnet's Ipv6CidrBlocks (read
// live), and takes it away when it goes.
func TestSubnetCidrBlockChangesItsSubnet(t *testing.T) {
	cloud := NewMemCloud()
	reg := NewRegistry(RegistryOptions{Seed: 3, Cloud: cloud})
	defer reg.Close()
	subnets, blocks := registryProvider(t, reg, "AWS::EC2::Subnet"), registryProvider(t, reg, "AWS::EC2::SubnetCidrBlock")
	sub := drive(t, subnets, newReq(ActionCreate, "Subnet", "t1", StringifyModel(map[string]any{"VpcId": "vpc-0123456789abcdef0", "CidrBlock": "10.0.0.0/24"})))
	if sub.Status != StatusSuccess {
		t.Fatalf("subnet: %v", sub)
	}
	id := sub.ResourceModel["SubnetId"].(string)
	blocksOf := func() any {
		o, _ := cloud.Get("AWS::EC2::Subnet", id)
		return o.Model["Ipv6CidrBlocks"]
	}
	b := drive(t, blocks, newReq(ActionCreate, "Block", "t2", StringifyModel(map[string]any{"SubnetId": id, "Ipv6CidrBlock": "2600:1f18:abc:de00::/64"})))
	if b.Status != StatusSuccess {
		t.Fatalf("block: %v", b)
	}
	if got := blocksOf(); !reflect.DeepEqual(got, []any{"2600:1f18:abc:de00::/64"}) {
		t.Errorf("Ipv6CidrBlocks = %v, want the block", got)
	}
	if !ReadsLive(subnets, "Ipv6CidrBlocks") {
		t.Error("a subnet's Ipv6CidrBlocks are not read live")
	}
	if ev := drive(t, blocks, newReq(ActionDelete, "Block", "t3", b.ResourceModel)); ev.Status != StatusSuccess {
		t.Fatalf("delete: %v", ev)
	}
	if got := blocksOf(); !reflect.DeepEqual(got, []any{}) {
		t.Errorf("Ipv6CidrBlocks after the block went = %v, want none", got)
	}
}

// A listener, or a listener's rule, that forwards to a target group puts
// its load balancer in the group's LoadBalancerArns (read live), once;
// the load balancer leaves the list when nothing of it forwards to the
// group any more: a listener deleted, or updated to forward elsewhere.
func TestListenersPutTheirLoadBalancerInTargetGroups(t *testing.T) {
	cloud := NewMemCloud()
	reg := NewRegistry(RegistryOptions{Seed: 3, Cloud: cloud})
	defer reg.Close()
	groups, listeners, rules := registryProvider(t, reg, targetGroupType), registryProvider(t, reg, listenerType), registryProvider(t, reg, listenerRuleType)
	n := 0
	create := func(p Provider, props map[string]any) map[string]any {
		t.Helper()
		n++
		ev := drive(t, p, newReq(ActionCreate, fmt.Sprintf("R%d", n), fmt.Sprintf("t%d", n), StringifyModel(props)))
		if ev.Status != StatusSuccess {
			t.Fatalf("create: %v", ev)
		}
		return ev.ResourceModel
	}
	tg1 := create(groups, map[string]any{"Port": "80", "Protocol": "HTTP", "VpcId": "vpc-0123456789abcdef0"})["TargetGroupArn"].(string)
	tg2 := create(groups, map[string]any{"Port": "81", "Protocol": "HTTP", "VpcId": "vpc-0123456789abcdef0"})["TargetGroupArn"].(string)
	lbs := func(tg string) []any {
		t.Helper()
		o, _ := cloud.Get(targetGroupType, tg)
		return o.Model["LoadBalancerArns"].([]any)
	}
	const lb = "arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/web/0123456789abcdef"
	forward := func(tg string) []any { return []any{map[string]any{"Type": "forward", "TargetGroupArn": tg}} }
	l1 := create(listeners, map[string]any{"LoadBalancerArn": lb, "Port": "80", "Protocol": "HTTP", "DefaultActions": forward(tg1)})
	l2 := create(listeners, map[string]any{"LoadBalancerArn": lb, "Port": "8080", "Protocol": "HTTP", "DefaultActions": forward(tg1)})
	create(rules, map[string]any{"ListenerArn": l1["ListenerArn"], "Priority": "1", "Conditions": []any{map[string]any{"Field": "path-pattern", "Values": []any{"/api/*"}}},
		"Actions": []any{map[string]any{"Type": "forward", "ForwardConfig": map[string]any{"TargetGroups": []any{map[string]any{"TargetGroupArn": tg2}}}}}})
	if got := lbs(tg1); !reflect.DeepEqual(got, []any{lb}) {
		t.Errorf("group 1: %v, want its load balancer once", got)
	}
	if got := lbs(tg2); !reflect.DeepEqual(got, []any{lb}) {
		t.Errorf("group 2 (a rule's ForwardConfig): %v, want the load balancer", got)
	}
	if !ReadsLive(groups, "LoadBalancerArns") {
		t.Error("a target group's LoadBalancerArns are not read live")
	}
	if ev := drive(t, listeners, newReq(ActionDelete, "X", "d1", l2)); ev.Status != StatusSuccess {
		t.Fatal(ev)
	}
	if got := lbs(tg1); !reflect.DeepEqual(got, []any{lb}) {
		t.Errorf("group 1 after one of two listeners went: %v, want the load balancer still", got)
	}
	up := newReq(ActionUpdate, "R3", "u1", StringifyModel(map[string]any{"ListenerArn": l1["ListenerArn"], "LoadBalancerArn": lb, "Port": "80", "Protocol": "HTTP", "DefaultActions": forward(tg2)}))
	up.PhysicalResourceID = l1["ListenerArn"].(string)
	if ev := drive(t, listeners, up); ev.Status != StatusSuccess {
		t.Fatalf("update: %v", ev)
	}
	if got := lbs(tg1); len(got) != 0 {
		t.Errorf("group 1 once no listener forwards to it: %v, want none", got)
	}
	if got := lbs(tg2); !reflect.DeepEqual(got, []any{lb}) {
		t.Errorf("group 2: %v, want the load balancer once", got)
	}
}
