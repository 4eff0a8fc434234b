package resources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Macros: the function an AWS::CloudFormation::Macro names (its
// FunctionName) is invoked synchronously with CloudFormation's macro event
// and answers with the processed fragment (template-macros.html). Its
// target is given like a custom resource's ServiceToken: a command, an
// HTTP URL or a Go function. What the answer means is the transforms
// package's; a target only carries the bytes.

// MacroRequest is the event CloudFormation sends a macro's function.
type MacroRequest struct {
	Region    string `json:"region"`
	AccountID string `json:"accountId"`
	// Fragment is the template content to process: the whole template
	// (Transform section aside) for a template-level macro, the siblings
	// of the Fn::Transform for a snippet-level one.
	Fragment json.RawMessage `json:"fragment"`
	// TransformID names the macro: ACCOUNT::NAME.
	TransformID string `json:"transformId"`
	// Params are the Parameters of an Fn::Transform (or of a Transform
	// entry), {} when there are none.
	Params                  map[string]any `json:"params"`
	RequestID               string         `json:"requestId"`
	TemplateParameterValues map[string]any `json:"templateParameterValues"`
}

// MacroTarget invokes a macro's function: the raw answer it returns.
type MacroTarget interface {
	InvokeMacro(ctx context.Context, req *MacroRequest) ([]byte, error)
}

// MacroFunc is an in-process macro function.
type MacroFunc func(ctx context.Context, req *MacroRequest) ([]byte, error)

// InvokeMacro implements MacroTarget.
func (f MacroFunc) InvokeMacro(ctx context.Context, req *MacroRequest) ([]byte, error) {
	return f(ctx, req)
}

// InvokeMacro runs the command with the event as JSON on its standard
// input; its standard output is the answer.
func (t CommandTarget) InvokeMacro(ctx context.Context, req *MacroRequest) ([]byte, error) {
	in, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	out, err := t.run(ctx, in, maxTargetAnswer)
	if errors.Is(err, ErrNoResponse) {
		return nil, fmt.Errorf("command %s did not answer in time", quoteArgv(t.Argv))
	}
	return out, err
}

// InvokeMacro POSTs the event as JSON; the response body is the answer (a
// Lambda function URL, or any endpoint that answers as one).
func (t URLTarget) InvokeMacro(ctx context.Context, req *MacroRequest) ([]byte, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	out, err := t.post(ctx, body, maxTargetAnswer)
	switch {
	case errors.Is(err, ErrNoResponse):
		return nil, fmt.Errorf("POST %s: no answer in time", t.URL)
	case errors.Is(err, errAnswerTooLarge):
		return nil, fmt.Errorf("POST %s answered more than %d bytes", t.URL, maxTargetAnswer)
	}
	return out, err
}
