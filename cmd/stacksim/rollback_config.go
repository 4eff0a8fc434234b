package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/readfile"
)

// --rollback-configuration, as the AWS CLI reads it: shorthand
// (RollbackTriggers=[{Arn=ARN,Type=AWS::CloudWatch::Alarm}],MonitoringTimeInMinutes=5),
// JSON, or file://PATH holding either; and --alarm NAME=STATE, the states
// of the account's CloudWatch alarms for one command.

const rollbackConfigHelp = "the rollback triggers and monitoring time: RollbackTriggers=[{Arn=ARN,Type=AWS::CloudWatch::Alarm}],MonitoringTimeInMinutes=N (shorthand, JSON or file://PATH; the alarms' states come from --alarm)"

func addRollbackConfigFlag(cmd *cobra.Command, v *string) {
	cmd.Flags().StringVar(v, "rollback-configuration", "", rollbackConfigHelp)
}

// rollbackConfigFlag reads --rollback-configuration when it was given (nil
// otherwise: an update keeps the stack's).
func rollbackConfigFlag(cmd *cobra.Command, raw string) (*engine.RollbackConfiguration, error) {
	if !cmd.Flags().Changed("rollback-configuration") {
		return nil, nil
	}
	return parseRollbackConfiguration(raw)
}

func parseRollbackConfiguration(raw string) (*engine.RollbackConfiguration, error) {
	const flag = "rollback-configuration"
	v, err := paramFile(flag, raw)
	if err != nil {
		return nil, err
	}
	var vals map[string]any
	if t := strings.TrimSpace(v); strings.HasPrefix(t, "{") {
		if err := checkJSONArg("--"+flag, v); err != nil {
			return nil, err
		}
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		if err := dec.Decode(&vals); err != nil {
			return nil, fmt.Errorf("Error parsing parameter '--%s': Invalid JSON: %v\nJSON received: %s", flag, err, readfile.Excerpt(t))
		}
	} else if vals, _, err = parseShorthand(v); err != nil {
		return nil, fmt.Errorf("Error parsing parameter '--%s': %w", flag, err)
	}
	c := &engine.RollbackConfiguration{}
	var problems []string
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch k {
		case "RollbackTriggers":
			list, ok := vals[k].([]any)
			if !ok {
				if s, isStr := vals[k].(string); isStr && s == "" {
					list, ok = []any{}, true
				}
			}
			if !ok {
				problems = append(problems, fmt.Sprintf("Invalid type for parameter RollbackConfiguration.RollbackTriggers, value: %v, type: %T, valid types: <class 'list'>, <class 'tuple'>", vals[k], vals[k]))
				continue
			}
			c.RollbackTriggers = []engine.RollbackTrigger{}
			for i, item := range list {
				path := fmt.Sprintf("RollbackConfiguration.RollbackTriggers[%d]", i)
				m, ok := item.(map[string]any)
				if !ok {
					problems = append(problems, fmt.Sprintf("Invalid type for parameter %s, value: %v, type: %T, valid types: <class 'dict'>", path, item, item))
					continue
				}
				problems = append(problems, checkStruct(path, m, rollbackTriggerFields)...)
				arn, _ := m["Arn"].(string)
				typ, _ := m["Type"].(string)
				c.RollbackTriggers = append(c.RollbackTriggers, engine.RollbackTrigger{Arn: arn, Type: typ})
			}
		case "MonitoringTimeInMinutes":
			n, err := strconv.Atoi(fmt.Sprint(vals[k]))
			if err != nil {
				problems = append(problems, fmt.Sprintf("Invalid type for parameter RollbackConfiguration.MonitoringTimeInMinutes, value: %v, valid types: <class 'int'>", vals[k]))
				continue
			}
			c.MonitoringTimeInMinutes = &n
		default:
			problems = append(problems, fmt.Sprintf("Unknown parameter in RollbackConfiguration: %q, must be one of: RollbackTriggers, MonitoringTimeInMinutes", k))
		}
	}
	if len(problems) > 0 {
		return nil, errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n"))
	}
	return c, nil
}

var rollbackTriggerFields = []structField{{"Arn", "string", true}, {"Type", "string", true}}

// parseAlarms reads --alarm NAME=STATE (repeatable): the states of the
// account's CloudWatch alarms for this command.
func parseAlarms(values []string) (map[string]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, v := range values {
		name, state, ok := strings.Cut(v, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--alarm %q: give NAME=STATE, for example --alarm HighErrors=ALARM", v)
		}
		if !slices.Contains(engine.AlarmStates, state) {
			return nil, fmt.Errorf("--alarm %s: the state is %q; an alarm's state is one of %s", name, state, strings.Join(engine.AlarmStates, ", "))
		}
		if prev, dup := out[name]; dup && prev != state {
			return nil, fmt.Errorf("--alarm %s is given twice, as %s and %s", name, prev, state)
		}
		out[name] = state
	}
	return out, nil
}
