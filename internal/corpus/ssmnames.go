package corpus

import (
	"strings"

	"github.com/stacksim/stacksim/paramstore"
)

// AccountParameter says whether an SSM parameter name, the default of an
// AWS::SSM::Parameter::Value<...> parameter, names a parameter of an
// account (its author's), which a user trying the template gives with
// --ssm-parameter NAME=VALUE: a valid name (paramstore.CheckUserName), not
// one of AWS's public parameters (the engine answers those), and not under
// the prefixes aws and ssm, which Parameter Store keeps for AWS (a name
// there that stacksim does not publish is left to the engine's answer).
func AccountParameter(name string) bool {
	if paramstore.CheckUserName(name) != "" {
		return false
	}
	if _, public := paramstore.Public(Pseudo.Region, "aws", name); public {
		return false
	}
	lower := strings.ToLower(strings.TrimPrefix(name, "/"))
	return !strings.HasPrefix(lower, "aws") && !strings.HasPrefix(lower, "ssm")
}
