package resources

import (
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// candidate is one shape AWS gives a string: a value template, or a
// function of the request (an ARN ends with the resource's identity).
type candidate struct {
	tpl *template
	fn  func(e *env, r genRequest) []string
}

// candidatePlan lists the shapes AWS would give a property, most likely
// first, from its format, its name and the type. It depends on nothing but
// the schema, so it is made once per property (plans); str keeps the first
// value that fits the schema.
func (vg *valueGen) candidatePlan(ps map[string]any, r genRequest, maxLen int) []candidate {
	var out []candidate
	add := func(tpl string) {
		if tpl != "" {
			out = append(out, candidate{tpl: cachedTemplate(tpl)})
		}
	}
	fn := func(f func(e *env, r genRequest) []string) { out = append(out, candidate{fn: f}) }
	lit := func(vals ...string) { fn(func(*env, genRequest) []string { return vals }) }
	format, _ := ps["format"].(string)
	switch format {
	case "date-time", "timestamp":
		add("{$Now}")
	case "date":
		fn(func(e *env, _ genRequest) []string { return []string{e.now.UTC().Format("2006-01-02")} })
	case "uri", "url":
		add("https://{$lower:12}.{$Region}.{$URLSuffix}/")
	case "ipv4", "ipv4-address":
		add(ipv4Template)
	case "ipv4-network":
		add("10.{$octet}.0.0/16")
	case "ipv6", "ipv6-address":
		add(ipv6Template)
	case "ipv6-network":
		add("2600:1f18:{$hex:4}:{$hex:2}00::/56")
	case "email":
		add("{$lower:8}@example.com")
	default:
		if typ, attr, ok := relationshipFormat(format); ok {
			fn(func(e *env, r genRequest) []string { return vg.foreign(e, typ, attr, r) })
		}
	}
	name := r.name
	lname := strings.ToLower(name)
	own := r.own || vg.isOwn(name)
	switch {
	case strings.HasSuffix(lname, "arn") || strings.HasSuffix(lname, "arns"):
		stem := trimSuffixFold(trimSuffixFold(name, "s"), "arn")
		// the type's (or the stem's) own form first, the general shapes
		// after: each made only when the ones before it do not fit
		if own {
			if t, ok := ownARNs[vg.typeName]; ok {
				fn(func(e *env, r genRequest) []string { return expandedWith(e, t, vg.identity(e, r), r) })
			}
			fn(func(e *env, r genRequest) []string {
				return generalARNs(e, vg.service, vg.resource, vg.identity(e, r))
			})
		} else {
			if t, ok := foreignARN(stem); ok {
				fn(func(e *env, r genRequest) []string { return expandedWith(e, t, vg.foreignName(e, stem, r), r) })
			}
			kind := stem
			if stem == "" {
				kind = vg.resource
			}
			fn(func(e *env, r genRequest) []string {
				return generalARNs(e, vg.service, kind, vg.foreignName(e, stem, r))
			})
		}
	case strings.HasSuffix(lname, "id") || strings.HasSuffix(lname, "ids"):
		stem := trimSuffixFold(trimSuffixFold(name, "s"), "id")
		if own {
			add(ownIDTemplate(vg.typeName))
			if namespaceOf(vg.typeName) == "EC2" {
				add(ec2Prefix(vg.resource) + "-{$hex:17}")
			}
			if !r.attribute {
				// an identifier the template may name, left out: named
				// as CloudFormation names what it must invent
				fn(func(e *env, _ genRequest) []string { return []string{vg.physicalName(e, ps, name, maxLen)} })
			}
		} else {
			add(foreignIDTemplate(stem))
			if stem != "" {
				if t := ownIDTemplate(vg.typeName); t != "" && strings.HasSuffix(vg.resource, stem) {
					add(t)
				}
			}
		}
		add("{$uuid}")
		add("{$lower:12}")
	case strings.HasSuffix(lname, "url") || strings.HasSuffix(lname, "uri"):
		add("https://{$lower:10}." + vg.service + ".{$Region}.{$URLSuffix}/{$lower:8}")
	case strings.HasSuffix(lname, "dnsname") || strings.HasSuffix(lname, "domainname") || strings.HasSuffix(lname, "hostname") ||
		strings.HasSuffix(lname, "dns") || strings.HasSuffix(lname, "endpoint") ||
		((strings.HasSuffix(lname, "address") || strings.HasSuffix(lname, "addresses")) && !strings.Contains(lname, "ip") && !strings.Contains(lname, "mac") && !strings.Contains(lname, "email")):
		add("{$lower:13}." + vg.service + ".{$Region}.{$URLSuffix}")
	case strings.Contains(lname, "ipv6") && strings.Contains(lname, "cidr"):
		add("2600:1f18:{$hex:4}:{$hex:2}00::/56")
	case strings.Contains(lname, "cidr"):
		add("10.{$octet}.0.0/16")
	case strings.Contains(lname, "ipv6"):
		add(ipv6Template)
	case strings.HasSuffix(lname, "ip") || strings.HasSuffix(lname, "ipaddress") || strings.HasSuffix(lname, "ips"):
		add(ipv4Template)
	case strings.HasSuffix(lname, "macaddress"):
		add("0a:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}")
	case strings.HasSuffix(lname, "name") || lname == "alias":
		if own || vg.primary["/properties/"+name] {
			fn(func(e *env, _ genRequest) []string { return []string{vg.physicalName(e, ps, name, maxLen)} })
		}
		add("{$StackName}-{$LogicalId}-{$upper:13}")
		add("{$lower:12}")
	case strings.HasSuffix(lname, "version") || strings.HasSuffix(lname, "versionnumber") || strings.HasSuffix(lname, "revision") ||
		strings.HasSuffix(lname, "count") || strings.HasSuffix(lname, "number"):
		lit("1")
	case strings.Contains(lname, "percent") || strings.HasSuffix(lname, "progress"):
		lit("100")
	case strings.HasSuffix(lname, "time") || strings.HasSuffix(lname, "date") || strings.HasSuffix(lname, "timestamp") ||
		strings.HasSuffix(lname, "at") || strings.HasSuffix(lname, "till") || strings.HasSuffix(lname, "until") || strings.Contains(lname, "expir") ||
		strings.HasPrefix(lname, "created") || strings.HasPrefix(lname, "lastmodified") || strings.HasPrefix(lname, "lastupdated"):
		add("{$Now}")
		fn(func(e *env, _ genRequest) []string { return []string{e.now.UTC().Format("2006-01-02T15:04:05Z")} })
	case strings.HasSuffix(lname, "status") || strings.HasSuffix(lname, "state"):
		lit("ACTIVE", "active", "Active", "AVAILABLE", "available")
	case lname == "region" || strings.HasSuffix(lname, "region"):
		add("{$Region}")
	case strings.HasSuffix(lname, "availabilityzone"):
		add("{$Region}a")
	case strings.HasSuffix(lname, "account") || lname == "owner":
		add("{$AccountId}")
	case strings.HasSuffix(lname, "port") || strings.HasSuffix(lname, "ports"):
		lit("443")
	case strings.HasSuffix(lname, "fingerprint"):
		add("{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}:{$hex:2}")
	case strings.Contains(lname, "password") || strings.Contains(lname, "secret") || strings.HasSuffix(lname, "token"):
		add("{$mixed:24}")
	}
	if own {
		add(ownIDTemplate(vg.typeName))
	}
	return out
}

// planKey names a property's plan: its schema (by identity) and what else
// the plan depends on.
type planKey struct {
	ps     unsafe.Pointer
	name   string
	own    bool
	maxLen int
}

// plan is the candidate plan of a property, made once.
func (vg *valueGen) plan(ps map[string]any, r genRequest, maxLen int) []candidate {
	k := planKey{ps: reflect.ValueOf(ps).UnsafePointer(), name: r.name, own: r.own, maxLen: maxLen}
	if c, ok := vg.plans.Load(k); ok {
		return c.([]candidate)
	}
	c := vg.candidatePlan(ps, r, maxLen)
	vg.plans.Store(k, c)
	return c
}

// templateCache holds the value templates the generator fills: compiled
// once per process.
var templateCache sync.Map // string → *template

func cachedTemplate(s string) *template {
	if t, ok := templateCache.Load(s); ok {
		return t.(*template)
	}
	t, _ := templateCache.LoadOrStore(s, compileTemplate(s))
	return t.(*template)
}

const (
	ipv4Template = "10.{$octet}.{$octet}.{$octet}"
	ipv6Template = "2600:1f18:{$hex:4}:{$hex:4}:{$hex:4}:{$hex:4}:{$hex:4}:{$hex:4}"
)

// isOwn tells whether a property named so identifies the resource itself:
// Id, Arn, Name, or the resource's name followed by one of them
// (FileSystemId, DBClusterArn).
func (vg *valueGen) isOwn(name string) bool {
	for _, suffix := range []string{"Id", "Arn", "Name", "ID", "ARN"} {
		if !strings.HasSuffix(name, suffix) {
			continue
		}
		stem := strings.TrimSuffix(name, suffix)
		if stem == "" || stem == vg.resource || (len(stem) > 3 && strings.HasSuffix(vg.resource, stem)) {
			return true
		}
	}
	return false
}

// foreignARN is the ARN template of what a property named STEMArn refers
// to: the stem's, else its last words' (TargetFunctionArn: a function's).
func foreignARN(stem string) (string, bool) {
	for i := 0; i < len(stem); i++ {
		if i == 0 || stem[i] >= 'A' && stem[i] <= 'Z' {
			if t, ok := foreignARNs[strings.ToLower(stem[i:])]; ok {
				return t, true
			}
		}
	}
	return "", false
}

func trimSuffixFold(s, suffix string) string {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)]
	}
	return s
}

// physicalName is a name as CloudFormation generates it
// (STACK-LOGICALID-RANDOM), within the property's length and, when its
// pattern wants lower case, lower-cased.
func (vg *valueGen) physicalName(e *env, ps map[string]any, name string, maxLen int) string {
	n := &nameSpec{Property: name}
	if maxLen >= 0 {
		n.MaxLength = maxLen
	}
	if pat, _ := ps["pattern"].(string); pat != "" && !strings.Contains(pat, "A-Z") && strings.Contains(pat, "a-z") {
		n.Lower = true
	}
	if n.MaxLength > 0 && n.MaxLength < 20 {
		n.RandomLength = max(1, n.MaxLength/2)
	}
	return e.generateName(n, "")
}

// identity is what an ARN of the resource ends with: the first part of its
// primary identifier that is not an ARN itself, else a name property, else
// a generated id.
func (vg *valueGen) identity(e *env, r genRequest) string {
	for _, p := range vg.s.lists().primary {
		if s, ok := identifierPart(e.model, p.segs); ok && !strings.HasPrefix(s, "arn:") {
			return s
		}
	}
	for _, n := range []string{vg.resource + "Name", "Name", vg.resource + "Id", "Id"} {
		if s, ok := e.model[n].(string); ok && s != "" && !strings.HasPrefix(s, "arn:") {
			return s
		}
	}
	if t := ownIDTemplate(vg.typeName); t != "" {
		if s, err := cachedTemplate(t).fill(e, "gen-id:"+r.path); err == nil {
			return s
		}
	}
	return e.entropy().stream2("gen-id:", r.path).pick(alphaLowerNum, 12)
}

// expandedWith is the ARN template t filled with id, or none.
func expandedWith(e *env, t, id string, r genRequest) []string {
	s, err := e.expandWithID(t, id, r.purpose())
	if err != nil {
		return nil
	}
	return []string{s}
}

// generalARNs are arn:PARTITION:SERVICE:REGION:ACCOUNT:KIND/ID and its
// variations.
func generalARNs(e *env, service, resource, id string) []string {
	region, account := e.region, e.account
	if noRegionServices[service] {
		region = ""
	}
	if noAccountServices[service] {
		region, account = "", ""
	}
	head := "arn:" + e.partition + ":" + service + ":" + region + ":" + account + ":"
	kebabKind := kebab(resource)
	lowerKind := strings.ToLower(resource)
	camelKind := strings.ToLower(resource[:1]) + resource[1:]
	out := []string{head + kebabKind + "/" + id, head + lowerKind + "/" + id, head + camelKind + "/" + id,
		head + kebabKind + ":" + id, head + id}
	if region == "" && !noAccountServices[service] {
		full := "arn:" + e.partition + ":" + service + ":" + e.region + ":" + e.account + ":"
		out = append(out, full+kebabKind+"/"+id)
	}
	return out
}

// foreignName is the name in the ARN of what a property named STEMArn
// refers to: STACK-STEM-RANDOM (STACK-RANDOM without a stem).
func (vg *valueGen) foreignName(e *env, stem string, r genRequest) string {
	name := e.entropy().stream2("gen-name:", r.path).pick(alphaUpperNum, 13)
	if stem == "" {
		return e.stackName + "-" + name
	}
	return e.stackName + "-" + stem + "-" + name
}

// foreign are the values of a relationship format (AWS::EC2::VPC.Id).
func (vg *valueGen) foreign(e *env, typ, attr string, r genRequest) []string {
	res := resourceOf(typ)
	var tpl, id string
	switch strings.ToLower(strings.TrimSuffix(attr, "s")) {
	case "id":
		tpl = ownIDTemplate(typ)
		if tpl == "" {
			tpl = foreignIDTemplate(res)
		}
	case "arn":
		id = e.stackName + "-" + res + "-" + e.entropy().stream2("gen-name:", r.path).pick(alphaUpperNum, 13)
		if t, ok := ownARNs[typ]; ok {
			tpl = t
		} else if t, ok := foreignARNs[strings.ToLower(res)]; ok {
			tpl = t
		} else {
			return generalARNs(e, arnServiceOf(typ), res, id)
		}
	default:
		tpl = "{$StackName}-" + res + "-{$upper:13}"
	}
	if tpl == "" {
		return nil
	}
	// tpl is the simulation's own (one of a type's few): compiled once.
	var s string
	var err error
	if id != "" {
		s, err = e.expandWithID(tpl, id, r.purpose())
	} else {
		s, err = cachedTemplate(tpl).fill(e, r.purpose())
	}
	if err != nil {
		return nil
	}
	return []string{s}
}

// relationshipFormat reads a format such as AWS::EC2::VPC.Id.
func relationshipFormat(format string) (typ, attr string, ok bool) {
	if strings.Count(format, "::") != 2 {
		return "", "", false
	}
	i := strings.LastIndexByte(format, '.')
	if i < 0 {
		return "", "", false
	}
	return format[:i], format[i+1:], true
}

// braces removes what would read as a placeholder from an id.
var braces = strings.NewReplacer("{", "", "}", "")
