package api

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
)

// DescribeType and ListTypes through the Go SDK: its typed error, its
// paginator, the schema as a JSON document.
func TestSDKRegistry(t *testing.T) {
	ts := newTestServer(t, nil, Options{})
	ctx := context.Background()
	c := ts.cfn

	d := must(c.DescribeType(ctx, &cfn.DescribeTypeInput{Type: types.RegistryTypeResource, TypeName: aws.String("AWS::SQS::Queue")}))
	var schema struct {
		TypeName string `json:"typeName"`
	}
	if err := json.Unmarshal([]byte(aws.ToString(d.Schema)), &schema); err != nil || schema.TypeName != "AWS::SQS::Queue" {
		t.Fatalf("Schema: %v %q", err, aws.ToString(d.Schema))
	}
	if aws.ToString(d.Arn) != "arn:aws:cloudformation:us-east-1::type/resource/AWS-SQS-Queue" || d.Visibility != types.VisibilityPublic ||
		d.ProvisioningType != types.ProvisioningTypeFullyMutable || d.DeprecatedStatus != types.DeprecatedStatusLive || !aws.ToBool(d.IsDefaultVersion) {
		t.Fatalf("DescribeType: %+v", d)
	}

	_, err := c.DescribeType(ctx, &cfn.DescribeTypeInput{Type: types.RegistryTypeResource, TypeName: aws.String("AWS::S3::Buckett")})
	var nf *types.TypeNotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("DescribeType of a missing type: %v", err)
	}
	wantAPIError(t, err, "TypeNotFoundException", "The type 'AWS::S3::Buckett' cannot be found.")

	var names []string
	p := cfn.NewListTypesPaginator(c, &cfn.ListTypesInput{Visibility: types.VisibilityPublic,
		Filters: &types.TypeFilters{Category: types.CategoryAwsTypes, TypeNamePrefix: aws.String("AWS::SNS::")}, MaxResults: aws.Int32(2)})
	for p.HasMorePages() {
		page := must(p.NextPage(ctx))
		for _, s := range page.TypeSummaries {
			names = append(names, aws.ToString(s.TypeName))
		}
	}
	if len(names) < 3 || names[0] != "AWS::SNS::Subscription" {
		t.Fatalf("ListTypes: %v", names)
	}
	private := must(c.ListTypes(ctx, &cfn.ListTypesInput{}))
	if len(private.TypeSummaries) != 0 {
		t.Fatalf("private types of an account with none: %+v", private.TypeSummaries)
	}
}
