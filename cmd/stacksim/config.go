package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	yaml "go.yaml.in/yaml/v4"

	"github.com/stacksim/stacksim/internal/nearest"
	"github.com/stacksim/stacksim/internal/yamlerr"
	"github.com/stacksim/stacksim/internal/yamlkeys"
)

// The settings file: the account-wide flags that every command of a
// session needs alike (service tokens, --s3-dir, parameters and secrets,
// the contract checker...), written once instead of on every command.
//
//	# .stacksim/config.yaml
//	s3-dir: ./s3
//	contract: report
//	service-token:
//	  - arn:aws:lambda:us-east-1:123456789012:function:echo=exec:python3 echo.py
//
// Each key is a flag's name; a repeatable flag takes a list (or one
// value). A flag given on the command line wins over the file; values are
// read as the command line reads them (a relative path is relative to the
// working directory). The file is --config FILE, else $STACKSIM_CONFIG,
// else .stacksim/config.yaml when it exists.

const (
	defaultConfigPath = ".stacksim/config.yaml"
	configEnv         = "STACKSIM_CONFIG"
)

// configFlags are the flags a settings file may set: those that describe
// the simulated account and how commands run, not one call (--query,
// --max-items, --cli-input-json... stay on the command line).
var configFlags = map[string]bool{
	"state": true, "region": true, "seed": true, "schemas": true, "permissive-types": true,
	"service-token": true, "ssm-parameter": true, "alarm": true, "secret": true, "s3-dir": true,
	"contract": true, "signals": true, "notifications": true, "eventbridge": true, "stack-limit": true,
	"handler": true, "schema": true, "handler-timeout": true,
	"output": true, "quiet": true, "color": true, "log-level": true, "lock-timeout": true,
}

// applyConfig sets, from the settings file, every flag of cmd that the
// command line did not give.
func (a *app) applyConfig(cmd *cobra.Command) error {
	path, explicit := a.configPath, a.configPath != ""
	if !explicit {
		path = a.getenv(configEnv)
		explicit = path != ""
	}
	if !explicit {
		path = defaultConfigPath
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return badInput(fmt.Errorf("the settings file %s: %w", path, unwrapPathError(err)))
	}
	set, err := applyConfigData(path, data, cmd.Flags())
	if err != nil {
		return badInput(err)
	}
	a.fromConfig = set
	return nil
}

// placeConfigError says where the settings file set the flag an error
// message begins with ("--contract \"bogus\": ..."): checked after the
// file is read, a value it gave is refused in the flag's words.
func (a *app) placeConfigError(msg string) string {
	rest, ok := strings.CutPrefix(msg, "--")
	if !ok {
		return msg
	}
	name, _, _ := strings.Cut(rest, " ")
	if at, ok := a.fromConfig[strings.TrimSuffix(name, ":")]; ok {
		return at + ": " + msg
	}
	return msg
}

// applyConfigData sets the flags of fs that are not Changed from a
// settings file's text, and returns where it set each (FILE:LINE:COL);
// errors are positioned too.
func applyConfigData(path string, data []byte, flags *pflag.FlagSet) (map[string]string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		if s, ok := yamlerr.Of(err, data); ok {
			return nil, fmt.Errorf("%s:%d:%d: not valid YAML: %s", path, s.Line, s.Col, s.Detail())
		}
		return nil, fmt.Errorf("%s: not valid YAML: %s", path, yamlerr.Message(err, data))
	}
	set := map[string]string{}
	if len(doc.Content) == 0 {
		return set, nil // empty, or only comments
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, configError(path, root, "a settings file is a mapping of flag names to values (s3-dir: ./s3)")
	}
	if dups := yamlkeys.Duplicates(root); len(dups) > 0 {
		return nil, configError(path, dups[0].Again, dups[0].Message())
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], root.Content[i+1]
		name := key.Value
		f := flags.Lookup(name)
		if key.Kind != yaml.ScalarNode || f == nil || !configFlags[name] {
			return nil, configError(path, key, unknownSetting(name))
		}
		if f.Changed {
			continue // the command line wins
		}
		values, err := configValues(path, name, val, isRepeatable(f))
		if err != nil {
			return nil, err
		}
		for _, v := range values {
			if err := flags.Set(name, v); err != nil {
				return nil, configError(path, val, fmt.Sprintf("%s: %v", name, err))
			}
		}
		// Set marks the flag Changed: a command asks Changed to know
		// whether the user gave it, and the file is the user's.
		set[name] = fmt.Sprintf("%s:%d:%d", path, val.Line, val.Column)
	}
	return set, nil
}

// configValues are the values of one setting: a scalar, or for a
// repeatable flag a list of scalars.
func configValues(path, name string, val *yaml.Node, repeatable bool) ([]string, error) {
	switch val.Kind {
	case yaml.ScalarNode:
		return []string{val.Value}, nil
	case yaml.SequenceNode:
		if !repeatable {
			return nil, configError(path, val, fmt.Sprintf("%s takes one value, not a list", name))
		}
		out := make([]string, 0, len(val.Content))
		for _, item := range val.Content {
			if item.Kind != yaml.ScalarNode {
				return nil, configError(path, item, fmt.Sprintf("each value of %s is a string", name))
			}
			out = append(out, item.Value)
		}
		return out, nil
	}
	return nil, configError(path, val, fmt.Sprintf("%s takes a value (a string, a number, true or false)", name))
}

// isRepeatable reports whether a flag takes several values.
func isRepeatable(f *pflag.Flag) bool {
	switch f.Value.Type() {
	case "stringArray", "stringSlice":
		return true
	}
	return false
}

func configError(path string, n *yaml.Node, msg string) error {
	return fmt.Errorf("%s:%d:%d: %s", path, n.Line, n.Column, msg)
}

// unknownSetting names what a settings file may hold, and the nearest.
func unknownSetting(name string) string {
	names := make([]string, 0, len(configFlags))
	for n := range configFlags {
		names = append(names, n)
	}
	sort.Strings(names)
	msg := fmt.Sprintf("%q is not a setting", name)
	if best := nearest.Name(name, names); best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", best)
	}
	return msg + "; a settings file may set: " + strings.Join(names, ", ")
}

// unwrapPathError drops the path an *fs.PathError repeats.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
