package resources

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// The permissive provider stands in for a type stacksim knows nothing of (no
// registered handler, no embedded schema, no schema in --schemas): every
// property is accepted and mutable, the physical id is a generated name,
// Ref answers it and Fn::GetAtt answers any attribute (the model's value
// when it has one, else a value synthesized from the id).
//
// Its model is the template's properties plus two keys of its own,
// PermissiveIDKey and PermissiveARNKey.

// Keys the permissive provider adds to a model.
const (
	PermissiveIDKey  = "StacksimId"
	PermissiveARNKey = "StacksimArn"
)

type permissive struct {
	schema *Schema
	inner  *generic
}

// NewPermissive returns the permissive provider of a type.
func NewPermissive(typeName string, opts GenericOptions) Provider {
	doc := fmt.Sprintf(`{"typeName": %q,
 "description": "stacksim permissive provider: a type with no schema; every property is accepted and mutable.",
 "properties": {%q: {"type": "string"}, %q: {"type": "string"}},
 "additionalProperties": true,
 "primaryIdentifier": ["/properties/%s"],
 "readOnlyProperties": ["/properties/%s", "/properties/%s"],
 "x-stacksim": {"values": [
   {"path": "/properties/%s", "value": "{$StackName}-{$LogicalId}-{$upper:13}"},
   {"path": "/properties/%s", "value": "arn:{$Partition}:%s:{$Region}:{$AccountId}:%s/{%s}"}],
   "durations": {"create": 1, "update": 1, "delete": 1}}}`,
		typeName, PermissiveIDKey, PermissiveARNKey, PermissiveIDKey, PermissiveIDKey, PermissiveARNKey,
		PermissiveIDKey, PermissiveARNKey, serviceOf(typeName), kebab(resourceOf(typeName)), PermissiveIDKey)
	s, err := ParseSchema("permissive:"+typeName, []byte(doc))
	if err != nil {
		panic(fmt.Sprintf("stacksim: permissive schema for %s: %v", typeName, err)) // a bug: the document is ours
	}
	g := NewGeneric(s, opts).(*generic)
	return &permissive{schema: s, inner: g}
}

func serviceOf(t string) string  { s, _ := splitTypeName(t); return s }
func resourceOf(t string) string { _, r := splitTypeName(t); return r }

func (p *permissive) TypeName() string { return p.schema.TypeName }
func (p *permissive) Schema() *Schema  { return p.schema }
func (p *permissive) Timeout(a Action, _ map[string]any) time.Duration {
	return p.schema.Timeout(a)
}
func (p *permissive) PhysicalID(m map[string]any) (string, error) { return p.inner.PhysicalID(m) }
func (p *permissive) Ref(m map[string]any) (any, error)           { return p.inner.PhysicalID(m) }

func (p *permissive) GetAtt(model map[string]any, attribute string) (any, error) {
	if v, ok := Get(model, "/"+strings.ReplaceAll(attribute, ".", "/")); ok {
		return v, nil
	}
	id, err := p.PhysicalID(model)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(strings.ToLower(attribute), "arn") {
		if arn, ok := model[PermissiveARNKey].(string); ok {
			return arn, nil
		}
	}
	return id + "." + attribute, nil
}

func (p *permissive) Create(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return p.inner.Create(ctx, req)
}
func (p *permissive) Read(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return p.inner.Read(ctx, req)
}
func (p *permissive) Update(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return p.inner.Update(ctx, req)
}
func (p *permissive) Delete(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return p.inner.Delete(ctx, req)
}
func (p *permissive) List(ctx context.Context, req *Request) (*ProgressEvent, error) {
	return p.inner.List(ctx, req)
}
