package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/scenario"
)

// handlerFlags are the global flags that plug handler processes in:
// --handler TYPE=TARGET, --schema TYPE=FILE, --handler-timeout. Every
// command that builds an engine (the mutating commands, serve) uses them
// through engineOptions; run through scenario.Options; test-handler
// directly.
type handlerFlags struct {
	handlers []string
	schemas  []string
	timeout  time.Duration
}

func (h *handlerFlags) register(f *pflag.FlagSet) {
	f.StringArrayVar(&h.handlers, "handler", nil, "serve a resource type with your handler: TYPE=exec:COMMAND ARGS... (+persistent: one long-lived process; +rpdk or +rpdk-test: a plugin library's entry point), with its schema from --schema or --schemas (repeatable)")
	f.StringArrayVar(&h.schemas, "schema", nil, "the schema of a --handler type: TYPE=FILE, the registry schema JSON of a resource-type project (repeatable)")
	f.DurationVar(&h.timeout, "handler-timeout", 0, "the real-time cap on one request to a --handler process (default: the contract's 60s for create, update and delete, 30s for read and list)")
}

// specs reads --handler and --schema into handler specs.
func (h *handlerFlags) specs() ([]scenario.HandlerSpec, error) {
	if h.timeout < 0 {
		return nil, fmt.Errorf("--handler-timeout %s: want a positive duration (30s, 2m)", h.timeout)
	}
	files := map[string]string{}
	for _, v := range h.schemas {
		typeName, file, ok := strings.Cut(v, "=")
		if !ok || typeName == "" || file == "" {
			return nil, fmt.Errorf("--schema %q: write TYPE=FILE (Acme::Example::Thing=acme-example-thing.json)", v)
		}
		if _, dup := files[typeName]; dup {
			return nil, fmt.Errorf("--schema %s given twice; keep one", typeName)
		}
		files[typeName] = file
	}
	var out []scenario.HandlerSpec
	served := map[string]bool{}
	for _, v := range h.handlers {
		spec, err := scenario.ParseHandler(v)
		if err != nil {
			return nil, err
		}
		if served[spec.TypeName] {
			return nil, fmt.Errorf("--handler %s given twice; keep one", spec.TypeName)
		}
		served[spec.TypeName] = true
		spec.SchemaFile = files[spec.TypeName]
		spec.Timeout = h.timeout
		out = append(out, spec)
	}
	for typeName := range files {
		if !served[typeName] {
			return nil, fmt.Errorf("--schema %s: no --handler serves the type; give --handler %s=exec:COMMAND ARGS... (a type simulated from its schema goes in --schemas DIR)", typeName, typeName)
		}
	}
	return out, nil
}

// engineHandlers builds the --handler processes for an engine.
func (a *app) engineHandlers() ([]engine.TypeHandler, error) {
	specs, err := a.handlerFlags.specs()
	if err != nil || len(specs) == 0 {
		return nil, err
	}
	return scenario.BuildHandlers(specs, a.schemas, a.log)
}

// providerOf is a built handler as a provider.
func providerOf(th engine.TypeHandler) (resources.Provider, error) {
	if p, ok := th.Handler.(resources.Provider); ok {
		return p, nil
	}
	if th.Schema == nil {
		return nil, fmt.Errorf("handler of %s: no schema", th.TypeName)
	}
	return resources.NewHandlerProvider(th.Schema, th.Handler), nil
}

// closeHandler ends a handler's long-lived process.
func closeHandler(h resources.Handler) {
	if c, ok := h.(io.Closer); ok {
		_ = c.Close()
	}
}
