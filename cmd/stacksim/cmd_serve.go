package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/api"
	"github.com/stacksim/stacksim/webview"
)

// defaultServeAddr is where serve listens unless --addr says otherwise:
// loopback only.
const defaultServeAddr = "127.0.0.1:4599"

// serveHolder is how a running server names itself as the holder of the
// state file's lock, for the message another command gets ("in use by
// ..."). It is the one place that says it.
func serveHolder(addr string) string { return "stacksim serve on " + addr }

func (a *app) serveCommand() *cobra.Command {
	var addr, pace, faultsFile string
	var hold, inMemory bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the CloudFormation API on loopback, for the AWS CLI, the SDKs and CDK",
		Long: `serve answers CloudFormation's query API (and STS's GetCallerIdentity) on
--addr, over the state file (--state), which it holds locked while it runs.
Point any client at it with --endpoint-url or AWS_ENDPOINT_URL; it needs
some credentials (any will do) and a region.

--pace says how virtual time moves: instant (the default: a call that
starts an operation returns when it has run to rest, so waiters succeed on
their first poll), realtime (virtual time follows the wall clock) or xN (N
times faster). Every call that changes the state is saved before it is
answered. SIGINT or SIGTERM stops the server, saving the state.
--in-memory keeps the account in memory instead, as moto does: no state
file is read or written, calls that change it answer sooner, and it is
gone when the server stops.

The same address serves a web page (open http://ADDR/ in a browser): the
stacks, and for each its path through the state machine, its resources and
events arriving live, the timeline and plan of its operation, and controls
that hold the event loop and step a stack one event at a time (--hold
starts held: operations wait at their start until stepped or released).`,
		Example: `  stacksim serve &
  AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION=us-east-1 \
    aws --endpoint-url http://127.0.0.1:4599 cloudformation describe-stacks
  stacksim serve --pace x10 --faults faults.yaml
  stacksim serve --in-memory --addr 127.0.0.1:0`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			longLived()
			p, err := api.ParsePace(pace)
			if err != nil {
				return badInput(err)
			}
			fs, err := loadFaults(faultsFile)
			if err != nil {
				return badInput(err)
			}
			if inMemory && cmd.Flags().Changed("state") {
				return badInput(fmt.Errorf("--in-memory and --state %s: an account in memory has no state file; give one of them", a.statePath))
			}
			a.inMemory = inMemory
			return a.serve(cmd.Context(), addr, api.Options{Pace: p, Faults: fs, Logger: a.log, Hold: hold})
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", defaultServeAddr, "the address to listen on (loopback unless you say otherwise)")
	f.StringVar(&pace, "pace", "instant", "how virtual time moves: instant, realtime or xN (N times the wall clock)")
	f.BoolVar(&hold, "hold", false, "start with the event loop held: operations wait at their start until the web view steps them or releases the loop")
	f.StringVar(&faultsFile, "faults", "", "a faults file (docs/faults.md) whose faults are injected into every operation a call starts")
	f.BoolVar(&inMemory, "in-memory", false, "keep the account in memory only: no state file is read or written, and the account is gone when the server stops")
	return cmd
}

func (a *app) serve(ctx context.Context, addr string, opts api.Options) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return badInput(fmt.Errorf("--addr %s: %w", addr, err))
	}
	defer ln.Close()
	bound := ln.Addr().String()
	if !isLoopback(ln.Addr()) {
		fmt.Fprintf(a.stderr, "stacksim: WARNING: serving on %s, which is not a loopback address: anyone who can reach it can change the simulated account, with no authentication. Use --addr 127.0.0.1:PORT unless you mean it.\n", bound)
	}
	// The lock file names the server to whoever finds the state in use.
	a.commandPath = serveHolder(bound)
	// It serves S3's object calls too: a TemplateURL of its own address
	// names an object of --s3-dir (CDK writes them so).
	a.s3Endpoints = serveOrigins(ln.Addr())
	open := a.openWrite
	if a.inMemory {
		open = a.openMemory
	}
	s, err := open()
	if err != nil {
		return err
	}
	defer s.close()
	where := "state " + s.path
	if s.path == "" {
		where = "in memory: nothing is saved"
	}

	srv := api.New(s.e, opts)
	view := webview.New(s.e, srv, webview.Options{Logger: a.log})
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	hs := &http.Server{Handler: view.Handler(srv), ReadHeaderTimeout: 10 * time.Second}
	hs.RegisterOnShutdown(view.Close)
	driverDone := make(chan struct{})
	go func() { srv.Start(ctx); close(driverDone) }()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(a.stderr, "stacksim: serving CloudFormation on http://%s (%s, pace %s); stop with Ctrl-C\n", bound, where, opts.Pace)
	fmt.Fprintf(a.stderr, "stacksim: the web view is at http://%s/\n", bound)
	if a.notifications != "" {
		fmt.Fprintf(a.stderr, "stacksim: the messages to the stacks' SNS topics (NotificationARNs) are appended to %s\n", a.notifications)
	}
	if a.eventBridge != "" {
		fmt.Fprintf(a.stderr, "stacksim: the events of the default EventBridge bus are appended to %s\n", a.eventBridge)
	}
	select {
	case err = <-served:
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	_ = hs.Shutdown(shutCtx)
	stop()
	<-driverDone
	// Every call that changed the state was saved when it was answered;
	// this saves what the loop did since (the paced modes). A server that
	// was never asked to change anything leaves no state file behind.
	if s.path == "" {
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		fmt.Fprintf(a.stderr, "stacksim: stopped; the account was in memory (--in-memory) and is gone\n")
		return nil
	}
	_, statErr := os.Stat(s.path)
	if statErr == nil {
		if serr := srv.Save(); serr != nil {
			return fmt.Errorf("saving the state on shutdown: %w", serr)
		}
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	if statErr != nil {
		// No call changed anything: the state file is made by the first
		// change, as the CLI makes it.
		fmt.Fprintf(a.stderr, "stacksim: stopped; nothing changed, so no state file was made (%s)\n", s.path)
		return nil
	}
	fmt.Fprintf(a.stderr, "stacksim: stopped; state saved to %s\n", s.path)
	return nil
}

// serveOrigins are the origins a client reaches the server by: its
// address, and localhost's name for a loopback one.
func serveOrigins(addr net.Addr) []string {
	out := []string{"http://" + addr.String()}
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		out = append(out, fmt.Sprintf("http://localhost:%d", tcp.Port))
	}
	return out
}

// isLoopback reports whether a listener's address is on loopback only.
func isLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
