package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/template"
	"github.com/stacksim/stacksim/transforms"
)

// Template stages (GetTemplate's TemplateStage).
const (
	TemplateStageOriginal  = "Original"
	TemplateStageProcessed = "Processed"
)

// GetTemplateInput is GetTemplate's request.
type GetTemplateInput struct {
	// StackName is the stack's name or ARN (a deleted stack by ARN).
	StackName string `json:"StackName,omitempty"`
	// ChangeSetName asks for a change set's template instead of the
	// stack's.
	ChangeSetName string `json:"ChangeSetName,omitempty"`
	// TemplateStage is Original (the default: the template as submitted)
	// or Processed (after transforms).
	TemplateStage string `json:"TemplateStage,omitempty"`
}

// GetTemplateOutput is GetTemplate's answer.
type GetTemplateOutput struct {
	TemplateBody    string   `json:"TemplateBody"`
	StagesAvailable []string `json:"StagesAvailable"`
}

// GetTemplate returns the template of a stack: the one of the operation in
// progress, or of the last one that completed (an update rolled back
// returns to the previous template).
func (e *Engine) GetTemplate(ctx context.Context, in GetTemplateInput) (*GetTemplateOutput, error) {
	stage := in.TemplateStage
	switch stage {
	case "":
		stage = TemplateStageOriginal
	case TemplateStageOriginal, TemplateStageProcessed:
	default:
		return nil, enumError(stage, "templateStage", []string{TemplateStageOriginal, TemplateStageProcessed})
	}
	if in.StackName == "" && in.ChangeSetName == "" {
		return nil, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *GetTemplateOutput
	err := e.view(func(tx *txn) error {
		if in.ChangeSetName != "" {
			cs, err := tx.findChangeSet(in.ChangeSetName, in.StackName)
			if err != nil {
				return err
			}
			body := cs.TemplateBody
			if stage == TemplateStageProcessed && cs.ProcessedTemplateBody != "" {
				body = cs.ProcessedTemplateBody
			}
			out = &GetTemplateOutput{
				TemplateBody:    body,
				StagesAvailable: []string{TemplateStageOriginal, TemplateStageProcessed},
			}
			return nil
		}
		st := tx.FindStack(in.StackName)
		if st == nil {
			return stackWithIDNotFound(in.StackName)
		}
		body := st.TemplateBody
		if stage == TemplateStageProcessed && st.ProcessedTemplateBody != "" {
			body = st.ProcessedTemplateBody
		}
		out = &GetTemplateOutput{
			TemplateBody:    body,
			StagesAvailable: []string{TemplateStageOriginal, TemplateStageProcessed},
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ValidateTemplate checks a template as CloudFormation does when it is
// submitted, and describes its parameters, the capabilities it needs and
// its transforms. A faulty template is a ValidationError with AWS's
// message, wrapping the positioned *template.Error (or template.Errors)
// for FILE:LINE:COL.
func (e *Engine) ValidateTemplate(ctx context.Context, in ValidateTemplateInput) (*ValidateTemplateOutput, error) {
	body, file, err := e.templateSource(in.TemplateBody, in.TemplateURL, in.TemplateFile, false)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if out, done, err := e.validateTransformed(file, body); done {
		return out, err
	}
	t, err := e.parseTemplate(file, body)
	if err == nil && len(t.Transform) == 0 {
		err = e.unrecognizedTypes(file, t.Resources)
	}
	if err != nil {
		return nil, templateError(err)
	}
	out := &ValidateTemplateOutput{Parameters: templateParameters(t.Parameters), Description: t.Description}
	req := t.Capabilities()
	out.Capabilities, out.CapabilitiesReason = req.Capabilities, req.Reason
	out.DeclaredTransforms = t.Transform
	return out, nil
}

// templateParameters describes parameters as ValidateTemplate does.
func templateParameters(ps []*template.Parameter) []TemplateParameter {
	out := []TemplateParameter{}
	for _, p := range ps {
		tp := TemplateParameter{ParameterKey: p.Name, NoEcho: p.NoEcho, Description: p.Description}
		if p.HasDefault {
			tp.DefaultValue = p.Default
		}
		out = append(out, tp)
	}
	return out
}

// validateTransformed validates a template whose transforms must run
// first (done is false for any other): they run with the parameters'
// defaults, the processed template is checked, and the answer describes
// the template as submitted (its parameters, description, transforms) with
// the capabilities the processed one needs. The caller holds e.mu.
func (e *Engine) validateTransformed(file, body string) (out *ValidateTemplateOutput, done bool, err error) {
	tt, done, err := e.transformToRead(file, body)
	if !done || err != nil {
		return nil, done, err
	}
	out = &ValidateTemplateOutput{Parameters: templateParameters(tt.params), Description: tt.description()}
	out.Capabilities, out.CapabilitiesReason = tt.capabilities()
	out.DeclaredTransforms = tt.transforms
	return out, true, nil
}

// transformed is a template whose transforms ran for a call that only
// reads it (ValidateTemplate, GetTemplateSummary): the template as
// submitted (its tree, parameters and transforms as declared) and the
// processed template its resources come from. A template without
// transforms to run has no root: processed is the template itself.
type transformed struct {
	root       *template.Node
	params     []*template.Parameter
	transforms []string
	processed  *template.Template
}

// transformToRead runs the transforms of a template a reading call was
// given, with the parameters' defaults, as a stack operation would (ok is
// false when it declares none to run). The caller holds e.mu.
func (e *Engine) transformToRead(file, body string) (tt *transformed, ok bool, err error) {
	if !strings.Contains(body, "Transform") {
		return nil, false, nil
	}
	name := templateFile(file)
	root, err := template.ParseTree(name, []byte(body))
	if err != nil {
		return nil, false, nil
	}
	needed, err := transforms.Needed(name, root)
	if err != nil {
		return nil, true, templateError(err)
	}
	if !needed {
		return nil, false, nil
	}
	tt, err = declaredPart(name, root)
	if err != nil {
		return nil, true, err
	}
	values := map[string]any{}
	for _, p := range tt.params {
		if v, ok := p.DefaultValue(); ok && !p.IsSSM() {
			values[p.Name] = v
		}
	}
	err = e.view(func(tx *txn) error {
		processed, err := e.runTransforms(tx, name, root, values, template.Pseudo{AccountID: e.opts.AccountID,
			Region: e.opts.Region, Partition: e.opts.Partition, StackName: "validate-template",
			StackID: tx.arn("stack/validate-template/00000000-0000-0000-0000-000000000000")})
		if err != nil {
			return err
		}
		if tt.processed, err = e.parseTemplate(name+" (processed)", processed); err != nil {
			return templateError(err)
		}
		return nil
	})
	if err != nil {
		return nil, true, err
	}
	return tt, true, nil
}

// declaredPart reads what a template with transforms declares itself:
// its parameters and its transforms (the processed template is the
// caller's to add).
func declaredPart(name string, root *template.Node) (*transformed, error) {
	params, err := template.DeclaredParameters(name, root)
	if err != nil {
		return nil, templateError(err)
	}
	tt := &transformed{root: root, params: params}
	declared, _ := template.DeclaredTransforms(name, root)
	for _, m := range declared {
		tt.transforms = append(tt.transforms, m.Name)
	}
	return tt, nil
}

// description is the Description the template as submitted declares.
func (tt *transformed) description() string {
	if tt.root == nil {
		return tt.processed.Description
	}
	desc, _ := tt.root.Get("Description").Literal().(string)
	return desc
}

// capabilities are what the processed template needs, and
// CAPABILITY_AUTO_EXPAND when transforms ran.
func (tt *transformed) capabilities() ([]string, string) {
	req := tt.processed.Capabilities()
	if tt.root == nil {
		return req.Capabilities, req.Reason
	}
	caps := slices.Clone(req.Capabilities)
	if !slices.Contains(caps, template.CapabilityAutoExpand) {
		caps = append(caps, template.CapabilityAutoExpand)
	}
	return caps, req.Reason
}
