package resources

import (
	"fmt"
	"slices"
)

// deriveHostedZone gives a public hosted zone its delegation set as
// Route 53 makes one: four name servers, one under each of AWS's DNS
// domains, ns-N.awsdns-NN.TLD where N is from the domain's own 512 (.com
// 0-511, .net 512-1023, .org 1024-1535, .co.uk 1536-2047) and NN is N's
// place among them by eights, listed in the order the API lists them
// (sorted). A private zone (one with VPCs) has no name servers of its
// own. Drawn from the zone's id: the same on every run and every update.
func deriveHostedZone(e *env, _ bool) {
	m := e.model
	id, _ := m["Id"].(string)
	if vpcs, _ := m["VPCs"].([]any); len(vpcs) > 0 || id == "" {
		m["NameServers"] = []any{}
		return
	}
	var servers []string
	for i, tld := range []string{"com", "net", "org", "co.uk"} {
		d := drawn(id, "name-server/"+tld, "0123456789", 3)
		n := (int(d[0]-'0')*100 + int(d[1]-'0')*10 + int(d[2]-'0')) % 512
		servers = append(servers, fmt.Sprintf("ns-%d.awsdns-%02d.%s", i*512+n, n/8, tld))
	}
	slices.Sort(servers)
	out := make([]any, len(servers))
	for i, s := range servers {
		out[i] = s
	}
	m["NameServers"] = out
}
