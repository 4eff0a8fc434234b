package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// app holds what every command shares: the streams, the global flags and the
// logger built from them.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	logLevel string
	log      *zap.Logger
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, log: zap.NewNop()}
}

// exitError carries an exit status through cobra; its message has already
// been written or is written by execute.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// badInput marks err as the user's mistake: exit status 2.
func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

func (a *app) execute(args []string) int {
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err := root.Execute()
	defer func() { _ = a.log.Sync() }()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintf(a.stderr, "stacksim: %v\n", ee.err)
		}
		return ee.code
	}
	// Errors cobra raises itself (unknown flag or command, bad arguments)
	// are bad input.
	fmt.Fprintf(a.stderr, "stacksim: %v\n", err)
	fmt.Fprintf(a.stderr, "Run 'stacksim --help' for usage.\n")
	return exitBadInput
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "stacksim",
		Short: "Replay AWS CloudFormation stack operations offline, in virtual time",
		Long: `stacksim reproduces AWS CloudFormation's stack and resource lifecycle offline,
deterministically and in virtual time: create, update, delete, change sets,
rollbacks and failed rollbacks, cleanup phases, custom resources and faults.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return a.setUpLogger()
		},
	}
	root.PersistentFlags().StringVar(&a.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn or error")
	root.AddCommand(a.versionCommand())
	root.AddCommand(a.statesCommand(), a.explainCommand())
	root.AddCommand(a.validateTemplateCommand())
	return root
}

// setUpLogger builds the zap logger from --log-level: structured, to stderr,
// quiet by default.
func (a *app) setUpLogger() error {
	var level zapcore.Level
	if err := level.UnmarshalText([]byte(a.logLevel)); err != nil {
		return badInput(fmt.Errorf("--log-level %q: want debug, info, warn or error", a.logLevel))
	}
	enc := zap.NewDevelopmentEncoderConfig()
	enc.TimeKey = "" // the wall clock never reaches output
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.AddSync(a.stderr), level)
	a.log = zap.New(core)
	return nil
}
