package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/stacksim/stacksim/engine"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// app holds what every command shares: the streams, the global flags and the
// logger built from them.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// getenv reads the environment (NO_COLOR); os.Getenv unless a test
	// sets another.
	getenv func(string) string

	logLevel  string
	statePath string
	// configPath is --config: the settings file (config.go); fromConfig
	// is where it set each flag it set (FILE:LINE:COL).
	configPath string
	fromConfig map[string]string
	// inMemory is serve --in-memory: the account has no state file.
	inMemory      bool
	output        string
	schemas       string
	permissive    bool
	seed          int64
	serviceTokens []string
	ssmParameters []string
	alarms        []string
	// s3Endpoints: the origins that stand for S3 (serve's own).
	s3Endpoints []string
	secrets     []string
	s3Dir       string
	contract    string
	signals     string
	quiet       bool
	// notifications is --notifications FILE (notifications.go).
	notifications string
	// eventBridge is --eventbridge FILE (notifications.go).
	eventBridge string
	// stackLimit is --stack-limit, the account's quota of stacks.
	stackLimit  int
	lockTimeout time.Duration
	// aws holds the AWS CLI's global options (awscli_flags.go).
	aws          awsCLIFlags
	handlerFlags handlerFlags
	// commandPath is the command being run ("stacksim create-stack"), as
	// the state file's lock names its holder.
	commandPath string

	log *zap.Logger
	// root is the command being run (for Changed on global flags).
	root *cobra.Command
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, log: zap.NewNop(), getenv: os.Getenv}
}

// exitError carries an exit status through cobra; its message has already
// been written (err nil or empty) or is written by execute.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// badInput marks err as the user's mistake: exit status 2.
func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

// exitWith ends the command with a status, its messages already written.
func exitWith(code int) error { return &exitError{code: code} }

func (a *app) execute(args []string) int {
	root := a.rootCommand()
	a.root = root
	root.SetArgs(spreadListFlags(args))
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	cmd, err := root.ExecuteContextC(context.Background())
	defer func() { _ = a.log.Sync() }()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintf(a.stderr, "stacksim: %s\n", a.placeConfigError(ee.err.Error()))
		}
		return ee.code
	}
	// Errors cobra raises itself (unknown flag or command, bad arguments)
	// are bad input.
	// The help offered is that of the command the flag was given to.
	fmt.Fprintf(a.stderr, "stacksim: %v\n", err)
	path := root.CommandPath()
	if cmd != nil {
		path = cmd.CommandPath()
	}
	fmt.Fprintf(a.stderr, "Run '%s --help' for usage.\n", path)
	return exitBadInput
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "stacksim",
		Short: "Replay AWS CloudFormation stack operations offline, in virtual time",
		Long: `stacksim reproduces AWS CloudFormation's stack and resource lifecycle offline,
deterministically and in virtual time: create, update, delete, change sets,
rollbacks and failed rollbacks, cleanup phases, custom resources and faults.

The commands and flags are those of 'aws cloudformation'; the world they act
on is a state file (--state, .stacksim/state.db by default). 'stacksim run'
replays a whole scenario in one process.`,
		Example: `  stacksim create-stack --stack-name app --template-body file://app.yaml
  stacksim update-stack --stack-name app --template-body file://app-v2.yaml --faults faults.yaml
  stacksim describe-stacks --stack-name app --output table
  stacksim run fixtures/update-rollback-failed/scenario.yaml`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			a.commandPath = cmd.CommandPath()
			if err := a.applyConfig(cmd); err != nil {
				return err
			}
			if err := a.checkAWSCLIFlags(cmd); err != nil {
				return err
			}
			if err := a.setUpLogger(); err != nil {
				return err
			}
			return checkOutput(a.output)
		},
	}
	f := root.PersistentFlags()
	f.StringVar(&a.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn or error")
	f.StringVar(&a.configPath, "config", "", "a settings file of account-wide flags (service-token, s3-dir, ssm-parameter, contract...), which the command line overrides (default $STACKSIM_CONFIG, else .stacksim/config.yaml when it exists)")
	f.StringVar(&a.statePath, "state", defaultStatePath, "the state file: the simulated account (created on first write)")
	f.StringVar(&a.output, "output", outputJSON, "output format: json, table, text, yaml or yaml-stream")
	f.StringVar(&a.schemas, "schemas", "", "a directory of resource schemas (registry format): types found there are simulated from their schema (every AWS registry type is known without it)")
	f.BoolVar(&a.permissive, "permissive-types", false, "accept resource types that are neither in the AWS registry nor in --schemas, simulated permissively (any property, any attribute), instead of refusing the template")
	f.Int64Var(&a.seed, "seed", 0, "the seed of generated names and ids, for a new state file")
	f.StringArrayVar(&a.serviceTokens, "service-token", nil, "map a custom resource ServiceToken: ARN=exec:COMMAND ARGS..., ARN=http(s)://URL or ARN=builtin:NAME (repeatable)")
	f.StringArrayVar(&a.ssmParameters, "ssm-parameter", nil, "a parameter of the account's parameter store, NAME=VALUE (repeatable): read by AWS::SSM::Parameter::Value<> parameters and {{resolve:ssm:NAME}} / {{resolve:ssm-secure:NAME}}")
	f.StringArrayVar(&a.alarms, "alarm", nil, "the state of a CloudWatch alarm of the account, NAME=STATE (OK, ALARM or INSUFFICIENT_DATA; repeatable), which rollback triggers watch; alarms the account's stacks make are INSUFFICIENT_DATA unless given")
	f.StringArrayVar(&a.secrets, "secret", nil, "a Secrets Manager secret of the account, NAME=SECRETSTRING (repeatable): read by {{resolve:secretsmanager:NAME...}}")
	f.StringVar(&a.s3Dir, "s3-dir", "", "a directory that stands for S3: the object KEY of bucket BUCKET is DIR/BUCKET/KEY (--template-url, AWS::Include, package, deploy --s3-bucket)")
	f.StringVar(&a.contract, "contract", "off", "the handler contract checker: off, report (violations listed) or strict (a violation fails the handler's answer)")
	f.StringVar(&a.signals, "signals", engine.SignalsAuto, "who signals a resource that waits for signals (a CreationPolicy's ResourceSignal, a wait condition's handle): auto (the simulation, SUCCESS, 30 s after it is made) or manual (signal-resource only; unsignalled, it times out)")
	f.StringVar(&a.notifications, "notifications", "", "append the messages CloudFormation publishes to the SNS topics of a stack's NotificationARNs (one per stack event and topic) to `FILE`, as JSON lines in the shape SNS delivers them")
	f.StringVar(&a.eventBridge, "eventbridge", "", "append the events CloudFormation sends to the account's default EventBridge bus (a Stack Status Change or Resource Status Change per stack event, a Drift Detection Status Change per drift detection) to `FILE`, as JSON lines")
	f.IntVar(&a.stackLimit, "stack-limit", engine.DefaultStackLimit, "the account's quota of stacks (not DELETE_COMPLETE, nested ones included): a new stack past it is refused with LimitExceededException, as AWS refuses it")
	f.BoolVar(&a.quiet, "quiet", false, "do not show the events of a mutating command as they happen (the summary stays)")
	f.DurationVar(&a.lockTimeout, "lock-timeout", defaultLockTimeout, "how long a command that changes the state waits for another one that holds the state file (0: refuse at once)")
	a.addAWSCLIFlags(f)
	a.handlerFlags.register(f)
	root.AddCommand(a.versionCommand())
	root.AddCommand(a.statesCommand(), a.explainCommand())
	root.AddCommand(a.validateTemplateCommand())
	root.AddCommand(a.stackOpCommands()...)
	root.AddCommand(a.changeSetCommands()...)
	root.AddCommand(a.stackPolicyCommands()...)
	root.AddCommand(a.driftCommands()...)
	root.AddCommand(a.readCommands()...)
	root.AddCommand(a.typeCommands()...)
	root.AddCommand(a.stepCommand(), a.timelineCommand(), a.runCommand())
	root.AddCommand(a.stateCommand(), a.waitCommand(), a.deployCommand())
	root.AddCommand(a.packageCommand())
	root.AddCommand(a.serveCommand(), a.testHandlerCommand())
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
