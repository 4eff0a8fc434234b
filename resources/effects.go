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
// its subnet's Ipv6CidrBlocks; a listener (or a listener's rule) that
// forwards to a target group adds its load balancer to the group's
// LoadBalancerArns. An update runs the effect of the object it replaces
// (removed) and of the new one (made). An effect runs in the same handler
// call as the create or the delete that causes it, through the same Cloud,
// so it belongs to that step (a rolled-back step takes it back). The
// attributes an effect changes are read live (the VPC's simulation lists
// them in liveAttributes): Fn::GetAtt of them answers what the Cloud holds
// now, not what the resource's own create returned — which is why
// templates make the subnet that reads VPC.Ipv6CidrBlocks DependsOn the
// VPCCidrBlock.
var effects = map[string]func(c Cloud, obj *Object, made bool) error{
	"AWS::EC2::VPCCidrBlock":                    vpcCidrBlockEffect,
	"AWS::EC2::SubnetCidrBlock":                 subnetCidrBlockEffect,
	"AWS::ElasticLoadBalancingV2::Listener":     forwardEffect,
	"AWS::ElasticLoadBalancingV2::ListenerRule": forwardEffect,
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

const (
	listenerType     = "AWS::ElasticLoadBalancingV2::Listener"
	listenerRuleType = "AWS::ElasticLoadBalancingV2::ListenerRule"
	targetGroupType  = "AWS::ElasticLoadBalancingV2::TargetGroup"
)

// forwardEffect adds a listener's (or rule's) load balancer to the
// LoadBalancerArns of the target groups its actions forward to; removed,
// it takes the load balancer away from those no other listener or rule of
// that load balancer still forwards to.
func forwardEffect(c Cloud, obj *Object, made bool) error {
	lb, err := listenerLoadBalancer(c, obj)
	if err != nil || lb == "" {
		return err
	}
	for _, tgArn := range forwardTargets(obj.Model) {
		tg, err := c.Get(targetGroupType, tgArn)
		if err != nil {
			return err
		}
		if tg == nil {
			continue
		}
		if !made {
			still, err := forwardsFrom(c, lb, tgArn)
			if err != nil {
				return err
			}
			if still {
				continue
			}
		} else if list, _ := tg.Model["LoadBalancerArns"].([]any); slices.Contains(list, any(lb)) {
			continue
		}
		if err := edited(c, tg, func(m map[string]any) {
			m["LoadBalancerArns"] = listEdit(m["LoadBalancerArns"], lb, made)
		}); err != nil {
			return err
		}
	}
	return nil
}

// listenerLoadBalancer is the load balancer of a listener, or of a rule's
// listener ("" when the Cloud does not hold that listener).
func listenerLoadBalancer(c Cloud, obj *Object) (string, error) {
	if obj.Type == listenerType {
		lb, _ := obj.Model["LoadBalancerArn"].(string)
		return lb, nil
	}
	arn, _ := obj.Model["ListenerArn"].(string)
	l, err := c.Get(listenerType, arn)
	if err != nil || l == nil {
		return "", err
	}
	lb, _ := l.Model["LoadBalancerArn"].(string)
	return lb, nil
}

// forwardTargets are the target groups a listener's DefaultActions (a
// rule's Actions) forward to: TargetGroupArn, or ForwardConfig's groups.
func forwardTargets(model map[string]any) []string {
	var out []string
	for _, key := range []string{"DefaultActions", "Actions"} {
		actions, _ := model[key].([]any)
		for _, a := range actions {
			a, _ := a.(map[string]any)
			if arn, ok := a["TargetGroupArn"].(string); ok && arn != "" {
				out = append(out, arn)
			}
			fc, _ := a["ForwardConfig"].(map[string]any)
			groups, _ := fc["TargetGroups"].([]any)
			for _, g := range groups {
				g, _ := g.(map[string]any)
				if arn, ok := g["TargetGroupArn"].(string); ok && arn != "" {
					out = append(out, arn)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// forwardsFrom reports whether a listener or rule the Cloud holds, of load
// balancer lb, forwards to the target group.
func forwardsFrom(c Cloud, lb, tgArn string) (bool, error) {
	for _, typ := range []string{listenerType, listenerRuleType} {
		objs, err := c.List(typ)
		if err != nil {
			return false, err
		}
		for _, o := range objs {
			if !slices.Contains(forwardTargets(o.Model), tgArn) {
				continue
			}
			if l, err := listenerLoadBalancer(c, o); err != nil || l == lb {
				return err == nil, err
			}
		}
	}
	return false, nil
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
