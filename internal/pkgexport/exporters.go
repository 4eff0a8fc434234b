package pkgexport

// What `aws cloudformation package` exports, in the AWS CLI's order
// (RESOURCES_EXPORT_LIST and METADATA_EXPORT_LIST of
// awscli/customizations/cloudformation/artifact_exporter.py, AWS CLI
// 1.45): the resource type, the property (a dotted path into Properties),
// and the form the uploaded object takes in the template.

type form int

const (
	formURI   form = iota // the string s3://BUCKET/KEY
	formDict              // a map {BUCKET: ..., KEY: ...} with the exporter's member names
	formStack             // a template, exported itself, as ENDPOINT/BUCKET/KEY.template
)

type exporter struct {
	resourceType, property string
	form                   form
	bucket, key, version   string // member names of formDict
	// packageNull: a missing property packages the template's folder
	// (PACKAGE_NULL_PROPERTY, true unless the exporter says otherwise).
	packageNull bool
	// forceZip: a file that is not a zip is zipped (FORCE_ZIP).
	forceZip bool
}

var resourceExporters = []exporter{
	{resourceType: "AWS::Serverless::Function", property: "CodeUri", form: formURI, packageNull: true, forceZip: true},
	{resourceType: "AWS::Serverless::Api", property: "DefinitionUri", form: formURI},
	{resourceType: "AWS::AppSync::GraphQLSchema", property: "DefinitionS3Location", form: formURI},
	{resourceType: "AWS::AppSync::Resolver", property: "RequestMappingTemplateS3Location", form: formURI},
	{resourceType: "AWS::AppSync::Resolver", property: "ResponseMappingTemplateS3Location", form: formURI},
	{resourceType: "AWS::AppSync::FunctionConfiguration", property: "RequestMappingTemplateS3Location", form: formURI},
	{resourceType: "AWS::AppSync::FunctionConfiguration", property: "ResponseMappingTemplateS3Location", form: formURI},
	{resourceType: "AWS::ApiGateway::RestApi", property: "BodyS3Location", form: formDict, bucket: "Bucket", key: "Key", version: "Version"},
	{resourceType: "AWS::Lambda::Function", property: "Code", form: formDict, bucket: "S3Bucket", key: "S3Key", version: "S3ObjectVersion", packageNull: true, forceZip: true},
	{resourceType: "AWS::ElasticBeanstalk::ApplicationVersion", property: "SourceBundle", form: formDict, bucket: "S3Bucket", key: "S3Key", packageNull: true},
	{resourceType: "AWS::CloudFormation::Stack", property: "TemplateURL", form: formStack, packageNull: true},
	{resourceType: "AWS::Serverless::Application", property: "Location", form: formStack, packageNull: true},
	{resourceType: "AWS::Serverless::LayerVersion", property: "ContentUri", form: formURI, packageNull: true, forceZip: true},
	{resourceType: "AWS::Lambda::LayerVersion", property: "Content", form: formDict, bucket: "S3Bucket", key: "S3Key", version: "S3ObjectVersion", packageNull: true, forceZip: true},
	{resourceType: "AWS::Glue::Job", property: "Command.ScriptLocation", form: formURI, packageNull: true},
	{resourceType: "AWS::StepFunctions::StateMachine", property: "DefinitionS3Location", form: formDict, bucket: "Bucket", key: "Key", version: "Version"},
	{resourceType: "AWS::Serverless::StateMachine", property: "DefinitionUri", form: formDict, bucket: "Bucket", key: "Key", version: "Version"},
	{resourceType: "AWS::CodeCommit::Repository", property: "Code.S3", form: formDict, bucket: "Bucket", key: "Key", version: "ObjectVersion", forceZip: true},
}

// metadataExporters apply to the template's Metadata: the member named
// resourceType.
var metadataExporters = []exporter{
	{resourceType: "AWS::ServerlessRepo::Application", property: "ReadmeUrl", form: formURI},
	{resourceType: "AWS::ServerlessRepo::Application", property: "LicenseUrl", form: formURI},
}
