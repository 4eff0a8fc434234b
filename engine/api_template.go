package engine

import (
	"context"
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
			out = &GetTemplateOutput{
				TemplateBody:    cs.TemplateBody,
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
	t, err := e.parseTemplate(file, body)
	e.mu.Unlock()
	if err != nil {
		return nil, templateError(err)
	}
	out := &ValidateTemplateOutput{Parameters: []TemplateParameter{}, Description: t.Description}
	for _, p := range t.Parameters {
		tp := TemplateParameter{ParameterKey: p.Name, NoEcho: p.NoEcho, Description: p.Description}
		if p.HasDefault {
			tp.DefaultValue = p.Default
		}
		out.Parameters = append(out.Parameters, tp)
	}
	req := t.Capabilities()
	out.Capabilities, out.CapabilitiesReason = req.Capabilities, req.Reason
	out.DeclaredTransforms = t.Transform
	return out, nil
}
