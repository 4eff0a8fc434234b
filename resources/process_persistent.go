package resources

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// liveProcess is a long-lived handler process: requests go to its
// standard input a line each, answers come from its standard output a
// line each. One goroutine reads the answers (lines), another copies its
// standard error to the logger (exec's).
type liveProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan answerLine
	stderr *lineLogger
	exited chan struct{} // closed when Wait returned
	werr   error
}

// answerLine is one line of a process's standard output, or why there is
// none (io.EOF: the process closed it; errLineTooLong).
type answerLine struct {
	data []byte
	err  error
}

var errLineTooLong = errors.New("line too long")

// start starts the long-lived process.
func (p *processProvider) start() (*liveProcess, error) {
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Dir = p.opts.Dir
	cmd.Env = p.environ(cmd, nil)
	lp := &liveProcess{cmd: cmd, lines: make(chan answerLine), stderr: p.stderrLog(nil), exited: make(chan struct{})}
	cmd.Stderr = lp.stderr
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lp.stdin = stdin
	go lp.readLines(stdout, p.opts.MaxOutput)
	return lp, nil
}

// readLines hands each line of standard output to the request waiting
// for it, then waits for the process.
func (lp *liveProcess) readLines(r io.Reader, max int) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, max)
		lp.lines <- answerLine{line, err}
		if err != nil {
			break
		}
	}
	// The reader is done with stdout: Wait may close it now.
	lp.werr = lp.cmd.Wait()
	close(lp.exited)
	close(lp.lines)
}

// readLine reads one line of at most max bytes (without its newline).
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case len(line) > 0 && err == io.EOF:
			return line, nil // a last answer without its newline
		default:
			return nil, err
		}
	}
}

// stop ends the process: its standard input closed (a handler reading
// requests in a loop ends there), then killed if it is still running a
// second later.
func (lp *liveProcess) stop() {
	_ = lp.stdin.Close()
	go lp.drain()
	select {
	case <-lp.exited:
	case <-time.After(time.Second):
		_ = lp.cmd.Process.Kill()
		<-lp.exited
	}
}

// kill ends the process at once and waits for it (and so for the end of
// its standard error).
func (lp *liveProcess) kill() {
	_ = lp.cmd.Process.Kill()
	_ = lp.stdin.Close()
	go lp.drain()
	<-lp.exited
}

// drain reads the lines nobody waits for, so that readLines ends.
func (lp *liveProcess) drain() {
	for range lp.lines { //nolint:revive // nothing to do with them
	}
}

// exitMessage says how a process that closed its standard output ended.
func (lp *liveProcess) exitMessage() string {
	<-lp.exited
	var ee *exec.ExitError
	switch {
	case errors.As(lp.werr, &ee):
		return "exited with " + ee.ProcessState.String()
	case lp.werr != nil:
		return lp.werr.Error()
	}
	return "exited with status 0 before answering"
}

// runPersistent sends one request to the long-lived process (started on
// first use, and again after a failure) and reads its answer line. Any
// failure ends the process: its state is not to be trusted, and the next
// request starts a new one.
func (p *processProvider) runPersistent(ctx context.Context, req *Request) (*ProgressEvent, error) {
	in, err := EncodeRequest(p.opts.Protocol, p.schema.TypeName, req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live == nil {
		lp, err := p.start()
		if err != nil {
			return p.fail(req, "", "could not start: %v", err), nil
		}
		p.live = lp
	}
	lp := p.live
	lp.stderr.reset()
	failed := func(format string, args ...any) (*ProgressEvent, error) {
		p.live = nil
		lp.kill()
		lp.stderr.flush()
		return p.fail(req, lp.stderr.tail(), format, args...), nil
	}
	select {
	case a, ok := <-lp.lines: // a line before the request: the last answer had more than one
		if ok && a.err == nil {
			return failed("printed a line that answers no request (a long-lived handler prints exactly one line, its ProgressEvent, for each request; log to standard error): %s", quoteBody(a.data))
		}
		p.live = nil
		msg := lp.exitMessage()
		lp.stderr.flush()
		return p.fail(req, lp.stderr.tail(), "crashed: %s (between two requests)", msg), nil
	default:
	}
	limit := p.requestCap(req.Action)
	timer := time.NewTimer(limit)
	defer timer.Stop()
	wrote := make(chan error, 1)
	go func() { _, err := lp.stdin.Write(append(in, '\n')); wrote <- err }()
	var answer answerLine
	var open bool
	for waiting := true; waiting; {
		select {
		case <-ctx.Done():
			p.live = nil
			lp.kill()
			return nil, ctx.Err()
		case <-timer.C:
			return failed("no answer within %s (killed)", limit)
		case err := <-wrote:
			wrote = nil
			if err != nil { // it stopped reading: wait for its answer or its end
				continue
			}
		case answer, open = <-lp.lines:
			waiting = false
		}
	}
	switch {
	case !open || errors.Is(answer.err, io.EOF):
		p.live = nil
		msg := lp.exitMessage()
		lp.stderr.flush()
		return p.fail(req, lp.stderr.tail(), "crashed: %s", msg), nil
	case errors.Is(answer.err, errLineTooLong):
		return failed("printed more than %s on one line of standard output; a long-lived handler answers one ProgressEvent a line", byteSize(p.opts.MaxOutput))
	case answer.err != nil:
		return failed("reading its answer: %v", answer.err)
	}
	ev, problem := decodeAnswer(answer.data)
	if problem != "" {
		if len(answer.data) == 0 {
			problem = "printed an empty line; a long-lived handler answers one ProgressEvent as JSON on one line"
		}
		return failed("%s", problem)
	}
	return ev, nil
}

// Close ends a long-lived process (nothing for one per request).
func (p *processProvider) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live != nil {
		p.live.stop()
		p.live = nil
	}
	return nil
}
