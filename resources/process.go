package resources

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// ProcessOptions configure an external handler process.
type ProcessOptions struct {
	// Env is added to the process's environment ("KEY=VALUE").
	Env []string
	// Dir is its working directory ("" for the current one).
	Dir string
	// Protocol is the shape of the requests it reads (stacksim's own by
	// default; ProtocolRPDK and ProtocolRPDKTest for a plugin library's
	// entry points).
	Protocol Protocol
	// Persistent runs one process for many requests: a request a line on
	// its standard input, an answer a line on its standard output
	// (newline-delimited JSON). Otherwise a process runs per request.
	Persistent bool
	// Timeout is the real-time cap on one request. 0: the contract's
	// limits, 60 s for create, update and delete and 30 s for read and
	// list (what `cfn test` enforces too). Never more than the action's
	// handler timeout in the schema. Virtual time does not apply to a
	// process: this is wall-clock time.
	Timeout time.Duration
	// MaxOutput caps what one answer may print on standard output
	// (default 4 MiB); past it the answer fails.
	MaxOutput int
	// Logger receives the process's standard error, a line an entry.
	Logger *zap.Logger
}

// The real-time caps of one request when ProcessOptions.Timeout is 0: the
// resource handler contract's "MUST always return a ProgressEvent within
// 60 seconds" (create, update, delete) and "within 30 seconds" (read,
// list).
const (
	DefaultMutatingRequestCap = 60 * time.Second
	DefaultReadRequestCap     = 30 * time.Second
	// DefaultMaxOutput is ProcessOptions.MaxOutput's default.
	DefaultMaxOutput = 4 << 20
)

// stderrTailLines is how many of the last lines of standard error a
// failure quotes.
const stderrTailLines = 5

// processProvider runs a user's handler as a process, per request or
// long-lived (persistent.go). Every way a process can fail (it does not
// start, crashes, hangs past the cap, prints nothing, too much, or
// something that is not a ProgressEvent) becomes FAILED with
// HandlerInternalFailure and a message quoting what went wrong and the end
// of its standard error; it never hangs the caller.
type processProvider struct {
	*handlerProvider
	argv []string
	opts ProcessOptions

	// persistent mode: one process at a time, one request at a time.
	mu   sync.Mutex
	live *liveProcess
}

// NewProcessProvider returns a Provider that runs argv as the type's
// handler (see ProcessOptions for the modes and protocols).
func NewProcessProvider(s *Schema, argv []string, opts ProcessOptions) (Provider, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf("handler process for %s: no program given", s.TypeName)
	}
	if opts.Timeout < 0 {
		return nil, fmt.Errorf("handler process for %s: a negative timeout (%s)", s.TypeName, opts.Timeout)
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	p := &processProvider{argv: argv, opts: opts}
	run := p.runOnce
	if opts.Persistent {
		run = p.runPersistent
	}
	p.handlerProvider = &handlerProvider{schema: s, h: HandlerFuncs{
		CreateFunc: run, ReadFunc: run, UpdateFunc: run, DeleteFunc: run, ListFunc: run,
	}}
	return p, nil
}

// requestCap is the real-time cap of one request of an action.
func (p *processProvider) requestCap(a Action) time.Duration {
	c := p.opts.Timeout
	if c == 0 {
		c = DefaultMutatingRequestCap
		if a == ActionRead || a == ActionList {
			c = DefaultReadRequestCap
		}
	}
	if t := p.schema.Timeout(a); t > 0 && t < c {
		c = t
	}
	return c
}

func (p *processProvider) fail(req *Request, tail, format string, args ...any) *ProgressEvent {
	msg := fmt.Sprintf(format, args...)
	if tail != "" {
		msg += "; stderr ended with: " + tail
	}
	return Failed(ErrHandlerInternalFailure, "handler process %s (%s %s): %s", quoteArgv(p.argv), req.Action, req.LogicalResourceIdentifier, msg)
}

// environ is the process's environment: stacksim's, the options', and
// what names the handler's type, mode and protocol (and, per request, the
// engine's fields of stacksim's protocol).
func (p *processProvider) environ(cmd *exec.Cmd, req *Request) []string {
	mode := "per-request"
	if p.opts.Persistent {
		mode = "persistent"
	}
	env := append(cmd.Environ(), p.opts.Env...)
	env = append(env,
		"STACKSIM_TYPE_NAME="+p.schema.TypeName,
		"STACKSIM_HANDLER_MODE="+mode,
		"STACKSIM_HANDLER_PROTOCOL="+p.opts.Protocol.String())
	if req != nil {
		env = append(env,
			"STACKSIM_PHASE="+req.Phase.String(),
			fmt.Sprintf("STACKSIM_ATTEMPT=%d", req.Attempt),
			"STACKSIM_PHYSICAL_RESOURCE_ID="+req.PhysicalResourceID)
	}
	return env
}

func (p *processProvider) stderrLog(req *Request) *lineLogger {
	log := p.opts.Logger.With(zap.String("handler", p.schema.TypeName), zap.String("stream", "stderr"))
	if req != nil {
		log = log.With(zap.String("action", string(req.Action)), zap.String("logicalResourceId", req.LogicalResourceIdentifier))
	}
	return &lineLogger{log: log}
}

// runOnce runs a process for one request: the request on standard input,
// one ProgressEvent on standard output.
func (p *processProvider) runOnce(ctx context.Context, req *Request) (*ProgressEvent, error) {
	in, err := EncodeRequest(p.opts.Protocol, p.schema.TypeName, req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	limit := p.requestCap(req.Action)
	rctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(rctx, p.argv[0], p.argv[1:]...)
	cmd.Dir = p.opts.Dir
	cmd.Env = p.environ(cmd, req)
	cmd.Stdin = bytes.NewReader(append(in, '\n'))
	var stdout bytes.Buffer
	out := &limitedBuffer{max: p.opts.MaxOutput + 1, buf: &stdout}
	cmd.Stdout = out
	lw := p.stderrLog(req)
	cmd.Stderr = lw
	cmd.WaitDelay = time.Second // a grandchild holding the pipes open does not hang the call
	if err := cmd.Start(); err != nil {
		return p.fail(req, "", "could not start: %v", err), nil
	}
	werr := cmd.Wait()
	lw.flush()
	tail := lw.tail()
	switch {
	case rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
		return p.fail(req, tail, "no answer within %s (killed)", limit), nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case werr != nil:
		var ee *exec.ExitError
		msg := werr.Error()
		if errors.As(werr, &ee) {
			msg = "exited with " + ee.ProcessState.String()
		}
		return p.fail(req, tail, "crashed: %s", msg), nil
	case stdout.Len() > p.opts.MaxOutput:
		return p.fail(req, tail, "printed more than %s on standard output; a handler prints one ProgressEvent", byteSize(p.opts.MaxOutput)), nil
	}
	ev, problem := decodeAnswer(stdout.Bytes())
	if problem != "" {
		return p.fail(req, tail, "%s", problem), nil
	}
	return ev, nil
}

// byteSize writes a size as people read it (4 MiB, 512 KiB, 100 bytes).
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// lineLogger logs what is written to it, a line an entry, and remembers
// the last lines (tail). It is safe for concurrent use.
type lineLogger struct {
	mu      sync.Mutex
	log     *zap.Logger
	partial []byte
	last    []string
}

func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
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
	if strings.TrimSpace(s) == "" {
		return
	}
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	l.last = append(l.last, s)
	if len(l.last) > stderrTailLines {
		l.last = l.last[len(l.last)-stderrTailLines:]
	}
	l.log.Info(s)
}

// flush logs a last line without a newline.
func (l *lineLogger) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.partial) > 0 {
		l.line(string(l.partial))
		l.partial = nil
	}
}

// tail is the last lines written, joined with " | " ("" when none).
func (l *lineLogger) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.last, " | ")
}

// reset forgets the remembered lines (a long-lived process's next
// request quotes only its own).
func (l *lineLogger) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last = nil
}
