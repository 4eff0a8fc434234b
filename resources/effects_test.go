package resources

import (
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
	vpcs, err := reg.Provider("AWS::EC2::VPC")
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := reg.Provider("AWS::EC2::VPCCidrBlock")
	if err != nil {
		t.Fatal(err)
	}
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
	subnets, _ := reg.Provider("AWS::EC2::Subnet")
	blocks, _ := reg.Provider("AWS::EC2::SubnetCidrBlock")
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
