package resources

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// handlerProvider binds a Handler to a schema: what the engine needs beyond
// the handler (physical id, Ref, Fn::GetAtt, timeouts) comes from the schema.
type handlerProvider struct {
	schema *Schema
	h      Handler
}

// NewHandlerProvider makes a Provider of a Handler and the schema of the
// type it serves: the physical id is the primary identifier, Ref answers
// it, Fn::GetAtt answers readOnly properties (nested as "A.B"), and the
// timeouts are the schema's.
func NewHandlerProvider(s *Schema, h Handler) Provider {
	return &handlerProvider{schema: s, h: h}
}

func (p *handlerProvider) TypeName() string { return p.schema.TypeName }
func (p *handlerProvider) Schema() *Schema  { return p.schema }

func (p *handlerProvider) PhysicalID(m map[string]any) (string, error) {
	return PrimaryIdentifierValue(p.schema, m)
}

func (p *handlerProvider) Ref(m map[string]any) (any, error) { return p.PhysicalID(m) }

func (p *handlerProvider) GetAtt(m map[string]any, attribute string) (any, error) {
	return getAttFromModel(p.schema, m, attribute)
}

func (p *handlerProvider) Timeout(a Action, _ map[string]any) time.Duration {
	return p.schema.Timeout(a)
}

func (p *handlerProvider) Create(ctx context.Context, r *Request) (*ProgressEvent, error) {
	return p.h.Create(ctx, r)
}
func (p *handlerProvider) Read(ctx context.Context, r *Request) (*ProgressEvent, error) {
	return p.h.Read(ctx, r)
}
func (p *handlerProvider) Update(ctx context.Context, r *Request) (*ProgressEvent, error) {
	return p.h.Update(ctx, r)
}
func (p *handlerProvider) Delete(ctx context.Context, r *Request) (*ProgressEvent, error) {
	return p.h.Delete(ctx, r)
}
func (p *handlerProvider) List(ctx context.Context, r *Request) (*ProgressEvent, error) {
	return p.h.List(ctx, r)
}

// IsCustomType reports whether a type is a custom resource:
// AWS::CloudFormation::CustomResource or Custom::NAME.
func IsCustomType(typeName string) bool {
	return typeName == "AWS::CloudFormation::CustomResource" || strings.HasPrefix(typeName, "Custom::")
}

// checkTypeName refuses a type name that is not Org::Service::Resource.
func checkTypeName(t string) error {
	// Split by hand: this runs for every resource of every operation.
	a, rest, ok := strings.Cut(t, "::")
	if ok {
		b, c, three := strings.Cut(rest, "::")
		if three && a != "" && b != "" && c != "" && !strings.Contains(c, "::") {
			return nil
		}
		if !three && a == "Custom" && rest != "" {
			return nil
		}
	}
	return fmt.Errorf("%q is not a resource type name; write Org::Service::Resource (AWS::S3::Bucket) or Custom::Name", t)
}
