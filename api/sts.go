package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/aws-sdk-go-v2/service/sts/types"
	smithy "github.com/aws/smithy-go"
)

// STS on the same port: SDK-based tools (CDK, Terraform) ask
// GetCallerIdentity first, to learn the account; CDK then assumes the
// roles its bootstrap stack made (AssumeRole). The request is told apart
// by its SigV4 scope (…/sts/aws4_request) or its Version.

const (
	stsVersion   = "2011-06-15"
	stsNamespace = "https://sts.amazonaws.com/doc/2011-06-15/"
)

// assumedExpiration is when the credentials AssumeRole hands out expire: a
// fixed instant far ahead, so that an answer does not depend on the wall
// clock and no client finds them expired (stacksim checks no signature).
var assumedExpiration = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)

// callSTS answers an STS action: GetCallerIdentity is the simulated
// account's root user; AssumeRole hands out credentials for a role the
// account has (an AWS::IAM::Role a stack made).
func (s *Server) callSTS(ctx context.Context, action string, form url.Values) (smithy.Serializable, *wireError) {
	if v := form.Get("Version"); v != stsVersion || action != "GetCallerIdentity" && action != "AssumeRole" {
		return nil, newWireError(codeInvalidAction, fmt.Sprintf("Could not find operation %s for version %s (stacksim serves STS's GetCallerIdentity and AssumeRole only)", action, v))
	}
	account := s.e.AccountID()
	root := fmt.Sprintf("arn:%s:iam::%s:root", s.e.Partition(), account)
	if action == "GetCallerIdentity" {
		return &sts.GetCallerIdentityOutput{Account: &account, Arn: &root, UserId: &account}, nil
	}
	roleARN, session := form.Get("RoleArn"), form.Get("RoleSessionName")
	for _, m := range []struct{ name, value string }{{"roleArn", roleARN}, {"roleSessionName", session}} {
		if m.value == "" {
			return nil, newWireError("ValidationError", fmt.Sprintf("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null", m.name))
		}
	}
	ok, err := s.e.RoleExists(ctx, roleARN)
	if err != nil {
		return nil, toWire(err)
	}
	_, roleName, _ := strings.Cut(roleARN, ":role/")
	if !ok || roleName == "" {
		return nil, &wireError{Status: http.StatusForbidden, Code: "AccessDenied",
			Message: fmt.Sprintf("User: %s is not authorized to perform: sts:AssumeRole on resource: %s", root, roleARN)}
	}
	roleName = roleName[strings.LastIndex(roleName, "/")+1:]
	id := func(what string, n int) string {
		sum := sha256.Sum256([]byte(what + "\x00" + roleARN + "\x00" + session))
		return strings.ToUpper(hex.EncodeToString(sum[:]))[:n]
	}
	key, secret, token := "ASIA"+id("key", 16), strings.ToLower(id("secret", 40)), "stacksim/"+id("token", 64)
	roleID := "AROA" + id("role", 17) + ":" + session
	assumed := fmt.Sprintf("arn:%s:sts::%s:assumed-role/%s/%s", s.e.Partition(), account, roleName, session)
	exp := assumedExpiration
	return &sts.AssumeRoleOutput{
		Credentials:     &types.Credentials{AccessKeyId: &key, SecretAccessKey: &secret, SessionToken: &token, Expiration: &exp},
		AssumedRoleUser: &types.AssumedRoleUser{AssumedRoleId: &roleID, Arn: &assumed},
	}, nil
}
