package resources

import (
	"fmt"
	"net/netip"
	"slices"
)

// Effects. Some resources change another resource of the account when
// they are made or removed, as AWS's services do: a VPCCidrBlock
// associates a block with its VPC, and the VPC's Ipv6CidrBlocks and
// CidrBlockAssociations then list it; a SubnetCidrBlock adds its block to
// its subnet's Ipv6CidrBlocks. An effect runs in the same handler
// call as the create or the delete that causes it, through the same Cloud,
// so it belongs to that step (a rolled-back step takes it back). The
// attributes an effect changes are read live (the VPC's simulation lists
// them in liveAttributes): Fn::GetAtt of them answers what the Cloud holds
// now, not what the resource's own create returned — which is why
// templates make the subnet that reads VPC.Ipv6CidrBlocks DependsOn the
// VPCCidrBlock.
var effects = map[string]func(c Cloud, obj *Object, made bool) error{
	"AWS::EC2::VPCCidrBlock":    vpcCidrBlockEffect,
	"AWS::EC2::SubnetCidrBlock": subnetCidrBlockEffect,
}

// runEffect runs the effect of obj's type, if it has one.
func runEffect(c Cloud, obj *Object, made bool) error {
	if fx := effects[obj.Type]; fx != nil {
		if err := fx(c, obj, made); err != nil {
			return fmt.Errorf("simulate %s %s: %w", obj.Type, obj.ID, err)
		}
	}
	return nil
}

// vpcCidrBlockEffect adds the association to its VPC's
// CidrBlockAssociations, and an IPv6 block (the one given, or one of
// Amazon's /56 when AmazonProvidedIpv6CidrBlock) to its Ipv6CidrBlocks;
// removed, it takes them away. A VPC the Cloud does not hold (made outside
// stacksim) is left alone.
func vpcCidrBlockEffect(c Cloud, obj *Object, made bool) error {
	vpcID, _ := obj.Model["VpcId"].(string)
	assoc, _ := obj.Model["Id"].(string)
	vpc, err := c.Get("AWS::EC2::VPC", vpcID)
	if err != nil || vpc == nil || assoc == "" {
		return err
	}
	v6, _ := obj.Model["Ipv6CidrBlock"].(string)
	if v6 == "" && LooseEqual(obj.Model["AmazonProvidedIpv6CidrBlock"], true) {
		v6 = amazonIPv6Block(assoc)
	}
	return edited(c, vpc, func(m map[string]any) {
		m["CidrBlockAssociations"] = listEdit(m["CidrBlockAssociations"], assoc, made)
		if v6 != "" {
			m["Ipv6CidrBlocks"] = listEdit(m["Ipv6CidrBlocks"], v6, made)
		}
	})
}

// subnetCidrBlockEffect adds the IPv6 block of a SubnetCidrBlock to its
// subnet's Ipv6CidrBlocks, and takes it away when it goes.
func subnetCidrBlockEffect(c Cloud, obj *Object, made bool) error {
	subnetID, _ := obj.Model["SubnetId"].(string)
	v6, _ := obj.Model["Ipv6CidrBlock"].(string)
	subnet, err := c.Get("AWS::EC2::Subnet", subnetID)
	if err != nil || subnet == nil || v6 == "" {
		return err
	}
	return edited(c, subnet, func(m map[string]any) {
		m["Ipv6CidrBlocks"] = listEdit(m["Ipv6CidrBlocks"], v6, made)
	})
}

// edited puts obj back with its model changed by edit (on a copy: the
// Cloud's models are never changed in place).
func edited(c Cloud, obj *Object, edit func(map[string]any)) error {
	model := copyValue(obj.Model).(map[string]any)
	edit(model)
	next := *obj
	next.Model = model
	next.answer, next.answerOf, next.answerSchema = nil, nil, nil
	return c.Put(&next)
}

// listEdit is list with v added at its end (add) or taken out.
func listEdit(list any, v string, add bool) []any {
	items, _ := list.([]any)
	items = slices.DeleteFunc(slices.Clone(items), func(x any) bool { return x == v })
	if add {
		items = append(items, v)
	}
	if items == nil {
		items = []any{}
	}
	return items
}

// amazonIPv6Block is the /56 Amazon's pool gives an association: the
// same for the same association, on every run.
func amazonIPv6Block(assoc string) string {
	h := drawn(assoc, "ipv6-block", "0123456789abcdef", 10)
	p, err := netip.ParsePrefix("2600:1f" + h[0:2] + ":" + h[2:6] + ":" + h[6:8] + "00::/56")
	if err != nil {
		panic(err) // hex digits always parse
	}
	return p.String() // written as AWS writes it: no leading zeros
}
