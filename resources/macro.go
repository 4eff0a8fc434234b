package resources

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
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

// maxMacroAnswer bounds what a macro's function may answer: a Lambda
// function's synchronous response is at most 6 MB.
const maxMacroAnswer = 6 << 20

// InvokeMacro runs the command with the event as JSON on its standard
// input; its standard output is the answer.
func (t CommandTarget) InvokeMacro(ctx context.Context, req *MacroRequest) ([]byte, error) {
	if len(t.Argv) == 0 {
		return nil, fmt.Errorf("the command target has no program")
	}
	in, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, t.Argv[0], t.Argv[1:]...)
	cmd.Dir = t.Dir
	cmd.Env = append(cmd.Environ(), t.Env...)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedBuffer{max: maxMacroAnswer + 1, buf: &stdout}
	cmd.Stderr = &limitedBuffer{max: 8192, buf: &stderr}
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("command %s did not answer in time", quoteArgv(t.Argv))
		}
		return nil, fmt.Errorf("command %s failed: %v%s", quoteArgv(t.Argv), err, stderrTail(stderr.Bytes()))
	}
	if stdout.Len() > maxMacroAnswer {
		return nil, fmt.Errorf("command %s answered more than %d bytes", quoteArgv(t.Argv), maxMacroAnswer)
	}
	return stdout.Bytes(), nil
}

// InvokeMacro POSTs the event as JSON; the response body is the answer (a
// Lambda function URL, or any endpoint that answers as one).
func (t URLTarget) InvokeMacro(ctx context.Context, req *MacroRequest) ([]byte, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("macro URL %q: %w", t.URL, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	c := t.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", t.URL, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxMacroAnswer+1))
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", t.URL, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("POST %s: %s: %s", t.URL, resp.Status, bytes.TrimSpace(out[:min(len(out), 512)]))
	}
	if len(out) > maxMacroAnswer {
		return nil, fmt.Errorf("POST %s answered more than %d bytes", t.URL, maxMacroAnswer)
	}
	return out, nil
}
