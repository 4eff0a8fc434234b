package transforms

import (
	"bytes"
	"context"
	_ "embed" // the SAM bridge script
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/stacksim/stacksim/template"
)

// AWS::Serverless-2016-10-31 is expanded by AWS's SAM translator
// (aws-sam-translator, the Python library CloudFormation's transform
// runs), in a subprocess: sam_translate.py reads the template and the
// parameter values on standard input and answers the processed template.
// The translator works offline: it names managed policies from the map it
// bundles, and it is given no credentials (a part of SAM that needs AWS,
// such as an AWS::Serverless::Application from the Serverless Application
// Repository, fails with the translator's own message).

//go:embed sam_translate.py
var samScript string

// Translator runs the SAM translator. A Translator is safe for concurrent
// use; its translations run one at a time.
type Translator struct {
	// Python is the interpreter ("python3" when empty).
	Python string
	// Timeout bounds one translation in real time (60 s when 0).
	Timeout time.Duration
	// Persistent keeps one translator process running between
	// translations (sam_translate.py --serve), so that Python and the
	// translator are loaded once rather than once per template: the first
	// translation costs what a one-shot one does (about 0.6 s), the next
	// ones about 30 ms. A worker found gone is started again once; one
	// that cannot start or dies again leaves this Translator running each
	// translation as a process of its own, with that way's errors. Close
	// ends the worker.
	Persistent bool

	mu     sync.Mutex
	worker *samWorker
	oneOff bool // the worker failed: every translation is one-shot
}

// install is what to do when the translator cannot run.
const install = "stacksim expands it with AWS's SAM translator: install it for python3 with 'python3 -m pip install aws-sam-translator' (it comes with cfn-lint too), or put a python3 that has it first on PATH"

// samAnswer is the bridge script's answer.
type samAnswer struct {
	Template json.RawMessage `json:"template"`
	Error    string          `json:"error"`
	Missing  string          `json:"missing"`
	Version  string          `json:"version"`
}

// Translate expands a SAM template (its JSON) with parameter values.
func (t *Translator) Translate(ctx context.Context, templateJSON []byte, params map[string]any, region string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, t.timeout())
	defer cancel()
	in, err := json.Marshal(map[string]any{"template": json.RawMessage(templateJSON), "parameterValues": params, "region": region})
	if err != nil {
		return nil, err
	}
	if t.Persistent {
		if out, ok := t.translateByWorker(ctx, in, region); ok {
			return t.answer(ctx, out, nil, nil)
		}
	}
	cmd := exec.CommandContext(ctx, t.python(), "-c", samScript)
	cmd.Env = samEnv(region)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	return t.answer(ctx, stdout.Bytes(), runErr, stderr.Bytes())
}

func (t *Translator) python() string {
	if t.Python == "" {
		return "python3"
	}
	return t.Python
}

func (t *Translator) timeout() time.Duration {
	if t.Timeout <= 0 {
		return 60 * time.Second
	}
	return t.Timeout
}

// answer reads the bridge script's answer (out), or says why there is
// none: how the process ended (runErr) and the tail of its standard error.
func (t *Translator) answer(ctx context.Context, out []byte, runErr error, stderr []byte) ([]byte, error) {
	python := t.python()
	failed := func(detail string) error {
		return &Error{Message: "Transform " + Serverless + " cannot run: AWS's SAM translator is not available", Detail: detail}
	}
	var a samAnswer
	if jerr := json.Unmarshal(bytes.TrimSpace(out), &a); jerr != nil {
		var execErr *exec.Error
		switch {
		case errors.As(runErr, &execErr) || errors.Is(runErr, fs.ErrNotExist):
			return nil, failed(fmt.Sprintf("%s is not on this machine's PATH; %s", python, install))
		case ctx.Err() != nil:
			return nil, failed(fmt.Sprintf("the translator did not answer in %s", t.timeout()))
		}
		tail := strings.TrimSpace(string(stderr))
		if len(tail) > 800 {
			tail = tail[len(tail)-800:]
		}
		return nil, failed(fmt.Sprintf("%s answered no result (%v): %s", python, runErr, tail))
	}
	switch {
	case a.Missing != "":
		return nil, failed(fmt.Sprintf("%s cannot import samtranslator (%s); %s", python, a.Missing, install))
	case a.Error != "":
		return nil, &Error{Message: "Transform " + Serverless + " failed with: " + a.Error}
	case len(a.Template) == 0:
		return nil, failed("the translator answered no template")
	}
	return a.Template, nil
}

// samEnv is the translator's environment: the machine's, without AWS
// credentials or configuration, in the simulated region, and with Python's
// hashing fixed so that its output does not vary.
func samEnv(region string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "AWS_") || strings.HasPrefix(kv, "PYTHONHASHSEED=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "AWS_DEFAULT_REGION="+region, "AWS_REGION="+region, "AWS_EC2_METADATA_DISABLED=true",
		"AWS_CONFIG_FILE="+os.DevNull, "AWS_SHARED_CREDENTIALS_FILE="+os.DevNull, "PYTHONHASHSEED=0")
}

// serverless runs the SAM translator on the template.
func (p *processor) serverless(body *template.Node) (*template.Node, error) {
	if p.env.SAM == nil {
		return nil, &Error{Message: "Transform " + Serverless + " cannot run: AWS's SAM translator is not available", Detail: install}
	}
	params := map[string]any{}
	for k, v := range p.env.Parameters {
		params[k] = v
	}
	for k, v := range p.env.Pseudo {
		params[k] = v
	}
	// The translator reads the template with its Transform; it removes it.
	out, err := p.env.SAM.Translate(p.ctx, withTransform(body, Serverless).JSON(), params, p.env.Region)
	if err != nil {
		return nil, err
	}
	n, err := fragmentNode(Serverless, out)
	if err != nil {
		return nil, &Error{Message: fmt.Sprintf("Received malformed response from transform %s", Serverless), Detail: err.Error()}
	}
	p.ran = append(p.ran, Serverless)
	return n, nil
}
