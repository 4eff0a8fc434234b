package template

import (
	"regexp"
	"slices"
	"strings"
)

var deletionPolicies = map[string]bool{"Delete": true, "Retain": true, "Snapshot": true, "RetainExceptOnCreate": true}
var updateReplacePolicies = map[string]bool{"Delete": true, "Retain": true, "Snapshot": true}

// typeRE is the shape of a resource type name: Org::Service::Type (and
// modules' ::MODULE suffix), or Custom::Name.
var typeRE = regexp.MustCompile(`^(?:[A-Za-z0-9]+::[A-Za-z0-9]+::[A-Za-z0-9]+(?:::MODULE)?|Custom::[A-Za-z0-9_@.\-]+)$`)

// isResourceType is typeRE.MatchString without the regexp (it runs once
// per resource); TestIsResourceType holds them equal.
func isResourceType(s string) bool {
	if rest, ok := strings.CutPrefix(s, "Custom::"); ok && rest != "" && strings.Trim(rest, customTypeChars) == "" {
		return true
	}
	a, rest, ok1 := strings.Cut(s, "::")
	b, c, ok2 := strings.Cut(rest, "::")
	if !ok1 || !ok2 {
		return false
	}
	c = strings.TrimSuffix(c, "::MODULE")
	return isAlnum(a) && isAlnum(b) && isAlnum(c)
}

const customTypeChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@.-"

func (b *builder) resources(sec *Node) {
	empty := sec == nil || sec.Kind == Null || (sec.Kind == Map && len(sec.Fields) == 0)
	if empty && b.t.loopsNeedParams {
		return // the loops produce the resources once the parameters are bound
	}
	if empty {
		if sec != nil {
			b.claimed[sec] = true
		}
		at := sec
		if at == nil {
			at = b.t.Root
		}
		b.c.at(at, "Template format error: At least one Resources member must be defined.")
		return
	}
	if !b.section(sec, "Resources", "resources", MaxResources) {
		return
	}
	block := make([]Resource, len(sec.Fields)) // one allocation for all
	b.t.Resources = make([]*Resource, 0, len(sec.Fields))
	if len(b.t.resources) == 0 {
		b.t.resources = make(map[string]*Resource, len(sec.Fields))
	}
	for i := range sec.Fields {
		f := &sec.Fields[i]
		def := f.Value
		if strings.HasPrefix(f.Key, "Fn::ForEach::") && b.forEachWithoutTransform(f, resourcePath(f.Key)) {
			continue
		}
		if !isAlnum(f.Key) || len(f.Key) > MaxNameLength {
			b.checkName(f, resourcePath(f.Key), "Resource")
		}
		r := &block[i]
		*r = Resource{LogicalID: f.Key, Pos: f.KeyPos, Node: def, index: len(b.t.Resources)}
		if def.Kind != Map {
			if def.Kind == Null {
				b.claimed[def] = true
			}
			b.c.atPos(f.KeyPos, resourcePath(f.Key), "Template format error: [%s] Every Resources object must contain a Type member.", resourcePath(f.Key))
			continue
		}
		// The attributes a resource may have, in one pass (a map has no
		// duplicate keys); any other is refused.
		var typ, props, dependsOn, cond, deletion, replace, metadata, creation, update *Node
		for i := range def.Fields {
			rf := &def.Fields[i]
			switch rf.Key {
			case "Type":
				typ = rf.Value
			case "Properties":
				props = rf.Value
			case "DependsOn":
				dependsOn = rf.Value
			case "Condition":
				cond = rf.Value
			case "DeletionPolicy":
				deletion = rf.Value
			case "UpdateReplacePolicy":
				replace = rf.Value
			case "Metadata":
				metadata = rf.Value
			case "CreationPolicy":
				creation = rf.Value
			case "UpdatePolicy":
				update = rf.Value
			case "Version": // accepted on custom resources for historical reasons
			default:
				b.c.atPos(rf.KeyPos, resourcePath(f.Key)+"/"+rf.Key, "Invalid template resource property '%s'", rf.Key)
			}
		}
		switch {
		case typ == nil || typ.Kind == Null:
			if typ != nil {
				b.claimed[typ] = true
			}
			b.c.atPos(f.KeyPos, resourcePath(f.Key), "Template format error: [%s] Every Resources object must contain a Type member.", resourcePath(f.Key))
		case typ.Kind != String:
			b.c.at(typ, "Template format error: [%s/Type] Every Type member must be a string.", resourcePath(f.Key))
		default:
			r.Type = typ.Value
			switch {
			case !isResourceType(r.Type):
				b.c.at(typ, "Template format error: Unrecognized resource types: [%s]", r.Type)
			case strings.HasSuffix(r.Type, "::MODULE"):
				e := b.c.at(typ, "Template format error: module %s is not supported by stacksim", r.Type)
				e.Detail = "modules are expanded from the CloudFormation registry; give stacksim the processed template"
				e.err = ErrUnsupported
			}
		}
		if v := props; v != nil && v.Kind != Null {
			if v.Kind != Map {
				b.c.at(v, "Template format error: [%s/Properties] Every Properties member must be an object.", resourcePath(f.Key))
			} else {
				r.Properties = v
			}
		}
		if v := dependsOn; v != nil && v.Kind != Null {
			switch v.Kind {
			case String:
				r.DependsOn = []string{v.Value}
			case List:
				for _, item := range v.Items {
					if item.Kind != String {
						if item.Kind != Null {
							b.c.at(item, "Template format error: Every DependsOn value must be a string.")
						}
						continue
					}
					r.DependsOn = append(r.DependsOn, item.Value)
				}
			default:
				b.c.at(v, "Template format error: DependsOn must be a string or list of strings.")
			}
		}
		if v := cond; v != nil && v.Kind != Null {
			if v.Kind != String {
				b.c.at(v, "Template format error: Every Condition member must be a string.")
			} else {
				r.Condition = v.Value
			}
		}
		r.DeletionPolicy, r.deletionPolicyNode = b.policy(deletion, "DeletionPolicy", f.Key, deletionPolicies)
		r.UpdateReplacePolicy, r.updateReplacePolicyNode = b.policy(replace, "UpdateReplacePolicy", f.Key, updateReplacePolicies)
		r.Metadata = b.objectAttr(metadata, "Metadata", f.Key)
		r.CreationPolicy = b.objectAttr(creation, "CreationPolicy", f.Key)
		r.UpdatePolicy = b.objectAttr(update, "UpdatePolicy", f.Key)
		b.t.Resources = append(b.t.Resources, r)
		b.t.resources[r.LogicalID] = r
		b.t.logicalIDs = append(b.t.logicalIDs, r.LogicalID)
	}
	b.t.logicalIDs = slices.Clip(b.t.logicalIDs)
}

// policy reads DeletionPolicy or UpdateReplacePolicy. Under
// AWS::LanguageExtensions the value may be an intrinsic function, resolved
// when the template is bound.
// resourcePath is the JSON pointer of a resource, for messages: built
// when one is needed.
func resourcePath(id string) string { return "/Resources/" + id }

func (b *builder) policy(v *Node, key, id string, allowed map[string]bool) (string, *Node) {
	if v == nil || v.Kind == Null {
		return "", nil
	}
	if v.Kind == Map && v.fn != fnNone {
		// Intrinsic functions (Ref, Fn::FindInMap, Fn::If) are resolved
		// when the template is bound.
		return "", v
	}
	s, ok := v.scalarString()
	if !ok || v.Kind != String || !allowed[s] {
		b.c.at(v, "Template format error: Unrecognized %s %s for resource %s", key, nodeText(v), id)
		return "", nil
	}
	return s, nil
}

func (b *builder) objectAttr(v *Node, key, id string) *Node {
	if v == nil || v.Kind == Null {
		return nil
	}
	if v.Kind != Map {
		b.c.at(v, "Template format error: [%s/%s] Every %s member must be an object.", resourcePath(id), key, key)
		return nil
	}
	return v
}

// forEachWithoutTransform refuses an Fn::ForEach loop in a template that
// does not declare AWS::LanguageExtensions (with the transform, loops are
// expanded before the sections are read).
func (b *builder) forEachWithoutTransform(f *Field, path string) bool {
	if !strings.HasPrefix(f.Key, "Fn::ForEach::") {
		return false
	}
	b.claimed[f.Value] = true
	e := b.c.atPos(f.KeyPos, path, "Template format error: [%s] resource definition is malformed", path)
	e.Detail = "Fn::ForEach needs Transform: AWS::LanguageExtensions"
	return true
}
