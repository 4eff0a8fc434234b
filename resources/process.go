package resources

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"go.uber.org/zap"
)

// ProcessOptions configure an external handler process.
type ProcessOptions struct {
	// Env is added to the process's environment ("KEY=VALUE").
	Env []string
	// Dir is its working directory ("" for the current one).
	Dir string
	// Timeout is the real-time cap on one request (default 60 s, the
	// contract's limit for create, update and delete).
	Timeout time.Duration
	// Logger receives the process's standard error, a line an entry.
	Logger *zap.Logger
}

// processProvider runs a user's handler as a process per request: the
// Request as JSON on standard input (with "action"), one ProgressEvent as
// JSON on standard output, standard error logged. The environment names the
// type (STACKSIM_TYPE_NAME) and the engine's fields that the contract JSON
// leaves out (STACKSIM_PHASE, STACKSIM_ATTEMPT, STACKSIM_PHYSICAL_RESOURCE_ID).
type processProvider struct {
	*handlerProvider
	argv []string
	opts ProcessOptions
}

// NewProcessProvider returns a Provider that runs argv for each request.
// A crash, output that is not one JSON ProgressEvent, an unknown status or
// no answer within the cap becomes FAILED with HandlerInternalFailure and a
// message quoting what went wrong.
func NewProcessProvider(s *Schema, argv []string, opts ProcessOptions) (Provider, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf("handler process for %s: no program given", s.TypeName)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	p := &processProvider{argv: argv, opts: opts}
	p.handlerProvider = &handlerProvider{schema: s, h: HandlerFuncs{
		CreateFunc: p.run, ReadFunc: p.run, UpdateFunc: p.run, DeleteFunc: p.run, ListFunc: p.run,
	}}
	return p, nil
}

func (p *processProvider) fail(req *Request, format string, args ...any) *ProgressEvent {
	return Failed(ErrHandlerInternalFailure, "handler process %s (%s %s): %s", quoteArgv(p.argv), req.Action, req.LogicalResourceIdentifier, fmt.Sprintf(format, args...))
}

func (p *processProvider) run(ctx context.Context, req *Request) (*ProgressEvent, error) {
	in, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	rctx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(rctx, p.argv[0], p.argv[1:]...)
	cmd.Dir = p.opts.Dir
	cmd.Env = append(cmd.Environ(), p.opts.Env...)
	cmd.Env = append(cmd.Env,
		"STACKSIM_TYPE_NAME="+p.schema.TypeName,
		"STACKSIM_PHASE="+req.Phase.String(),
		fmt.Sprintf("STACKSIM_ATTEMPT=%d", req.Attempt),
		"STACKSIM_PHYSICAL_RESOURCE_ID="+req.PhysicalResourceID)
	cmd.Stdin = bytes.NewReader(in)
	var stdout bytes.Buffer
	cmd.Stdout = &limitedBuffer{max: 4 << 20, buf: &stdout}
	lw := &lineLogger{log: p.opts.Logger.With(zap.String("handler", p.schema.TypeName), zap.String("action", string(req.Action)),
		zap.String("logicalResourceId", req.LogicalResourceIdentifier), zap.String("stream", "stderr"))}
	cmd.Stderr = lw
	cmd.WaitDelay = time.Second // a grandchild holding the pipes open does not hang the call
	if err := cmd.Start(); err != nil {
		return p.fail(req, "could not start: %v", err), nil
	}
	werr := cmd.Wait()
	lastErr := lw.flush()
	switch {
	case rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
		return p.fail(req, "no answer within %s (killed)", p.opts.Timeout), nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case werr != nil:
		var ee *exec.ExitError
		msg := werr.Error()
		if errors.As(werr, &ee) {
			msg = "exited with " + ee.ProcessState.String()
		}
		if lastErr != "" {
			msg += "; last line on stderr: " + lastErr
		}
		return p.fail(req, "crashed: %s", msg), nil
	}
	return p.decode(req, stdout.Bytes()), nil
}

// decode reads exactly one ProgressEvent from the process's output.
func (p *processProvider) decode(req *Request, out []byte) *ProgressEvent {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 {
		return p.fail(req, "printed nothing on standard output; a handler prints one ProgressEvent as JSON")
	}
	d := json.NewDecoder(bytes.NewReader(trimmed))
	d.UseNumber()
	var ev ProgressEvent
	if err := d.Decode(&ev); err != nil {
		return p.fail(req, "printed something that is not a ProgressEvent (%v): %s", err, quoteBody(trimmed))
	}
	if _, err := d.Token(); err != io.EOF {
		return p.fail(req, "printed more than one JSON value: %s", quoteBody(trimmed))
	}
	if !ev.Status.Valid() {
		return p.fail(req, "answered an unknown status %q (IN_PROGRESS, SUCCESS or FAILED): %s", ev.Status, quoteBody(trimmed))
	}
	return &ev
}

// lineLogger logs what is written to it, a line an entry, and remembers
// the last line.
type lineLogger struct {
	log     *zap.Logger
	partial []byte
	last    string
}

func (l *lineLogger) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		l.line(string(bytes.TrimRight(l.partial[:i], "\r")))
		l.partial = l.partial[i+1:]
	}
	if len(l.partial) > 64<<10 {
		l.line(string(l.partial))
		l.partial = nil
	}
	return len(p), nil
}

func (l *lineLogger) line(s string) {
	if s == "" {
		return
	}
	l.last = s
	l.log.Info(s)
}

// flush logs a last line without a newline and returns the last line.
func (l *lineLogger) flush() string {
	if len(l.partial) > 0 {
		l.line(string(l.partial))
		l.partial = nil
	}
	return l.last
}
