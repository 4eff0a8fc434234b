package resources

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// TypeDescription is what the registry tells of a resource type, as
// CloudFormation's DescribeType and ListTypes answer it.
type TypeDescription struct {
	TypeName string
	// Private: the type is the user's (a registered handler's, or a
	// --schemas file's of a type the AWS registry does not have), as a
	// type registered in the account is; otherwise it is one of AWS's
	// public types.
	Private bool
	// Schema is the document stacksim simulates the type from: the user's
	// file, or the AWS registry's facts (resources/internal/schemapack: no
	// descriptions, handlers or permissions), without stacksim's overlay.
	Schema []byte
	// Description is the schema's description ("" when it has none; the
	// registry's facts have none).
	Description string
	// Mutable is true when a property can change without replacement (a
	// type with an update handler, FULLY_MUTABLE), false when every
	// property the template sets is create-only (IMMUTABLE). The
	// registry's facts do not list handlers, so this is read from the
	// schema's createOnlyProperties and readOnlyProperties.
	Mutable bool
}

// ProvisioningType is CloudFormation's name of the description's
// provisioning behaviour: FULLY_MUTABLE or IMMUTABLE.
func (d TypeDescription) ProvisioningType() string {
	if d.Mutable {
		return "FULLY_MUTABLE"
	}
	return "IMMUTABLE"
}

// DescribeType describes a type the registry can create: a registered
// handler's, a --schemas file's, or the AWS registry's. ok is false for any
// other type, and for Custom:: types and stacksim's own types, which are
// not registry types on AWS either.
func (r *Registry) DescribeType(typeName string) (d TypeDescription, ok bool, err error) {
	if checkTypeName(typeName) != nil || isCustomName(typeName) {
		return d, false, nil
	}
	r.mu.Lock()
	p, registered := r.byType[typeName]
	r.mu.Unlock()
	aws := InRegistry(typeName)
	var s *Schema
	switch {
	case registered:
		s = p.Schema()
	case r.dir != nil:
		if s, err = r.dir.lookup(typeName); err != nil {
			return d, false, err
		}
	}
	if s == nil && !aws {
		return d, false, nil
	}
	d = TypeDescription{TypeName: typeName, Private: registered || !aws}
	if s != nil {
		d.Schema, d.Description, d.Mutable = s.Raw(), s.Description, mutable(s)
		return d, true, nil
	}
	pk, err := registryPack()
	if err != nil {
		return d, false, err
	}
	doc, _, err := pk.Doc(typeName)
	if err != nil {
		return d, false, fmt.Errorf("the registry's schema of %s: %w", typeName, err)
	}
	rs, err := ParseSchema("registry:"+typeName, doc) // not kept: a listing reads every type
	if err != nil {
		return d, false, err
	}
	d.Schema, d.Mutable = doc, mutable(rs)
	return d, true, nil
}

// TypeEntry is one type of DescribedTypes.
type TypeEntry struct {
	TypeName string
	Private  bool // as TypeDescription.Private
}

// DescribedTypes lists every type DescribeType describes, sorted by name:
// registered handlers' (custom resources aside), --schemas files' and the
// AWS registry's. It reads no schema of the registry.
func (r *Registry) DescribedTypes() ([]TypeEntry, error) {
	private := map[string]bool{}
	r.mu.Lock()
	for t := range r.byType {
		if !isCustomName(t) {
			private[t] = true
		}
	}
	r.mu.Unlock()
	if r.dir != nil {
		ts, err := r.dir.types()
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if !isCustomName(t) && !InRegistry(t) {
				private[t] = true
			}
		}
	}
	names := RegistryTypes()
	for t := range private {
		if !InRegistry(t) {
			names = append(names, t)
		}
	}
	sort.Strings(names)
	out := make([]TypeEntry, len(names))
	for i, t := range names {
		out[i] = TypeEntry{TypeName: t, Private: private[t]}
	}
	return out, nil
}

// mutable tells whether some property of the schema a template sets can
// change without replacement. It reads the properties' names only, so
// that listing every type of the registry decodes no property's schema.
func mutable(s *Schema) bool {
	var names map[string]json.RawMessage
	if json.Unmarshal(s.rawProps, &names) != nil {
		return false
	}
	for name := range names {
		p := "/properties/" + name
		if !s.IsReadOnly(p) && !s.IsCreateOnly(p) {
			return true
		}
	}
	return false
}

// isCustomName: a Custom:: type is a custom resource, never a registry
// type (AWS::CloudFormation::CustomResource is one of the registry's).
func isCustomName(typeName string) bool { return strings.HasPrefix(typeName, "Custom::") }

// TypeArnName is a type's name as its ARN spells it: AWS::S3::Bucket →
// AWS-S3-Bucket.
func TypeArnName(typeName string) string { return strings.ReplaceAll(typeName, "::", "-") }
