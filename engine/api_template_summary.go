package engine

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// GetTemplateSummaryInput is GetTemplateSummary's request: a template body,
// or the stack whose template to summarise.
type GetTemplateSummaryInput struct {
	TemplateBody string `json:"TemplateBody,omitempty"`
	// TemplateURL names the template as CreateStack's does (file:// or S3
	// from Options.S3Dir).
	TemplateURL string `json:"TemplateURL,omitempty"`
	// StackName is a stack's name or ARN (a deleted stack by ARN).
	StackName string `json:"StackName,omitempty"`

	Extensions `json:"-"`
}

// ParameterConstraints are a parameter's AllowedValues.
type ParameterConstraints struct {
	AllowedValues []string `json:"AllowedValues,omitempty"`
}

// ParameterDeclaration is one parameter as GetTemplateSummary describes it.
type ParameterDeclaration struct {
	ParameterKey         string               `json:"ParameterKey"`
	DefaultValue         string               `json:"DefaultValue,omitempty"`
	ParameterType        string               `json:"ParameterType"`
	NoEcho               bool                 `json:"NoEcho"`
	Description          string               `json:"Description,omitempty"`
	ParameterConstraints ParameterConstraints `json:"ParameterConstraints"`
}

// ResourceIdentifierSummary names, for one resource type of a template, its
// resources and the properties that identify one (what an import of it
// would have to give).
type ResourceIdentifierSummary struct {
	ResourceType        string   `json:"ResourceType"`
	LogicalResourceIds  []string `json:"LogicalResourceIds"`
	ResourceIdentifiers []string `json:"ResourceIdentifiers,omitempty"`
}

// TemplateSummaryWarnings lists the resource types nothing serves.
type TemplateSummaryWarnings struct {
	UnrecognizedResourceTypes []string `json:"UnrecognizedResourceTypes,omitempty"`
}

// GetTemplateSummaryOutput is GetTemplateSummary's answer.
type GetTemplateSummaryOutput struct {
	Parameters                  []ParameterDeclaration      `json:"Parameters"`
	Description                 string                      `json:"Description,omitempty"`
	Capabilities                []string                    `json:"Capabilities,omitempty"`
	CapabilitiesReason          string                      `json:"CapabilitiesReason,omitempty"`
	ResourceTypes               []string                    `json:"ResourceTypes"`
	Version                     string                      `json:"Version,omitempty"`
	Metadata                    string                      `json:"Metadata,omitempty"`
	DeclaredTransforms          []string                    `json:"DeclaredTransforms,omitempty"`
	ResourceIdentifierSummaries []ResourceIdentifierSummary `json:"ResourceIdentifierSummaries,omitempty"`
	Warnings                    *TemplateSummaryWarnings    `json:"Warnings,omitempty"`
}

// GetTemplateSummary describes a template, given or a stack's, without
// creating anything: its parameters, the capabilities it needs, its
// resource types (in the template's order, each once), format version,
// Metadata (as JSON), transforms, and the identifying properties of each
// resource type (the primary identifier of its schema). AWS CLI's deploy
// calls it before updating a stack, to learn the parameters.
func (e *Engine) GetTemplateSummary(ctx context.Context, in GetTemplateSummaryInput) (*GetTemplateSummaryOutput, error) {
	given := 0
	for _, v := range []string{in.TemplateBody, in.TemplateURL, in.StackName} {
		if v != "" {
			given++
		}
	}
	if given != 1 {
		// UNVERIFIED wording: AWS's answer when none (or more than one) is
		// given.
		return nil, ValidationError("Specify one of TemplateBody, TemplateURL and StackName (stacksim does not read StackSetName).")
	}
	body, file := in.TemplateBody, in.TemplateFile
	if in.TemplateURL != "" {
		var err error
		if body, file, err = e.templateSource("", in.TemplateURL, file, false); err != nil {
			return nil, err
		}
	}
	processed := ""
	if in.StackName != "" {
		e.mu.Lock()
		err := e.view(func(tx *txn) error {
			st := tx.FindStack(in.StackName)
			if st == nil {
				return stackWithIDNotFound(in.StackName)
			}
			body, file, processed = st.TemplateBody, st.TemplateFile, st.ProcessedTemplateBody
			return nil
		})
		e.mu.Unlock()
		if err != nil {
			return nil, err
		}
	} else if in.TemplateURL == "" {
		if err := checkTemplateBody(body, false, file); err != nil {
			return nil, err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	tt, err := e.summarisedTemplate(file, body, processed)
	if err != nil {
		return nil, err
	}
	if tt == nil {
		t, err := e.parseTemplate(file, body)
		if err != nil {
			return nil, templateError(err)
		}
		tt = &transformed{params: t.Parameters, transforms: t.Transform, processed: t}
	}
	return e.summary(tt), nil
}

// summarisedTemplate is the template with transforms that GetTemplateSummary
// describes (nil for a template without): a stack's is the one its
// operation processed (processed), a template given is processed as
// ValidateTemplate processes it. The caller holds e.mu.
func (e *Engine) summarisedTemplate(file, body, processed string) (*transformed, error) {
	if processed == "" {
		tt, ok, err := e.transformToRead(file, body)
		if !ok {
			return nil, err
		}
		return tt, err
	}
	name := templateFile(file)
	root, err := template.ParseTree(name, []byte(body))
	if err != nil {
		return nil, templateError(err)
	}
	tt, err := declaredPart(name, root)
	if err != nil {
		return nil, err
	}
	if tt.processed, err = e.parseTemplate(name+" (processed)", processed); err != nil {
		return nil, templateError(err)
	}
	return tt, nil
}

// summary is GetTemplateSummary's answer: the template's declared
// parameters, description, format version, Metadata (as JSON) and
// transforms, with the capabilities and the resources of the template the
// stack is made of (the processed one, when transforms ran).
func (e *Engine) summary(tt *transformed) *GetTemplateSummaryOutput {
	out := &GetTemplateSummaryOutput{
		Parameters:         []ParameterDeclaration{},
		ResourceTypes:      []string{},
		Description:        tt.description(),
		Version:            tt.processed.FormatVersion,
		DeclaredTransforms: tt.transforms,
	}
	for _, p := range tt.params {
		d := ParameterDeclaration{ParameterKey: p.Name, ParameterType: p.Type, NoEcho: p.NoEcho, Description: p.Description,
			ParameterConstraints: ParameterConstraints{AllowedValues: p.AllowedValues}}
		if p.HasDefault {
			d.DefaultValue = p.Default
		}
		out.Parameters = append(out.Parameters, d)
	}
	out.Capabilities, out.CapabilitiesReason = tt.capabilities()
	metadata := tt.processed.Metadata
	if tt.root != nil {
		metadata = tt.root.Get("Metadata")
		out.Version, _ = tt.root.Get("AWSTemplateFormatVersion").Literal().(string)
	}
	if metadata != nil {
		if b, err := json.Marshal(metadata.Literal()); err == nil {
			out.Metadata = string(b)
		}
	}
	out.ResourceTypes, out.ResourceIdentifierSummaries, out.Warnings = e.summariseResources(tt.processed)
	return out
}

// summariseResources returns a template's resource types in order of first
// appearance, the identifier summary of each type that has a schema (its
// primary identifier, when it has one), and the types nothing serves.
func (e *Engine) summariseResources(t *template.Template) ([]string, []ResourceIdentifierSummary, *TemplateSummaryWarnings) {
	types := []string{}
	byType := map[string]*ResourceIdentifierSummary{}
	var summaries []*ResourceIdentifierSummary
	var unknown []string
	for _, r := range t.Resources {
		if _, seen := byType[r.Type]; !seen {
			types = append(types, r.Type)
			s := &ResourceIdentifierSummary{ResourceType: r.Type}
			byType[r.Type] = s
			if isCustomType(r.Type) {
				continue
			}
			schema, err := e.reg.Schema(r.Type)
			if err != nil || schema == nil || permissive(schema) {
				// stacksim simulates a type it has no schema for
				// (resources.NewPermissive); AWS would not know it.
				unknown = append(unknown, r.Type)
				continue
			}
			// A type is summarised with its resources even when it names
			// no identifiers (LocalStack's AWS-recorded
			// api/test_get_template_summary.snapshot.json: an
			// AWS::SNS::Topic with LogicalResourceIds and no
			// ResourceIdentifiers).
			summaries = append(summaries, s)
			for _, p := range schema.PrimaryIdentifier {
				s.ResourceIdentifiers = append(s.ResourceIdentifiers, strings.TrimPrefix(p, "/properties/"))
			}
		}
		byType[r.Type].LogicalResourceIds = append(byType[r.Type].LogicalResourceIds, r.LogicalID)
	}
	var out []ResourceIdentifierSummary
	for _, s := range summaries {
		out = append(out, *s)
	}
	var w *TemplateSummaryWarnings
	if len(unknown) > 0 {
		w = &TemplateSummaryWarnings{UnrecognizedResourceTypes: unknown}
	}
	return types, out, w
}

// isCustomType: custom resources have no schema and no identifiers.
func isCustomType(typeName string) bool {
	return typeName == "AWS::CloudFormation::CustomResource" || strings.HasPrefix(typeName, "Custom::")
}

// permissive reports whether a schema is the stand-in of a type stacksim
// has no schema for.
func permissive(s *resources.Schema) bool {
	return len(s.PrimaryIdentifier) == 1 && s.PrimaryIdentifier[0] == "/properties/"+resources.PermissiveIDKey
}
