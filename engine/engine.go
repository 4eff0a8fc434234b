package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/stacksim/stacksim/engine/statefile"
	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
	"github.com/stacksim/stacksim/template"
	"github.com/stacksim/stacksim/transforms"
)

// Defaults of Options.
const (
	DefaultRegion    = "us-east-1"
	DefaultAccountID = "123456789012"
	DefaultPartition = "aws"
)

// DefaultEpoch is where virtual time starts unless Options.Epoch says
// otherwise: 2025-01-01T00:00:00Z.
var DefaultEpoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Options configure an Engine. The zero value is a usable configuration.
type Options struct {
	// Region, AccountID and Partition make the simulated account (ARNs,
	// pseudo parameters, handler requests). Defaults: us-east-1,
	// 123456789012, aws.
	Region    string
	AccountID string
	Partition string
	// Seed keys every generated identifier and name. Same seed, same calls:
	// the same bytes.
	Seed int64
	// Epoch is where virtual time starts (DefaultEpoch when zero).
	Epoch time.Time
	// Logger receives the engine's logs; handler requests and responses
	// at debug level. Nop when nil.
	Logger *zap.Logger

	// SchemaDir is a directory of resource schemas (--schemas DIR): a type
	// found there is simulated from its schema (every type of the AWS
	// registry is known without it).
	SchemaDir string
	// PermissiveTypes accepts a type that is neither registered, nor in
	// SchemaDir, nor in the AWS registry, simulating it permissively (any
	// property, any attribute; --permissive-types). Off, CreateStack,
	// UpdateStack, CreateChangeSet and ValidateTemplate refuse such a
	// template as AWS does: "Template format error: Unrecognized resource
	// types: [...]".
	PermissiveTypes bool
	// ServiceTokens maps custom resource ServiceTokens to their targets.
	ServiceTokens map[string]resources.CustomTarget
	// Handlers serve resource types with Go handlers.
	Handlers []TypeHandler
	// CustomResponseWait caps the real time spent waiting for a custom
	// resource's response (see resources.RegistryOptions).
	CustomResponseWait time.Duration

	// SSMParameters are parameters the account holds outside any stack
	// (--ssm-parameter NAME=VALUE), by name: AWS::SSM::Parameter::Value<>
	// parameters and {{resolve:ssm:...}} and {{resolve:ssm-secure:...}}
	// references read them after the AWS::SSM::Parameter objects of the
	// simulated account and before AWS's public parameters
	// (paramstore.Sources).
	SSMParameters map[string]string
	// Alarms are the states of CloudWatch alarms of the account, by name
	// (--alarm NAME=STATE: OK, ALARM or INSUFFICIENT_DATA), which rollback
	// triggers watch (rollback_triggers.go). An alarm named here exists in
	// the account; the AWS::CloudWatch::Alarm and CompositeAlarm objects of
	// its stacks exist too, in INSUFFICIENT_DATA unless named here.
	Alarms map[string]string
	// Secrets are Secrets Manager secrets the account holds outside any
	// stack (--secret NAME=SECRETSTRING), by name or ARN, for
	// {{resolve:secretsmanager:...}} references (after the account's
	// AWS::SecretsManager::Secret objects).
	Secrets map[string]string
	// S3Dir stands for S3 (--s3-dir DIR): the object KEY of bucket BUCKET
	// is the file DIR/BUCKET/KEY. TemplateURL and AWS::Include read from
	// it; without it only file:// URLs can be read.
	S3Dir string
	// S3Endpoints are origins (scheme://host:port) that stand for S3 too,
	// path-style: a TemplateURL ORIGIN/BUCKET/KEY is the object KEY of
	// BUCKET in S3Dir. stacksim serve gives its own address (it serves S3's
	// object calls on it: CDK uploads its templates there and names them by
	// that address).
	S3Endpoints []string
	// Python is the Python interpreter that runs AWS's SAM translator
	// (aws-sam-translator) for the AWS::Serverless-2016-10-31 transform:
	// "python3" (found in PATH) when empty.
	Python string

	// PageSize is how many items a page of the paginated read calls holds
	// (DescribeStackEvents, ListStackResources, ListStacks, ListExports,
	// ListImports, DescribeStacks). 0: AWS's page sizes.
	PageSize int

	// Contract puts the resource handler contract checker around every
	// handler: ContractOff (the default), ContractReport (violations are
	// recorded with the operation: DescribeStackOperation) or
	// ContractStrict (a violation also fails the handler's answer with
	// HandlerInternalFailure).
	Contract ContractMode
	// Signals says who sends the signals a resource with a creation
	// policy's ResourceSignal, or a wait condition with a Handle, waits
	// for: SignalsAuto ("" too: the simulation, SUCCESS, 30 seconds after
	// the resource is made) or SignalsManual (SignalResource only; nobody
	// signalling, the resource times out in virtual time).
	Signals string
	// StackLimit is how many stacks the account may hold (the stacks not
	// DELETE_COMPLETE, nested ones included): past it, a new stack is
	// refused with LimitExceededException, as AWS refuses it.
	// DescribeAccountLimits reports it. 0: AWS's default quota,
	// DefaultStackLimit.
	StackLimit int
	// MaxAttempts bounds the calls of one handler action that fails with a
	// retriable error code (Throttling, NetworkFailure, ServiceInternalError,
	// ResourceConflict): the first call and its retries, with exponential
	// backoff in virtual time (1 s, 2 s, 4 s... at most 60 s). Default 5.
	MaxAttempts int

	// StateLock says, for Open, how long to wait for another process's
	// lock on the state file (Wait; 0: refuse at once) and how this
	// process describes itself in the lock file to the others (Command,
	// Detail: "stacksim serve", "on 127.0.0.1:4599").
	StateLock StateLockOptions
}

// ContractMode says what the contract checker does (Options.Contract).
type ContractMode int

// The contract checker's modes.
const (
	ContractOff ContractMode = iota
	ContractReport
	ContractStrict
)

// DefaultMaxAttempts is Options.MaxAttempts when it is 0.
const DefaultMaxAttempts = 5

// TypeHandler serves one resource type with a Go handler.
type TypeHandler struct {
	TypeName string
	// Schema is the type's schema; it may be nil when Handler is a
	// resources.Provider.
	Schema  *resources.Schema
	Handler resources.Handler
}

func (o Options) withDefaults() Options {
	if o.Region == "" {
		o.Region = DefaultRegion
	}
	if o.AccountID == "" {
		o.AccountID = DefaultAccountID
	}
	if o.Partition == "" {
		o.Partition = DefaultPartition
	}
	if o.Epoch.IsZero() {
		o.Epoch = DefaultEpoch
	}
	o.Epoch = o.Epoch.UTC()
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.StackLimit <= 0 {
		o.StackLimit = DefaultStackLimit
	}
	return o
}

// Engine is one simulated AWS account and region running CloudFormation.
// It is safe for concurrent use: one mutex serialises every call, and the
// event loop runs under it.
type Engine struct {
	mu    sync.Mutex
	opts  Options
	log   *zap.Logger
	st    *store.Store
	cloud *store.Cloud
	reg   *resources.Registry
	// sam runs AWS's SAM translator, one worker process for the engine's
	// life (started on the first SAM template, ended by Close).
	sam *transforms.Translator
	// handlers is the loop's dispatch table (loop.go).
	handlers map[TaskKind]taskHandler

	obsMu           sync.Mutex
	observers       []observer[StackEvent]
	notifyObservers []observer[Notification]
	busObservers    []observer[EventBridgeEvent]
	obsNext         int
	// unsaved are the notifications and bus events of events committed
	// since the last Save, published when it succeeds (notifications.go).
	unsaved outbox

	// file is the state file the engine was opened from, nil when the
	// engine lives in memory only.
	file *statefile.File
	// broken is set when the store could not commit: the engine refuses
	// every call afterwards.
	broken error

	// Derived data the operations keep in memory (rebuilt from the store
	// when needed, so a loaded state file works the same): parsed and
	// bound templates, plan indexes, contract checkers, fault injectors,
	// and the violations of the handler call in progress.
	parsed map[[32]byte]*template.Template
	bounds map[[32]byte]boundTemplate
	// bodies holds one copy of each template body lately stored
	// (internBody).
	bodies map[[32]byte]string
	// boundByIdentity finds a stack's binding without hashing its body.
	boundByIdentity map[bindIdentity]boundTemplate
	plans           map[*plan.Plan]*planIndex
	checkers        map[resources.Provider]resources.Provider
	injectors       map[string]*opInjector
	violations      []contract.Violation
	// provs remembers the registry's providers by type for one call (or
	// one stretch of the loop): the registry checks the type name and
	// takes its lock on every lookup, and a call looks a type up many
	// times. Forgotten whenever the engine's lock is taken again
	// (forgetProviders), so that a type registered between two calls is
	// seen.
	provs map[string]resources.Provider
	// alarms are the CloudWatch alarms' states of this run (Options.Alarms,
	// then SetAlarmState).
	alarms map[string]string
	// opStatuses are the operation statuses DescribeEvents read last, by
	// stack number (api_describe_events.go).
	opStatuses map[uint32]opStatuses
	// bindHook, when set (benchmarks), binds a template body to something
	// else than a template: stacks beyond the template quotas.
	bindHook func(body string) (boundTemplate, bool)
}

// New returns an engine with an empty world.
func New(opts Options) (*Engine, error) {
	opts = opts.withDefaults()
	st, err := store.New(store.Identity{
		Region: opts.Region, AccountID: opts.AccountID, Partition: opts.Partition, Seed: opts.Seed,
	}, opts.Epoch.UnixNano())
	if err != nil {
		return nil, err
	}
	return newEngine(opts, st)
}

// newEngine builds the engine around a store (a new one, or one loaded from
// a state file, whose identity wins over the options').
func newEngine(opts Options, st *store.Store) (*Engine, error) {
	opts.Region, opts.AccountID, opts.Partition, opts.Seed = st.ID.Region, st.ID.AccountID, st.ID.Partition, st.ID.Seed
	e := &Engine{
		opts:            opts,
		log:             opts.Logger,
		st:              st,
		handlers:        map[TaskKind]taskHandler{},
		parsed:          map[[32]byte]*template.Template{},
		bodies:          map[[32]byte]string{},
		bounds:          map[[32]byte]boundTemplate{},
		boundByIdentity: map[bindIdentity]boundTemplate{},
		plans:           map[*plan.Plan]*planIndex{},
		checkers:        map[resources.Provider]resources.Provider{},
		injectors:       map[string]*opInjector{},
		alarms:          maps.Clone(opts.Alarms),
	}
	e.cloud = store.NewCloud(st, &e.mu)
	e.sam = &transforms.Translator{Python: opts.Python, Persistent: true}
	// A task read from a state file gets the numbers of its step and
	// generation (loadStep).
	for _, t := range st.Read().Tasks(nil) {
		loadStep(t)
	}
	e.reg = resources.NewRegistry(resources.RegistryOptions{
		Cloud:              e.cloud,
		Seed:               opts.Seed,
		Logger:             opts.Logger,
		SchemaDir:          opts.SchemaDir,
		PermissiveTypes:    opts.PermissiveTypes,
		ServiceTokens:      opts.ServiceTokens,
		CustomResponseWait: opts.CustomResponseWait,
		Now:                e.now,
	})
	for _, h := range opts.Handlers {
		if err := e.reg.Register(h.TypeName, h.Schema, h.Handler); err != nil {
			_ = e.reg.Close()
			return nil, fmt.Errorf("engine: %w", err)
		}
	}
	e.registerOperations()
	return e, nil
}

// Registry is the engine's registry of resource types: register Go handlers
// and custom resource targets on it.
func (e *Engine) Registry() *resources.Registry { return e.reg }

// Region, AccountID, Partition and Seed are the simulated account's.
func (e *Engine) Region() string    { return e.opts.Region }
func (e *Engine) AccountID() string { return e.opts.AccountID }
func (e *Engine) Partition() string { return e.opts.Partition }
func (e *Engine) Seed() int64       { return e.opts.Seed }

// Close releases the state file's lock (without saving), stops the
// registry's custom resource server and ends the SAM translator's worker.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	err := errors.Join(e.reg.Close(), e.sam.Close())
	if e.file != nil {
		err = errors.Join(err, e.file.Close())
		e.file = nil
	}
	return err
}

// update runs fn in a write transaction: committed when fn returns nil,
// aborted (changing nothing) when it returns an error or panics. Events
// written are handed to observers after the commit. The caller holds e.mu.
func (e *Engine) update(fn func(tx *txn) error) error {
	if e.broken != nil {
		return e.broken
	}
	e.forgetProviders()
	tx := &txn{e.st.Begin()}
	defer tx.End()
	err := guard(func() error { return fn(tx) })
	logPanic(e.log, err)
	if derr := e.damaged(); derr != nil {
		return derr // whatever fn answered, it answered from a damaged read
	}
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		e.broken = &InternalError{Err: err}
		return e.broken
	}
	e.deliver(&txn{e.st.Read()}, tx.Events)
	return nil
}

// view runs fn in a read transaction. The caller holds e.mu.
func (e *Engine) view(fn func(tx *txn) error) error {
	if e.broken != nil {
		return e.broken
	}
	e.forgetProviders()
	err := guard(func() error { return fn(&txn{e.st.Read()}) })
	logPanic(e.log, err)
	if derr := e.damaged(); derr != nil {
		return derr
	}
	return err
}

// damaged reports a damaged row of the state file met by the call (read
// by need: engine/store's Backing). The engine refuses every call after
// it, and nothing is saved: what it read cannot be trusted.
func (e *Engine) damaged() error {
	if err := e.st.Err(); err != nil {
		e.broken = err
		return err
	}
	return nil
}

// logPanic logs the stack of an internal error that was a panic.
func logPanic(log *zap.Logger, err error) {
	var ie *InternalError
	if errors.As(err, &ie) && ie.Stack != "" {
		log.Error("engine panic", zap.Error(err), zap.String("stack", ie.Stack))
	}
}

// guard runs fn, turning a panic into an *InternalError: its message
// names the panic and where it happened; the whole stack is kept in the
// error (Stack) for the log, not shown to users.
func guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			stack := debug.Stack()
			err = &InternalError{Err: fmt.Errorf("panic: %v (at %s)", r, panicSite(stack)), Stack: string(stack)}
		}
	}()
	return fn()
}

// panicSite is the file:line of the frame that panicked: the first frame
// of the stack below the runtime's panic machinery and guard itself.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	panicking := false
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if strings.HasPrefix(fn, "panic(") {
			panicking = true
			continue
		}
		if !panicking || strings.HasPrefix(fn, "\t") || strings.HasPrefix(fn, "runtime.") {
			continue
		}
		loc := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(loc, " +0x"); j > 0 {
			loc = loc[:j]
		}
		return trimSourceRoot(loc)
	}
	return "an unknown place"
}

// trimSourceRoot makes a source path relative to the module's root: the
// directory above this file's, or the module path in -trimpath builds.
func trimSourceRoot(loc string) string {
	if _, self, _, ok := runtime.Caller(0); ok {
		root := filepath.Dir(filepath.Dir(self)) + string(filepath.Separator)
		if strings.HasPrefix(loc, root) {
			return filepath.ToSlash(loc[len(root):])
		}
	}
	return strings.TrimPrefix(loc, "github.com/stacksim/stacksim/")
}

// now is the virtual time: the open transaction's, or the last commit's.
// Providers read it during handler invocations.
func (e *Engine) now() time.Time {
	if tx := e.st.Cur; tx != nil {
		return time.Unix(0, tx.Meta.Now).UTC()
	}
	return time.Unix(0, e.st.Meta.Now).UTC()
}

// Now returns the virtual time.
func (e *Engine) Now() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.now()
}

// observer is a subscriber: to events (Subscribe), to notifications
// (SubscribeNotifications).
type observer[T any] struct {
	id int
	fn func(T)
}

// subscribe adds fn to *list under e.obsMu and returns the function that
// removes it.
func subscribe[T any](e *Engine, list *[]observer[T], fn func(T)) (unsubscribe func()) {
	e.obsMu.Lock()
	defer e.obsMu.Unlock()
	e.obsNext++
	id := e.obsNext
	*list = append(*list, observer[T]{id: id, fn: fn})
	return func() {
		e.obsMu.Lock()
		defer e.obsMu.Unlock()
		for i, o := range *list {
			if o.id == id {
				*list = append((*list)[:i:i], (*list)[i+1:]...)
				return
			}
		}
	}
}

// Subscribe calls fn with every stack event, in order, once the step (or
// the API call) that wrote it has completed. fn runs while the engine is
// locked: it must not call the engine. The returned function unsubscribes.
func (e *Engine) Subscribe(fn func(StackEvent)) (unsubscribe func()) {
	return subscribe(e, &e.observers, fn)
}

// deliver hands events, read through tx, to the observers.
func (e *Engine) deliver(tx *txn, evs []store.PendingEvent) {
	if len(evs) == 0 {
		return
	}
	e.obsMu.Lock()
	obs, notifying, busing := e.observers, len(e.notifyObservers) > 0, len(e.busObservers) > 0
	e.obsMu.Unlock()
	if len(obs) == 0 && !notifying && !busing {
		return
	}
	for _, p := range evs {
		ev := stackEventOf(e.st, p.St, p.Seq, tx.EventAt(p.St.Num, p.Seq))
		for _, o := range obs {
			o.fn(ev)
		}
		// Each event's publications right after it, so that an engine in
		// memory hands them out in the order of the events.
		var out outbox
		if notifying {
			out.notes = notificationsOf(e.st, p.St, p.Seq, ev)
		}
		if busing {
			out.bus = []EventBridgeEvent{eventBridgeEventOf(e.st, p.St, p.Seq, ev)}
		}
		e.send(out)
	}
}

// invoke calls a provider's handler for a request, logging the request and
// the answer at debug level. It is the one way the engine calls handlers.
func (e *Engine) invoke(ctx context.Context, p resources.Provider, req *resources.Request) (*resources.ProgressEvent, error) {
	debugOn := e.log.Core().Enabled(zapcore.DebugLevel)
	if debugOn {
		e.log.Debug("handler request",
			zap.String("type", req.ResourceType),
			zap.String("action", string(req.Action)),
			zap.String("logicalId", req.LogicalResourceIdentifier),
			zap.String("physicalId", req.PhysicalResourceID),
			zap.String("phase", req.Phase.String()),
			zap.Int("attempt", req.Attempt),
			zap.Any("request", req))
	}
	ev, err := resources.Invoke(ctx, p, req)
	if debugOn {
		if err != nil {
			e.log.Debug("handler error",
				zap.String("type", req.ResourceType),
				zap.String("action", string(req.Action)),
				zap.String("logicalId", req.LogicalResourceIdentifier),
				zap.Error(err))
		} else {
			e.log.Debug("handler response",
				zap.String("type", req.ResourceType),
				zap.String("action", string(req.Action)),
				zap.String("logicalId", req.LogicalResourceIdentifier),
				zap.Any("response", ev))
		}
	}
	return ev, err
}
