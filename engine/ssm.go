package engine

import (
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/paramstore"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// The account's parameter store and secrets, as operations read them:
// AWS::SSM::Parameter::Value<...> parameters when a template is bound to
// a call's parameters, dynamic references when a resource is provisioned
// (dynref.go).

const (
	ssmParameterType = "AWS::SSM::Parameter"
	secretType       = "AWS::SecretsManager::Secret"
)

// ssmSources is the account's parameter store read through tx: the
// AWS::SSM::Parameter objects of the simulated cloud, the parameters the
// user gives, AWS's public parameters (paramstore.Sources).
func (e *Engine) ssmSources(tx *txn) paramstore.Sources {
	return paramstore.Sources{Region: e.opts.Region, Partition: e.opts.Partition, User: e.opts.SSMParameters,
		Account: func(name string) (paramstore.Parameter, bool) {
			o := tx.Object(ssmParameterType, name)
			if o == nil {
				return paramstore.Parameter{}, false
			}
			typ, _ := o.Model["Type"].(string)
			value, _ := resources.Stringify(o.Model["Value"]).(string)
			return paramstore.Parameter{Name: name, Type: typ, Value: value, Version: 1}, true
		}}
}

// secretOf finds a secret by name or ARN: an AWS::SecretsManager::Secret
// of the simulated cloud (its SecretString, or the one its
// GenerateSecretString makes), or one the user gives.
func (e *Engine) secretOf(tx *txn, id string) (paramstore.Secret, bool, error) {
	for _, o := range tx.Objects(secretType) {
		arn := o.ID
		name, _ := o.Model["Name"].(string)
		if id != arn && id != name && !partialARN(id, arn) {
			continue
		}
		s := paramstore.Secret{ARN: arn, Name: name}
		switch v := o.Model["SecretString"].(type) {
		case string:
			s.SecretString = v
		default:
			if gen, ok := o.Model["GenerateSecretString"].(map[string]any); ok {
				str, err := paramstore.GenerateSecretString(gen, arn)
				if err != nil {
					return s, false, err
				}
				s.SecretString = str
			}
		}
		return s, true, nil
	}
	if v, ok := e.opts.Secrets[id]; ok {
		return paramstore.Secret{Name: id, SecretString: v}, true, nil
	}
	return paramstore.Secret{}, false, nil
}

// partialARN tells whether id is arn without the six random characters
// Secrets Manager appends to a secret's name (a "partial ARN", which
// Secrets Manager accepts).
func partialARN(id, arn string) bool {
	return strings.HasPrefix(id, "arn:") && len(arn) == len(id)+7 && strings.HasPrefix(arn, id+"-")
}

// ssmValues resolves the AWS::SSM::Parameter::Value<...> parameters of t
// for a binding: the SSM parameter each names (the value given, the
// previous one for UsePreviousValue, or the default) with its value in
// src. A name src does not hold is left out: Bind refuses it in AWS's
// words.
func ssmValues(t *template.Template, given []template.ParameterValue, prev map[string]string, src paramstore.Sources) map[string]string {
	var out map[string]string
	for _, p := range t.Parameters {
		if !p.IsSSM() {
			continue
		}
		name, ok := "", false
		for _, g := range given {
			if g.Key != p.Name {
				continue
			}
			if g.UsePreviousValue {
				name, ok = prev[p.Name]
			} else {
				name, ok = g.Value, true
			}
		}
		if !ok && p.HasDefault {
			name, ok = p.Default, true
		}
		if !ok {
			continue
		}
		if v, found := src.Get(name); found {
			if out == nil {
				out = map[string]string{}
			}
			out[name] = v.Value
		}
	}
	return out
}

// storedSSM is what the SSM parameters of a stored binding resolved to
// when the stack's call was made: a stack keeps the values it was given,
// as AWS does, and binding its template again does not read the store.
func storedSSM(ps []store.ParamValue) map[string]string {
	var out map[string]string
	for _, p := range ps {
		if p.ResolvedValue == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[p.Value] = p.ResolvedValue
	}
	return out
}
