package resources

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// simulation is how the generic provider makes a type look like AWS's: the
// "x-stacksim" section of an embedded schema, or what inferSimulation
// guesses for a registry schema that has none.
//
//	"x-stacksim": {
//	  "name":       {"property": "QueueName", "maxLength": 80,
//	                 "suffix": {"when": "/properties/FifoQueue", "value": ".fifo"}},
//	  "values":     [{"path": "/properties/Arn",
//	                  "value": "arn:{$Partition}:sqs:{$Region}:{$AccountId}:{QueueName}"}],
//	  "defaults":   [{"path": "/properties/DelaySeconds", "value": 0}],
//	  "ref":        "/properties/QueueUrl",
//	  "attributes": ["QueueName"],
//	  "attributePrefixes": ["Outputs."],
//	  "durations":  {"create": 3, "update": 2, "delete": 2},
//	  "pollSeconds": 30
//	}
//
// values fill readOnly properties at create (and at update too with
// "onUpdate": true), in order, so that a later value may use an earlier one
// (the first value that applies to a path fills it); "when" fills a value
// only when the model has that pointer ("/properties/P=V": only when its
// value there is the scalar V, in any case). defaults fill
// properties the template left out (the contract wants them in the model).
// Strings in values and defaults are templates:
//
//   - {Prop} or {Prop/Sub} is the model's value there ({Prop|fallback} when
//     absent); filters: {Prop!dash} with "." made "-", {Prop!lower}
//     lower-cased, {Prop!tail} a Lambda function's name whether Prop holds
//     the name or its ARN, {Prop!name} what follows an ARN's last "/" (an
//     ECS cluster's name from its ARN), {Prop!after:TEXT} what follows TEXT
//     (a load balancer's app/NAME/ID, after loadbalancer/ in its ARN) and
//     {Prop!before:TEXT} what precedes it;
//   - {$Region}, {$AccountId}, {$Partition}, {$URLSuffix}, {$StackName},
//     {$LogicalId}, {$Now} are the request's; {$Now:label} is without the
//     zone (a DynamoDB stream's label), {$RegionCode} the region's short
//     form (use1), {$EC2InternalDomain} and {$EC2PublicDomain} the domains
//     of EC2's DNS names (ec2.internal and compute-1.amazonaws.com in
//     us-east-1, REGION.compute.internal and REGION.compute.amazonaws.com
//     elsewhere), {$HostedZone:elb} and {$HostedZone:nlb} the Route 53
//     zone of the region's application (and classic) and network load
//     balancers;
//   - {$uuid}, {$hex:N}, {$HEX:N}, {$upper:N}, {$lower:N}, {$mixed:N},
//     {$digits:N}, {$octet} (1 to 254) are generated from the request's key;
//     {$account:N} is N characters that are the same for every resource of
//     the account in the region (RDS endpoints share them); {$seq:Group}
//     counts up per group and never gives a number twice
//     ({$seq:FunctionName}: Lambda versions; see sequence.go).
//
// attributes are Fn::GetAtt names the type answers besides its read-only
// properties; attributePrefixes, names that start so (a nested stack's
// Outputs.NAME), answered with a value generated from the rest of the name;
// liveAttributes, attributes that other resources change after this one's
// own operations (effects.go), which Fn::GetAtt answers from the object
// as it is now.
type simulation struct {
	Name        *nameSpec      `json:"name,omitempty"`
	Values      []valueSpec    `json:"values,omitempty"`
	Defaults    []valueSpec    `json:"defaults,omitempty"`
	Ref         string         `json:"ref,omitempty"`
	Attributes  []string       `json:"attributes,omitempty"`
	AttrPrefix  []string       `json:"attributePrefixes,omitempty"`
	Live        []string       `json:"liveAttributes,omitempty"`
	Durations   map[string]int `json:"durations,omitempty"`
	PollSeconds int            `json:"pollSeconds,omitempty"`
}

// nameSpec says which property holds the generated physical name and how
// AWS generates it: STACK-LOGICALID-RANDOM, truncated to maxLength.
type nameSpec struct {
	Property     string `json:"property"`
	MaxLength    int    `json:"maxLength,omitempty"`
	Lower        bool   `json:"lower,omitempty"`
	Style        string `json:"style,omitempty"` // "" (stack-logical) | "ssm" (CFN-LOGICAL) | "logical"
	RandomLength int    `json:"randomLength,omitempty"`
	// Stable keys the random part by the stack and the logical id alone,
	// not the request: a replacement gets the name again (a task
	// definition's family, whose revisions count up).
	Stable bool        `json:"stable,omitempty"`
	Suffix *suffixSpec `json:"suffix,omitempty"`
}

type suffixSpec struct {
	When  string `json:"when"`
	Value string `json:"value"`
}

type valueSpec struct {
	Path     string `json:"path"`
	Value    any    `json:"value"`
	When     string `json:"when,omitempty"`
	OnUpdate bool   `json:"onUpdate,omitempty"`
}

func (s *simulation) check(sch *Schema) error {
	if s.Name != nil && s.Name.Property == "" {
		return fmt.Errorf("name.property is empty; name the property that holds the generated name")
	}
	for _, v := range append(append([]valueSpec{}, s.Values...), s.Defaults...) {
		if !strings.HasPrefix(v.Path, "/properties/") {
			return fmt.Errorf("value path %q must start with /properties/", v.Path)
		}
		if ptr, _, _ := splitWhen(v.When); v.When != "" && !strings.HasPrefix(ptr, "/properties/") {
			return fmt.Errorf("value %s: its condition %q must start with /properties/ (\"/properties/P\" or \"/properties/P=VALUE\")", v.Path, v.When)
		}
	}
	for a := range s.Durations {
		if _, err := ParseAction(a); err != nil {
			return fmt.Errorf("durations: %w", err)
		}
	}
	for _, a := range s.Live {
		if sch != nil && !sch.HasAttribute(a) {
			return fmt.Errorf("liveAttributes: %s is not an attribute of %s", a, sch.TypeName)
		}
	}
	return nil
}

func (s *simulation) duration(a Action) time.Duration {
	if s == nil {
		return 0
	}
	return time.Duration(s.Durations[strings.ToLower(string(a))]) * time.Second
}

// env is what templates see.
type env struct {
	model map[string]any
	// key is the request's entropy key, hashed on first use (an update
	// that generates nothing needs none): see entropy.
	key       entropyKey
	keyMade   bool
	req       *Request
	seed      int64
	region    string
	account   string
	partition string
	stackName string
	logicalID string
	now       time.Time
	// seq answers {$seq:Group}: the next number of the sequence of the
	// type's objects at the filled path whose Group property equals this
	// model's (Lambda versions count up per function; sequence.go).
	seq     func(path, group string, model map[string]any) (int64, error)
	curPath string
	// templates are the simulation's value templates, compiled (nil: each
	// is compiled when used).
	templates map[string]*template
}

func newEnv(req *Request, seed int64, now time.Time, model map[string]any) *env {
	e := makeEnv(req, seed, now, model)
	return &e
}

// makeEnv is newEnv by value, so that callers can keep it on their stack.
func makeEnv(req *Request, seed int64, now time.Time, model map[string]any) env {
	e := env{
		model:     model,
		req:       req,
		seed:      seed,
		region:    req.Region,
		account:   req.AWSAccountID,
		partition: req.AWSPartition,
		stackName: StackName(req.StackID),
		logicalID: req.LogicalResourceIdentifier,
		now:       now,
	}
	if e.region == "" {
		e.region = "us-east-1"
	}
	if e.account == "" {
		e.account = "123456789012"
	}
	if e.partition == "" {
		e.partition = "aws"
	}
	if e.logicalID == "" {
		e.logicalID = "Resource"
	}
	return e
}

// entropy is the request's key: requestKey(seed, stack id, logical id,
// the operation's token (Request.EntropyToken)), the token marked in a
// rollback: an operation's
// rollback may create again a resource its forward phase created (a
// replacement the rollback decides at run time, whose old physical resource
// went back into place), while the forward one still stands, awaiting the
// rollback's cleanup; CloudFormation's generated names are random, so the
// two are different resources, not one named twice.
func (e *env) entropy() *entropyKey {
	if !e.keyMade {
		token := e.req.EntropyToken()
		if e.req.Phase == PhaseRollback {
			token += "\x00rollback"
		}
		e.key = requestKey(e.seed, e.req.StackID, e.req.LogicalResourceIdentifier, token)
		e.keyMade = true
	}
	return &e.key
}

func (e *env) urlSuffix() string {
	if e.partition == "aws-cn" {
		return "amazonaws.com.cn"
	}
	return "amazonaws.com"
}

// StackName is the name part of a stack id
// (arn:aws:cloudformation:REGION:ACCOUNT:stack/NAME/UUID); a bare name is
// returned as it is, and an empty id gives "stacksim".
func StackName(stackID string) string {
	if stackID == "" {
		return "stacksim"
	}
	if i := strings.Index(stackID, ":stack/"); i >= 0 {
		rest := stackID[i+len(":stack/"):]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return rest[:j]
		}
		return rest
	}
	return stackID
}

// expand fills a value template; purpose keys the randomness.
func (e *env) expand(v any, purpose string) (any, error) {
	switch t := v.(type) {
	case string:
		return e.expandString(t, purpose)
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			y, err := e.expand(x, purpose+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			y, err := e.expand(x, purpose+"/"+k)
			if err != nil {
				return nil, err
			}
			out[k] = y
		}
		return out, nil
	default:
		return v, nil
	}
}

// expandWithID expands tpl with {$id} and {$id!lower} standing for id (an
// id's braces dropped, so that it reads as text), from tpl compiled once (tpl is one
// of the simulation's own templates: a few, kept for the process).
func (e *env) expandWithID(tpl, id, purpose string) (string, error) {
	return cachedTemplate(tpl).fillID(e, purpose, braces.Replace(id), true)
}

func (e *env) expandString(s, purpose string) (string, error) {
	if !strings.Contains(s, "{") {
		return s, nil
	}
	t := e.templates[s]
	if t == nil {
		t = compileTemplate(s)
	}
	return t.fill(e, purpose)
}

// template is a value template split once: literal text and placeholders,
// each parsed. Filling it answers what scanning the text would, errors
// included, in the same order.
type template struct {
	segs []templateSeg
	// unclosed, when set, is the text from where a "{" has no "}" on: an
	// error once the segments before it are filled.
	unclosed *string
	size     int // the literal text's length
}

type templateSeg struct {
	lit string
	ph  *placeholderSpec // nil for literal text
}

func compileTemplate(s string) *template {
	t := &template{}
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			t.segs = append(t.segs, templateSeg{lit: s})
			t.size += len(s)
			return t
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			rest := s
			t.unclosed = &rest
			return t
		}
		t.segs = append(t.segs, templateSeg{lit: s[:i]}, templateSeg{ph: parsePlaceholder(s[i+1 : i+j])})
		t.size += i
		s = s[i+j+1:]
	}
}

// compileTemplates finds every template among the values of specs.
func compileTemplates(specs ...[]valueSpec) map[string]*template {
	out := map[string]*template{}
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case string:
			if strings.Contains(t, "{") {
				out[t] = compileTemplate(t)
			}
		case []any:
			for _, x := range t {
				walk(x)
			}
		case map[string]any:
			for _, x := range t {
				walk(x)
			}
		}
	}
	for _, list := range specs {
		for _, v := range list {
			walk(v.Value)
		}
	}
	return out
}

func (t *template) fill(e *env, purpose string) (string, error) {
	return t.fillID(e, purpose, "", false)
}

// fillID is fill with {$id} and {$id!lower} standing for id: as
// if id were literal text there, so they are not counted among the
// placeholders whose randomness follows their position.
func (t *template) fillID(e *env, purpose, id string, hasID bool) (string, error) {
	var b strings.Builder
	b.Grow(t.size + len(id) + 64)
	n := 0
	for i := range t.segs {
		sg := &t.segs[i]
		if sg.ph == nil {
			b.WriteString(sg.lit)
			continue
		}
		if hasID {
			switch sg.ph.raw {
			case "$id":
				b.WriteString(id)
				continue
			case "$id!lower":
				b.WriteString(strings.ToLower(id))
				continue
			}
		}
		val, err := e.fill(sg.ph, purpose, n)
		if err != nil {
			return "", err
		}
		b.WriteString(val)
		n++
	}
	if t.unclosed != nil {
		return "", fmt.Errorf("template %q: unclosed {", *t.unclosed)
	}
	return b.String(), nil
}

// placeholderSpec is one {...} of a template, parsed.
type placeholderSpec struct {
	raw string // what stood between the braces
	// {$name:arg}
	dollar    bool
	name, arg string
	length    int    // arg as a length, 0 when it is not one
	alphabet  string // of a random placeholder
	// {ref|fallback!filter}
	ref, fallback, filter string
	hasFallback           bool
	refSegs               []string // ref as a pointer, nil for a plain key
}

func parsePlaceholder(p string) *placeholderSpec {
	ph := &placeholderSpec{raw: p}
	if strings.HasPrefix(p, "$") {
		ph.dollar = true
		ph.name, ph.arg, _ = strings.Cut(p[1:], ":")
		if n, err := strconv.Atoi(ph.arg); err == nil && n > 0 && n <= 256 {
			ph.length = n
		}
		ph.alphabet = alphabetNamed(ph.name)
		return ph
	}
	ref, filter, _ := strings.Cut(p, "!")
	ph.ref, ph.fallback, ph.hasFallback = strings.Cut(ref, "|")
	ph.filter = filter
	if strings.ContainsAny(ph.ref, "/~") {
		ph.refSegs = SplitPointer("/" + ph.ref)
	}
	return ph
}

func (e *env) fill(ph *placeholderSpec, purpose string, n int) (string, error) {
	p := ph.raw
	if ph.dollar {
		switch ph.name {
		case "Region":
			return e.region, nil
		case "RegionCode":
			return regionCode(e.region), nil
		case "EC2InternalDomain": // an instance's private DNS names
			if e.region == "us-east-1" {
				return "ec2.internal", nil
			}
			return e.region + ".compute.internal", nil
		case "EC2PublicDomain": // and its public ones
			if e.region == "us-east-1" {
				return "compute-1." + e.urlSuffix(), nil
			}
			return e.region + ".compute." + e.urlSuffix(), nil
		case "HostedZone": // a load balancer's Route 53 zone in the region
			if z, ok := hostedZone(ph.arg, e.region); ok {
				return z, nil
			}
			return "", fmt.Errorf("placeholder {%s}: unknown kind %q (elb: application and classic load balancers, nlb: network ones, vpce: interface VPC endpoints)", p, ph.arg)
		case "AccountId":
			return e.account, nil
		case "Partition":
			return e.partition, nil
		case "URLSuffix":
			return e.urlSuffix(), nil
		case "StackName":
			return e.stackName, nil
		case "LogicalId":
			return e.logicalID, nil
		case "Now":
			if ph.arg == "label" { // a DynamoDB stream's label: no zone
				return e.now.UTC().Format("2006-01-02T15:04:05.000"), nil
			}
			return e.now.UTC().Format("2006-01-02T15:04:05.000Z"), nil
		case "account":
			if ph.length == 0 {
				return "", fmt.Errorf("placeholder {%s}: want a length, as in {$account:12}", p)
			}
			return e.accountStream(ph.length).pick(alphaLowerNum, ph.length), nil
		case "uuid":
			st := e.placeholderStream(purpose, n)
			return st.uuid(), nil
		case "octet":
			st := e.placeholderStream(purpose, n)
			return strconv.Itoa(1 + int(st.next())%254), nil
		case "seq":
			if e.seq == nil || ph.arg == "" {
				return "", fmt.Errorf("placeholder {%s}: want a group property, as in {$seq:FunctionName}", p)
			}
			n, err := e.seq(e.curPath, ph.arg, e.model)
			if err != nil {
				return "", err
			}
			return strconv.FormatInt(n, 10), nil
		}
		if ph.length == 0 {
			return "", fmt.Errorf("placeholder {%s}: want a length, as in {$hex:17}", p)
		}
		if ph.alphabet == "" {
			return "", fmt.Errorf("unknown placeholder {%s}", p)
		}
		st := e.placeholderStream(purpose, n)
		return st.pick(ph.alphabet, ph.length), nil
	}
	var v any
	var ok bool
	if ph.refSegs != nil {
		v, ok = getSegs(e.model, ph.refSegs)
	} else {
		v, ok = e.model[ph.ref]
	}
	var s string
	if ok {
		s, ok = scalarString(v)
	}
	if !ok {
		if !ph.hasFallback {
			return "", fmt.Errorf("placeholder {%s}: the model has no scalar at /properties/%s", p, ph.ref)
		}
		s = ph.fallback
	}
	switch ph.filter {
	case "":
	case "dash":
		s = strings.ReplaceAll(s, ".", "-")
	case "lower":
		s = strings.ToLower(s)
	case "tail":
		// a name or an ARN: what follows the ARN's "function:" part
		if i := strings.Index(s, ":function:"); i >= 0 {
			s = s[i+len(":function:"):]
			if j := strings.IndexByte(s, ':'); j >= 0 {
				s = s[:j]
			}
		}
	case "name":
		// a name or an ARN: what follows the ARN's last "/"
		if strings.HasPrefix(s, "arn:") {
			s = s[strings.LastIndexByte(s, '/')+1:]
		}
	default:
		if after, ok := strings.CutPrefix(ph.filter, "after:"); ok && after != "" {
			// what follows TEXT (a load balancer's app/NAME/ID in its ARN)
			if _, rest, found := strings.Cut(s, after); found {
				s = rest
			}
		} else if before, ok := strings.CutPrefix(ph.filter, "before:"); ok && before != "" {
			// what precedes TEXT (a DKIM token in its record's value)
			s, _, _ = strings.Cut(s, before)
		} else {
			return "", fmt.Errorf("placeholder {%s}: unknown filter %q (dash, lower, tail, name, after:TEXT, before:TEXT)", p, ph.filter)
		}
	}
	return s, nil
}

// regionCode is a region's short form in ElastiCache endpoints: us-east-1
// is use1, ap-southeast-2 apse2, eu-central-1 euc1.
func regionCode(region string) string {
	parts := strings.Split(region, "-")
	if len(parts) != 3 {
		return region
	}
	dir := map[string]string{"east": "e", "west": "w", "north": "n", "south": "s", "central": "c",
		"northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw"}[parts[1]]
	if dir == "" {
		return region
	}
	return parts[0] + dir + parts[2]
}

// accountStream is the stream of {$account:N}: keyed by the registry's
// seed, the account and the region only, so that every resource of the
// account in the region gets the same characters (the part of an RDS
// endpoint's name that is the account's: NAME.cluster-ACCOUNTPART.REGION...).
func (e *env) accountStream(n int) *byteStream {
	return requestKey(e.seed, e.account, e.region, "account").stream("account:" + strconv.Itoa(n))
}

// placeholderStream is the random stream of the n-th placeholder of a
// value: key and purpose#n.
func (e *env) placeholderStream(purpose string, n int) byteStream {
	var arr [24]byte
	return byteStream{key: *e.entropy(), purpose: purpose, more: string(strconv.AppendInt(append(arr[:0], '#'), int64(n), 10)), used: sha256.Size}
}

func alphabetNamed(name string) string {
	switch name {
	case "hex":
		return alphaHex
	case "HEX":
		return alphaHexUpper
	case "upper":
		return alphaUpperNum
	case "lower":
		return alphaLowerNum
	case "mixed":
		return alphaMixedNum
	case "digits":
		return alphaDigits
	}
	return ""
}

// generateName makes a physical name as CloudFormation does:
// STACKNAME-LOGICALID-RANDOM (upper-case alphanumerics), the stack name and
// the logical id shortened alike when the whole would pass the type's
// length limit; "ssm" style is CFN-LOGICALID-RANDOM; lower-cased for types
// whose names must be (S3 buckets, ECR repositories).
func (e *env) generateName(n *nameSpec, suffix string) string {
	rl := n.RandomLength
	if rl == 0 {
		rl = 13
	}
	key := e.entropy()
	if n.Stable {
		k := requestKey(e.seed, e.req.StackID, e.req.LogicalResourceIdentifier, "")
		key = &k
	}
	random := key.stream2("name:", n.Property).pick(alphaUpperNum, rl)
	max := n.MaxLength
	if max == 0 {
		max = 255
	}
	var arr [2]string
	var parts []string
	switch n.Style {
	case "ssm":
		arr[0], arr[1] = "CFN", e.logicalID
		parts = arr[:2]
	case "logical":
		arr[0] = e.logicalID
		parts = arr[:1]
	default:
		arr[0], arr[1] = e.stackName, e.logicalID
		parts = arr[:2]
	}
	budget := max - len(random) - len(suffix) - len(parts) // one "-" after each part
	parts = shorten(parts, budget)
	// parts joined by "-", then "-", random and suffix
	size := len(parts) + len(random) + len(suffix)
	for _, p := range parts {
		size += len(p)
	}
	var b strings.Builder
	b.Grow(size)
	for _, p := range parts {
		b.WriteString(p)
		b.WriteByte('-')
	}
	b.WriteString(random)
	b.WriteString(suffix)
	name := b.String()
	if n.Lower {
		name = strings.ToLower(name)
	}
	return name
}

// shorten cuts parts so that their total length fits budget: every part
// gets an equal share, and a part shorter than its share leaves the rest to
// the others.
func shorten(parts []string, budget int) []string {
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	if total <= budget {
		return parts
	}
	if budget < 0 {
		budget = 0
	}
	out := make([]string, len(parts))
	copy(out, parts)
	remaining, left := budget, len(parts)
	// Give short parts their full length first, longest last.
	order := make([]int, len(parts))
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && len(parts[order[j]]) < len(parts[order[j-1]]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, i := range order {
		share := remaining / left
		if len(out[i]) > share {
			out[i] = out[i][:share]
		}
		remaining -= len(out[i])
		left--
	}
	return out
}
