package scenario

import (
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/stacksim/stacksim/internal/readfile"
)

var handlerKeys = []string{"target", "schema", "timeout"}

// handlers reads a scenario's handlers: a mapping of resource types to
// handler targets (exec:COMMAND ARGS..., with +persistent, +rpdk or
// +rpdk-test), or to {target, schema, timeout}. Commands run, and relative
// schema paths are found, in the scenario's directory; a type without
// schema: is found in --schemas.
func (l *loader) handlers(n *yaml.Node, sc *Scenario) {
	if n.Kind != yaml.MappingNode {
		l.at(n, "handlers must be a mapping of resource types to handler targets (Acme::Example::Thing: exec:python3 handler.py), not %s", kindName(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		var target, schema string
		var timeout time.Duration
		switch v.Kind {
		case yaml.ScalarNode:
			target = v.Value
		case yaml.MappingNode:
			for j := 0; j+1 < len(v.Content); j += 2 {
				kk, vv := v.Content[j], resolveAlias(v.Content[j+1])
				switch kk.Value {
				case "target":
					target = l.str(vv, "target")
				case "schema":
					schema = l.str(vv, "schema")
				case "timeout":
					d, err := time.ParseDuration(l.str(vv, "timeout"))
					if err != nil || d <= 0 {
						l.at(vv, "timeout must be a positive duration (30s, 2m), not %q", readfile.Capped(vv.Value))
					}
					timeout = d
				default:
					l.at(kk, "unknown key %q of a handler; a handler has %s%s", readfile.Capped(kk.Value), strings.Join(handlerKeys, ", "), suggest(kk.Value, handlerKeys))
				}
			}
			if target == "" {
				l.at(v, "handler of %s has no target; add target: exec:COMMAND ARGS...", readfile.Capped(k.Value))
				continue
			}
		default:
			l.at(v, "a handler is a target (exec:COMMAND ARGS...) or a mapping with %s, not %s", strings.Join(handlerKeys, ", "), kindName(v))
			continue
		}
		h, err := ParseHandlerTarget(target)
		if err != nil {
			l.at(v, "handler of %s: %v", readfile.Capped(k.Value), err)
			continue
		}
		h.TypeName, h.Dir, h.Timeout = k.Value, l.dir, timeout
		if schema != "" {
			if !filepath.IsAbs(schema) {
				schema = filepath.Join(l.dir, schema)
			}
			h.SchemaFile = schema
		}
		for _, prev := range sc.Handlers {
			if prev.TypeName == h.TypeName {
				l.at(k, "handler of %s given twice; keep one", readfile.Capped(k.Value))
			}
		}
		sc.Handlers = append(sc.Handlers, h)
	}
}
