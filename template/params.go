package template

import (
	"fmt"
	"strconv"
	"strings"
)

// paramKind is what a parameter's Type means for its values.
type paramKind struct {
	list   bool   // Ref returns a list (CommaDelimitedList, List<...>)
	number bool   // every value must be a number (Number, List<Number>)
	ssm    bool   // the value names an SSM parameter, resolved at binding
	aws    string // the AWS-specific type of the values, if any
}

// awsTypes are the AWS-specific parameter types. CloudFormation checks
// their values against the account; stacksim has no account, so it checks
// them as strings (and their List<> forms as lists).
var awsTypes = map[string]bool{
	"AWS::EC2::AvailabilityZone::Name":   true,
	"AWS::EC2::Image::Id":                true,
	"AWS::EC2::Instance::Id":             true,
	"AWS::EC2::KeyPair::KeyName":         true,
	"AWS::EC2::SecurityGroup::GroupName": true,
	"AWS::EC2::SecurityGroup::Id":        true,
	"AWS::EC2::Subnet::Id":               true,
	"AWS::EC2::Volume::Id":               true,
	"AWS::EC2::VPC::Id":                  true,
	"AWS::Route53::HostedZone::Id":       true,
}

// parseParamType reads a parameter Type.
func parseParamType(t string) (paramKind, bool) {
	switch {
	case t == "String":
		return paramKind{}, true
	case t == "Number":
		return paramKind{number: true}, true
	case t == "List<Number>":
		return paramKind{list: true, number: true}, true
	case t == "CommaDelimitedList":
		return paramKind{list: true}, true
	case awsTypes[t]:
		return paramKind{aws: t}, true
	case strings.HasPrefix(t, "List<") && strings.HasSuffix(t, ">") && awsTypes[t[5:len(t)-1]]:
		return paramKind{list: true, aws: t[5 : len(t)-1]}, true
	case t == "AWS::SSM::Parameter::Name":
		return paramKind{}, true
	case strings.HasPrefix(t, "AWS::SSM::Parameter::Value<") && strings.HasSuffix(t, ">"):
		inner := t[len("AWS::SSM::Parameter::Value<") : len(t)-1]
		switch {
		case inner == "String":
			return paramKind{ssm: true}, true
		case inner == "List<String>" || inner == "CommaDelimitedList":
			return paramKind{ssm: true, list: true}, true
		case awsTypes[inner]:
			return paramKind{ssm: true, aws: inner}, true
		case strings.HasPrefix(inner, "List<") && strings.HasSuffix(inner, ">") && awsTypes[inner[5:len(inner)-1]]:
			return paramKind{ssm: true, list: true, aws: inner[5 : len(inner)-1]}, true
		}
	}
	return paramKind{}, false
}

// IsList tells whether a Ref to the parameter returns a list.
func (p *Parameter) IsList() bool { return p.kind.list }

// IsSSM tells whether the parameter's value names an SSM parameter
// (AWS::SSM::Parameter::Value<...>), resolved when the template is bound.
func (p *Parameter) IsSSM() bool { return p.kind.ssm }

// Mask renders a value of the parameter as CloudFormation shows it: "****"
// when the parameter is NoEcho.
func (p *Parameter) Mask(value string) string { return maskIf(p.NoEcho, value) }

func maskIf(noEcho bool, value string) string {
	if noEcho {
		return "****"
	}
	return value
}

// check validates a value (after SSM resolution) against the parameter's
// type and constraints, and returns the message AWS gives, or "".
func (p *Parameter) check(value string) string {
	fail := func(reason string) string {
		if p.ConstraintDescription != "" {
			// A ConstraintDescription replaces the generic reason.
			return fmt.Sprintf("Parameter '%s' %s", p.Name, p.ConstraintDescription)
		}
		return fmt.Sprintf("Parameter '%s' %s", p.Name, reason)
	}
	members := []string{value}
	if p.kind.list {
		members = strings.Split(value, ",")
	}
	if p.kind.number {
		for _, m := range members {
			if _, err := strconv.ParseFloat(strings.TrimSpace(m), 64); err != nil || strings.TrimSpace(m) == "" {
				if p.kind.list {
					return fmt.Sprintf("Parameter '%s' must be a number list.", p.Name)
				}
				return fmt.Sprintf("Parameter '%s' must be a number.", p.Name)
			}
		}
	}
	if len(p.AllowedValues) > 0 {
		for _, m := range members {
			if !contains(p.AllowedValues, m) {
				return fail("must be one of AllowedValues")
			}
		}
	}
	if !p.kind.list && !p.kind.number {
		if p.MinLength != nil && len([]rune(value)) < *p.MinLength {
			return fail(fmt.Sprintf("must contain at least %d characters", *p.MinLength))
		}
		if p.MaxLength != nil && len([]rune(value)) > *p.MaxLength {
			return fail(fmt.Sprintf("must contain at most %d characters", *p.MaxLength))
		}
	}
	if p.pattern != nil && !p.kind.number {
		for _, m := range members {
			if !p.pattern.MatchString(m) {
				return fail("must match pattern " + p.AllowedPattern)
			}
		}
	}
	if p.kind.number {
		for _, m := range members {
			f, _ := strconv.ParseFloat(strings.TrimSpace(m), 64)
			if p.MinValue != nil {
				if min, _ := strconv.ParseFloat(*p.MinValue, 64); f < min {
					return fail("must be a number not less than " + *p.MinValue)
				}
			}
			if p.MaxValue != nil {
				if max, _ := strconv.ParseFloat(*p.MaxValue, 64); f > max {
					return fail("must be a number not greater than " + *p.MaxValue)
				}
			}
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// refValue is what Ref returns for a parameter bound to value: a string, or
// a list of strings for the list types. (A Number parameter's Ref is a
// string: CloudFormation validates the number, then passes the text.)
func (p *Parameter) refValue(value string) any {
	if p.kind.list {
		return commaList(value)
	}
	return value
}

// Check validates a value for the parameter (after SSM resolution) and
// returns AWS's message as an *Error at the parameter's declaration, or nil.
func (p *Parameter) Check(file, value string) error {
	if msg := p.check(value); msg != "" {
		return &Error{File: file, Line: p.Pos.Line, Col: p.Pos.Col, Path: "/Parameters/" + p.Name, Message: msg}
	}
	return nil
}

// Kind describes the values of the parameter: whether they form a list,
// must be numbers, name an SSM parameter, and the AWS-specific type of
// their members ("" for plain strings).
func (p *Parameter) Kind() (list, number, ssm bool, awsType string) {
	return p.kind.list, p.kind.number, p.kind.ssm, p.kind.aws
}
