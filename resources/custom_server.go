package resources

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// responseServer is the ResponseURL endpoint: an HTTP server on 127.0.0.1
// that takes a custom resource's response as CloudFormation's pre-signed S3
// URL does, by PUT. It starts on first use and serves until Close.
type responseServer struct {
	mu      sync.Mutex
	ln      net.Listener
	srv     *http.Server
	base    string
	waiting map[string]chan []byte
	closed  bool
}

const responsePath = "/cloudformation-custom-resource-response/"

func (s *responseServer) start() error {
	if s.ln != nil {
		return nil
	}
	if s.closed {
		return fmt.Errorf("the custom resource response server is closed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("custom resources: listen for responses on 127.0.0.1: %w", err)
	}
	s.ln = ln
	s.base = "http://" + ln.Addr().String()
	s.waiting = map[string]chan []byte{}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.srv.Serve(ln) //nolint:errcheck // Serve returns when Close is called
	return nil
}

// expect registers a request id and returns its ResponseURL and the channel
// its response body arrives on. done forgets the id.
func (s *responseServer) expect(requestID string) (url string, ch <-chan []byte, done func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.start(); err != nil {
		return "", nil, nil, err
	}
	c := make(chan []byte, 1)
	s.waiting[requestID] = c
	sig := sha256.Sum256([]byte(requestID))
	url = s.base + responsePath + requestID + "?X-Amz-Signature=" + hex.EncodeToString(sig[:8])
	return url, c, func() {
		s.mu.Lock()
		delete(s.waiting, requestID)
		s.mu.Unlock()
	}, nil
}

func (s *responseServer) serve(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, responsePath) {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPut {
		w.Header().Set("Allow", http.MethodPut)
		http.Error(w, "a custom resource response is sent with PUT", http.StatusMethodNotAllowed)
		return
	}
	id := strings.TrimPrefix(r.URL.Path, responsePath)
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxCustomResponseBytes+1))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	c, ok := s.waiting[id]
	if ok {
		delete(s.waiting, id) // one response per request, as the pre-signed URL allows
	}
	s.mu.Unlock()
	if !ok {
		http.Error(w, "no custom resource request is waiting for this response (expired, or answered already)", http.StatusForbidden)
		return
	}
	c <- body
	w.WriteHeader(http.StatusOK)
}

func (s *responseServer) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.srv == nil {
		return nil
	}
	err := s.srv.Close()
	s.srv, s.ln = nil, nil
	return err
}
