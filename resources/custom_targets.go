package resources

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
)

// CustomTarget is what a ServiceToken maps to. Deliver hands it a request;
// it answers either with the response itself, or with nil to say that the
// response will come by PUT to req.ResponseURL (as a Lambda function's
// does). An error is a failure to deliver (the command did not run, the URL
// refused the request).
type CustomTarget interface {
	Deliver(ctx context.Context, req *CustomRequest) (*CustomResponse, error)
}

// CustomFunc is an in-process target: a Go function that answers the
// request (or PUTs to the ResponseURL itself and answers nil).
type CustomFunc func(ctx context.Context, req *CustomRequest) (*CustomResponse, error)

// Deliver implements CustomTarget.
func (f CustomFunc) Deliver(ctx context.Context, req *CustomRequest) (*CustomResponse, error) {
	return f(ctx, req)
}

// CommandTarget runs a local command for each request, never through a
// shell: the request is JSON on its standard input; the response is either
// the JSON it prints on standard output, or, when it prints nothing, what it
// PUTs to the ResponseURL. Template values reach it only inside that JSON.
type CommandTarget struct {
	Argv []string
	// Env is added to the command's environment ("KEY=VALUE").
	Env []string
	// Dir is the working directory ("" for the current one).
	Dir string
}

// Deliver implements CustomTarget.
func (t CommandTarget) Deliver(ctx context.Context, req *CustomRequest) (*CustomResponse, error) {
	in, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	stdout, err := t.run(ctx, in, maxTargetAnswer)
	if err != nil {
		return nil, err
	}
	out := bytes.TrimSpace(stdout)
	if len(out) == 0 {
		return nil, nil // the response comes to the ResponseURL
	}
	resp, err := ParseCustomResponse(out, req)
	if err != nil {
		return nil, fmt.Errorf("command %s answered on standard output: %w", quoteArgv(t.Argv), err)
	}
	return resp, nil
}

// maxTargetAnswer bounds what a target's command or URL may answer (a
// Lambda function's synchronous response is at most 6 MB).
const maxTargetAnswer = 6 << 20

// run runs the command with in on its standard input and returns what it
// wrote on its standard output (ErrNoResponse when ctx ends first).
func (t CommandTarget) run(ctx context.Context, in []byte, max int) ([]byte, error) {
	if len(t.Argv) == 0 {
		return nil, fmt.Errorf("the command target has no program")
	}
	cmd := exec.CommandContext(ctx, t.Argv[0], t.Argv[1:]...)
	cmd.Dir = t.Dir
	cmd.Env = append(cmd.Environ(), t.Env...)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedBuffer{max: max + 1, buf: &stdout}
	cmd.Stderr = &limitedBuffer{max: 8192, buf: &stderr}
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ErrNoResponse
		}
		return nil, fmt.Errorf("command %s failed: %v%s", quoteArgv(t.Argv), err, stderrTail(stderr.Bytes()))
	}
	if stdout.Len() > max {
		return nil, fmt.Errorf("command %s answered more than %d bytes", quoteArgv(t.Argv), max)
	}
	return stdout.Bytes(), nil
}

// URLTarget POSTs the request as JSON to an HTTP URL; the response comes by
// PUT to the ResponseURL.
type URLTarget struct {
	URL    string
	Client *http.Client
}

// Deliver implements CustomTarget.
func (t URLTarget) Deliver(ctx context.Context, req *CustomRequest) (*CustomResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if _, err := t.post(ctx, body, 512); err != nil {
		return nil, err
	}
	return nil, nil
}

// post POSTs body as JSON and returns the response's body, at most max
// bytes of it (ErrNoResponse when ctx ends first; an error for a status
// other than 2xx).
func (t URLTarget) post(ctx context.Context, body []byte, max int) ([]byte, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("service token URL %q: %w", t.URL, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	c := t.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ErrNoResponse
		}
		return nil, fmt.Errorf("POST %s: %w", t.URL, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", t.URL, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("POST %s: %s: %s", t.URL, resp.Status, strings.TrimSpace(string(out[:min(len(out), 512)])))
	}
	if len(out) > max {
		return out[:max], errAnswerTooLarge
	}
	return out, nil
}

// errAnswerTooLarge: a URL answered more than it may.
var errAnswerTooLarge = errors.New("the answer is too large")

// ParseTarget reads a service token target as the command line writes it:
// "exec:PROGRAM ARG..." (split on white space) or `exec:["PROGRAM","ARG"]`
// (a JSON array, for arguments with spaces) for a command; an http:// or
// https:// URL for an HTTP endpoint.
func ParseTarget(spec string) (CustomTarget, error) {
	switch {
	case strings.HasPrefix(spec, "exec:"):
		rest := strings.TrimSpace(strings.TrimPrefix(spec, "exec:"))
		var argv []string
		if strings.HasPrefix(rest, "[") {
			if err := json.Unmarshal([]byte(rest), &argv); err != nil {
				return nil, fmt.Errorf("target %q: the JSON array of arguments does not parse: %v", spec, err)
			}
		} else {
			argv = strings.Fields(rest)
		}
		if len(argv) == 0 || argv[0] == "" {
			return nil, fmt.Errorf("target %q names no program; write exec:PROGRAM ARG...", spec)
		}
		return CommandTarget{Argv: argv}, nil
	case strings.HasPrefix(spec, "http://"), strings.HasPrefix(spec, "https://"):
		return URLTarget{URL: spec}, nil
	}
	return nil, fmt.Errorf("target %q: write exec:PROGRAM ARG... for a command or an http(s):// URL", spec)
}

// ParseServiceTokenMapping reads "TOKEN=TARGET" (the --service-token flag).
// The token is split at the last "=" before "exec:" or "http", since ARNs
// hold no "=".
func ParseServiceTokenMapping(s string) (token string, target CustomTarget, err error) {
	i := strings.Index(s, "=")
	if i <= 0 {
		return "", nil, fmt.Errorf("service token mapping %q: write TOKEN=exec:PROGRAM or TOKEN=http://HOST/PATH", s)
	}
	target, err = ParseTarget(s[i+1:])
	return s[:i], target, err
}

func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = fmt.Sprintf("%q", a)
	}
	return "[" + strings.Join(q, " ") + "]"
}

func stderrTail(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return ""
	}
	if len(b) > 500 {
		b = b[len(b)-500:]
	}
	return "; stderr: " + string(b)
}

// limitedBuffer keeps the first max bytes written and drops the rest.
type limitedBuffer struct {
	max int
	buf *bytes.Buffer
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		if len(p) > room {
			l.buf.Write(p[:room])
		} else {
			l.buf.Write(p)
		}
	}
	return len(p), nil
}
