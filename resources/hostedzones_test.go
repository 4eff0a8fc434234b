package resources

import (
	"regexp"
	"testing"
)

// A load balancer's Route 53 zone is its region's, for its kind: AWS's
// published zone where the table has the region, one of AWS's shape (the
// same on every run) where it does not.
func TestLoadBalancerHostedZonesByRegion(t *testing.T) {
	cases := []struct {
		typ, attr, region string
		props             map[string]any
		want              string
	}{
		{"AWS::ElasticLoadBalancingV2::LoadBalancer", "CanonicalHostedZoneID", "us-east-1", nil, "Z35SXDOTRQ7X7K"},
		{"AWS::ElasticLoadBalancingV2::LoadBalancer", "CanonicalHostedZoneID", "eu-west-1", nil, "Z32O12XQLNTSW2"},
		{"AWS::ElasticLoadBalancingV2::LoadBalancer", "CanonicalHostedZoneID", "ap-southeast-2", map[string]any{"Scheme": "internal"}, "Z1GM3OXH4ZPM65"},
		{"AWS::ElasticLoadBalancingV2::LoadBalancer", "CanonicalHostedZoneID", "us-east-1", map[string]any{"Type": "network"}, "Z26RNL4JYFTOTI"},
		{"AWS::ElasticLoadBalancingV2::LoadBalancer", "CanonicalHostedZoneID", "eu-central-1", map[string]any{"Type": "network"}, "Z3F0SRJ5LGBH90"},
		{"AWS::ElasticLoadBalancing::LoadBalancer", "CanonicalHostedZoneNameID", "us-west-2",
			map[string]any{"Listeners": []any{map[string]any{"LoadBalancerPort": "80", "InstancePort": "80", "Protocol": "HTTP"}}, "AvailabilityZones": []any{"us-west-2a"}}, "Z1H1FL5HABSF5"},
	}
	for _, c := range cases {
		t.Run(c.region+"/"+c.typ+"/"+c.want, func(t *testing.T) {
			reg := NewRegistry(RegistryOptions{Seed: 3})
			defer reg.Close()
			p := registryProvider(t, reg, c.typ)
			req := newReq(ActionCreate, "Balancer", "t1", StringifyModel(c.props))
			req.Region = c.region
			ev := drive(t, p, req)
			if ev.Status != StatusSuccess {
				t.Fatalf("create: %v", ev)
			}
			if v, err := p.GetAtt(ev.ResourceModel, c.attr); err != nil || v != c.want {
				t.Errorf("GetAtt %s in %s = %v (%v), want %s", c.attr, c.region, v, err, c.want)
			}
		})
	}
}

func TestHostedZoneOfAnUnlistedRegion(t *testing.T) {
	a, ok := hostedZone("elb", "xx-mars-1")
	if !ok || !regexp.MustCompile(`^Z[A-Z0-9]{13}$`).MatchString(a) {
		t.Fatalf("hostedZone(elb, xx-mars-1) = %q, %v; want Z and 13 upper-case letters and digits", a, ok)
	}
	if b, _ := hostedZone("elb", "xx-mars-1"); b != a {
		t.Errorf("not stable: %q then %q", a, b)
	}
	if n, _ := hostedZone("nlb", "xx-mars-1"); n == a {
		t.Errorf("network and application load balancers share zone %q in xx-mars-1", n)
	}
	if _, ok := hostedZone("alb", "us-east-1"); ok {
		t.Error("an unknown kind has a zone")
	}
}
