package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/resources"
)

// Stand-ins for the sample macros of AWS's aws-cloudformation-templates
// (CloudFormation/MacrosExamples). The corpus holds the templates that use
// them and some that define them, but not their functions' code; a user
// trying those templates has the code, deployed behind the macro. The run
// answers each such macro with its own implementation of what the sample
// is documented to do, so the template goes through stacksim's macro path
// (the event, the answer's checks, the processed template's validation
// and creation) as it would with the author's function. Any other macro
// gets passThrough. Each stand-in follows the sample's documented
// behaviour, not its code: where the two may differ in detail (the exact
// text of a date), what matters is that the answer has the shape the
// template needs.

// macroFunc is a stand-in macro: the fragment it answers, or why it fails
// (answered as status "failure" with the error as errorMessage).
type macroFunc func(req *resources.MacroRequest, fragment any) (any, error)

// standInMacros are the sample macros the run has stand-ins for.
var standInMacros = map[string]macroFunc{
	"Count":                countMacro,
	"Explode":              explodeMacro,
	"String":               stringMacro,
	"Date":                 dateMacro,
	"DatetimeNow":          datetimeNowMacro,
	"PyPlate":              pyPlateMacro,
	"ExecutionRoleBuilder": roleBuilderMacro,
}

// macroTarget is the target of a macro's function: its stand-in, or a
// pass-through.
func macroTarget(name string) (resources.CustomTarget, bool) {
	if fn, ok := standInMacros[name]; ok {
		return standInMacro{name: name, fn: fn}, true
	}
	return passThrough{}, false
}

// standInMacro is a macro's function answered by a stand-in.
type standInMacro struct {
	name string
	fn   macroFunc
}

func (standInMacro) Deliver(context.Context, *resources.CustomRequest) (*resources.CustomResponse, error) {
	return nil, errors.New("a macro's function, not a custom resource's")
}

func (m standInMacro) InvokeMacro(_ context.Context, req *resources.MacroRequest) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(req.Fragment))
	d.UseNumber()
	var fragment any
	if err := d.Decode(&fragment); err != nil {
		return nil, fmt.Errorf("%s: the fragment: %w", m.name, err)
	}
	out, err := m.fn(req, fragment)
	if err != nil {
		return json.Marshal(map[string]any{"requestId": req.RequestID, "status": "failure", "errorMessage": m.name + ": " + err.Error()})
	}
	return json.Marshal(map[string]any{"requestId": req.RequestID, "status": "success", "fragment": out})
}

// resourcesOf is a template fragment's Resources.
func resourcesOf(fragment any) (map[string]any, map[string]any, error) {
	t, ok := fragment.(map[string]any)
	if !ok {
		return nil, nil, errors.New("the fragment is not a template")
	}
	res, ok := t["Resources"].(map[string]any)
	if !ok {
		return nil, nil, errors.New("the template has no Resources")
	}
	return t, res, nil
}

// rewrite copies a value, each string put through fn.
func rewrite(v any, fn func(string) (any, error)) (any, error) {
	switch v := v.(type) {
	case string:
		return fn(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			y, err := rewrite(x, fn)
			if err != nil {
				return nil, err
			}
			out[k] = y
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			y, err := rewrite(x, fn)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	}
	return v, nil
}

// countMacro is the Count sample: a resource with `Count: N` becomes N
// copies, NAME1 to NAMEN, each with %d in its strings replaced by its
// number; `Count: [a, b]` makes one copy per item, %s replaced by the item;
// a Ref to a Number or CommaDelimitedList parameter counts its value.
func countMacro(req *resources.MacroRequest, fragment any) (any, error) {
	t, res, err := resourcesOf(fragment)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, name := range sortedKeys(res) {
		r, ok := res[name].(map[string]any)
		c, counted := r["Count"]
		if !ok || !counted {
			out[name] = res[name]
			continue
		}
		items, list, err := countItems(c, req.TemplateParameterValues)
		if err != nil {
			return nil, fmt.Errorf("resource %s: %w", name, err)
		}
		delete(r, "Count")
		for i, item := range items {
			n := strconv.Itoa(i + 1)
			cp, _ := rewrite(r, func(s string) (any, error) {
				s = strings.ReplaceAll(s, "%d", n)
				if list {
					s = strings.ReplaceAll(s, "%s", item)
				}
				return s, nil
			})
			id := name + n
			if _, clash := res[id]; clash {
				return nil, fmt.Errorf("copy %s of %s is a resource of the template already", id, name)
			}
			out[id] = cp
		}
	}
	t["Resources"] = out
	return t, nil
}

// countItems is what a Count counts: n empty items for a number, the items
// of a list (list true).
func countItems(c any, params map[string]any) (items []string, list bool, err error) {
	if ref, ok := c.(map[string]any); ok && len(ref) == 1 {
		p, isRef := ref["Ref"].(string)
		if !isRef {
			return nil, false, fmt.Errorf("Count is %v: a number, a list or a Ref to a parameter", c)
		}
		v, ok := params[p]
		if !ok {
			return nil, false, fmt.Errorf("Count refers to %s, which is not a parameter", p)
		}
		c = v
	}
	switch c := c.(type) {
	case []any:
		for _, x := range c {
			s, ok := x.(string)
			if !ok {
				return nil, false, fmt.Errorf("Count's item %v is not a string", x)
			}
			items = append(items, s)
		}
		return items, true, nil
	case json.Number, string:
		s := fmt.Sprint(c)
		if strings.Contains(s, ",") {
			return strings.Split(s, ","), true, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > engineMaxCopies {
			return nil, false, fmt.Errorf("Count is %q: a whole number from 1 to %d", s, engineMaxCopies)
		}
		return make([]string, n), false, nil
	}
	return nil, false, fmt.Errorf("Count is %v: a number, a list or a Ref to a parameter", c)
}

// engineMaxCopies bounds the copies of one resource (a template holds 500
// resources at most).
const engineMaxCopies = 500

// explodeMacro is the Explode sample: a resource with `ExplodeMap: M`
// becomes one copy per key of mapping M, named NAME+KEY (or the entry's
// ResourceName), each string "!Explode ATTR" replaced by the entry's ATTR.
func explodeMacro(_ *resources.MacroRequest, fragment any) (any, error) {
	t, res, err := resourcesOf(fragment)
	if err != nil {
		return nil, err
	}
	mappings, _ := t["Mappings"].(map[string]any)
	out := map[string]any{}
	for _, name := range sortedKeys(res) {
		r, ok := res[name].(map[string]any)
		m, explode := r["ExplodeMap"]
		if !ok || !explode {
			out[name] = res[name]
			continue
		}
		mapName, _ := m.(string)
		mapping, ok := mappings[mapName].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("resource %s: ExplodeMap %v is not a mapping of the template", name, m)
		}
		delete(r, "ExplodeMap")
		for _, key := range sortedKeys(mapping) {
			entry, _ := mapping[key].(map[string]any)
			cp, err := rewrite(r, func(s string) (any, error) {
				attr, ok := strings.CutPrefix(s, "!Explode ")
				if !ok {
					return s, nil
				}
				v, ok := entry[attr]
				if !ok {
					return nil, fmt.Errorf("resource %s: mapping %s's entry %s has no %s", name, mapName, key, attr)
				}
				return v, nil
			})
			if err != nil {
				return nil, err
			}
			id := name + key
			if rn, ok := entry["ResourceName"].(string); ok {
				id = rn
			}
			if _, clash := out[id]; clash {
				return nil, fmt.Errorf("resource %s: copy %s is a resource already", name, id)
			}
			out[id] = cp
		}
	}
	t["Resources"] = out
	return t, nil
}

// stringMacro is the String sample (an Fn::Transform): InputString put
// through Operation, as Python's str methods do.
func stringMacro(req *resources.MacroRequest, _ any) (any, error) {
	p := req.Params
	in, ok := p["InputString"].(string)
	if !ok {
		return nil, errors.New("InputString is missing")
	}
	arg := func(k string) string { s, _ := p[k].(string); return s }
	switch op := arg("Operation"); op {
	case "Upper":
		return strings.ToUpper(in), nil
	case "Lower":
		return strings.ToLower(in), nil
	case "SwapCase":
		return strings.Map(func(r rune) rune {
			if unicode.IsUpper(r) {
				return unicode.ToLower(r)
			}
			return unicode.ToUpper(r)
		}, in), nil
	case "Capitalize":
		if in == "" {
			return in, nil
		}
		rs := []rune(strings.ToLower(in))
		rs[0] = unicode.ToUpper(rs[0])
		return string(rs), nil
	case "Title":
		rs := []rune(in)
		prev := false // the rune before is a letter
		for i, r := range rs {
			if prev {
				rs[i] = unicode.ToLower(r)
			} else {
				rs[i] = unicode.ToUpper(r)
			}
			prev = unicode.IsLetter(r)
		}
		return string(rs), nil
	case "Replace":
		return strings.ReplaceAll(in, arg("Old"), arg("New")), nil
	case "Strip":
		if chars, ok := p["Chars"].(string); ok {
			return strings.Trim(in, chars), nil
		}
		return strings.TrimSpace(in), nil
	case "MaxLength":
		n, err := strconv.Atoi(fmt.Sprint(p["Length"]))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("MaxLength's Length %v is not a length", p["Length"])
		}
		rs := []rune(in)
		if len(rs) <= n {
			return in, nil
		}
		if arg("StripFrom") == "Left" {
			return string(rs[len(rs)-n:]), nil
		}
		return string(rs[:n]), nil
	default:
		return nil, fmt.Errorf("no operation %q", op)
	}
}

// standInNow is the stand-ins' now: where the engine's virtual time
// starts, so a run's answers do not follow the wall clock.
var standInNow = engine.DefaultEpoch

// dateMacro is the Date sample (an Fn::Transform): the Date parameter (or
// now) as it is (Current), Days after (Add) or before (Subtract), or the
// days from Date to Date2 (Days).
func dateMacro(req *resources.MacroRequest, _ any) (any, error) {
	date := func(k string) (time.Time, error) {
		s, _ := req.Params[k].(string)
		if s == "" {
			return standInNow, nil
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02", "2006-01", "2006"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t, nil
			}
		}
		return time.Time{}, fmt.Errorf("%s %q is not an ISO 8601 date", k, s)
	}
	d, err := date("Date")
	if err != nil {
		return nil, err
	}
	days := 0
	if v, ok := req.Params["Days"]; ok {
		if days, err = strconv.Atoi(fmt.Sprint(v)); err != nil {
			return nil, fmt.Errorf("Days %v is not a whole number", v)
		}
	}
	switch op, _ := req.Params["Operation"].(string); op {
	case "Current":
		return d.Format(time.RFC3339), nil
	case "Add":
		return d.AddDate(0, 0, days).Format(time.RFC3339), nil
	case "Subtract":
		return d.AddDate(0, 0, -days).Format(time.RFC3339), nil
	case "Days":
		d2, err := date("Date2")
		if err != nil {
			return nil, err
		}
		return strconv.Itoa(int(d2.Sub(d).Hours() / 24)), nil
	default:
		return nil, fmt.Errorf("no operation %q", op)
	}
}

// datetimeNowMacro is the DatetimeNow sample (an Fn::Transform): now,
// formatted by the strftime format given.
func datetimeNowMacro(req *resources.MacroRequest, _ any) (any, error) {
	format, _ := req.Params["format"].(string)
	if format == "" {
		format = "%Y-%m-%dT%H:%M:%S.%fZ"
	}
	return strftime(standInNow, format)
}

// strftime formats t as Python's strftime does, for the directives of
// dates and times.
func strftime(t time.Time, format string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i++; i == len(format) {
			return "", errors.New("the format ends in %")
		}
		switch format[i] {
		case 'Y':
			fmt.Fprintf(&b, "%04d", t.Year())
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'f':
			fmt.Fprintf(&b, "%06d", t.Nanosecond()/1000)
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'b':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'Z':
			b.WriteString("UTC")
		case 'z':
			b.WriteString("+0000")
		case '%':
			b.WriteByte('%')
		default:
			return "", fmt.Errorf("the format's %%%c is not a directive the stand-in knows", format[i])
		}
	}
	return b.String(), nil
}

// pyPlateMacro is the PyPlate sample: each string that starts with
// "#!PyPlate" is Python run with params (the template's parameter
// values), template (the fragment), account_id and region, and replaced
// by what it leaves in output.
func pyPlateMacro(req *resources.MacroRequest, fragment any) (any, error) {
	return rewrite(fragment, func(s string) (any, error) {
		code, ok := strings.CutPrefix(s, "#!PyPlate")
		if !ok {
			return s, nil
		}
		return runPyPlate(code, req, fragment)
	})
}

// pyPlateRunner runs one snippet: the request on stdin, output on stdout.
const pyPlateRunner = `import json, sys
req = json.load(sys.stdin)
ns = {"params": req["params"], "template": req["template"], "account_id": req["account_id"], "region": req["region"]}
exec(req["code"], ns)
json.dump(ns.get("output"), sys.stdout)
`

func runPyPlate(code string, req *resources.MacroRequest, fragment any) (any, error) {
	in, err := json.Marshal(map[string]any{"code": code, "params": req.TemplateParameterValues, "template": fragment,
		"account_id": req.AccountID, "region": req.Region})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "python3", "-I", "-S", "-c", pyPlateRunner)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("the snippet's Python: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var out any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("the snippet's output: %w", err)
	}
	return out, nil
}

// roleBuilderMacro is the ExecutionRoleBuilder sample: an AWS::IAM::Role
// given Type (the service that assumes it), Name and Permissions (ReadOnly
// or ReadWrite, each of a resource ARN) gets the role's own properties:
// the trust policy of that service, RoleName, and one policy whose
// statements allow reading (Get, List, Describe) or everything on each
// ARN, by the ARN's service.
func roleBuilderMacro(_ *resources.MacroRequest, fragment any) (any, error) {
	t, res, err := resourcesOf(fragment)
	if err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(res) {
		r, _ := res[name].(map[string]any)
		props, _ := r["Properties"].(map[string]any)
		if r["Type"] != "AWS::IAM::Role" || props == nil || props["Type"] == nil {
			continue
		}
		svc, _ := props["Type"].(string)
		roleName, _ := props["Name"].(string)
		if svc == "" || roleName == "" {
			return nil, fmt.Errorf("resource %s: Type and Name are strings", name)
		}
		perms, _ := props["Permissions"].([]any)
		var statements []any
		for i, p := range perms {
			pm, _ := p.(map[string]any)
			if len(pm) != 1 {
				return nil, fmt.Errorf("resource %s: Permissions[%d] is one ReadOnly or ReadWrite", name, i)
			}
			for access, arn := range pm {
				a, _ := arn.(string)
				parts := strings.SplitN(a, ":", 6)
				if len(parts) < 6 || parts[0] != "arn" {
					return nil, fmt.Errorf("resource %s: Permissions[%d]'s %v is not an ARN", name, i, arn)
				}
				var actions []any
				switch access {
				case "ReadOnly":
					actions = []any{parts[2] + ":Get*", parts[2] + ":List*", parts[2] + ":Describe*"}
				case "ReadWrite":
					actions = []any{parts[2] + ":*"}
				default:
					return nil, fmt.Errorf("resource %s: Permissions[%d] is %s, not ReadOnly or ReadWrite", name, i, access)
				}
				statements = append(statements, map[string]any{"Effect": "Allow", "Action": actions, "Resource": a})
			}
		}
		delete(props, "Type")
		delete(props, "Name")
		delete(props, "Permissions")
		props["RoleName"] = roleName
		props["AssumeRolePolicyDocument"] = map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{
			"Effect": "Allow", "Principal": map[string]any{"Service": strings.ToLower(svc) + ".amazonaws.com"}, "Action": "sts:AssumeRole"}}}
		if len(statements) > 0 {
			props["Policies"] = []any{map[string]any{"PolicyName": roleName + "-permissions",
				"PolicyDocument": map[string]any{"Version": "2012-10-17", "Statement": statements}}}
		}
	}
	return t, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
