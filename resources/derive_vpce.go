package resources

import (
	"slices"
	"strings"
)

// deriveVPCEndpoint gives a VPC endpoint AWS's DnsEntries,
// NetworkInterfaceIds and CreationTimestamp (Fri Sep 28 23:34:36 UTC 2018). An interface endpoint has a
// network interface in each of its subnets and DNS entries
// HOSTEDZONE:NAME, in AWS's order: the regional name
// (vpce-ID-XXXXXXXX.SERVICE.REGION.vpce.amazonaws.com), a zonal one per
// subnet (...-XXXXXXXX-AZ.SERVICE...), and with PrivateDnsEnabled the
// service's own name in a private zone. Templates take them apart with
// Fn::Split ":" (a Route 53 alias names the zone and the name). A gateway
// endpoint (the default type) has neither.
func deriveVPCEndpoint(e *env, update bool) {
	m := e.model
	id, _ := m["Id"].(string)
	typ, _ := m["VpcEndpointType"].(string)
	if typ == "" {
		typ = "Gateway"
	}
	if !update { // AWS writes it as Java prints a date
		m["CreationTimestamp"] = e.now.UTC().Format("Mon Jan 02 15:04:05 UTC 2006")
	}
	if !strings.EqualFold(typ, "Interface") || id == "" {
		m["DnsEntries"] = []any{}
		m["NetworkInterfaceIds"] = []any{}
		return
	}
	svc, _ := m["ServiceName"].(string)
	short, private := vpceServiceDNS(svc, e.region)
	var subnets []string
	if list, ok := m["SubnetIds"].([]any); ok {
		for _, s := range list {
			if s, ok := s.(string); ok {
				subnets = append(subnets, s)
			}
		}
	}
	zone, _ := hostedZone("vpce", e.region)
	base := id + "-" + drawn(id, "dns", alphaLowerNum, 8)
	if short == "s3" {
		base = "*." + base // S3's names are a bucket's: BUCKET.vpce-...
	}
	domain := "." + short + "." + e.region + ".vpce." + e.urlSuffix()
	entries := []any{zone + ":" + base + domain}
	enis := make([]any, 0, len(subnets))
	for i, s := range subnets {
		entries = append(entries, zone+":"+base+"-"+e.region+string(rune('a'+i%6))+domain)
		enis = append(enis, "eni-"+drawn(id, "eni/"+s, "0123456789abcdef", 17))
	}
	if enabled, _ := m["PrivateDnsEnabled"].(bool); enabled && private != "" {
		entries = append(entries, "Z"+drawn(id, "private-zone", alphaUpperNum, 20)+":"+private+"."+e.region+"."+e.urlSuffix())
	}
	m["DnsEntries"] = entries
	m["NetworkInterfaceIds"] = enis
}

// vpceServiceDNS is the service's part of an endpoint's DNS names and the
// name its private DNS answers for. An AWS service's name,
// com.amazonaws.REGION.NAME, is written in DNS with its parts the other
// way round (ecr.dkr: dkr.ecr); its private name is the service's own
// (*.dkr.ecr.REGION.amazonaws.com, *.execute-api...: those answer for
// every name under them). A PrivateLink service, com.amazonaws.vpce.REGION.vpce-svc-ID,
// is vpce-svc-ID, with no private name of AWS's.
func vpceServiceDNS(service, region string) (short, private string) {
	if rest, ok := strings.CutPrefix(service, "com.amazonaws.vpce."+region+"."); ok {
		return rest, ""
	}
	rest, ok := strings.CutPrefix(service, "com.amazonaws."+region+".")
	if !ok {
		// another partition's prefix (cn.com.amazonaws...) or a name of
		// another shape: its last part
		rest = service[strings.LastIndexByte(service, '.')+1:]
	}
	parts := strings.Split(rest, ".")
	slices.Reverse(parts)
	short = strings.Join(parts, ".")
	private = short
	switch rest {
	case "execute-api", "ecr.dkr":
		private = "*." + short
	}
	return short, private
}
