package paramstore

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Parameter types, as Parameter Store names them.
const (
	TypeString       = "String"
	TypeStringList   = "StringList"
	TypeSecureString = "SecureString"
)

// Parameter is one parameter of an account's parameter store.
type Parameter struct {
	Name    string
	Type    string
	Value   string
	Version int64
}

// Lookup finds a parameter the account holds (an AWS::SSM::Parameter a
// stack made), by name.
type Lookup func(name string) (Parameter, bool)

// Sources is one account's parameter store as a stack operation reads it.
// An account has one store; what is in it comes from three places, read in
// this order:
//
//  1. Account: the parameters the simulated account holds (what stacks
//     made with AWS::SSM::Parameter);
//  2. User: the parameters the user says exist (--ssm-parameter NAME=VALUE,
//     a scenario's ssmParameters), made outside CloudFormation;
//  3. AWS's public parameters (/aws/service/...), which every account
//     reads. AWS refuses to make a parameter whose name starts with aws or
//     ssm, so 1 never shadows 3; a user value for a public name stands for
//     the value AWS publishes (pinning an image id, say).
type Sources struct {
	Region, Partition string
	Account           Lookup
	User              map[string]string
}

// Get returns a parameter by name.
func (s Sources) Get(name string) (Parameter, bool) {
	name = s.nameOf(name)
	if s.Account != nil {
		if p, ok := s.Account(name); ok {
			return p, true
		}
	}
	if v, ok := s.User[name]; ok {
		return Parameter{Name: name, Type: TypeString, Value: v, Version: 1}, true
	}
	partition := s.Partition
	if partition == "" {
		partition = "aws"
	}
	return Public(s.Region, partition, name)
}

// nameOf turns a parameter's ARN in this account's region into its name
// (arn:aws:ssm:REGION:ACCOUNT:parameter/NAME is /NAME, or NAME when NAME
// has no slash); anything else is a name already.
func (s Sources) nameOf(name string) string {
	if !strings.HasPrefix(name, "arn:") {
		return name
	}
	parts := strings.SplitN(name, ":", 6)
	if len(parts) < 6 || parts[2] != "ssm" || !strings.HasPrefix(parts[5], "parameter") {
		return name
	}
	rest := strings.TrimPrefix(parts[5], "parameter")
	if strings.Count(rest, "/") > 1 {
		return rest
	}
	return strings.TrimPrefix(rest, "/")
}

// MissingMessage is AWS's answer when parameters cannot be found: "Unable
// to fetch parameters [NAME] from parameter store for this account."
func MissingMessage(names ...string) string {
	return fmt.Sprintf("Unable to fetch parameters [%s] from parameter store for this account.", strings.Join(names, ", "))
}

// namePattern is what a parameter name may hold (Parameter Store's rule:
// letters, digits, and _ . - /).
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_.\-/]+$`)

// CheckUserName says what is wrong with the name of a parameter the user
// gives, or "".
func CheckUserName(name string) string {
	switch {
	case name == "":
		return "the name is empty"
	case len(name) > 2048:
		return "the name is longer than 2048 characters"
	case !namePattern.MatchString(name):
		return "a parameter name holds only letters, digits and _ . - /"
	case strings.HasPrefix(name, "/") && strings.Count(name, "/") > 15:
		return "a parameter name has at most 15 levels"
	}
	return ""
}

// CheckSecretName says what is wrong with the name (or ARN) of a secret
// the user gives, or "".
func CheckSecretName(name string) string {
	if name == "" {
		return "the name is empty"
	}
	if len(name) > 2048 {
		return "the name is longer than 2048 characters"
	}
	return ""
}

// ParseAssignments reads NAME=VALUE pairs (--ssm-parameter, --secret): the
// name is what comes before the first "=". what names the flag in errors.
func ParseAssignments(what string, values []string, check func(string) string) (map[string]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(values))
	for _, v := range values {
		name, value, ok := strings.Cut(v, "=")
		if !ok {
			return nil, fmt.Errorf("%s %q: write NAME=VALUE", what, v)
		}
		if check != nil {
			if msg := check(name); msg != "" {
				return nil, fmt.Errorf("%s %q: %s", what, v, msg)
			}
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%s %s is given twice", what, name)
		}
		out[name] = value
	}
	return out, nil
}

// SortedNames returns the keys of m, sorted.
func SortedNames(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
