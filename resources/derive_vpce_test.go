package resources

import (
	"regexp"
	"strings"
	"testing"
)

// A VPC endpoint's DNS entries are AWS's HOSTEDZONE:NAME, in AWS's order
// (regional, one per subnet's zone, the private name), so that templates
// that split them on ":" for a Route 53 alias get a zone and a name; a
// gateway endpoint has none, nor network interfaces. An update that adds
// a subnet adds its entry and keeps the others.
func TestVPCEndpointDNSEntries(t *testing.T) {
	reg := NewRegistry(RegistryOptions{Seed: 3})
	defer reg.Close()
	p := registryProvider(t, reg, "AWS::EC2::VPCEndpoint")
	create := func(logical string, props map[string]any) map[string]any {
		t.Helper()
		ev := drive(t, p, newReq(ActionCreate, logical, "create-"+logical, StringifyModel(props)))
		if ev.Status != StatusSuccess {
			t.Fatalf("create: %v", ev)
		}
		return ev.ResourceModel
	}
	strs := func(m map[string]any, attr string) []string { t.Helper(); return attrStrings(t, p, m, attr) }
	props := map[string]any{"VpcId": "vpc-0123456789abcdef0", "ServiceName": "com.amazonaws.us-east-1.ecr.dkr", "VpcEndpointType": "Interface",
		"SubnetIds": []any{"subnet-0123456789abcdef0", "subnet-0123456789abcdef1"}, "PrivateDnsEnabled": true}
	m := create("Endpoint", props)
	id, _ := m["Id"].(string)
	entries := strs(m, "DnsEntries")
	want := []string{
		`^Z7HUB22UULQXV:` + id + `-([a-z0-9]{8})\.dkr\.ecr\.us-east-1\.vpce\.amazonaws\.com$`,
		`^Z7HUB22UULQXV:` + id + `-([a-z0-9]{8})-us-east-1a\.dkr\.ecr\.us-east-1\.vpce\.amazonaws\.com$`,
		`^Z7HUB22UULQXV:` + id + `-([a-z0-9]{8})-us-east-1b\.dkr\.ecr\.us-east-1\.vpce\.amazonaws\.com$`,
		`^Z[A-Z0-9]{20}:\*\.dkr\.ecr\.us-east-1\.amazonaws\.com$`,
	}
	if len(entries) != len(want) {
		t.Fatalf("DnsEntries = %q, want %d entries", entries, len(want))
	}
	var rand string
	for i, w := range want {
		got := regexp.MustCompile(w).FindStringSubmatch(entries[i])
		if got == nil {
			t.Fatalf("DnsEntries[%d] = %q, want %s", i, entries[i], w)
		}
		if len(got) > 1 {
			if rand != "" && got[1] != rand {
				t.Errorf("DnsEntries[%d] = %q: not the regional name's endpoint part %s", i, entries[i], rand)
			}
			rand = got[1]
		}
		if zone, name, ok := strings.Cut(entries[i], ":"); !ok || zone == "" || name == "" {
			t.Errorf("DnsEntries[%d] = %q: not ZONE:NAME", i, entries[i])
		}
	}
	enis := strs(m, "NetworkInterfaceIds")
	if len(enis) != 2 || !regexp.MustCompile(`^eni-[0-9a-f]{17}$`).MatchString(enis[0]) || enis[0] == enis[1] {
		t.Errorf("NetworkInterfaceIds = %q, want two eni- ids, one per subnet", enis)
	}
	if ts, _ := p.GetAtt(m, "CreationTimestamp"); !regexp.MustCompile(`^[A-Z][a-z]{2} [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d UTC \d{4}$`).MatchString(ts.(string)) {
		t.Errorf("CreationTimestamp = %v, want AWS's Fri Sep 28 23:34:36 UTC 2018", ts)
	}

	// a third subnet: its entry and interface are added, the others stay
	up := newReq(ActionUpdate, "Endpoint", "t2", StringifyModel(map[string]any{"Id": id, "VpcId": "vpc-0123456789abcdef0", "ServiceName": "com.amazonaws.us-east-1.ecr.dkr",
		"VpcEndpointType": "Interface", "SubnetIds": []any{"subnet-0123456789abcdef0", "subnet-0123456789abcdef1", "subnet-0123456789abcdef2"}, "PrivateDnsEnabled": true}))
	up.PreviousResourceState = StringifyModel(props)
	up.PhysicalResourceID = id
	uev := drive(t, p, up)
	if uev.Status != StatusSuccess {
		t.Fatalf("update: %v", uev)
	}
	after := strs(uev.ResourceModel, "DnsEntries")
	if len(after) != 5 || after[0] != entries[0] || after[2] != entries[2] || !strings.Contains(after[3], "-us-east-1c.") {
		t.Errorf("after adding a subnet: %q (before %q)", after, entries)
	}
	if a := strs(uev.ResourceModel, "NetworkInterfaceIds"); len(a) != 3 || a[0] != enis[0] || a[1] != enis[1] {
		t.Errorf("after adding a subnet: interfaces %q (before %q)", a, enis)
	}
	if ts0, ts1 := m["CreationTimestamp"], uev.ResourceModel["CreationTimestamp"]; ts0 != ts1 {
		t.Errorf("CreationTimestamp changed on update: %v then %v", ts0, ts1)
	}

	gw := create("Gateway", map[string]any{"VpcId": "vpc-0123456789abcdef0", "ServiceName": "com.amazonaws.us-east-1.s3"})
	if d, n := strs(gw, "DnsEntries"), strs(gw, "NetworkInterfaceIds"); len(d) != 0 || len(n) != 0 {
		t.Errorf("a gateway endpoint: DnsEntries %q, NetworkInterfaceIds %q, want none", d, n)
	}
}

func TestVPCEndpointServiceDNS(t *testing.T) {
	for _, c := range []struct{ service, region, short, private string }{
		{"com.amazonaws.us-east-1.ec2", "us-east-1", "ec2", "ec2"},
		{"com.amazonaws.eu-west-1.ecr.api", "eu-west-1", "api.ecr", "api.ecr"},
		{"com.amazonaws.eu-west-1.ecr.dkr", "eu-west-1", "dkr.ecr", "*.dkr.ecr"},
		{"com.amazonaws.us-east-1.execute-api", "us-east-1", "execute-api", "*.execute-api"},
		{"com.amazonaws.us-east-1.sagemaker.runtime", "us-east-1", "runtime.sagemaker", "runtime.sagemaker"},
		{"com.amazonaws.vpce.us-east-1.vpce-svc-0123456789abcdef0", "us-east-1", "vpce-svc-0123456789abcdef0", ""},
	} {
		short, private := vpceServiceDNS(c.service, c.region)
		if short != c.short || private != c.private {
			t.Errorf("vpceServiceDNS(%s) = %q, %q; want %q, %q", c.service, short, private, c.short, c.private)
		}
	}
}
