package transforms

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os/exec"
	"time"
)

// samWorker is a translator process started with --serve: a request goes
// to its standard input as one line, its answer comes back as one line of
// its standard output. One goroutine reads the answers. Its standard
// error is dropped, as a one-shot translation's is when it succeeds: a
// worker that fails is replaced by a one-shot translation, which says why.
type samWorker struct {
	cmd    *exec.Cmd
	region string
	stdin  io.WriteCloser
	lines  chan []byte   // answer lines
	quit   chan struct{} // closed by kill: nobody reads lines any more
	eof    chan struct{} // closed when standard output ended
	exited chan struct{} // closed when the process was waited for
}

// errWorkerGone is a worker that closed its standard output.
var errWorkerGone = errors.New("the SAM translator worker is gone")

// translateByWorker asks the worker (started on first use) for the answer
// to one request. ok is false when the worker cannot be had: the caller
// runs the translation as a process of its own. A worker found gone is
// started again once; when that fails too, the Translator gives up on
// workers. A translation that runs out of time kills the worker and
// answers nothing (ok, out empty: the caller says it did not answer).
func (t *Translator) translateByWorker(ctx context.Context, in []byte, region string) (out []byte, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for attempt := 0; attempt < 2 && !t.oneOff; attempt++ {
		if t.worker != nil && t.worker.region != region {
			t.worker.kill()
			t.worker = nil
		}
		if t.worker == nil {
			w, err := t.startWorker(region)
			if err != nil {
				break
			}
			t.worker = w
		}
		line, err := t.worker.ask(ctx, in)
		if err == nil {
			return line, true
		}
		t.worker.kill()
		t.worker = nil
		if ctx.Err() != nil {
			return nil, true
		}
	}
	t.oneOff = true
	return nil, false
}

// Close ends the worker, if one runs. It is killed: it holds nothing to
// flush, and a Python that unloads the translator takes a while to exit.
// A later translation starts another.
func (t *Translator) Close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.worker != nil {
		t.worker.kill()
		t.worker = nil
	}
	return nil
}

// startWorker starts sam_translate.py --serve.
func (t *Translator) startWorker(region string) (*samWorker, error) {
	cmd := exec.Command(t.python(), "-c", samScript, "--serve")
	cmd.Env = samEnv(region)
	w := &samWorker{cmd: cmd, region: region, lines: make(chan []byte), quit: make(chan struct{}),
		eof: make(chan struct{}), exited: make(chan struct{})}
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
	w.stdin = stdin
	go w.read(stdout)
	return w, nil
}

// read hands each answer line to the request waiting for it, until
// standard output ends or the worker is killed; then waits for the process.
func (w *samWorker) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			break
		}
		select {
		case w.lines <- line:
			continue
		case <-w.quit:
		}
		break
	}
	close(w.eof)
	_ = w.cmd.Wait()
	close(w.exited)
}

// ask writes one request and waits for its answer line.
func (w *samWorker) ask(ctx context.Context, in []byte) ([]byte, error) {
	line := make([]byte, 0, len(in)+1)
	line = append(append(line, in...), '\n')
	written := make(chan error, 1)
	go func() {
		_, err := w.stdin.Write(line)
		written <- err
	}()
	for {
		select {
		case answer := <-w.lines:
			return answer, nil
		case err := <-written:
			if err != nil {
				return nil, err
			}
			written = nil
		case <-w.eof:
			return nil, errWorkerGone
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// kill ends the worker at once and waits for it.
func (w *samWorker) kill() {
	_ = w.cmd.Process.Kill()
	_ = w.stdin.Close()
	select {
	case <-w.quit:
	default:
		close(w.quit)
	}
	<-w.exited
}
