package resources

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

// ServeHandler is the other end of a handler process, for handlers
// written in Go: it reads requests in stacksim's protocol from in, one a
// line, calls h for each, and writes each answer to out as one line of
// JSON. It serves both modes: a process per request (one line, then the
// end of its input) and a long-lived process (lines until the input
// ends). A request that does not decode, a handler error or a panic is
// answered FAILED (InvalidRequest, HandlerInternalFailure), so that the
// process stays up. It returns when in ends (nil) or out fails.
//
//	func main() {
//		if err := resources.ServeHandler(context.Background(), myHandler{}, os.Stdin, os.Stdout); err != nil {
//			log.Fatal(err)
//		}
//	}
func ServeHandler(ctx context.Context, h Handler, in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	for {
		line, err := readLine(br, 64<<20)
		if errors.Is(err, io.EOF) {
			return nil
		}
		var ev *ProgressEvent
		switch {
		case errors.Is(err, errLineTooLong):
			return fmt.Errorf("serve handler: a request longer than 64 MiB")
		case err != nil:
			return fmt.Errorf("serve handler: reading a request: %w", err)
		case len(bytes.TrimSpace(line)) == 0:
			continue
		}
		req, derr := DecodeRequest(line)
		if derr != nil {
			ev = Failed(ErrInvalidRequest, "%v", derr)
		} else if ev, err = Invoke(ctx, h, req); err != nil {
			ev = ErrorEvent(err)
			if ev == nil { // ErrNoResponse: never answer, as such a handler would
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(math.MaxInt64):
				}
			}
		}
		b, err := EncodeAnswer(ev)
		if err != nil {
			b, _ = json.Marshal(Failed(ErrHandlerInternalFailure, "the handler's answer does not encode as JSON: %v", err))
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("serve handler: writing an answer: %w", err)
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("serve handler: writing an answer: %w", err)
		}
	}
}
