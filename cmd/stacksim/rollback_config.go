package main

import (
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
	var vals *pyDict
	fromJSON := false
	if t := strings.TrimSpace(v); strings.HasPrefix(t, "{") {
		if err := checkJSONArg("--"+flag, v); err != nil {
			return nil, err
		}
		val, err := decodePyJSON(t)
		if err != nil {
			return nil, fmt.Errorf("Error parsing parameter '--%s': Invalid JSON: %v\nJSON received: %s", flag, err, readfile.Excerpt(t))
		}
		vals, fromJSON = val.(*pyDict), true
	} else {
		m, keys, err := parseShorthand(v)
		if err != nil {
			return nil, fmt.Errorf("Error parsing parameter '--%s': %w", flag, err)
		}
		vals = &pyDict{keys: keys, vals: m}
	}
	c := &engine.RollbackConfiguration{}
	var problems []string
	for _, k := range vals.keys {
		val := vals.vals[k]
		switch k {
		case "RollbackTriggers":
			list, ok := val.([]any)
			if !ok {
				if s, isStr := val.(string); isStr && s == "" {
					list, ok = []any{}, true
				}
			}
			if !ok {
				problems = append(problems, invalidType("RollbackConfiguration.RollbackTriggers", val, "<class 'list'>, <class 'tuple'>"))
				continue
			}
			c.RollbackTriggers = []engine.RollbackTrigger{}
			for i, item := range list {
				path := fmt.Sprintf("RollbackConfiguration.RollbackTriggers[%d]", i)
				var m *pyDict
				switch t := item.(type) {
				case *pyDict:
					m = t
				case map[string]any: // shorthand's {Arn=...,Type=...}
					m = shorthandDict(t)
				default:
					problems = append(problems, invalidType(path, item, "<class 'dict'>"))
					continue
				}
				checkShapeValue(m, "RollbackTrigger", path, &problems)
				arn, _ := m.vals["Arn"].(string)
				typ, _ := m.vals["Type"].(string)
				c.RollbackTriggers = append(c.RollbackTriggers, engine.RollbackTrigger{Arn: arn, Type: typ})
			}
		case "MonitoringTimeInMinutes":
			// JSON must give an integer; shorthand's text is read as one,
			// as the AWS CLI reads shorthand by the member's type.
			var n int
			var err error
			if num, ok := val.(pyNumber); ok && num.isInt() {
				n, err = strconv.Atoi(pyNumberRepr(num))
			} else if s, ok := val.(string); ok && !fromJSON {
				n, err = strconv.Atoi(s)
			} else {
				err = errors.New("not an int")
			}
			if err != nil {
				problems = append(problems, invalidType("RollbackConfiguration.MonitoringTimeInMinutes", val, "<class 'int'>"))
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
