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
	if !strings.Contains(s, "${") {
		return []subPart{{text: s}}, true
	}
	var parts []subPart
	var lit strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			lit.WriteString(s)
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			lit.WriteString(s)
			break
		}
		lit.WriteString(s[:i])
		name := s[i+2 : i+2+j]
		s = s[i+3+j:]
		if strings.HasPrefix(name, "!") {
			lit.WriteString("${")
			lit.WriteString(name[1:])
			lit.WriteString("}")
			continue
		}
		// CloudFormation reads "${ Name }" as "${Name}".
		name = strings.TrimSpace(name)
		if !isSubVar(name) {
			return nil, false
		}
		if lit.Len() > 0 {
			parts = append(parts, subPart{text: lit.String()})
			lit.Reset()
		}
		parts = append(parts, subPart{text: name, isVar: true})
	}
	if lit.Len() > 0 {
		parts = append(parts, subPart{text: lit.String()})
	}
	return parts, true
}

// pseudoParameters are the names Ref and Fn::Sub know without a declaration.
var pseudoParameters = map[string]bool{
	"AWS::AccountId": true, "AWS::NotificationARNs": true, "AWS::NoValue": true, "AWS::Partition": true,
	"AWS::Region": true, "AWS::StackId": true, "AWS::StackName": true, "AWS::URLSuffix": true,
}

func isPseudo(name string) bool { return pseudoParameters[name] }

// selectIndex reads the index of Fn::Select.
func selectIndex(s string) (int, bool) {
	i, err := strconv.Atoi(strings.TrimSpace(s))
	return i, err == nil
}
