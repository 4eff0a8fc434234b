package sdkhttp

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// closingBody is smithy-go's request body as the race sees it: once
// closed, WriteTo answers io.EOF and Read answers (0, io.EOF).
type closingBody struct {
	mu     sync.Mutex
	r      *bytes.Reader
	closed bool
}

func (b *closingBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, io.EOF
	}
	return b.r.Read(p)
}

func (b *closingBody) WriteTo(w io.Writer) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, io.EOF
	}
	return b.r.WriteTo(w)
}

func (b *closingBody) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

// The transport's check that nothing follows the body, made after the
// body is closed: through WriteTo it fails (the race), through the
// wrapped body it ends cleanly.
func TestReadOnlyBodyEndsCopyOfClosedBody(t *testing.T) {
	raw := &closingBody{r: bytes.NewReader([]byte("Action=DescribeStacks"))}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, raw); err != io.EOF {
		t.Fatalf("io.Copy of the closed body itself = %v, want io.EOF (the race this package removes)", err)
	}
	if _, ok := io.Reader(readOnlyBody{raw}).(io.WriterTo); ok {
		t.Fatal("the wrapped body still offers WriteTo")
	}
	if n, err := io.Copy(io.Discard, readOnlyBody{raw}); n != 0 || err != nil {
		t.Fatalf("io.Copy of the wrapped closed body = %d, %v; want 0, nil", n, err)
	}
}

type recordingDoer struct{ got *http.Request }

func (d *recordingDoer) Do(r *http.Request) (*http.Response, error) {
	d.got = r
	return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody}, nil
}

// readOnlyBodies hands every request on with its body wrapped, and leaves a
// bodiless request's Body as it was (nil or http.NoBody).
func TestReadOnlyBodies(t *testing.T) {
	next := &recordingDoer{}
	c := readOnlyBodies{next}
	for _, tc := range []struct {
		name    string
		body    io.ReadCloser
		wrapped bool
	}{
		{"nil", nil, false},
		{"NoBody", http.NoBody, false},
		{"body", io.NopCloser(strings.NewReader("x=1")), true},
	} {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/", nil)
		req.Body = tc.body
		if _, err := c.Do(req); err != nil {
			t.Fatal(err)
		}
		_, wrapped := next.got.Body.(readOnlyBody)
		if wrapped != tc.wrapped || (!tc.wrapped && next.got.Body != tc.body) {
			t.Errorf("%s: body handed on as %T, want wrapped=%v", tc.name, next.got.Body, tc.wrapped)
		}
	}
	if Client() == nil {
		t.Fatal("Client() is nil")
	}
}

// Through a real server and transport, a wrapped body arrives whole.
func TestClientSendsBody(t *testing.T) {
	read := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		read <- string(b)
	}))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("Action=DescribeStacks"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if got := <-read; got != "Action=DescribeStacks" {
		t.Fatalf("server read %q", got)
	}
}
