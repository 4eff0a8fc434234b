package resources

import "crypto/sha256"

// Route 53 hosted zones that AWS's load balancers live in: one per region
// and kind, the same for every load balancer of that kind there. Route 53
// alias records name them (AliasTarget.HostedZoneId:
// !GetAtt LB.CanonicalHostedZoneID), so a replay in eu-west-1 must not
// answer us-east-1's. The values are those AWS publishes in "Elastic Load
// Balancing endpoints and quotas" (the Application and Classic Load
// Balancers column, and the Network Load Balancers one).
var elbHostedZones = map[string]string{
	"af-south-1":     "Z268VQBMOI5EKX",
	"ap-east-1":      "Z3DQVH9N71FHZ0",
	"ap-northeast-1": "Z14GRHDCWA56QT",
	"ap-northeast-2": "ZWKZPGTI48KDX",
	"ap-northeast-3": "Z5LXEXXYW11ES",
	"ap-south-1":     "ZP97RAFLXTNZK",
	"ap-south-2":     "Z0173938T07WNTVAEPZN",
	"ap-southeast-1": "Z1LMS91P8CMLE5",
	"ap-southeast-2": "Z1GM3OXH4ZPM65",
	"ap-southeast-3": "Z08888821HLRG5A9ZRTER",
	"ca-central-1":   "ZQSVJUPU6J1EY",
	"cn-north-1":     "Z1GDH35T77C1KE",
	"cn-northwest-1": "ZM7IZAIOVVDZF",
	"eu-central-1":   "Z215JYRZR1TBD5",
	"eu-central-2":   "Z06391101F2ZOEP8P5EB3",
	"eu-north-1":     "Z23TAZ6LKFMNIO",
	"eu-south-1":     "Z3ULH7SSC9OV64",
	"eu-south-2":     "Z0956581394HF5D5LXGAP",
	"eu-west-1":      "Z32O12XQLNTSW2",
	"eu-west-2":      "ZHURV8PSTC4K8",
	"eu-west-3":      "Z3Q77PNBQS71R4",
	"me-central-1":   "Z08230872XQRWHG2XF6I",
	"me-south-1":     "ZS929ML54UICD",
	"sa-east-1":      "Z2P70J7HTTTPLU",
	"us-east-1":      "Z35SXDOTRQ7X7K",
	"us-east-2":      "Z3AADJGX6KTTL2",
	"us-gov-east-1":  "Z166TLBEWOO7G0",
	"us-gov-west-1":  "Z33AYJ8TM3BH4J",
	"us-west-1":      "Z368ELLRRE2KJ0",
	"us-west-2":      "Z1H1FL5HABSF5",
}

var nlbHostedZones = map[string]string{
	"af-south-1":     "Z203XCE67M25HM",
	"ap-east-1":      "Z12Y7K3UBGUAD1",
	"ap-northeast-1": "Z31USIVHYNEOWT",
	"ap-northeast-2": "ZIBE1TIR4HY56",
	"ap-northeast-3": "Z1GWIQ4HH19I5X",
	"ap-south-1":     "ZVDDRBQ08TROA",
	"ap-south-2":     "Z0711778386UTO08407HT",
	"ap-southeast-1": "ZKVM4W9LS7TM",
	"ap-southeast-2": "ZCT6FZBF4DROD",
	"ap-southeast-3": "Z01971771FYVNCOVWJU1G",
	"ca-central-1":   "Z2EPGBW3API2WT",
	"cn-north-1":     "Z3QFB96KMJ7ED6",
	"cn-northwest-1": "ZQEIKTCZ8352D",
	"eu-central-1":   "Z3F0SRJ5LGBH90",
	"eu-central-2":   "Z02239872DOALSIDCX66S",
	"eu-north-1":     "Z1UDT6IFJ4EJM",
	"eu-south-1":     "Z23146JA1KNAFP",
	"eu-south-2":     "Z1011216NVTVYADP1SSV",
	"eu-west-1":      "Z2IFOLAFXWLO4F",
	"eu-west-2":      "ZD4D7Y8KGAS4G",
	"eu-west-3":      "Z1CMS0P5QUZ6D5",
	"me-central-1":   "Z00282643NTTLPANJJG2P",
	"me-south-1":     "Z3QSRYVP46NYYV",
	"sa-east-1":      "ZTK26PT1VY4CU",
	"us-east-1":      "Z26RNL4JYFTOTI",
	"us-east-2":      "ZLMOA37VPKANP",
	"us-gov-east-1":  "Z1ZSMQQ6Q24QQ8",
	"us-gov-west-1":  "ZMG1MZ2THAWF1",
	"us-west-1":      "Z24FKFUX50B4VW",
	"us-west-2":      "Z18D5FSROUN65G",
}

// vpceHostedZones are the zones of interface VPC endpoints' public DNS
// names (vpce-....vpce.amazonaws.com): us-east-1's is the one alias
// records name there; other regions get one of AWS's shape.
var vpceHostedZones = map[string]string{
	"us-east-1": "Z7HUB22UULQXV",
}

// hostedZoneKinds are the tables of {$HostedZone:KIND}.
var hostedZoneKinds = map[string]map[string]string{
	"elb":  elbHostedZones,  // application and classic load balancers
	"nlb":  nlbHostedZones,  // network load balancers
	"vpce": vpceHostedZones, // interface VPC endpoints
}

// hostedZone is the hosted zone of kind in region, and false for a kind
// with no table. A region the table does not hold (a newer one) gets a
// zone id of AWS's shape made from the region and kind, the same on every
// run: Z and 13 upper-case letters and digits.
func hostedZone(kind, region string) (string, bool) {
	zones, ok := hostedZoneKinds[kind]
	if !ok {
		return "", false
	}
	if z, ok := zones[region]; ok {
		return z, true
	}
	sum := sha256.Sum256([]byte("hosted-zone/" + kind + "/" + region))
	id := []byte("Z")
	for _, b := range sum[:13] {
		id = append(id, alphaUpperNum[int(b)%len(alphaUpperNum)])
	}
	return string(id), true
}
