package resources

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// A public hosted zone's NameServers are a delegation set as Route 53
// makes one: one name server under each of AWS's four domains, its number
// in that domain's range and its awsdns-NN its place by eights, sorted;
// the same after an update. A private zone has none.
func TestHostedZoneNameServers(t *testing.T) {
	reg := NewRegistry(RegistryOptions{Seed: 3})
	defer reg.Close()
	p := registryProvider(t, reg, "AWS::Route53::HostedZone")
	servers := func(m map[string]any) []string { t.Helper(); return attrStrings(t, p, m, "NameServers") }
	ev := drive(t, p, newReq(ActionCreate, "Zone", "t1", StringifyModel(map[string]any{"Name": "sub.example.com"})))
	if ev.Status != StatusSuccess {
		t.Fatalf("create: %v", ev)
	}
	ns := servers(ev.ResourceModel)
	shape := regexp.MustCompile(`^ns-(\d+)\.awsdns-(\d\d)\.(com|net|org|co\.uk)$`)
	base := map[string]int{"com": 0, "net": 512, "org": 1024, "co.uk": 1536}
	seen := map[string]bool{}
	for _, s := range ns {
		m := shape.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("name server %q is not ns-N.awsdns-NN.TLD", s)
		}
		n, _ := strconv.Atoi(m[1])
		if n < base[m[3]] || n >= base[m[3]]+512 || m[2] != fmt.Sprintf("%02d", (n-base[m[3]])/8) {
			t.Errorf("name server %q: number or awsdns part out of its domain's range", s)
		}
		seen[m[3]] = true
	}
	if len(ns) != 4 || len(seen) != 4 || !slices.IsSorted(ns) {
		t.Errorf("NameServers = %q, want one under each of the four domains, sorted", ns)
	}
	up := newReq(ActionUpdate, "Zone", "t2", StringifyModel(map[string]any{"Id": ev.ResourceModel["Id"], "Name": "sub.example.com",
		"HostedZoneConfig": map[string]any{"Comment": "now with a comment"}}))
	up.PhysicalResourceID = ev.ResourceModel["Id"].(string)
	uev := drive(t, p, up)
	if uev.Status != StatusSuccess {
		t.Fatalf("update: %v", uev)
	}
	if after := servers(uev.ResourceModel); !slices.Equal(after, ns) {
		t.Errorf("after an update: %q, want %q", after, ns)
	}
	private := drive(t, p, newReq(ActionCreate, "Private", "t3", StringifyModel(map[string]any{"Name": "corp.internal",
		"VPCs": []any{map[string]any{"VPCId": "vpc-0123456789abcdef0", "VPCRegion": "us-east-1"}}})))
	if private.Status != StatusSuccess {
		t.Fatalf("private: %v", private)
	}
	if got := servers(private.ResourceModel); len(got) != 0 {
		t.Errorf("a private zone's NameServers = %q, want none", got)
	}
}
