package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	yaml "go.yaml.in/yaml/v4"

	"github.com/stacksim/stacksim/api"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/internal/yamlerr"
)

// The AWS CLI's global options, so that a script written for `aws
// cloudformation` runs with `stacksim` in its place: --query, --region,
// --profile, --no-cli-pager, --no-paginate, --max-items, --starting-token,
// --cli-input-json, --cli-input-yaml, --debug, --color.

type awsCLIFlags struct {
	query         string
	region        string
	profile       string
	noPager       bool
	noPaginate    bool
	maxItems      int
	startingToken string
	cliInputJSON  string
	cliInputYAML  string
	debug         bool
	color         string
}

func (a *app) addAWSCLIFlags(f *pflag.FlagSet) {
	c := &a.aws
	f.StringVar(&c.query, "query", "", "a JMESPath query to apply to the answer before --output renders it")
	f.StringVar(&c.region, "region", "", "the simulated region: a new state file is made in it (us-east-1 by default); a state of another region is refused")
	f.StringVar(&c.profile, "profile", "", "accepted for scripts written for the AWS CLI; stacksim uses no credentials")
	f.BoolVar(&c.noPager, "no-cli-pager", false, "accepted for scripts written for the AWS CLI; stacksim never pages its output")
	f.BoolVar(&c.noPaginate, "no-paginate", false, "make one call of a paginated command: print its first page and its NextToken")
	f.IntVar(&c.maxItems, "max-items", 0, "print at most this many items of a paginated answer, and a NextToken to go on from (--starting-token)")
	f.StringVar(&c.startingToken, "starting-token", "", "go on from the NextToken a --max-items answer printed")
	f.StringVar(&c.cliInputJSON, "cli-input-json", "", "the call's parameters as JSON (the API's names: StackName, TemplateBody...), or file://PATH; flags given win")
	f.StringVar(&c.cliInputYAML, "cli-input-yaml", "", "the call's parameters as YAML, or file://PATH")
	f.BoolVar(&c.debug, "debug", false, "log at debug level (every handler request and response; --log-level debug)")
	f.StringVar(&c.color, "color", "auto", "colour the events on a terminal: on, off or auto")
}

// checkAWSCLIFlags checks the global options before a command runs, and
// fills the command's flags from --cli-input-json or --cli-input-yaml.
func (a *app) checkAWSCLIFlags(cmd *cobra.Command) error {
	c := &a.aws
	if c.debug {
		a.logLevel = "debug"
	}
	switch c.color {
	case "on", "off", "auto":
	default:
		return badInput(fmt.Errorf("argument --color: Invalid choice, valid choices are:\n\non                                       | off\nauto"))
	}
	if c.maxItems < 0 {
		return badInput(fmt.Errorf("--max-items %d: want a number of items of 1 or more", c.maxItems))
	}
	if c.query != "" {
		if _, err := compileQuery(c.query); err != nil {
			return err
		}
	}
	if c.startingToken != "" {
		if _, err := decodeStartingToken(c.startingToken); err != nil {
			return err
		}
	}
	if c.cliInputJSON != "" && c.cliInputYAML != "" {
		return badInput(fmt.Errorf("--cli-input-json and --cli-input-yaml: give one of them"))
	}
	if c.cliInputJSON != "" || c.cliInputYAML != "" {
		if err := a.applyCLIInput(cmd); err != nil {
			return err
		}
	}
	return checkFlagMinimums(cmd)
}

// checkFlagMinimums checks the scalar flags set (on the command line or by
// --cli-input-json) against the minimums of the operation's input in the
// service model, as botocore checks them before the AWS CLI calls
// (--timeout-in-minutes 0: "Invalid value for parameter TimeoutInMinutes,
// value: 0, valid min value: 1"), in the model's order.
func checkFlagMinimums(cmd *cobra.Command) error {
	operation := apiName(cmd.Name())
	shape, ok := api.InputShape(operation)
	if !ok {
		return nil
	}
	s, _ := api.ShapeNamed(shape)
	var problems []string
	for _, m := range s.Members {
		f := cmd.LocalFlags().Lookup(flagOf(m.Name))
		if f == nil || !f.Changed {
			continue
		}
		ms, ok := api.ShapeNamed(m.Shape)
		if !ok || ms.Min == nil {
			continue
		}
		switch ms.Type {
		case "integer", "long":
			if n, err := strconv.ParseInt(f.Value.String(), 10, 64); err == nil && n < *ms.Min {
				problems = append(problems, fmt.Sprintf("Invalid value for parameter %s, value: %d, valid min value: %d", m.Name, n, *ms.Min))
			}
		case "string":
			if n := utf8.RuneCountInString(f.Value.String()); int64(n) < *ms.Min {
				problems = append(problems, fmt.Sprintf("Invalid length for parameter %s, value: %d, valid min length: %d", m.Name, n, *ms.Min))
			}
		}
	}
	if len(problems) > 0 {
		return badInput(errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n")))
	}
	return nil
}

// flagOf is the flag of a member of the API (TimeoutInMinutes:
// timeout-in-minutes, RoleARN: role-arn, NotificationARNs:
// notification-arns), as the AWS CLI names it.
func flagOf(member string) string {
	var b strings.Builder
	rs := []rune(member)
	for i, r := range rs {
		upper := unicode.IsUpper(r)
		// A new word starts at an upper-case letter after a lower-case
		// one, or before a lower-case one in a run of capitals (ARNs).
		if i > 0 && upper && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && rs[i+1] != 's') {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// applyCLIInput sets the command's flags from the parameters of
// --cli-input-json or --cli-input-yaml: a key names a flag as the API
// names the parameter (StackName: --stack-name, NotificationARNs:
// --notification-arns); a flag given on the command line wins.
func (a *app) applyCLIInput(cmd *cobra.Command) error {
	flag, text := "--cli-input-json", a.aws.cliInputJSON
	if text == "" {
		flag, text = "--cli-input-yaml", a.aws.cliInputYAML
	}
	if strings.HasPrefix(text, "file://") {
		path := strings.TrimPrefix(text, "file://")
		data, err := readfile.Read(path, readfile.Limit{Max: 1 << 20, What: flag})
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return badInput(fmt.Errorf("Error parsing parameter '%s': Unable to load paramfile %s: no such file", flag, text))
			}
			return badInput(fmt.Errorf("Error parsing parameter '%s': %v", flag, err))
		}
		text = string(data)
	}
	var input map[string]any
	var err error
	if flag == "--cli-input-json" {
		if err := checkJSONArg("cli-input-json", text); err != nil {
			return badInput(err)
		}
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		err = dec.Decode(&input)
	} else {
		err = yaml.Unmarshal([]byte(text), &input)
		if s, ok := yamlerr.Of(err, []byte(text)); ok {
			return badInput(fmt.Errorf("Error parsing parameter '%s': not valid YAML (line %d, column %d): %s", flag, s.Line, s.Col, s.Detail()))
		}
	}
	if err != nil || input == nil {
		return badInput(fmt.Errorf("Error parsing parameter '%s': the value is not an object of parameters (%v)", flag, err))
	}
	byName := map[string]*pflag.Flag{}
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" && !f.Hidden && cmd.LocalFlags().Lookup(f.Name) != nil {
			byName[strings.ReplaceAll(f.Name, "-", "")] = f
			names = append(names, apiName(f.Name))
		}
	})
	operation := apiName(cmd.Name())
	var members []string // the model's, in its order
	if shape, ok := api.InputShape(operation); ok {
		s, _ := api.ShapeNamed(shape)
		for _, m := range s.Members {
			members = append(members, m.Name)
		}
	}
	if flag == "--cli-input-json" && members != nil {
		if problems := checkCLIInput(cmd, operation, text, members, byName); len(problems) > 0 {
			return badInput(errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n")))
		}
	}
	keys := make([]string, 0, len(input))
	for k := range input {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f := byName[strings.ToLower(k)]
		if f == nil && slices.Contains(members, k) {
			return badInput(fmt.Errorf("%s: stacksim does not support %s in %s yet: leave it out (stacksim would otherwise ignore it)", flag, k, operation))
		}
		if f == nil {
			sort.Strings(names)
			return badInput(fmt.Errorf("Parameter validation failed:\nUnknown parameter in input: %q, must be one of: %s", k, strings.Join(names, ", ")))
		}
		if f.Changed {
			continue
		}
		if err := setFromInput(cmd.Flags(), f, input[k]); err != nil {
			return badInput(fmt.Errorf("Parameter validation failed:\nInvalid value for parameter %s (%s): %v", k, flag, err))
		}
	}
	return nil
}

// checkCLIInput checks --cli-input-json against the operation's input
// shape as botocore does (checkInput): the members the command line gives
// win, so they are neither checked nor missing; stacksim's own flags are
// members after the model's.
func checkCLIInput(cmd *cobra.Command, operation, text string, members []string, byName map[string]*pflag.Flag) []string {
	v, err := decodePyJSON(strings.TrimSpace(text))
	if err != nil {
		return nil // refused as it is decoded, as before
	}
	d, ok := v.(*pyDict)
	if !ok {
		return nil
	}
	model := map[string]string{} // flag name without dashes → member
	for _, m := range members {
		model[strings.ToLower(m)] = m
	}
	given := map[string]bool{}
	var extras []string
	for key, f := range byName {
		m, inModel := model[key]
		switch {
		case inModel && f.Changed:
			given[m] = true
		case !inModel:
			extras = append(extras, apiName(f.Name))
		}
	}
	slices.Sort(extras)
	rest := &pyDict{vals: map[string]any{}}
	for _, k := range d.keys {
		if m, ok := model[strings.ToLower(k)]; ok && m == k && given[m] {
			continue
		}
		rest.set(k, d.vals[k])
	}
	return checkInput(operation, rest, given, extras)
}

// apiName is a flag's parameter name in the API's spelling (stack-name:
// StackName), for messages.
func apiName(flag string) string {
	var b strings.Builder
	for _, part := range strings.Split(flag, "-") {
		if part == "" {
			continue
		}
		switch part {
		case "arn", "url", "id":
			b.WriteString(strings.ToUpper(part))
		case "arns":
			b.WriteString("ARNs")
		default:
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// setFromInput gives a flag a value of --cli-input-json: a scalar as its
// text, a list of scalars item by item (list flags) or as JSON, an object
// or a list of objects as JSON (the flags that take structures read JSON).
func setFromInput(fs *pflag.FlagSet, f *pflag.Flag, v any) error {
	set := func(s string) error { return fs.Set(f.Name, s) }
	switch t := v.(type) {
	case string:
		return set(t)
	case bool:
		return set(strconv.FormatBool(t))
	case json.Number:
		return set(t.String())
	case int:
		return set(strconv.Itoa(t))
	case float64:
		return set(strconv.FormatFloat(t, 'f', -1, 64))
	case []any:
		scalars := true
		for _, x := range t {
			if _, ok := x.(string); !ok {
				scalars = false
			}
		}
		if scalars && strings.HasSuffix(f.Value.Type(), "Array") {
			for _, x := range t {
				if err := set(x.(string)); err != nil {
					return err
				}
			}
			return nil
		}
	}
	b, err := json.Marshal(normalizeYAML(v))
	if err != nil {
		return err
	}
	return set(string(b))
}

// normalizeYAML makes what the YAML library decodes (map[string]any, and for some
// keys map[any]any) JSON-encodable.
func normalizeYAML(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = normalizeYAML(x)
		}
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[fmt.Sprint(k)] = normalizeYAML(x)
		}
		return m
	case []any:
		for i, x := range t {
			t[i] = normalizeYAML(x)
		}
	}
	return v
}

// checkRegion refuses a --region that is not the state's.
func (a *app) checkRegion(stateRegion string) error {
	if a.aws.region != "" && a.aws.region != stateRegion {
		return badInput(fmt.Errorf("--region %s: the state file %s holds an account of region %s; keep one state file per region (--state)", a.aws.region, a.statePath, stateRegion))
	}
	return nil
}

// resultKeys are the lists that --max-items and --starting-token page
// through, by operation (the result_key of the model's paginators).
var resultKeys = map[string]string{
	"DescribeStacks": "Stacks", "ListStacks": "StackSummaries", "DescribeStackEvents": "StackEvents",
	"ListStackResources": "StackResourceSummaries", "ListExports": "Exports", "ListImports": "Imports",
	"ListChangeSets": "Summaries", "DescribeChangeSet": "Changes", "DescribeEvents": "OperationEvents", "ListTypes": "TypeSummaries",
}

// startingToken is what a NextToken of --max-items holds: how many items
// of the whole answer come before the next.
type startingToken struct {
	Offset int `json:"stacksim_offset"`
}

func decodeStartingToken(s string) (int, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	var t startingToken
	if err == nil {
		err = json.Unmarshal(raw, &t)
	}
	if err != nil || t.Offset < 0 {
		return 0, badInput(fmt.Errorf("--starting-token %q: not a NextToken that stacksim printed (give the NextToken of a --max-items answer)", s))
	}
	return t.Offset, nil
}

// truncate applies --starting-token and --max-items to an answer: its list
// is cut to the items asked for, and NextToken added when more follow.
func (a *app) truncate(op string, obj object) object {
	key, ok := resultKeys[op]
	if !ok || (a.aws.maxItems == 0 && a.aws.startingToken == "") {
		return obj
	}
	offset := 0
	if a.aws.startingToken != "" {
		offset, _ = decodeStartingToken(a.aws.startingToken)
	}
	out := make(object, 0, len(obj)+1)
	next := ""
	for _, m := range obj {
		if m.key == "NextToken" {
			continue
		}
		if list, ok := m.value.([]any); ok && m.key == key {
			start := min(offset, len(list))
			end := len(list)
			if a.aws.maxItems > 0 && start+a.aws.maxItems < end {
				end = start + a.aws.maxItems
				b, _ := json.Marshal(startingToken{Offset: end})
				next = base64.StdEncoding.EncodeToString(b)
			}
			m.value = list[start:end]
		}
		out = append(out, m)
	}
	if next != "" {
		out = append(out, member{"NextToken", next})
	}
	return out
}

// firstPageOnly says whether a paginated call stops after its first page
// (--no-paginate).
func (a *app) firstPageOnly() bool { return a.aws.noPaginate }
