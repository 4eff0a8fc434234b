// Package api serves stacksim over CloudFormation's own wire API, so that
// the AWS CLI, boto3, the SDKs and CDK drive it unchanged (stacksim serve).
//
// It owns the query protocol: decoding a form-encoded request (Action,
// Version, .member.N lists, maps, nested structures, absent vs present and
// empty) into aws-sdk-go-v2's input structs, checking it against the
// service model's constraints, bridging to the engine's call, and writing
// the answer as AWS writes it, through the Serialize methods that the SDK
// generates over its schemas and one query-XML ShapeSerializer (xml.go):
// no XML is written by hand per operation. Errors are the ErrorResponse
// shape with the code and HTTP status of the model's error shapes. STS's
// GetCallerIdentity and AssumeRole are answered on the same port (sts.go),
// and so are, as much as CloudFormation's clients need of them:
// CloudWatch's SetAlarmState and DescribeAlarms (cloudwatch.go), for the
// alarms that rollback triggers watch, in CloudWatch's three protocols (Smithy RPC v2 CBOR,
// JSON 1.0, query); SSM's GetParameter(s) from the account's parameter
// store (ssm.go, JSON 1.1); S3's object calls over the engine's S3
// directory (s3.go, path-style REST), where CDK stages its templates and
// assets; and the PUT of a wait condition signal to a handle's presigned
// URL (wait_handle.go). It also owns pacing virtual time against the wall clock (instant, realtime, xN) and when the
// state is saved: every call that changes it is saved before it is
// answered.
//
// The model's constraints (lengths, patterns, enums, required members),
// which the SDK's schemas do not carry, are generated from botocore's copy
// of the service model into model_gen.go by api/internal/modelgen (a test
// there checks that the file is current).
//
// It must not know about simulation logic (the engine does it all) or the
// CLI.
package api
