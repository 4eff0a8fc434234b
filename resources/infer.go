package resources

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
)

// inferSimulation guesses simulation rules for a registry schema that has no
// x-stacksim section (or an overlay that gives only some), from the names
// and types of its properties:
//
//   - the name property: a createOnly string property named Name or
//     <Resource>Name that is part of an identifier, filled with
//     STACK-LOGICALID-RANDOM (its maxLength honoured, lower-cased when its
//     pattern has no capitals);
//   - durations from slowTypes (minutes for databases, distributions,
//     clusters), a few seconds otherwise.
//
// Read-only properties, and a writable primary identifier the template
// leaves out, are generated from the schema for every type (valueGen).
func inferSimulation(s *Schema) *simulation {
	sim := &simulation{Durations: durationsFor(s.TypeName)}
	_, resource := splitTypeName(s.TypeName)
	props := s.Properties()
	isIdentifier := map[string]bool{}
	for _, set := range s.identifierSets() {
		for _, p := range set {
			isIdentifier[p] = true
		}
	}
	for _, cand := range []string{resource + "Name", "Name"} {
		p := "/properties/" + cand
		prop, ok := props[cand].(map[string]any)
		if !ok || s.IsReadOnly(p) || !(contains(s.CreateOnlyProperties, p) || isIdentifier[p]) {
			continue
		}
		if prop = resolveRef(s, prop); prop == nil || schemaType(prop) != "string" {
			continue
		}
		n := &nameSpec{Property: cand}
		if ml, ok := numberOf(prop["maxLength"]); ok {
			if v, err := ml.Int64(); err == nil && v >= 20 {
				n.MaxLength = int(v)
			}
		}
		if pat, _ := prop["pattern"].(string); pat != "" && !strings.Contains(pat, "A-Z") && strings.Contains(pat, "a-z") {
			n.Lower = true
		}
		sim.Name = n
		break
	}
	return sim
}

// mergeSimulation lays an overlay on the inferred rules: what the overlay
// gives wins, the name and the durations are inferred when it gives none.
func mergeSimulation(overlay, inferred *simulation) *simulation {
	out := *overlay
	if out.Name == nil {
		out.Name = inferred.Name
	}
	if out.Durations == nil {
		out.Durations = inferred.Durations
	}
	return &out
}

// propertySchema finds the schema of a property path, following $ref into
// definitions and "*" into array items. nil when it cannot.
func propertySchema(s *Schema, segs []string) map[string]any {
	cur := map[string]any{"properties": s.Properties()}
	for _, seg := range segs {
		cur = resolveRef(s, cur)
		if seg == "*" || isIndex(seg) {
			items, ok := cur["items"].(map[string]any)
			if !ok {
				return nil
			}
			cur = items
			continue
		}
		next := memberSchema(s, cur, seg, 0)
		if next == nil {
			return nil
		}
		cur = next
	}
	return resolveRef(s, cur)
}

// memberSchema is the schema of a member of an object schema: in its
// properties, else in those of its alternatives (oneOf, anyOf, allOf),
// $ref resolved on the way.
func memberSchema(s *Schema, obj map[string]any, name string, depth int) map[string]any {
	if obj == nil || depth > 4 {
		return nil
	}
	props, _ := obj["properties"].(map[string]any)
	if m, ok := props[name].(map[string]any); ok {
		return m
	}
	for _, k := range [...]string{"allOf", "oneOf", "anyOf"} {
		list, _ := obj[k].([]any)
		for _, x := range list {
			alt, _ := x.(map[string]any)
			if m := memberSchema(s, resolveRef(s, alt), name, depth+1); m != nil {
				return m
			}
		}
	}
	return nil
}

func isIndex(s string) bool {
	// Most segments are property names: tell them from indexes without
	// Atoi, whose error allocates. A sign, or a run of digits too long to
	// be sure of, is Atoi's to judge.
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			return i == 0 && (c == '+' || c == '-') && atoiOK(s)
		}
	}
	return s != "" && (len(s) <= 18 || atoiOK(s))
}

func atoiOK(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// PropertySchema returns the schema of the property a pointer names
// ("/properties/Tags/*/Key"), with $ref resolved; nil when the schema does
// not describe it. Callers must not change it.
func (s *Schema) PropertySchema(pointer string) map[string]any {
	return propertySchema(s, SplitPointer(pointer))
}

// Unordered tells whether the array at path (property names and indexes,
// from the model's root) is a set: its schema says insertionOrder false,
// so that its members compare in any order.
func (s *Schema) Unordered(path []string) bool {
	if s == nil {
		return false
	}
	segs := make([]string, len(path))
	for i, p := range path {
		if _, err := strconv.Atoi(p); err == nil {
			p = "*"
		}
		segs[i] = p
	}
	v, ok := s.PropertySchema(JoinPointer(segs))["insertionOrder"].(bool)
	return ok && !v
}

// SameMembers tells whether a and b hold the same members, in any order
// (LooseEqual), as many times each.
func SameMembers(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
outer:
	for _, x := range a {
		for j, y := range b {
			if !used[j] && LooseEqual(x, y) {
				used[j] = true
				continue outer
			}
		}
		return false
	}
	return true
}

func resolveRef(s *Schema, m map[string]any) map[string]any {
	for i := 0; i < 8 && m != nil; i++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		def, _ := s.Definitions()[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)
		m = def
	}
	return m
}

// ec2Prefix is the id prefix EC2 uses for a resource: its capitals
// lower-cased, unless it is one of the well-known ones.
func ec2Prefix(resource string) string {
	if p, ok := ec2KnownPrefixes[resource]; ok {
		return p
	}
	var b strings.Builder
	for _, r := range resource {
		if unicode.IsUpper(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	if b.Len() == 0 {
		return strings.ToLower(resource)
	}
	return b.String()
}

// ec2KnownPrefixes are the id prefixes of EC2's resources, by resource name
// (or by the stem of an id property: EniId → eni).
var ec2KnownPrefixes = map[string]string{
	"VPC": "vpc", "Vpc": "vpc", "Subnet": "subnet", "SecurityGroup": "sg", "InternetGateway": "igw",
	"RouteTable": "rtb", "Instance": "i", "NatGateway": "nat", "EIP": "eipalloc",
	"NetworkInterface": "eni", "Volume": "vol", "LaunchTemplate": "lt", "NetworkAcl": "acl",
	"TransitGateway": "tgw", "VPCEndpoint": "vpce", "KeyPair": "key", "PrefixList": "pl",
	"EgressOnlyInternetGateway": "eigw", "DHCPOptions": "dopt", "VPNGateway": "vgw",
	"CustomerGateway": "cgw", "VPCPeeringConnection": "pcx", "PlacementGroup": "pg",
	"Eni": "eni", "NetworkInterfaceAttachment": "eni-attach", "Allocation": "eipalloc", "Association": "eipassoc",
	"Image": "ami", "Snapshot": "snap", "Group": "sg", "Gateway": "igw",
}

func splitTypeName(t string) (service, resource string) {
	parts := strings.Split(t, "::")
	if len(parts) == 3 {
		return strings.ToLower(parts[1]), parts[2]
	}
	return strings.ToLower(t), t
}

// kebab turns DBInstance into db-instance, LogGroup into log-group.
func kebab(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// slowTypes are the types AWS takes minutes over, with the virtual seconds
// of create, update and delete. Patterns are path.Match globs.
var slowTypes = []struct {
	pattern                string
	create, update, delete int
}{
	{"AWS::RDS::DBInstance", 420, 300, 300},
	{"AWS::RDS::DBCluster", 300, 180, 240},
	{"AWS::CloudFront::Distribution", 240, 240, 240},
	{"AWS::EKS::Cluster", 600, 300, 420},
	{"AWS::EKS::Nodegroup", 300, 240, 300},
	{"AWS::ElastiCache::*", 360, 300, 300},
	{"AWS::OpenSearchService::Domain", 900, 600, 600},
	{"AWS::Elasticsearch::Domain", 900, 600, 600},
	{"AWS::Redshift::Cluster", 480, 300, 300},
	{"AWS::EC2::NatGateway", 90, 5, 60},
	{"AWS::DocDB::DBInstance", 420, 300, 300},
	{"AWS::Neptune::DBInstance", 420, 300, 300},
	{"AWS::MSK::Cluster", 1200, 900, 600},
}

func durationsFor(typeName string) map[string]int {
	for _, s := range slowTypes {
		if ok, _ := path.Match(s.pattern, typeName); ok {
			return map[string]int{"create": s.create, "update": s.update, "delete": s.delete}
		}
	}
	return map[string]int{"create": 3, "update": 2, "delete": 2}
}

func numberFromInt(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

func encodeListToken(afterID string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("after:" + afterID))
}

func decodeListToken(tok string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || !strings.HasPrefix(string(b), "after:") {
		return "", fmt.Errorf("%q is not a token this list handler gave", tok)
	}
	return strings.TrimPrefix(string(b), "after:"), nil
}
