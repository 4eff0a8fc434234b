package engine

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources/faults"
)

// A dual-stack VPC as templates (and CDK's DUAL_STACK VPCs) write it: the
// subnet's IPv6 block is cut from the VPC's Ipv6CidrBlocks, which holds
// the block only once the VPCCidrBlock the subnet DependsOn exists. It
// creates with the contract checker strict. An update that adds such a
// block and a subnet that fails rolls back, and the VPC's blocks are as
// they were.
func TestDualStackVPC(t *testing.T) {
	vpc := `Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties: {CidrBlock: 10.0.0.0/16}
`
	dual := vpc + `  Ipv6Block:
    Type: AWS::EC2::VPCCidrBlock
    Properties: {VpcId: !Ref VPC, AmazonProvidedIpv6CidrBlock: true}
  Subnet:
    Type: AWS::EC2::Subnet
    DependsOn: Ipv6Block
    Properties:
      VpcId: !Ref VPC
      CidrBlock: !Select [0, !Cidr [!GetAtt VPC.CidrBlock, 4, 8]]
      Ipv6CidrBlock: !Select [0, !Cidr [!Select [0, !GetAtt VPC.Ipv6CidrBlocks], 4, 64]]
Outputs:
  VpcBlock: {Value: !Select [0, !GetAtt VPC.Ipv6CidrBlocks]}
  SubnetBlock: {Value: !Select [0, !GetAtt Subnet.Ipv6CidrBlocks]}
`
	e := newTestEngine(t, Options{Contract: ContractStrict})
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "net", TemplateBody: dual}); err != nil {
		t.Fatal(err)
	}
	out := restingOutputs(t, e, "net", "CREATE_COMPLETE")
	vpcBlock, subnetBlock := out["VpcBlock"], out["SubnetBlock"]
	if !strings.HasSuffix(vpcBlock, "::/56") || !strings.HasSuffix(subnetBlock, "::/64") || !strings.HasPrefix(subnetBlock, strings.TrimSuffix(vpcBlock, "00::/56")) {
		t.Fatalf("the VPC's block %q and the subnet's %q: want a /56 and a /64 cut from it", vpcBlock, subnetBlock)
	}

	// a second stack's VPC: an update adds a block, and a subnet that fails
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "other", TemplateBody: vpc}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e)
	vpcObject := func() map[string]any {
		t.Helper()
		var m map[string]any
		_ = e.view(func(tx *txn) error {
			st := tx.StackByName("other")
			rec := tx.Resource(st.Num, "VPC")
			m = tx.Object(rec.ResourceType, rec.PhysicalResourceId).Model
			return nil
		})
		return m
	}
	before := vpcObject()
	inj, err := faults.Load("f.yaml", []byte("faults:\n  - match: {logicalId: Subnet, action: create}\n    fail: {code: InvalidRequest, message: no}\n"))
	if err != nil {
		t.Fatal(err)
	}
	in := UpdateStackInput{StackName: "other", TemplateBody: dual}
	in.Faults = inj.Faults()
	if _, err := e.UpdateStack(ctx(), in); err != nil {
		t.Fatal(err)
	}
	if st, err := e.WaitForStack(ctx(), "other"); err != nil || st.StackStatus != "UPDATE_ROLLBACK_COMPLETE" {
		t.Fatalf("update: %s (%s) %v", st.StackStatus, st.StackStatusReason, err)
	}
	if after := vpcObject(); !reflect.DeepEqual(after["Ipv6CidrBlocks"], before["Ipv6CidrBlocks"]) || !reflect.DeepEqual(after["CidrBlockAssociations"], before["CidrBlockAssociations"]) {
		t.Errorf("after the rollback the VPC has %v and %v, want %v and %v", after["Ipv6CidrBlocks"], after["CidrBlockAssociations"], before["Ipv6CidrBlocks"], before["CidrBlockAssociations"])
	}
	for _, name := range []string{"net", "other"} {
		if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: name}); err != nil {
			t.Fatal(err)
		}
	}
	mustRun(t, e)
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
}
