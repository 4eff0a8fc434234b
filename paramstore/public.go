package paramstore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// AWS's public parameters: the parameters every account can read under
// /aws/service/. AWS publishes thousands (one per image family, version,
// architecture and volume type); stacksim knows their names by family, as
// the patterns below, and answers each with a value of the shape AWS
// answers, derived from the region and the name, so that the same name in
// the same region always reads the same: an image id is "ami-" and 17 hex
// digits, an ECS "recommended" parameter is its JSON document.
//
// The families and their names are those AWS documents (the Amazon Linux,
// Windows, ECS, EKS, Bottlerocket, Ubuntu and Debian user guides; the
// Systems Manager guide's global infrastructure parameters). A name outside
// them is not public, and reads as missing.

// PublicPrefix is where AWS's public parameters live. Names under it (and
// under /ssm) cannot be created in an account.
const PublicPrefix = "/aws/service/"

// family is one family of public parameters: names that match pattern,
// answered by value.
type family struct {
	pattern *regexp.Regexp
	value   func(p publicName) string
}

// publicName is a matched public name, with the region and partition it is
// read in and the pattern's submatches.
type publicName struct {
	name, region, partition string
	sub                     []string
}

// families are compiled on first use (a command that reads no public
// parameter does not pay for their patterns).
var families = sync.OnceValue(func() []family {
	return []family{
		// Amazon Linux 2023, Amazon Linux 2 and the Amazon Linux AMI (2018.03).
		{re(`^/aws/service/ami-amazon-linux-latest/(al2023-ami(?:-minimal)?-kernel-(?:default|6\.1|6\.12)-(?:x86_64|arm64)` +
			`|amzn2-ami(?:-kernel-5\.10)?(?:-minimal)?-hvm-(?:x86_64|arm64)-(?:gp2|ebs)` +
			`|amzn-ami(?:-minimal)?-(?:hvm|pv)-x86_64-(?:gp2|ebs|s3))$`), imageID},
		// Windows Server, with or without SQL Server, and Amazon Linux 2 with
		// SQL Server or .NET.
		{re(`^/aws/service/ami-windows-latest/((?:EC2LaunchV2-|TPM-)?Windows_Server-(?:2012-R2_RTM|2012-RTM|2016|2019|2022|2025)` +
			`-[A-Za-z]+(?:_[A-Za-z]+)*-(?:Full|Core)-[A-Za-z0-9_.]+` +
			`|amzn2-(?:x86_64|ami-hvm-x86_64)-[A-Za-z0-9_.-]+)$`), imageID},
		// ECS-optimized images: the whole "recommended" document, or one of
		// its fields.
		{re(`^/aws/service/ecs/optimized-ami/(amazon-linux|amazon-linux-2|amazon-linux-2023|amazon-linux-2/kernel-5\.10` +
			`|amazon-linux-2/arm64|amazon-linux-2/gpu|amazon-linux-2/inf|amazon-linux-2023/arm64|amazon-linux-2023/gpu|amazon-linux-2023/neuron` +
			`|amazon-linux-2/kernel-5\.10/arm64|amazon-linux-2/kernel-5\.10/gpu|windows_server/[0-9]{4}/[a-z]+/(?:full|core))` +
			`/recommended(?:/(image_id|image_name|image_version|ecs_agent_version|ecs_runtime_version|os|schema_version|source_image_name))?$`), ecsRecommended},
		// EKS-optimized images, by Kubernetes version.
		{re(`^/aws/service/eks/optimized-ami/(1\.[0-9]{2})/(amazon-linux-2|amazon-linux-2-arm64|amazon-linux-2-gpu` +
			`|amazon-linux-2023/(?:x86_64|arm64)/(?:standard|nvidia|neuron))/recommended(?:/(image_id|image_name|release_version))?$`), eksRecommended},
		// Ubuntu images Canonical publishes.
		{re(`^/aws/service/canonical/ubuntu/(?:server|server-minimal|pro-server|pro-fips|eks|eks-pro)/[0-9]{2}\.[0-9]{2}(?:/1\.[0-9]{2})?` +
			`/stable/(?:current|[0-9]{8}(?:\.[0-9]+)?)/(?:amd64|arm64)/hvm/(?:ebs-gp2|ebs-gp3|ebs-io1|ebs-standard|instance-store)/ami-id$`), imageID},
		// Debian images.
		{re(`^/aws/service/debian/(?:release|daily)/(?:10|11|12|13|buster|bullseye|bookworm|trixie)/(?:latest|[0-9]{8}-[0-9]+)/(?:amd64|arm64)$`), imageID},
		// Bottlerocket images, by variant.
		{re(`^/aws/service/bottlerocket/(aws-k8s-1\.[0-9]{2}(?:-nvidia|-fips)?|aws-ecs-[12](?:-nvidia)?|aws-dev)/(?:x86_64|arm64)` +
			`/(?:latest|[0-9]+\.[0-9]+\.[0-9]+)/(image_id|image_version)$`), bottlerocket},
		// The global infrastructure: regions, their long names and partitions,
		// and the services offered in a region.
		{re(`^/aws/service/global-infrastructure/regions/([a-z]{2}(?:-gov|-iso|-isob)?-[a-z]+-[0-9])(?:/(longName|partition|domain)|/services/([a-z0-9-]+))?$`), regionInfo},
		{re(`^/aws/service/global-infrastructure/services/([a-z0-9-]+)$`), func(p publicName) string { return p.sub[1] }},
	}
})

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// Public returns the value of an AWS public parameter as it reads in region
// (of partition), and whether name is one.
func Public(region, partition, name string) (Parameter, bool) {
	if !strings.HasPrefix(name, PublicPrefix) {
		return Parameter{}, false
	}
	for _, f := range families() {
		m := f.pattern.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		v := f.value(publicName{name: name, region: region, partition: partition, sub: m})
		if v == "" {
			return Parameter{}, false
		}
		return Parameter{Name: name, Type: TypeString, Value: v, Version: publicVersion}, true
	}
	return Parameter{}, false
}

// publicVersion is the version every public parameter reads at: AWS moves
// them as images are released; stacksim's do not move.
const publicVersion = 1

// digest is the deterministic source of a public value: the partition, the
// region and the key, hashed.
func digest(p publicName, key string) string {
	h := sha256.Sum256([]byte(p.partition + "\x00" + p.region + "\x00" + key))
	return hex.EncodeToString(h[:])
}

// imageID is an AMI id: "ami-" and 17 hex digits.
func imageID(p publicName) string { return amiFor(p, p.name) }

func amiFor(p publicName, key string) string { return "ami-" + digest(p, key)[:17] }

// ecsRecommended answers an ECS-optimized image's "recommended" document or
// one of its fields (the document's keys, as AWS publishes them).
func ecsRecommended(p publicName) string {
	variant := p.sub[1]
	base := strings.TrimSuffix(p.name, "/"+p.sub[2])
	if p.sub[2] == "" {
		base = p.name
	}
	ver := "2.0.20250101"
	osName, name, source := "Amazon Linux 2", "amzn2-ami-ecs-hvm-"+ver+"-x86_64-ebs", "amzn2-ami-minimal-hvm-"+ver+"-x86_64-ebs"
	switch {
	case strings.HasPrefix(variant, "amazon-linux-2023"):
		ver = "2023.0.20250101"
		osName, name, source = "Amazon Linux 2023", "al2023-ami-ecs-hvm-"+ver+"-kernel-6.1-x86_64", "al2023-ami-minimal-"+ver+"-kernel-6.1-x86_64"
	case variant == "amazon-linux":
		ver = "2018.03.20250101"
		osName, name, source = "Amazon Linux", "amzn-ami-"+ver+"-amazon-ecs-optimized", "amzn-ami-minimal-hvm-"+ver+"-x86_64-ebs"
	case strings.HasPrefix(variant, "windows_server"):
		ver = "2025.01.01"
		osName, name, source = "Windows", "Windows_Server-ECS_Optimized-"+ver, "Windows_Server-Base-"+ver
	}
	if strings.Contains(variant, "arm64") {
		name, source = strings.Replace(name, "x86_64", "arm64", 1), strings.Replace(source, "x86_64", "arm64", 1)
	}
	fields := map[string]any{
		"ecs_agent_version":   "1.89.0",
		"ecs_runtime_version": "Docker version 25.0.6",
		"image_id":            amiFor(p, base),
		"image_name":          name,
		"image_version":       ver,
		"os":                  osName,
		"schema_version":      1,
		"source_image_name":   source,
	}
	if f := p.sub[2]; f != "" {
		if s, ok := fields[f].(string); ok {
			return s
		}
		return "1"
	}
	doc, _ := json.Marshal(fields) // keys sorted, as AWS writes them
	return string(doc)
}

// eksRecommended answers an EKS-optimized image's recommended id, name or
// release version.
func eksRecommended(p publicName) string {
	k8s, variant := p.sub[1], p.sub[2]
	base := strings.TrimSuffix(p.name, "/"+p.sub[3])
	if p.sub[3] == "" {
		base = p.name
	}
	release := k8s + ".0-20250101"
	switch p.sub[3] {
	case "image_name":
		return "amazon-eks-node-" + strings.ReplaceAll(variant, "/", "-") + "-" + release
	case "release_version":
		return release
	}
	return amiFor(p, base)
}

// bottlerocket answers a Bottlerocket image's id or version.
func bottlerocket(p publicName) string {
	if p.sub[2] == "image_version" {
		return "1.30.0-00000000"
	}
	return imageID(p)
}

// regionInfo answers the global infrastructure's parameters of a region:
// its code, long name, partition, domain, or a service's code.
func regionInfo(p publicName) string {
	code := p.sub[1]
	r, ok := regions[code]
	if !ok {
		return ""
	}
	switch {
	case p.sub[3] != "":
		return p.sub[3]
	case p.sub[2] == "longName":
		return r.longName
	case p.sub[2] == "partition":
		return r.partition
	case p.sub[2] == "domain":
		if r.partition == "aws-cn" {
			return "amazonaws.com.cn"
		}
		return "amazonaws.com"
	}
	return code
}

type region struct{ partition, longName string }

// regions are AWS's regions and their long names.
var regions = map[string]region{
	"us-east-1":      {"aws", "US East (N. Virginia)"},
	"us-east-2":      {"aws", "US East (Ohio)"},
	"us-west-1":      {"aws", "US West (N. California)"},
	"us-west-2":      {"aws", "US West (Oregon)"},
	"af-south-1":     {"aws", "Africa (Cape Town)"},
	"ap-east-1":      {"aws", "Asia Pacific (Hong Kong)"},
	"ap-east-2":      {"aws", "Asia Pacific (Taipei)"},
	"ap-south-1":     {"aws", "Asia Pacific (Mumbai)"},
	"ap-south-2":     {"aws", "Asia Pacific (Hyderabad)"},
	"ap-southeast-1": {"aws", "Asia Pacific (Singapore)"},
	"ap-southeast-2": {"aws", "Asia Pacific (Sydney)"},
	"ap-southeast-3": {"aws", "Asia Pacific (Jakarta)"},
	"ap-southeast-4": {"aws", "Asia Pacific (Melbourne)"},
	"ap-southeast-5": {"aws", "Asia Pacific (Malaysia)"},
	"ap-southeast-7": {"aws", "Asia Pacific (Thailand)"},
	"ap-northeast-1": {"aws", "Asia Pacific (Tokyo)"},
	"ap-northeast-2": {"aws", "Asia Pacific (Seoul)"},
	"ap-northeast-3": {"aws", "Asia Pacific (Osaka)"},
	"ca-central-1":   {"aws", "Canada (Central)"},
	"ca-west-1":      {"aws", "Canada West (Calgary)"},
	"eu-central-1":   {"aws", "Europe (Frankfurt)"},
	"eu-central-2":   {"aws", "Europe (Zurich)"},
	"eu-west-1":      {"aws", "Europe (Ireland)"},
	"eu-west-2":      {"aws", "Europe (London)"},
	"eu-west-3":      {"aws", "Europe (Paris)"},
	"eu-north-1":     {"aws", "Europe (Stockholm)"},
	"eu-south-1":     {"aws", "Europe (Milan)"},
	"eu-south-2":     {"aws", "Europe (Spain)"},
	"il-central-1":   {"aws", "Israel (Tel Aviv)"},
	"me-south-1":     {"aws", "Middle East (Bahrain)"},
	"me-central-1":   {"aws", "Middle East (UAE)"},
	"mx-central-1":   {"aws", "Mexico (Central)"},
	"sa-east-1":      {"aws", "South America (Sao Paulo)"},
	"cn-north-1":     {"aws-cn", "China (Beijing)"},
	"cn-northwest-1": {"aws-cn", "China (Ningxia)"},
	"us-gov-west-1":  {"aws-us-gov", "AWS GovCloud (US-West)"},
	"us-gov-east-1":  {"aws-us-gov", "AWS GovCloud (US-East)"},
}
