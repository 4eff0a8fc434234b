package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/resources"
)

// HandlerSpec is a resource type served by a handler process: a
// --handler TYPE=TARGET of the command line, or an entry of a scenario's
// handlers.
type HandlerSpec struct {
	TypeName string
	// Argv is the program and its arguments (never run through a shell).
	Argv []string
	// Protocol is the shape of the requests; Persistent runs one
	// long-lived process instead of one per request.
	Protocol   resources.Protocol
	Persistent bool
	// Dir is where the program runs ("" for the current directory).
	Dir string
	// SchemaFile is the type's schema; "" to find it in the schema
	// directory (--schemas).
	SchemaFile string
	// Timeout is the real-time cap on one request (0: the contract's,
	// 60 s for create, update and delete, 30 s for read and list).
	Timeout time.Duration
}

// handlerTargetHelp is how every error about a handler target ends.
const handlerTargetHelp = "write exec:COMMAND ARGS..., with +persistent for one long-lived process and +rpdk or +rpdk-test for a plugin library's entry point (exec+rpdk-test+persistent:node launcher.js dist/handlers.js)"

// ParseHandlerTarget reads a handler target: exec[+rpdk|+rpdk-test]
// [+persistent]:COMMAND ARGS... (the command split into words as a shell
// would, never run through a shell; or a JSON list of words).
func ParseHandlerTarget(spec string) (HandlerSpec, error) {
	var h HandlerSpec
	scheme, command, ok := strings.Cut(spec, ":")
	words := strings.Split(scheme, "+")
	if !ok || words[0] != "exec" {
		return h, fmt.Errorf("unknown handler target %q: %s", readfile.Capped(spec), handlerTargetHelp)
	}
	shape := ""
	for _, w := range words[1:] {
		switch w {
		case "persistent":
			if h.Persistent {
				return h, fmt.Errorf("handler target %q says +persistent twice", readfile.Capped(scheme))
			}
			h.Persistent = true
		case "rpdk", "rpdk-test":
			if shape != "" {
				return h, fmt.Errorf("handler target %q names two protocols (+%s, +%s); a handler speaks one", readfile.Capped(scheme), shape, w)
			}
			shape = w
			h.Protocol, _ = resources.ParseProtocol(w)
		default:
			return h, fmt.Errorf("handler target %q: unknown option +%s; %s", readfile.Capped(scheme), readfile.Capped(w), handlerTargetHelp)
		}
	}
	argv, err := SplitCommand(command)
	if err != nil {
		return h, err
	}
	h.Argv = argv
	return h, nil
}

// ParseHandler reads TYPE=TARGET (the --handler flag).
func ParseHandler(value string) (HandlerSpec, error) {
	typeName, target, ok := strings.Cut(value, "=")
	if !ok || typeName == "" {
		return HandlerSpec{}, fmt.Errorf("--handler %q: write TYPE=exec:COMMAND ARGS... (Acme::Example::Thing=exec:python3 handler.py)", readfile.Capped(value))
	}
	h, err := ParseHandlerTarget(target)
	if err != nil {
		return h, fmt.Errorf("--handler %s: %w", typeName, err)
	}
	h.TypeName = typeName
	return h, nil
}

// Schema loads the type's schema: SchemaFile, or the file of the type in
// schemaDir (its registry file name, else any file of the directory that
// defines it).
func (h HandlerSpec) Schema(schemaDir string) (*resources.Schema, error) {
	if h.SchemaFile != "" {
		s, err := resources.LoadSchemaFile(h.SchemaFile)
		if err != nil {
			return nil, fmt.Errorf("the schema of %s: %w", h.TypeName, err)
		}
		if s.TypeName != h.TypeName {
			return nil, fmt.Errorf("the schema of %s: %s is the schema of %s", h.TypeName, h.SchemaFile, s.TypeName)
		}
		return s, nil
	}
	if schemaDir == "" {
		return nil, fmt.Errorf("handler of %s: no schema for the type; give it with --schema %s=FILE (or a schema: of the scenario's handler), or --schemas DIR", h.TypeName, h.TypeName)
	}
	path := filepath.Join(schemaDir, resources.SchemaFileName(h.TypeName))
	if _, err := os.Stat(path); err == nil {
		if s, err := resources.LoadSchemaFile(path); err != nil || s.TypeName == h.TypeName {
			return s, err
		}
	}
	all, err := resources.LoadSchemaDir(schemaDir)
	if err != nil {
		return nil, err
	}
	if s, ok := all[h.TypeName]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("handler of %s: no schema of the type in %s (looked for %s and every *.json); give it with --schema %s=FILE", h.TypeName, schemaDir, resources.SchemaFileName(h.TypeName), h.TypeName)
}

// Build makes the engine's handler: a process provider for the type.
func (h HandlerSpec) Build(schemaDir string, log *zap.Logger) (engine.TypeHandler, error) {
	s, err := h.Schema(schemaDir)
	if err != nil {
		return engine.TypeHandler{}, err
	}
	p, err := resources.NewProcessProvider(s, h.Argv, resources.ProcessOptions{
		Dir: h.Dir, Protocol: h.Protocol, Persistent: h.Persistent, Timeout: h.Timeout, Logger: log})
	if err != nil {
		return engine.TypeHandler{}, err
	}
	return engine.TypeHandler{TypeName: h.TypeName, Schema: s, Handler: p}, nil
}

// BuildHandlers builds every spec; a type given twice is an error (the
// command line's specs override a scenario's before this: MergeHandlers).
func BuildHandlers(specs []HandlerSpec, schemaDir string, log *zap.Logger) ([]engine.TypeHandler, error) {
	seen := map[string]bool{}
	var out []engine.TypeHandler
	var errs []error
	for _, h := range specs {
		if seen[h.TypeName] {
			errs = append(errs, fmt.Errorf("handler of %s given twice; keep one", h.TypeName))
			continue
		}
		seen[h.TypeName] = true
		th, err := h.Build(schemaDir, log)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, th)
	}
	return out, errors.Join(errs...)
}

// MergeHandlers lays over's specs on base's: a type in both is served as
// over says.
func MergeHandlers(base, over []HandlerSpec) []HandlerSpec {
	in := map[string]bool{}
	for _, h := range over {
		in[h.TypeName] = true
	}
	out := append([]HandlerSpec(nil), over...)
	for _, h := range base {
		if !in[h.TypeName] {
			out = append(out, h)
		}
	}
	return out
}
