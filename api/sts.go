package api

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/sts"
	smithy "github.com/aws/smithy-go"
)

// STS on the same port: SDK-based tools (CDK, Terraform) ask
// GetCallerIdentity first, to learn the account. The request is told apart
// by its SigV4 scope (…/sts/aws4_request) or its Version.

const (
	stsVersion   = "2011-06-15"
	stsNamespace = "https://sts.amazonaws.com/doc/2011-06-15/"
)

// callSTS answers an STS action: GetCallerIdentity is the simulated
// account's root user.
func (s *Server) callSTS(action, version string) (smithy.Serializable, *wireError) {
	if action != "GetCallerIdentity" || version != stsVersion {
		return nil, newWireError(codeInvalidAction, fmt.Sprintf("Could not find operation %s for version %s (stacksim serves STS's GetCallerIdentity only)", action, version))
	}
	account := s.e.AccountID()
	arn := fmt.Sprintf("arn:%s:iam::%s:root", s.e.Partition(), account)
	return &sts.GetCallerIdentityOutput{Account: &account, Arn: &arn, UserId: &account}, nil
}
