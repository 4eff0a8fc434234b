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
			// Change sets are stored by the operations code (not yet
			// written); until then no change set exists.
			return ChangeSetNotFoundError(in.ChangeSetName)
		}
		st := tx.findStack(in.StackName)
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

// TODO(operations): ValidateTemplate. It delegates to template.Parse (and
// returns Parameters, Description, Capabilities, CapabilitiesReason and
// DeclaredTransforms from the parsed template); the template package is not
// merged into this branch yet (its branch conflicts with main in cmd/), so
// the call is written with the operations, which need template too.
