package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/resources"
)

// DescribeType and ListTypes: the CloudFormation registry as stacksim holds
// it. The AWS registry's resource types are public (Visibility PUBLIC,
// published by Amazon, no version ids); a type the user serves with a
// handler, or gives the schema of with --schemas when the AWS registry has
// no such type, is a private type registered in the account (version
// 00000001, the default). Modules, hooks and third-party public types are
// not simulated: they are not found. Nothing here changes the state.

// Codes of the registry's errors (the model's error shapes).
const (
	CodeTypeNotFound     = "TypeNotFoundException"
	CodeCFNRegistryError = "CFNRegistryException"
)

// privateTypeVersion is the version id of a private type: the first
// registration's, which is the default.
const privateTypeVersion = "00000001"

// typeNotFound is AWS's answer for a type it does not have (recorded by
// users: "The type 'AWS::Serverless::Api' cannot be found.").
func typeNotFound(typeName string) *APIError {
	return newAPIError(CodeTypeNotFound, "The type '%s' cannot be found.", typeName)
}

// DescribeTypeInput is DescribeType's request.
type DescribeTypeInput struct {
	Type                string `json:"Type,omitempty"`
	TypeName            string `json:"TypeName,omitempty"`
	Arn                 string `json:"Arn,omitempty"`
	VersionId           string `json:"VersionId,omitempty"`
	PublisherId         string `json:"PublisherId,omitempty"`
	PublicVersionNumber string `json:"PublicVersionNumber,omitempty"`
}

// DescribeTypeOutput is DescribeType's answer.
type DescribeTypeOutput struct {
	Arn              string `json:"Arn"`
	Type             string `json:"Type"`
	TypeName         string `json:"TypeName"`
	DefaultVersionId string `json:"DefaultVersionId,omitempty"`
	IsDefaultVersion bool   `json:"IsDefaultVersion"`
	TypeTestsStatus  string `json:"TypeTestsStatus,omitempty"`
	Description      string `json:"Description,omitempty"`
	Schema           string `json:"Schema"`
	ProvisioningType string `json:"ProvisioningType"`
	DeprecatedStatus string `json:"DeprecatedStatus"`
	Visibility       string `json:"Visibility"`
}

// DescribeType describes a resource type: its ARN, visibility,
// provisioning type and the schema stacksim simulates it from.
func (e *Engine) DescribeType(_ context.Context, in DescribeTypeInput) (*DescribeTypeOutput, error) {
	typeName, version, err := e.typeAsked(in)
	if err != nil {
		return nil, err
	}
	d, ok, err := e.reg.DescribeType(typeName)
	if err != nil {
		return nil, err
	}
	if !ok || in.PublisherId != "" || in.PublicVersionNumber != "" || (version != "" && (!d.Private || version != privateTypeVersion)) {
		return nil, typeNotFound(typeName)
	}
	out := &DescribeTypeOutput{Arn: e.typeArn(d), Type: "RESOURCE", TypeName: d.TypeName, IsDefaultVersion: true,
		Description: d.Description, Schema: string(d.Schema), ProvisioningType: d.ProvisioningType(),
		DeprecatedStatus: "LIVE", Visibility: "PUBLIC"}
	if d.Private {
		out.Arn += "/" + privateTypeVersion
		out.DefaultVersionId, out.TypeTestsStatus, out.Visibility = privateTypeVersion, "NOT_TESTED", "PRIVATE"
	}
	return out, nil
}

// typeAsked is the type name (and version id) a DescribeType asks for:
// TypeName with Type, or Arn.
func (e *Engine) typeAsked(in DescribeTypeInput) (typeName, version string, err error) {
	switch {
	case in.Arn != "" && (in.TypeName != "" || in.Type != ""):
		return "", "", newAPIError(CodeCFNRegistryError, "Specify either TypeName and Type, or Arn, not both")
	case in.Arn != "":
		return e.parseTypeArn(in.Arn)
	case in.TypeName == "" || in.Type == "":
		return "", "", newAPIError(CodeCFNRegistryError, "Specify either TypeName and Type, or Arn")
	case !slices.Contains(registryTypes, in.Type):
		return "", "", enumError(in.Type, "type", registryTypes)
	case in.Type != "RESOURCE":
		return "", "", typeNotFound(in.TypeName)
	}
	return in.TypeName, in.VersionId, nil
}

// The enumerations of the registry's calls, in the model's order.
var (
	registryTypes      = []string{"RESOURCE", "MODULE", "HOOK"}
	visibilities       = []string{"PUBLIC", "PRIVATE"}
	provisioningTypes  = []string{"NON_PROVISIONABLE", "IMMUTABLE", "FULLY_MUTABLE"}
	deprecatedStatuses = []string{"LIVE", "DEPRECATED"}
	typeCategories     = []string{"REGISTERED", "ACTIVATED", "THIRD_PARTY", "AWS_TYPES"}
)

// typeArn is a type's ARN without a version: a public type's has no
// account, a private type's the simulated account's.
func (e *Engine) typeArn(d resources.TypeDescription) string {
	account := ""
	if d.Private {
		account = e.opts.AccountID
	}
	return fmt.Sprintf("arn:%s:cloudformation:%s:%s:type/resource/%s", e.opts.Partition, e.opts.Region, account, resources.TypeArnName(d.TypeName))
}

// parseTypeArn reads a type's ARN (with a version id or without) in the
// simulated partition and region.
func (e *Engine) parseTypeArn(arn string) (typeName, version string, err error) {
	prefix := fmt.Sprintf("arn:%s:cloudformation:%s:", e.opts.Partition, e.opts.Region)
	rest, ok := strings.CutPrefix(arn, prefix)
	account, path, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || (account != "" && account != e.opts.AccountID) || !strings.HasPrefix(path, "type/") {
		return "", "", newAPIError(CodeCFNRegistryError, "Invalid type ARN %s: a type's ARN is %stype/resource/NAME (%s::type/resource/AWS-S3-Bucket)",
			readfile.Excerpt(arn), prefix, strings.TrimSuffix(prefix, ":"))
	}
	name, ok := strings.CutPrefix(path, "type/resource/")
	if !ok { // type/module/..., type/hook/...
		return "", "", typeNotFound(path)
	}
	name, version, _ = strings.Cut(name, "/")
	typeName = strings.ReplaceAll(name, "-", "::")
	return typeName, version, nil
}

// TypeFilters are ListTypes' filters.
type TypeFilters struct {
	Category       string `json:"Category,omitempty"`
	PublisherId    string `json:"PublisherId,omitempty"`
	TypeNamePrefix string `json:"TypeNamePrefix,omitempty"`
}

// ListTypesInput is ListTypes' request.
type ListTypesInput struct {
	Visibility       string       `json:"Visibility,omitempty"`
	ProvisioningType string       `json:"ProvisioningType,omitempty"`
	DeprecatedStatus string       `json:"DeprecatedStatus,omitempty"`
	Type             string       `json:"Type,omitempty"`
	Filters          *TypeFilters `json:"Filters,omitempty"`
	MaxResults       int          `json:"MaxResults,omitempty"`
	NextToken        string       `json:"NextToken,omitempty"`
}

// TypeSummary is one type of ListTypes' answer.
type TypeSummary struct {
	Type             string `json:"Type"`
	TypeName         string `json:"TypeName"`
	DefaultVersionId string `json:"DefaultVersionId,omitempty"`
	TypeArn          string `json:"TypeArn"`
	Description      string `json:"Description,omitempty"`
}

// ListTypesOutput is ListTypes' answer.
type ListTypesOutput struct {
	TypeSummaries []TypeSummary `json:"TypeSummaries"`
	NextToken     string        `json:"NextToken,omitempty"`
}

// ListTypes lists the resource types of a visibility (PRIVATE, the
// default: the account's own types; PUBLIC: the AWS registry's) and a
// provisioning type (FULLY_MUTABLE, the default, or IMMUTABLE), sorted by
// name, a page at a time.
func (e *Engine) ListTypes(_ context.Context, in ListTypesInput) (*ListTypesOutput, error) {
	if err := checkListTypes(&in); err != nil {
		return nil, err
	}
	after := ""
	if in.NextToken != "" {
		parts, err := decodeToken(in.NextToken, "ListTypes", 1)
		if err != nil {
			return nil, err
		}
		after = parts[0]
	}
	size := e.pageSize()
	if in.MaxResults > 0 {
		size = in.MaxResults
	}
	out := &ListTypesOutput{TypeSummaries: []TypeSummary{}}
	if !listsAny(in) {
		return out, nil
	}
	entries, err := e.reg.DescribedTypes()
	if err != nil {
		return nil, err
	}
	for _, t := range entries {
		name := t.TypeName
		if name <= after || t.Private != (in.Visibility == "PRIVATE") || (in.Filters != nil && !strings.HasPrefix(name, in.Filters.TypeNamePrefix)) {
			continue
		}
		d, ok, err := e.reg.DescribeType(name)
		if err != nil {
			return nil, err
		}
		if !ok || d.Private != (in.Visibility == "PRIVATE") || d.ProvisioningType() != in.ProvisioningType {
			continue
		}
		if len(out.TypeSummaries) == size {
			out.NextToken = encodeToken("ListTypes", out.TypeSummaries[size-1].TypeName)
			break
		}
		s := TypeSummary{Type: "RESOURCE", TypeName: name, TypeArn: e.typeArn(d), Description: d.Description}
		if d.Private {
			s.DefaultVersionId = privateTypeVersion
		}
		out.TypeSummaries = append(out.TypeSummaries, s)
	}
	return out, nil
}

// checkListTypes checks ListTypes' enumerations and fills the defaults.
func checkListTypes(in *ListTypesInput) error {
	if in.Visibility == "" {
		in.Visibility = "PRIVATE"
	}
	if in.ProvisioningType == "" {
		in.ProvisioningType = "FULLY_MUTABLE"
	}
	category := ""
	if in.Filters != nil {
		category = in.Filters.Category
	}
	enums := []struct {
		member, value string
		set           []string
	}{
		{"visibility", in.Visibility, visibilities},
		{"provisioningType", in.ProvisioningType, provisioningTypes},
		{"deprecatedStatus", in.DeprecatedStatus, deprecatedStatuses},
		{"type", in.Type, registryTypes},
		{"filters.category", category, typeCategories},
	}
	for _, x := range enums {
		if x.value != "" && !slices.Contains(x.set, x.value) {
			return enumError(x.value, x.member, x.set)
		}
	}
	if in.MaxResults < 0 || in.MaxResults > 100 {
		return ValidationError("1 validation error detected: Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 100", in.MaxResults)
	}
	return nil
}

// listsAny tells whether a ListTypes request can list any type stacksim
// has: resource types, live, and a category that holds the visibility's
// types (AWS_TYPES are public, REGISTERED and THIRD_PARTY private; no
// type is ACTIVATED, and Amazon's types have no publisher id).
func listsAny(in ListTypesInput) bool {
	if (in.Type != "" && in.Type != "RESOURCE") || in.DeprecatedStatus == "DEPRECATED" || in.ProvisioningType == "NON_PROVISIONABLE" {
		return false
	}
	if f := in.Filters; f != nil {
		switch {
		case f.PublisherId != "", f.Category == "ACTIVATED":
			return false
		case f.Category == "AWS_TYPES":
			return in.Visibility == "PUBLIC"
		case f.Category == "REGISTERED", f.Category == "THIRD_PARTY":
			return in.Visibility == "PRIVATE"
		}
	}
	return true
}
