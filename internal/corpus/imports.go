package corpus

import (
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/template"
)

// A template that imports what another stack exports (Fn::ImportValue)
// is tried as its README says to: the stack that makes the exports is
// created first. When a template of the corpus exports every name a
// template imports with one parameter (or with none), that template is
// its producer: it is created under the stack name the imports need (the
// parameter's default, or a name the run chooses and gives the
// parameter), and deleted after the template that imports from it.

// exportName is how a template writes the name of an export: literal text
// around at most one variable (for an import, a parameter of the
// importing template; for an export, the stack's own name).
type exportName struct {
	prefix, suffix string
	variable       string // "" when the name is literal (prefix holds it)
}

// nameOf reads a name written as a string, an Fn::Sub of a string or an
// Fn::Join of strings and Refs. value answers a Ref or a ${NAME}: its
// value, or that it is the variable; ok is false for anything else.
func nameOf(n *template.Node, value func(name string) (v string, variable, ok bool)) (exportName, bool) {
	var parts []string // literal text, and "\x00NAME" for the variable
	addRef := func(name string) bool {
		v, isVar, ok := value(name)
		switch {
		case !ok:
			return false
		case isVar:
			parts = append(parts, "\x00"+name)
		default:
			parts = append(parts, v)
		}
		return true
	}
	switch {
	case n.Kind == template.String:
		parts = append(parts, n.Value)
	case n.Func() == "Ref" && n.Fields[0].Value.Kind == template.String:
		if !addRef(n.Fields[0].Value.Value) {
			return exportName{}, false
		}
	case n.Func() == "Fn::Sub" && n.Fields[0].Value.Kind == template.String:
		text := n.Fields[0].Value.Value
		for text != "" {
			i := strings.Index(text, "${")
			if i < 0 {
				parts = append(parts, text)
				break
			}
			j := strings.Index(text[i:], "}")
			if j < 0 {
				return exportName{}, false
			}
			parts = append(parts, text[:i])
			name := text[i+2 : i+j]
			if strings.HasPrefix(name, "!") {
				parts = append(parts, "${"+name[1:]+"}")
			} else if !addRef(name) {
				return exportName{}, false
			}
			text = text[i+j+1:]
		}
	case n.Func() == "Fn::Join" && n.Fields[0].Value.Kind == template.List:
		args := n.Fields[0].Value.Items
		if len(args) != 2 || args[0].Kind != template.String || args[1].Kind != template.List {
			return exportName{}, false
		}
		for i, it := range args[1].Items {
			if i > 0 {
				parts = append(parts, args[0].Value)
			}
			switch {
			case it.Kind == template.String:
				parts = append(parts, it.Value)
			case refName(it) != "":
				if !addRef(refName(it)) {
					return exportName{}, false
				}
			default:
				return exportName{}, false
			}
		}
	default:
		return exportName{}, false
	}
	var out exportName
	var b strings.Builder
	for _, p := range parts {
		if name, ok := strings.CutPrefix(p, "\x00"); ok {
			if out.variable != "" {
				return exportName{}, false // two variables: nothing to match on
			}
			out.variable, out.prefix = name, b.String()
			b.Reset()
			continue
		}
		b.WriteString(p)
	}
	if out.variable == "" {
		out.prefix = b.String()
	} else {
		out.suffix = b.String()
	}
	return out, true
}

// export is one export a corpus template makes.
type export struct {
	file string
	name exportName // its variable, if any, is the stack's name
}

// Exports are the exports the templates of a corpus make.
type Exports struct {
	list []export
}

// Add records the exports of a template (its Outputs' Export Names), read
// from its tree: the stack's own name is the variable, a parameter stands
// for its default, a pseudo parameter for the run's value.
func (x *Exports) Add(file string, root *template.Node) {
	outputs := root.Get("Outputs")
	if root.Kind != template.Map || outputs == nil || outputs.Kind != template.Map {
		return
	}
	params, _ := template.DeclaredParameters(file, root)
	defaults := map[string]string{}
	for _, p := range params {
		if p.HasDefault {
			defaults[p.Name] = p.Default
		}
	}
	value := func(name string) (string, bool, bool) {
		if name == "AWS::StackName" {
			return "", true, true
		}
		if v, ok := pseudoValue(name); ok {
			return v, false, true
		}
		v, ok := defaults[name]
		return v, false, ok
	}
	for _, f := range outputs.Fields {
		exp := f.Value.Get("Export")
		if f.Value.Kind != template.Map || exp == nil || exp.Kind != template.Map || exp.Get("Name") == nil {
			continue
		}
		if name, ok := nameOf(exp.Get("Name"), value); ok {
			x.list = append(x.list, export{file: file, name: name})
		}
	}
}

// pseudoValue is a pseudo parameter's value in a corpus run.
func pseudoValue(name string) (string, bool) {
	switch name {
	case "AWS::Region":
		return Pseudo.Region, true
	case "AWS::AccountId":
		return Pseudo.AccountID, true
	case "AWS::Partition":
		return "aws", true
	case "AWS::URLSuffix":
		return "amazonaws.com", true
	}
	return "", false
}

// Producer is a template to create before another, and the stack name to
// create it under.
type Producer struct {
	File      string
	StackName string
}

// stackNameRE is what CloudFormation accepts as a stack name.
var stackNameRE = regexp.MustCompile(`^[a-zA-Z][-a-zA-Z0-9]{0,127}$`)

// Producers are the templates to create before one (file, read as root)
// so that its imports exist: for each parameter its import names hang on
// (and for its literal names), the template nearest to it in the corpus
// that exports them all. A parameter the producer's stack name must be
// given to is set in in (a default that is no stack name is replaced).
// A template that makes none of an import's names has no producer: the
// import fails as AWS's does.
func (x *Exports) Producers(file string, root *template.Node, in *Inputs) []Producer {
	if x == nil || root.Kind != template.Map {
		return nil
	}
	params, _ := template.DeclaredParameters(file, root)
	declared := map[string]*template.Parameter{}
	for _, p := range params {
		declared[p.Name] = p
	}
	value := func(name string) (string, bool, bool) {
		if _, ok := declared[name]; ok {
			return "", true, true
		}
		v, ok := pseudoValue(name)
		return v, false, ok
	}
	groups := map[string][]exportName{} // by parameter ("" for literal names)
	var walk func(n *template.Node)
	walk = func(n *template.Node) {
		if n.Func() == "Fn::ImportValue" {
			if name, ok := nameOf(n.Fields[0].Value, value); ok {
				groups[name.variable] = append(groups[name.variable], name)
			}
			return
		}
		for _, it := range n.Items {
			walk(it)
		}
		for _, f := range n.Fields {
			walk(f.Value)
		}
	}
	walk(root)
	vars := make([]string, 0, len(groups))
	for v := range groups {
		vars = append(vars, v)
	}
	sort.Strings(vars)
	var out []Producer
	seen := map[Producer]bool{}
	for _, v := range vars {
		want := ""
		if p := declared[v]; p != nil && p.HasDefault && stackNameRE.MatchString(p.Default) {
			want = p.Default
		}
		if p, ok := x.producer(file, groups[v], want); ok {
			if v != "" && p.StackName != want {
				in.set(v, p.StackName)
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// producer is the template nearest to file that exports every name, and
// the stack name it makes them under (want, when the names allow it).
func (x *Exports) producer(file string, names []exportName, want string) (Producer, bool) {
	best, bestScore := Producer{}, -1
	byFile := map[string][]exportName{}
	var files []string
	for _, e := range x.list {
		if e.file == file {
			continue
		}
		if _, seen := byFile[e.file]; !seen {
			files = append(files, e.file)
		}
		byFile[e.file] = append(byFile[e.file], e.name)
	}
	for _, f := range files {
		stack, ok := stackFor(names, byFile[f], want, f)
		if !ok {
			continue
		}
		// nearest first; of two in one directory, the one written as
		// the template is (YAML for YAML)
		score := 2 * sharedDirs(file, f)
		if path.Ext(f) == path.Ext(file) {
			score++
		}
		if score > bestScore {
			best, bestScore = Producer{File: f, StackName: stack}, score
		}
	}
	return best, bestScore >= 0
}

// stackFor is the stack name under which the exports make every name
// imported: one name for all of them, want if it does, else a name made
// from the producer's file when the names leave it free.
func stackFor(imports, exports []exportName, want, producerFile string) (string, bool) {
	stack, free := "", true
	for _, im := range imports {
		found := false
		for _, ex := range exports {
			s, isFree, ok := matchName(im, ex, want)
			if !ok || (!free && !isFree && s != stack) {
				continue
			}
			if !isFree {
				stack, free = s, false
			}
			found = true
			break
		}
		if !found {
			return "", false
		}
	}
	if free {
		if want != "" {
			return want, true
		}
		return stackNameOf(producerFile), true
	}
	return stack, stackNameRE.MatchString(stack)
}

// matchName says whether an export can make an imported name, and under
// which stack name: free when any will do (both say the same literal
// name, or the import's parameter is the export's stack name).
func matchName(im, ex exportName, want string) (stack string, free, ok bool) {
	switch {
	case im.variable == "" && ex.variable == "":
		return "", true, im.prefix == ex.prefix
	case im.variable == "":
		// a literal import of a stack-named export: the stack's name is
		// what lies between
		lit := im.prefix
		if len(lit) > len(ex.prefix)+len(ex.suffix) && strings.HasPrefix(lit, ex.prefix) && strings.HasSuffix(lit, ex.suffix) {
			return lit[len(ex.prefix) : len(lit)-len(ex.suffix)], false, true
		}
		return "", false, false
	case ex.variable == "":
		// a literal export of a name the import builds from a parameter:
		// the parameter is not a stack name then, and is left as it is
		return "", false, false
	default:
		return want, want == "", im.prefix == ex.prefix && im.suffix == ex.suffix
	}
}

// sharedDirs is how many leading directories two corpus paths share.
func sharedDirs(a, b string) int {
	da, db := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	n := 0
	for n < len(da) && n < len(db) && da[n] == db[n] {
		n++
	}
	return n
}

// stackNameOf is a stack name made from a template's file name.
func stackNameOf(file string) string {
	base := strings.TrimSuffix(path.Base(file), path.Ext(file))
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" || !(name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') {
		name = "producer-" + name
	}
	if len(name) > 128 {
		name = name[:128]
	}
	return name
}

// set gives a parameter a value (replacing one the run made up).
func (in *Inputs) set(key, value string) {
	for i := range in.Parameters {
		if in.Parameters[i].Key == key {
			in.Parameters[i].Value = value
			return
		}
	}
	in.Parameters = append(in.Parameters, template.ParameterValue{Key: key, Value: value})
}
