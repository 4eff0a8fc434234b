package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/internal/javapattern"
	"github.com/stacksim/stacksim/paramstore"
	"github.com/stacksim/stacksim/template"
)

// Parameter values for a corpus run: a template's parameters without a
// default get a value that satisfies their type and constraints, so that
// binding and resolution run on every template.

// sampleIDs are plausible values of the AWS-specific parameter types.
var sampleIDs = map[string]string{
	"AWS::EC2::AvailabilityZone::Name":   "us-east-1a",
	"AWS::EC2::Image::Id":                "ami-0123456789abcdef0",
	"AWS::EC2::Instance::Id":             "i-0123456789abcdef0",
	"AWS::EC2::KeyPair::KeyName":         "corpus-key",
	"AWS::EC2::SecurityGroup::GroupName": "default",
	"AWS::EC2::SecurityGroup::Id":        "sg-0123456789abcdef0",
	"AWS::EC2::Subnet::Id":               "subnet-0123456789abcdef0",
	"AWS::EC2::Volume::Id":               "vol-0123456789abcdef0",
	"AWS::EC2::VPC::Id":                  "vpc-0123456789abcdef0",
	"AWS::Route53::HostedZone::Id":       "Z0123456789ABCDEFGHIJ",
}

// Inputs are what a corpus run gives a template, as a user would: a value
// for every parameter without a default (one that satisfies its type and
// constraints), and for an AWS::SSM::Parameter::Value<...> parameter
// without a default, the name of a parameter the run says the account
// holds (as --ssm-parameter NAME=VALUE does) with its value in SSM. A
// parameter with a default keeps it; when it is an SSM type whose default
// names a parameter of the author's account (not one of AWS's public
// parameters, nor a name under AWS's reserved prefixes aws and ssm), that
// name is given to the account too, with a value of the parameter's type
// (as a user trying the template gives it with --ssm-parameter
// NAME=VALUE). An SSM name is read from the account's parameter store as
// the command line reads it (paramstore.Sources: AWS's public parameters,
// and SSM).
type Inputs struct {
	Parameters []template.ParameterValue
	SSM        map[string]string
	// Secrets are the secrets the account is said to hold (Referenced).
	Secrets map[string]string
}

// MakeInputs makes the inputs of a template. props (nil: none) makes the
// values of the parameters that resource properties read.
func MakeInputs(t *template.Template, props Properties) (Inputs, error) {
	mapping := func(name string) *template.Node {
		if m := t.Mapping(name); m != nil {
			return m.Node
		}
		return nil
	}
	return makeInputs(t.Name, t.Parameters, usageHints(t.Source(), mapping), fills{props: props, uses: propertyUses(t.Source())})
}

// MakeInputsTree makes the inputs of a template that is not a Template
// yet (its transforms have not run): from its Parameters section and the
// resources it declares before the transforms.
func MakeInputsTree(file string, root *template.Node, props Properties) (Inputs, error) {
	params, err := template.DeclaredParameters(file, root)
	if err != nil {
		return Inputs{}, err
	}
	mapping := func(name string) *template.Node {
		if m := root.Get("Mappings"); m != nil && m.Kind == template.Map {
			return m.Get(name)
		}
		return nil
	}
	return makeInputs(file, params, usageHints(root, mapping), fills{props: props, uses: propertyUses(root)})
}

// fills make the values of the parameters resource properties read.
type fills struct {
	props Properties
	uses  map[string][]propertyUse
}

func makeInputs(file string, params []*template.Parameter, hints map[string][]string, f fills) (Inputs, error) {
	in := Inputs{SSM: map[string]string{}}
	for _, p := range params {
		_, _, ssm, _ := p.Kind()
		if p.HasDefault && !(ssm && AccountParameter(p.Default)) {
			continue
		}
		count := listLen(hints, p.Name)
		props := fromProperties(f.props, p, f.uses[p.Name], count)
		if p.HasDefault {
			// The default names a parameter of the author's account: the
			// account holds it, the parameter keeps its default.
			v, err := makeValue(file, p, hints[p.Name], props, count)
			if err != nil {
				return in, err
			}
			in.SSM[p.Default] = v
			continue
		}
		if !ssm {
			v, err := makeValue(file, p, hints[p.Name], props, count)
			if err != nil {
				return in, err
			}
			in.Parameters = append(in.Parameters, template.ParameterValue{Key: p.Name, Value: v})
			continue
		}
		name := "/corpus/" + p.Name
		v, err := makeValue(file, p, hints[p.Name], props, count)
		if err != nil {
			return in, err
		}
		in.SSM[name] = v
		in.Parameters = append(in.Parameters, template.ParameterValue{Key: p.Name, Value: name})
	}
	return in, nil
}

// Referenced adds to the inputs what a template's dynamic references name
// and no public parameter answers, as a user trying the template would
// give it (--ssm-parameter NAME=VALUE, --secret NAME=SECRETSTRING): each
// ssm and ssm-secure name written out in full, and each secret so named
// (a JSON object of the keys the references read, or a string). A
// reference built at run time (${...} in its text) is left to the
// account: the template makes what it names, or it fails.
func (in *Inputs) Referenced(body []byte) {
	text := string(body)
	keys := map[string][]string{}
	var secrets []string
	for {
		i := strings.Index(text, "{{resolve:")
		if i < 0 {
			break
		}
		j := strings.Index(text[i:], "}}")
		if j < 0 {
			break
		}
		ref, err := paramstore.Parse(text[i : i+j+2])
		text = text[i+j+2:]
		if err != nil || strings.Contains(ref.Text, "${") {
			continue
		}
		switch ref.Service {
		case paramstore.ServiceSSM, paramstore.ServiceSSMSecure:
			if _, public := paramstore.Public(Pseudo.Region, "aws", ref.Name); !public {
				if in.SSM == nil {
					in.SSM = map[string]string{}
				}
				in.SSM[ref.Name] = "corpus-value"
			}
		case paramstore.ServiceSecretsManager:
			if _, seen := keys[ref.SecretID]; !seen {
				secrets = append(secrets, ref.SecretID)
				keys[ref.SecretID] = nil
			}
			if ref.JSONKey != "" {
				keys[ref.SecretID] = append(keys[ref.SecretID], ref.JSONKey)
			}
		}
	}
	for _, id := range secrets {
		if in.Secrets == nil {
			in.Secrets = map[string]string{}
		}
		value := secret
		if len(keys[id]) > 0 {
			parts := make([]string, len(keys[id]))
			for i, k := range keys[id] {
				parts[i] = strconv.Quote(k) + `:` + strconv.Quote(secret)
			}
			value = "{" + strings.Join(parts, ",") + "}"
		}
		in.Secrets[id] = value
	}
}

// Pseudo are the pseudo parameters of a corpus run's stack.
var Pseudo = template.Pseudo{
	AccountID: "123456789012", Region: "us-east-1", StackName: "corpus",
	StackID: "arn:aws:cloudformation:us-east-1:123456789012:stack/corpus/00000000-0000-0000-0000-000000000000",
}

// BindInput is the binding of a template to its inputs, its SSM
// parameters read from the same sources as the command line's.
func (in Inputs) BindInput() template.BindInput {
	src := paramstore.Sources{Region: Pseudo.Region, Partition: "aws", User: in.SSM}
	return template.BindInput{Parameters: in.Parameters, Pseudo: Pseudo,
		SSMLookup: func(name string) (string, bool) {
			p, ok := src.Get(name)
			return p.Value, ok
		}}
}

// usageHints finds values that fit how a template (its root, and its
// mappings by name) uses a parameter: a mapping key when the parameter is
// a key of Fn::FindInMap, a policy when it is a DeletionPolicy.
func usageHints(root *template.Node, mapping func(string) *template.Node) map[string][]string {
	hints := map[string][]string{}
	var walk func(n *template.Node)
	walk = func(n *template.Node) {
		switch n.Kind {
		case template.List:
			for _, c := range n.Items {
				walk(c)
			}
		case template.Map:
			if n.Func() == "Fn::FindInMap" && n.Fields[0].Value.Kind == template.List {
				args := n.Fields[0].Value.Items
				if len(args) >= 3 && args[0].Kind == template.String {
					if m := mapping(args[0].Value); m != nil && m.Kind == template.Map && len(m.Fields) > 0 {
						if p := refName(args[1]); p != "" {
							hints[p] = []string{m.Fields[0].Key}
						}
						top := m.Fields[0].Value
						if args[1].Kind == template.String && m.Get(args[1].Value) != nil {
							top = m.Get(args[1].Value)
						}
						if p := refName(args[2]); p != "" && top.Kind == template.Map && len(top.Fields) > 0 {
							hints[p] = []string{top.Fields[0].Key}
						}
					}
				}
			}
			if n.Func() == "Fn::Select" && n.Fields[0].Value.Kind == template.List {
				// A list parameter a template selects from must be long
				// enough.
				args := n.Fields[0].Value.Items
				if len(args) == 2 && args[0].IsScalar() {
					if i, err := strconv.Atoi(args[0].Value); err == nil && i >= 0 && i < 100 {
						if p := refName(args[1]); p != "" {
							if cur := listLen(hints, p); i+1 > cur {
								hints[p+lenKey] = []string{strconv.Itoa(i + 1)}
							}
						}
					}
				}
			}
			if n.Func() == "Fn::Contains" && n.Fields[0].Value.Kind == template.List {
				// A rule that wants a list parameter to hold a member.
				args := n.Fields[0].Value.Items
				if len(args) == 2 && args[1].IsScalar() {
					if p := refName(args[0]); p != "" {
						hints[p] = append(hints[p], args[1].Value)
					}
				}
			}
			for _, f := range n.Fields {
				if f.Key == "DeletionPolicy" || f.Key == "UpdateReplacePolicy" {
					if p := refName(f.Value); p != "" {
						hints[p] = []string{"Delete"}
					}
				}
				walk(f.Value)
			}
		}
	}
	walk(root)
	return hints
}

// Variations returns inputs that differ from in by one parameter taking
// another of its AllowedValues: a template whose rules or conditions need
// a particular choice still binds with one of them.
func Variations(t *template.Template, in Inputs) []Inputs {
	return VariationsOf(t.Parameters, in)
}

// VariationsOf is Variations over a list of parameters.
func VariationsOf(params []*template.Parameter, in Inputs) []Inputs {
	var out []Inputs
	for _, p := range params {
		for _, v := range p.AllowedValues {
			if p.HasDefault && v == p.Default {
				continue
			}
			alt := in
			alt.Parameters = append([]template.ParameterValue(nil), in.Parameters...)
			replaced := false
			for i := range alt.Parameters {
				if alt.Parameters[i].Key == p.Name {
					alt.Parameters[i].Value = v
					replaced = true
				}
			}
			if !replaced {
				alt.Parameters = append(alt.Parameters, template.ParameterValue{Key: p.Name, Value: v})
			}
			out = append(out, alt)
		}
	}
	return out
}

// sampleID is the n-th sample id of an AWS-specific type for a parameter:
// the type's sample with its hex digits derived from the parameter's name.
func sampleID(aws, param string, n int) string {
	id := sampleIDs[aws]
	if !strings.Contains(id, "0123456789abcdef0") {
		return id
	}
	h := sha256.Sum256([]byte(param + "\x00" + strconv.Itoa(n)))
	return strings.Replace(id, "0123456789abcdef0", hex.EncodeToString(h[:])[:17], 1)
}

// lenKey marks the hint of how long a list parameter must be.
const lenKey = "\x00len"

// listLen is how many members a list parameter's value gets: 2, or more
// when the template selects a later one.
func listLen(hints map[string][]string, name string) int {
	n := 2
	if h := hints[name+lenKey]; len(h) == 1 {
		if m, err := strconv.Atoi(h[0]); err == nil && m > n {
			n = m
		}
	}
	return n
}

// makeValue makes up a value that satisfies the parameter; a list gets
// count members. fromProps are the values of the properties that read it,
// tried after a hint and before the values made from the parameter alone.
func makeValue(file string, p *template.Parameter, hint, fromProps []string, count int) (string, error) {
	var candidates []string
	if list, _, _, _ := p.Kind(); len(hint) > 0 && !list {
		candidates = append(candidates, hint[0])
	}
	if list, _, _, _ := p.Kind(); list && len(hint) > 0 {
		// a rule wants the list to hold these members too
		for _, v := range fromProps {
			candidates = append(candidates, v+","+strings.Join(hint, ","))
		}
	} else {
		candidates = append(candidates, fromProps...)
	}
	candidates = append(candidates, p.AllowedValues...)
	list, number, _, aws := p.Kind()
	switch {
	case number:
		n := "1"
		if p.MinValue != nil {
			n = *p.MinValue
		} else if p.MaxValue != nil {
			n = *p.MaxValue
		}
		candidates = append(candidates, n)
	case aws != "":
		// Ids of their own for each parameter (two subnet parameters name
		// two subnets), and for each member of a list.
		id := sampleID(aws, p.Name, 0)
		if list {
			ids := []string{id}
			for i := 1; i < count; i++ {
				ids = append(ids, sampleID(aws, p.Name, i))
			}
			id = strings.Join(ids, ",")
		}
		candidates = append(candidates, id, sampleIDs[aws])
	default:
		if p.AllowedPattern != "" {
			if s, ok := fromPattern(p.AllowedPattern); ok {
				candidates = append(candidates, s)
				min := 1
				if p.MinLength != nil {
					min = *p.MinLength
				}
				if s2, ok := fromPatternLen(p.AllowedPattern, min); ok {
					candidates = append(candidates, s2)
				}
			}
		}
		n := 8
		if p.MinLength != nil && *p.MinLength > n {
			n = *p.MinLength
		}
		if p.MaxLength != nil && *p.MaxLength < n {
			n = *p.MaxLength
		}
		if list {
			var members []string
			for i := 1; i <= count; i++ {
				members = append(members, "item"+strconv.Itoa(i))
			}
			members = append(members, hint...)
			candidates = append(candidates, strings.Join(members, ","))
		}
		candidates = append(candidates, strings.Repeat("a", n), "10.0.0.0/16", "1", secret)
	}
	var last error
	for _, c := range candidates {
		if err := p.Check(file, c); err != nil {
			last = err
			continue
		}
		return c, nil
	}
	return "", fmt.Errorf("no value satisfies parameter %s: %v", p.Name, last)
}

// secret is the value of a secret or a password parameter: what password
// patterns ask (SimpleAD's Password: 8 to 64 characters of three of the
// four classes, as lookaheads) it meets.
const secret = "Corpus-Secret-Value-1"

// fromPattern makes the shortest string a regular expression matches.
func fromPattern(pattern string) (string, bool) { return fromPatternLen(pattern, 0) }

// fromPatternLen makes a string the pattern matches, stretching the first
// open-ended repetition to reach at least min characters. A pattern Go
// refuses (a lookahead) is walked in its Go form (javapattern.GoForm): the
// caller checks what comes out against the parameter.
func fromPatternLen(pattern string, min int) (string, bool) {
	re, err := syntax.Parse(javapattern.GoForm(pattern), syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	stretched := false
	var gen func(*syntax.Regexp) bool
	gen = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpLiteral:
			b.WriteString(string(r.Rune))
		case syntax.OpCharClass:
			if len(r.Rune) == 0 {
				return false
			}
			b.WriteRune(niceRune(r.Rune))
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('a')
		case syntax.OpConcat:
			for _, s := range r.Sub {
				if !gen(s) {
					return false
				}
			}
		case syntax.OpAlternate:
			return gen(r.Sub[0])
		case syntax.OpCapture:
			return gen(r.Sub[0])
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			lo := 0
			switch r.Op {
			case syntax.OpPlus:
				lo = 1
			case syntax.OpRepeat:
				lo = r.Min
			}
			times := lo
			if !stretched && min > b.Len()+lo && (r.Op == syntax.OpStar || r.Op == syntax.OpPlus || r.Max < 0 || r.Max > lo) {
				times = min - b.Len()
				if r.Op == syntax.OpRepeat && r.Max >= 0 && times > r.Max {
					times = r.Max
				}
				if r.Op == syntax.OpQuest && times > 1 {
					times = 1
				}
				stretched = true
			}
			for i := 0; i < times; i++ {
				if !gen(r.Sub[0]) {
					return false
				}
			}
		case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		default:
			return false
		}
		return true
	}
	if !gen(re) {
		return "", false
	}
	return b.String(), true
}

// niceRune picks a readable character from a class: a letter or a digit if
// the class has one.
func niceRune(ranges []rune) rune {
	for _, want := range []rune{'a', 'A', '1', '0'} {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= want && want <= ranges[i+1] {
				return want
			}
		}
	}
	return ranges[0]
}
