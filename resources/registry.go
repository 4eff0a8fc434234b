package resources

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// RegistryOptions configure a Registry.
type RegistryOptions struct {
	// Cloud is the simulated cloud the built-in providers create in
	// (a fresh MemCloud when nil).
	Cloud Cloud
	// Seed keys every generated name and identifier.
	Seed int64
	// Logger receives the registry's notes (permissive types, unmapped
	// service tokens, handler processes' stderr). Nop when nil.
	Logger *zap.Logger
	// SchemaDir is a directory of registry schema files (--schemas DIR);
	// a type found there is simulated from its schema, in place of the
	// registry's (types stacksim embeds a schema of its own for keep it).
	SchemaDir string
	// PermissiveTypes simulates a type that is neither registered, nor in
	// SchemaDir, nor in the AWS registry, with the permissive provider
	// (any property accepted, any attribute answered). Off, such a type is
	// an *UnrecognizedTypeError, as CloudFormation refuses it.
	PermissiveTypes bool
	// ServiceTokens maps custom resource service tokens to their targets.
	ServiceTokens map[string]CustomTarget
	// CustomResponseWait is the real-time cap on waiting for a custom
	// resource target's response (default 30 s); past it the provider
	// answers ErrNoResponse and the engine waits for ServiceTimeout in
	// virtual time.
	CustomResponseWait time.Duration
	// Now is the virtual clock, for dates the simulation writes.
	Now func() time.Time
	// ListPageSize is how many models a simulated list answers at once.
	ListPageSize int
}

// Registry maps type names to Providers. Resolution order: a handler
// registered with Register or RegisterProcess; the custom resource provider
// for AWS::CloudFormation::CustomResource and Custom::*; a type stacksim
// embeds a hand-tuned schema of (schemas/); a type whose schema SchemaDir
// holds; a type of the AWS registry (registry/us-east-1.pack, with its
// overlay); these three simulated by the generic provider. Any other type
// is unrecognized, unless PermissiveTypes gives it the permissive provider,
// which says so once in the log.
type Registry struct {
	opts    RegistryOptions
	log     *zap.Logger
	dir     *schemaDir
	hub     *customHub
	mu      sync.Mutex
	byType  map[string]Provider
	custom  map[string]Provider
	builtin map[string]Provider
}

// NewRegistry returns a registry.
func NewRegistry(opts RegistryOptions) *Registry {
	if opts.Cloud == nil {
		opts.Cloud = NewMemCloud()
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.CustomResponseWait <= 0 {
		opts.CustomResponseWait = 30 * time.Second
	}
	r := &Registry{
		opts:    opts,
		log:     opts.Logger,
		byType:  map[string]Provider{},
		custom:  map[string]Provider{},
		builtin: map[string]Provider{},
		hub: &customHub{seed: opts.Seed, log: opts.Logger, wait: opts.CustomResponseWait, now: opts.Now,
			targets: map[string]CustomTarget{}, warned: map[string]bool{}},
	}
	for token, t := range opts.ServiceTokens {
		r.hub.targets[token] = t
	}
	if opts.SchemaDir != "" {
		r.dir = newSchemaDir(opts.SchemaDir)
	}
	return r
}

// Cloud is the registry's simulated cloud.
func (r *Registry) Cloud() Cloud { return r.opts.Cloud }

// Register serves a type with a Go handler and the type's schema. When the
// handler is itself a Provider, it is used as it is.
func (r *Registry) Register(typeName string, s *Schema, h Handler) error {
	if err := checkTypeName(typeName); err != nil {
		return err
	}
	if h == nil {
		return fmt.Errorf("register %s: nil handler", typeName)
	}
	p, ok := h.(Provider)
	if !ok {
		if s == nil {
			return fmt.Errorf("register %s: a handler needs the type's schema (ParseSchema or LoadSchemaFile)", typeName)
		}
		if s.TypeName != typeName {
			return fmt.Errorf("register %s: the schema is of type %s", typeName, s.TypeName)
		}
		p = NewHandlerProvider(s, h)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byType[typeName] = p
	return nil
}

// RegisterProcess serves a type with an external handler process (run
// per request or long-lived; see NewProcessProvider and ProcessOptions).
// Close ends its long-lived process.
func (r *Registry) RegisterProcess(typeName string, s *Schema, argv []string, opts ProcessOptions) error {
	if s == nil || s.TypeName != typeName {
		return fmt.Errorf("register process for %s: give the type's schema", typeName)
	}
	if opts.Logger == nil {
		opts.Logger = r.log
	}
	p, err := NewProcessProvider(s, argv, opts)
	if err != nil {
		return err
	}
	return r.Register(typeName, s, p)
}

// RegisterServiceToken maps a custom resource service token to a target.
func (r *Registry) RegisterServiceToken(token string, t CustomTarget) {
	r.hub.mu.Lock()
	defer r.hub.mu.Unlock()
	r.hub.targets[token] = t
}

// Provider returns the provider of a type.
func (r *Registry) Provider(typeName string) (Provider, error) {
	if err := checkTypeName(typeName); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.byType[typeName]; ok {
		return p, nil
	}
	if IsCustomType(typeName) {
		if p, ok := r.custom[typeName]; ok {
			return p, nil
		}
		p, err := newCustomProvider(typeName, r.hub)
		if err != nil {
			return nil, err
		}
		r.custom[typeName] = p
		return p, nil
	}
	if p, ok := r.builtin[typeName]; ok {
		return p, nil
	}
	p, err := r.builtinProvider(typeName)
	if err != nil {
		return nil, err
	}
	r.builtin[typeName] = p
	return p, nil
}

func (r *Registry) genericOptions() GenericOptions {
	return GenericOptions{Cloud: r.opts.Cloud, Seed: r.opts.Seed, Now: r.opts.Now, PageSize: r.opts.ListPageSize}
}

func (r *Registry) builtinProvider(typeName string) (Provider, error) {
	s, err := r.simulatedSchema(typeName)
	if err != nil {
		return nil, err
	}
	if s != nil {
		if r.dir != nil && strings.HasPrefix(s.Source, "embedded:") {
			if path := r.dir.named(typeName); path != "" {
				r.log.Warn("--schemas has a schema of this type, which stacksim simulates from a hand-tuned schema of its own; the file is not used",
					zap.String("type", typeName), zap.String("file", path))
			}
		}
		return NewGeneric(s, r.genericOptions()), nil
	}
	if !r.opts.PermissiveTypes {
		return nil, &UnrecognizedTypeError{TypeName: typeName}
	}
	r.log.Info("no schema for this type: it is simulated permissively (every property accepted and mutable; Ref answers a generated id; Fn::GetAtt answers any attribute). Give its schema with --schemas DIR for a faithful simulation",
		zap.String("type", typeName))
	return NewPermissive(typeName, r.genericOptions()), nil
}

// simulatedSchema is the schema the generic provider simulates a type from:
// stacksim's embedded one, SchemaDir's, the registry's; nil when none has it.
func (r *Registry) simulatedSchema(typeName string) (*Schema, error) {
	s, ok, err := EmbeddedSchema(typeName)
	if err != nil || ok {
		return s, err
	}
	if r.dir != nil {
		s, err := r.dir.lookup(typeName)
		if err != nil || s != nil {
			return s, err
		}
	}
	s, ok, err = RegistrySchema(typeName)
	if err != nil || !ok {
		return nil, err
	}
	return s, nil
}

// Recognized tells whether a type can be created: it has a provider
// (registered, custom, embedded, in SchemaDir or in the AWS registry), or
// permissive types are on. Cheap for registry types: it reads the pack's
// index, not the schema.
func (r *Registry) Recognized(typeName string) (bool, error) {
	if checkTypeName(typeName) != nil {
		return false, nil
	}
	r.mu.Lock()
	_, registered := r.byType[typeName]
	_, built := r.builtin[typeName]
	r.mu.Unlock()
	switch {
	case registered, built, IsCustomType(typeName), r.opts.PermissiveTypes, InRegistry(typeName):
		return true, nil
	}
	if _, ok, err := EmbeddedSchema(typeName); err != nil || ok {
		return ok, err
	}
	if r.dir != nil {
		s, err := r.dir.lookup(typeName)
		return s != nil, err
	}
	return false, nil
}

// CheckSchema tells whether the schema a user gave for a type can be used
// (Schema.Check): a registered handler's, or the --schemas file that
// simulates it (one that does not parse is its error). nil for the
// schemas stacksim ships (embedded and the registry's, checked by their
// tests), custom resources and unknown types (Recognized says those).
func (r *Registry) CheckSchema(typeName string) error {
	if checkTypeName(typeName) != nil || IsCustomType(typeName) {
		return nil
	}
	r.mu.Lock()
	p, registered := r.byType[typeName]
	r.mu.Unlock()
	if registered {
		if s := p.Schema(); s != nil {
			return s.Check()
		}
		return nil
	}
	if _, ok, err := EmbeddedSchema(typeName); err != nil || ok || r.dir == nil {
		return err
	}
	s, err := r.dir.lookup(typeName)
	if err != nil || s == nil {
		return err
	}
	return s.Check()
}

// MisnamedSchema names the --schemas file that has a type's registry file
// name (SchemaFileName) but declares another type ("" when there is none):
// the likely reason a type given a schema is not recognised.
func (r *Registry) MisnamedSchema(typeName string) string {
	if r.dir == nil || checkTypeName(typeName) != nil {
		return ""
	}
	return r.dir.misnamed(typeName)
}

// Schema returns the schema of a type (the planner's view).
func (r *Registry) Schema(typeName string) (*Schema, error) {
	p, err := r.Provider(typeName)
	if err != nil {
		return nil, err
	}
	return p.Schema(), nil
}

// Close stops the custom resource response server and the long-lived
// handler processes of registered types.
func (r *Registry) Close() error {
	err := r.hub.server.close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.byType {
		if c, ok := p.(io.Closer); ok {
			err = errors.Join(err, c.Close())
		}
	}
	return err
}
