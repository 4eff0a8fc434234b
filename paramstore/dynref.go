package paramstore

import (
	"fmt"
	"regexp"
	"strings"
)

// Dynamic references: {{resolve:SERVICE:KEY}} in a template's strings,
// replaced by a value CloudFormation reads from another service when it
// needs it (dynamic-references.html).
//
//	{{resolve:ssm:NAME}}  {{resolve:ssm:NAME:VERSION}}
//	{{resolve:ssm-secure:NAME}}  {{resolve:ssm-secure:NAME:VERSION}}
//	{{resolve:secretsmanager:SECRET-ID:SecretString:JSON-KEY:VERSION-STAGE:VERSION-ID}}
//
// NAME is a parameter name (letters, digits, _ . - /) or its ARN;
// SECRET-ID a secret's name or ARN; the segments after it may be left out
// or empty (the whole SecretString, version AWSCURRENT).

// Services of dynamic references.
const (
	ServiceSSM            = "ssm"
	ServiceSSMSecure      = "ssm-secure"
	ServiceSecretsManager = "secretsmanager"
)

// Ref is one dynamic reference.
type Ref struct {
	// Text is the reference as written, braces included.
	Text    string
	Service string
	// Name and Version: ssm and ssm-secure ("" when no version is given).
	Name, Version string
	// The parts of a secretsmanager reference.
	SecretID, JSONKey, VersionStage, VersionID string
}

// Secure tells whether the reference reads a secret (ssm-secure,
// secretsmanager): CloudFormation never shows its value.
func (r Ref) Secure() bool { return r.Service != ServiceSSM }

const refOpen, refClose = "{{resolve:", "}}"

// Contains tells whether s holds a dynamic reference of a known service.
func Contains(s string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], refOpen)
		if j < 0 {
			return false
		}
		rest := s[i+j+len(refOpen):]
		for _, svc := range []string{ServiceSSMSecure + ":", ServiceSSM + ":", ServiceSecretsManager + ":"} {
			if strings.HasPrefix(rest, svc) {
				return true
			}
		}
		i += j + len(refOpen)
	}
}

// Find returns the dynamic references of s, in order. A reference of a
// known service that does not parse is an error.
func Find(s string) ([]Ref, error) {
	var out []Ref
	_, err := Replace(s, func(r Ref) (string, error) {
		out = append(out, r)
		return r.Text, nil
	})
	return out, err
}

// Replace replaces each dynamic reference of s by what value answers.
func Replace(s string, value func(Ref) (string, error)) (string, error) {
	if !strings.Contains(s, refOpen) {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, refOpen)
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		body := s[i+len(refOpen):]
		service, _, _ := strings.Cut(body, ":")
		if service != ServiceSSM && service != ServiceSSMSecure && service != ServiceSecretsManager {
			// Not a reference CloudFormation resolves: the text stays.
			b.WriteString(s[:i+len(refOpen)])
			s = body
			continue
		}
		j := strings.Index(body, refClose)
		if j < 0 {
			return "", fmt.Errorf("the dynamic reference %q has no closing }}", s[i:])
		}
		text := s[i : i+len(refOpen)+j+len(refClose)]
		r, err := Parse(text)
		if err != nil {
			return "", err
		}
		v, err := value(r)
		if err != nil {
			return "", err
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+len(text):]
	}
}

var (
	refNamePattern    = regexp.MustCompile(`^[a-zA-Z0-9_.\-/]+$`)
	refVersionPattern = regexp.MustCompile(`^[0-9]+$`)
)

// Parse reads one dynamic reference, braces included.
func Parse(text string) (Ref, error) {
	body, ok := strings.CutPrefix(text, refOpen)
	if ok {
		body, ok = strings.CutSuffix(body, refClose)
	}
	if !ok {
		return Ref{}, fmt.Errorf("%q is not a dynamic reference: write {{resolve:SERVICE:KEY}}", text)
	}
	service, key, _ := strings.Cut(body, ":")
	r := Ref{Text: text, Service: service}
	bad := func(format string, args ...any) (Ref, error) {
		return Ref{}, fmt.Errorf("the dynamic reference %s is not valid: %s", text, fmt.Sprintf(format, args...))
	}
	if strings.Contains(body, refClose) || strings.HasSuffix(body, "}") {
		// "{{resolve:ssm:a}}}" is the reference {{resolve:ssm:a}} and a "}"
		return bad("a reference ends at the first }}")
	}
	switch service {
	case ServiceSSM, ServiceSSMSecure:
		name, version := key, ""
		if strings.HasPrefix(key, "arn:") {
			// arn:PARTITION:ssm:REGION:ACCOUNT:parameter/NAME[:VERSION]
			parts := strings.Split(key, ":")
			if len(parts) < 6 {
				return bad("a parameter ARN is arn:aws:ssm:REGION:ACCOUNT:parameter/NAME")
			}
			name = strings.Join(parts[:6], ":")
			if len(parts) > 7 {
				return bad("write {{resolve:%s:NAME}} or {{resolve:%s:NAME:VERSION}}", service, service)
			}
			if len(parts) == 7 {
				version = parts[6]
			}
		} else if n, v, hasVersion := strings.Cut(key, ":"); hasVersion {
			name, version = n, v
		}
		switch {
		case name == "":
			return bad("it names no parameter; write {{resolve:%s:NAME}}", service)
		case !strings.HasPrefix(name, "arn:") && !refNamePattern.MatchString(name):
			return bad("a parameter name holds only letters, digits and _ . - /")
		case version != "" && !refVersionPattern.MatchString(version):
			return bad("the version %q is not a whole number", version)
		}
		r.Name, r.Version = name, version
	case ServiceSecretsManager:
		var parts []string
		if strings.HasPrefix(key, "arn:") {
			// arn:PARTITION:secretsmanager:REGION:ACCOUNT:secret:NAME then
			// the optional segments.
			all := strings.Split(key, ":")
			if len(all) < 7 {
				return bad("a secret ARN is arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME")
			}
			parts = append([]string{strings.Join(all[:7], ":")}, all[7:]...)
		} else {
			parts = strings.Split(key, ":")
		}
		if parts[0] == "" {
			return bad("it names no secret; write {{resolve:secretsmanager:SECRET-ID}}")
		}
		if len(parts) > 5 {
			return bad("write {{resolve:secretsmanager:SECRET-ID:SecretString:JSON-KEY:VERSION-STAGE:VERSION-ID}}")
		}
		for len(parts) < 5 {
			parts = append(parts, "")
		}
		if parts[1] != "" && parts[1] != "SecretString" {
			return bad("the segment after the secret id is SecretString (or empty), not %q", parts[1])
		}
		r.SecretID, r.JSONKey, r.VersionStage, r.VersionID = parts[0], parts[2], parts[3], parts[4]
	default:
		return bad("the service is ssm, ssm-secure or secretsmanager")
	}
	return r, nil
}

// SecureProperties are the resource properties where CloudFormation
// accepts an ssm-secure reference (dynamic-references-ssm-secure-strings:
// "Resources that support dynamic parameter patterns for secure strings"),
// as TYPE/PATH with * for every member of a list.
var SecureProperties = []string{
	"AWS::DirectoryService::MicrosoftAD/Password",
	"AWS::DirectoryService::SimpleAD/Password",
	"AWS::ElastiCache::ReplicationGroup/AuthToken",
	"AWS::IAM::User/LoginProfile/Password",
	"AWS::KinesisFirehose::DeliveryStream/RedshiftDestinationConfiguration/Password",
	"AWS::OpsWorks::App/AppSource/Password",
	"AWS::OpsWorks::Stack/CustomCookbooksSource/Password",
	"AWS::OpsWorks::Stack/RdsDbInstances/*/DbPassword",
	"AWS::RDS::DBCluster/MasterUserPassword",
	"AWS::RDS::DBInstance/MasterUserPassword",
	"AWS::Redshift::Cluster/MasterUserPassword",
}

// SecureAllowed tells whether an ssm-secure reference may stand at path
// (the property's path in the resource's properties, list indexes as
// numbers) of a resource of typeName.
func SecureAllowed(typeName string, path []string) bool {
	for _, p := range SecureProperties {
		t, rest, _ := strings.Cut(p, "/")
		if t != typeName {
			continue
		}
		segs := strings.Split(rest, "/")
		if len(segs) != len(path) {
			continue
		}
		match := true
		for i, s := range segs {
			if s != "*" && s != path[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
