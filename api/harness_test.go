package api

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/sdkhttp"
)

// testServer is a server over an engine in memory (or a state file), on a
// loopback port, with an SDK client pointed at it.
type testServer struct {
	t   *testing.T
	e   *engine.Engine
	srv *Server
	url string
	cfn *cfn.Client
}

func newTestServer(t *testing.T, e *engine.Engine, opts Options) *testServer {
	t.Helper()
	if e == nil {
		var err error
		if e, err = engine.New(engine.Options{Seed: 1}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = e.Close() })
	}
	opts.strictShapes = true
	srv := New(e, opts)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Start(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return &testServer{t: t, e: e, srv: srv, url: hs.URL, cfn: sdkClient(hs.URL)}
}

// sdkClient is an aws-sdk-go-v2 CloudFormation client of the endpoint,
// with test credentials and no retries (a retry would sleep).
func sdkClient(url string) *cfn.Client {
	return cfn.New(cfn.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(url),
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
		Retryer:      aws.NopRetryer{},
		HTTPClient:   sdkhttp.Client(), // without smithy-go's request-body race (see sdkhttp)
	})
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
