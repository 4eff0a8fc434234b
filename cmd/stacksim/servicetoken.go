package main

import (
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/scenario"
)

// parseServiceTokens reads the --service-token values: ARN=TARGET, where
// TARGET is exec:COMMAND ARGS... (split into words as a shell would, with
// quotes and backslashes, but never run through a shell), exec:["PROGRAM",
// "ARG"] (a JSON list), an http:// or https:// URL, or builtin:NAME (one of
// stacksim's responders: echo, fail, log-stream).
func parseServiceTokens(values []string) (map[string]resources.CustomTarget, error) {
	if len(values) == 0 {
		return nil, nil
	}
	out := map[string]resources.CustomTarget{}
	for _, v := range values {
		token, spec, ok := strings.Cut(v, "=")
		if !ok || token == "" {
			return nil, fmt.Errorf("--service-token %q: write ARN=exec:COMMAND ARGS..., ARN=http://HOST/PATH or ARN=builtin:NAME", v)
		}
		target, err := scenario.ParseTarget(spec, "")
		if err != nil {
			return nil, fmt.Errorf("--service-token %q: %w", v, err)
		}
		out[token] = target
	}
	return out, nil
}
