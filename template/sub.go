package template

import (
	"regexp"
	"strconv"
	"strings"
)

// subPart is a piece of an Fn::Sub string: literal text or a ${variable}.
type subPart struct {
	text  string
	isVar bool
}

var subKeyRE = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// isSubVar tells whether name is a valid Fn::Sub variable name: letters,
// digits, underscores, periods and colons.
func isSubVar(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') && c != '_' && c != '.' && c != ':' {
			return false
		}
	}
	return true
}

// parseSub splits an Fn::Sub string into literals and variables. ${!Name}
// is the literal ${Name}; a "${" with no closing brace is literal text. It
// returns false when a variable name holds a character CloudFormation
// refuses.
func parseSub(s string) ([]subPart, bool) {
	return appendSub(nil, s)
}

// appendSub is parseSub appending to parts (nil: a new list).
func appendSub(parts []subPart, s string) ([]subPart, bool) {
	if !strings.Contains(s, "${") {
		return append(parts, subPart{text: s}), true
	}
	if parts == nil {
		parts = make([]subPart, 0, 2*strings.Count(s, "${")+1)
	}
	// The literal text between variables is usually one run of s: it is
	// kept as a substring, and only built when ${!Name} splices text in.
	var lit litText
	sc := subScanner{s: s}
	for {
		p, more, ok := sc.next()
		if !ok {
			return nil, false
		}
		if !more {
			break
		}
		if !p.isVar {
			lit.add(p.text)
			continue
		}
		if t := lit.take(); t != "" {
			parts = append(parts, subPart{text: t})
		}
		parts = append(parts, p)
	}
	if t := lit.take(); t != "" {
		parts = append(parts, subPart{text: t})
	}
	return parts, true
}

// subScanner reads an Fn::Sub string a piece at a time, allocating
// nothing: runs of literal text (${!Name} is the three pieces "${",
// "Name" and "}") and variables. It is the one reader of the syntax:
// appendSub gathers its pieces, the evaluator writes them out as they
// come.
type subScanner struct {
	s    string
	rest [2]string // the "Name" and "}" of a ${!Name}, handed out next
	n    int       // how many of rest are still to hand out
}

// next returns the next piece; more is false when there is none left, ok
// false when a variable's name holds a character CloudFormation refuses
// (the string is refused: nothing is to be made of it).
func (sc *subScanner) next() (p subPart, more, ok bool) {
	if sc.n > 0 {
		t := sc.rest[len(sc.rest)-sc.n]
		sc.n--
		return subPart{text: t}, true, true
	}
	if sc.s == "" {
		return subPart{}, false, true
	}
	s := sc.s
	i := strings.Index(s, "${")
	if i < 0 {
		sc.s = ""
		return subPart{text: s}, true, true
	}
	j := strings.IndexByte(s[i+2:], '}')
	if j < 0 { // a "${" with no closing brace is literal text
		sc.s = ""
		return subPart{text: s}, true, true
	}
	if i > 0 {
		sc.s = s[i:]
		return subPart{text: s[:i]}, true, true
	}
	name := s[2 : 2+j]
	sc.s = s[3+j:]
	if strings.HasPrefix(name, "!") {
		sc.rest, sc.n = [2]string{name[1:], "}"}, 2
		return subPart{text: "${"}, true, true
	}
	// CloudFormation reads "${ Name }" as "${Name}".
	name = strings.TrimSpace(name)
	if !isSubVar(name) {
		return subPart{}, false, false
	}
	return subPart{text: name, isVar: true}, true, true
}

// litText gathers literal text: one piece as it is, more joined.
type litText struct {
	one   string
	b     strings.Builder
	multi bool
}

func (l *litText) add(s string) {
	switch {
	case s == "":
	case l.multi:
		l.b.WriteString(s)
	case l.one == "":
		l.one = s
	default:
		l.b.WriteString(l.one)
		l.b.WriteString(s)
		l.multi = true
	}
}

// take returns the text gathered and starts again.
func (l *litText) take() string {
	if !l.multi {
		t := l.one
		l.one = ""
		return t
	}
	t := l.b.String()
	l.b = strings.Builder{}
	l.one, l.multi = "", false
	return t
}

// pseudoParameters are the names Ref and Fn::Sub know without a declaration.
var pseudoParameters = map[string]bool{
	"AWS::AccountId": true, "AWS::NotificationARNs": true, "AWS::NoValue": true, "AWS::Partition": true,
	"AWS::Region": true, "AWS::StackId": true, "AWS::StackName": true, "AWS::URLSuffix": true,
}

func isPseudo(name string) bool {
	return strings.HasPrefix(name, "AWS::") && pseudoParameters[name]
}

// selectIndex reads the index of Fn::Select.
func selectIndex(s string) (int, bool) {
	i, err := strconv.Atoi(strings.TrimSpace(s))
	return i, err == nil
}
