package resources

import "strings"

// Facts of AWS's identifiers that the registry schemas do not state: the id
// formats of common types, the service names in ARNs, where an ARN has no
// region or account. Templates use the placeholders of simulation
// ({$hex:17}, {$upper:13}, {$Region}...). A generated value is always
// checked against the schema (pattern, lengths); a template that does not
// fit gives way to one generated from the pattern.

// ownIDs are the formats of the ids AWS gives resources of a type (the
// value of an id-like primary identifier, or of a read-only Id attribute).
// EC2 types not listed get their prefix from ec2Prefix.
var ownIDs = map[string]string{
	"AWS::EC2::EIP":                                   "eipalloc-{$hex:17}",
	"AWS::EC2::EIPAssociation":                        "eipassoc-{$hex:17}",
	"AWS::EC2::NatGateway":                            "nat-{$hex:17}",
	"AWS::EC2::KeyPair":                               "key-{$hex:17}",
	"AWS::EC2::TransitGatewayAttachment":              "tgw-attach-{$hex:17}",
	"AWS::EC2::TransitGatewayVpcAttachment":           "tgw-attach-{$hex:17}",
	"AWS::EC2::TransitGatewayPeeringAttachment":       "tgw-attach-{$hex:17}",
	"AWS::EC2::TransitGatewayConnect":                 "tgw-attach-{$hex:17}",
	"AWS::EC2::TransitGatewayRouteTable":              "tgw-rtb-{$hex:17}",
	"AWS::EC2::TransitGatewayMulticastDomain":         "tgw-mcast-domain-{$hex:17}",
	"AWS::EC2::SubnetRouteTableAssociation":           "rtbassoc-{$hex:17}",
	"AWS::EC2::GatewayRouteTableAssociation":          "rtbassoc-{$hex:17}",
	"AWS::EC2::SubnetNetworkAclAssociation":           "aclassoc-{$hex:17}",
	"AWS::EC2::SubnetCidrBlock":                       "subnet-cidr-assoc-{$hex:17}",
	"AWS::EC2::VPCCidrBlock":                          "vpc-cidr-assoc-{$hex:17}",
	"AWS::EC2::SecurityGroupIngress":                  "sgr-{$hex:17}",
	"AWS::EC2::SecurityGroupEgress":                   "sgr-{$hex:17}",
	"AWS::EC2::FlowLog":                               "fl-{$hex:17}",
	"AWS::EC2::VPCEndpointService":                    "vpce-svc-{$hex:17}",
	"AWS::EC2::VPCEndpoint":                           "vpce-{$hex:17}",
	"AWS::EC2::ClientVpnEndpoint":                     "cvpn-endpoint-{$hex:17}",
	"AWS::EC2::VPNConnection":                         "vpn-{$hex:17}",
	"AWS::EC2::VPNGateway":                            "vgw-{$hex:17}",
	"AWS::EC2::CustomerGateway":                       "cgw-{$hex:17}",
	"AWS::EC2::CarrierGateway":                        "cagw-{$hex:17}",
	"AWS::EC2::LaunchTemplate":                        "lt-{$hex:17}",
	"AWS::EC2::EC2Fleet":                              "fleet-{$uuid}",
	"AWS::EC2::SpotFleet":                             "sfr-{$uuid}",
	"AWS::EC2::IPAM":                                  "ipam-{$hex:17}",
	"AWS::EC2::IPAMPool":                              "ipam-pool-{$hex:17}",
	"AWS::EC2::IPAMScope":                             "ipam-scope-{$hex:17}",
	"AWS::EC2::VPCPeeringConnection":                  "pcx-{$hex:17}",
	"AWS::EC2::DHCPOptions":                           "dopt-{$hex:17}",
	"AWS::EC2::Volume":                                "vol-{$hex:17}",
	"AWS::EC2::NetworkInterface":                      "eni-{$hex:17}",
	"AWS::EC2::NetworkInterfaceAttachment":            "eni-attach-{$hex:17}",
	"AWS::EC2::NetworkAcl":                            "acl-{$hex:17}",
	"AWS::EC2::PrefixList":                            "pl-{$hex:17}",
	"AWS::EC2::EgressOnlyInternetGateway":             "eigw-{$hex:17}",
	"AWS::EC2::TransitGateway":                        "tgw-{$hex:17}",
	"AWS::EC2::CapacityReservation":                   "cr-{$hex:17}",
	"AWS::EC2::Host":                                  "h-{$hex:17}",
	"AWS::EC2::InstanceConnectEndpoint":               "eice-{$hex:17}",
	"AWS::EC2::TrafficMirrorFilter":                   "tmf-{$hex:17}",
	"AWS::EC2::TrafficMirrorSession":                  "tms-{$hex:17}",
	"AWS::EC2::TrafficMirrorTarget":                   "tmt-{$hex:17}",
	"AWS::EC2::LocalGatewayRoute":                     "lgw-rtb-{$hex:17}",
	"AWS::EC2::NetworkInsightsPath":                   "nip-{$hex:17}",
	"AWS::EC2::NetworkInsightsAnalysis":               "nia-{$hex:17}",
	"AWS::EC2::VerifiedAccessInstance":                "vai-{$hex:17}",
	"AWS::EC2::VerifiedAccessGroup":                   "vagr-{$hex:17}",
	"AWS::EC2::VerifiedAccessEndpoint":                "vae-{$hex:17}",
	"AWS::EC2::VerifiedAccessTrustProvider":           "vatp-{$hex:17}",
	"AWS::EC2::RouteServer":                           "rs-{$hex:17}",
	"AWS::EC2::Snapshot":                              "snap-{$hex:17}",
	"AWS::EFS::FileSystem":                            "fs-{$hex:17}",
	"AWS::EFS::MountTarget":                           "fsmt-{$hex:17}",
	"AWS::EFS::AccessPoint":                           "fsap-{$hex:17}",
	"AWS::FSx::FileSystem":                            "fs-{$hex:17}",
	"AWS::ImageBuilder::Image":                        "ami-{$hex:17}",
	"AWS::Cognito::UserPool":                          "{$Region}_{$mixed:9}",
	"AWS::Cognito::IdentityPool":                      "{$Region}:{$uuid}",
	"AWS::Cognito::UserPoolClient":                    "{$lower:26}",
	"AWS::CloudFront::Distribution":                   "E{$upper:13}",
	"AWS::CloudFront::CloudFrontOriginAccessIdentity": "E{$upper:13}",
	"AWS::CloudFront::OriginAccessControl":            "E{$upper:13}",
	"AWS::CloudFront::StreamingDistribution":          "E{$upper:13}",
	"AWS::CloudFront::Function":                       "{$StackName}-{$LogicalId}-{$upper:13}",
	"AWS::Route53::HostedZone":                        "Z{$upper:20}",
	"AWS::Route53::HealthCheck":                       "{$uuid}",
	"AWS::DirectoryService::MicrosoftAD":              "d-{$hex:10}",
	"AWS::DirectoryService::SimpleAD":                 "d-{$hex:10}",
	"AWS::ApiGateway::Resource":                       "{$lower:6}",
	"AWS::ApiGateway::Deployment":                     "{$lower:6}",
	"AWS::ApiGateway::Authorizer":                     "{$lower:6}",
	"AWS::ApiGateway::RequestValidator":               "{$lower:6}",
	"AWS::ApiGateway::ApiKey":                         "{$lower:10}",
	"AWS::ApiGateway::UsagePlan":                      "{$lower:6}",
	"AWS::ApiGateway::VpcLink":                        "{$lower:6}",
	"AWS::ApiGateway::ClientCertificate":              "{$lower:6}",
	"AWS::ApiGatewayV2::Api":                          "{$lower:10}",
	"AWS::ApiGatewayV2::Route":                        "{$lower:7}",
	"AWS::ApiGatewayV2::Integration":                  "{$lower:7}",
	"AWS::ApiGatewayV2::Authorizer":                   "{$lower:6}",
	"AWS::ApiGatewayV2::Deployment":                   "{$lower:6}",
	"AWS::ApiGatewayV2::VpcLink":                      "{$lower:6}",
	"AWS::AppSync::GraphQLApi":                        "{$lower:26}",
	"AWS::AppSync::ApiKey":                            "da2-{$lower:26}",
	"AWS::GuardDuty::Detector":                        "{$hex:32}",
	"AWS::Lambda::EventSourceMapping":                 "{$uuid}",
	"AWS::AppConfig::Application":                     "{$lower:7}",
	"AWS::AppConfig::Environment":                     "{$lower:7}",
	"AWS::AppConfig::ConfigurationProfile":            "{$lower:7}",
	"AWS::AppConfig::DeploymentStrategy":              "{$lower:7}",
	"AWS::ServiceDiscovery::PrivateDnsNamespace":      "ns-{$lower:16}",
	"AWS::ServiceDiscovery::PublicDnsNamespace":       "ns-{$lower:16}",
	"AWS::ServiceDiscovery::HttpNamespace":            "ns-{$lower:16}",
	"AWS::ServiceDiscovery::Service":                  "srv-{$lower:16}",
	"AWS::AmazonMQ::Broker":                           "b-{$uuid}",
	"AWS::Transfer::Server":                           "s-{$hex:17}",
	"AWS::WorkSpaces::Workspace":                      "ws-{$lower:9}",
	"AWS::SSM::MaintenanceWindow":                     "mw-{$hex:17}",
	"AWS::SSM::Association":                           "{$uuid}",
	"AWS::IAM::AccessKey":                             "AKIA{$upper:16}",
	"AWS::Backup::BackupPlan":                         "{$uuid}",
	"AWS::Budgets::Budget":                            "{$StackName}-{$LogicalId}-{$upper:13}",
	"Alexa::ASK::Skill":                               "amzn1.ask.skill.{$uuid}",
	"AWS::CertificateManager::Certificate":            "arn:{$Partition}:acm:{$Region}:{$AccountId}:certificate/{$uuid}",
	"AWS::WAFv2::WebACL":                              "{$uuid}",
	"AWS::WAFv2::IPSet":                               "{$uuid}",
	"AWS::WAFv2::RuleGroup":                           "{$uuid}",
	"AWS::WAFv2::RegexPatternSet":                     "{$uuid}",
}

// ownARNs are the ARN formats of types whose ARNs the general shape
// (arn:PARTITION:SERVICE:REGION:ACCOUNT:KIND/ID) does not give; {$id} is
// the resource's id or name.
var ownARNs = map[string]string{
	"AWS::ElasticLoadBalancingV2::LoadBalancer": "arn:{$Partition}:elasticloadbalancing:{$Region}:{$AccountId}:loadbalancer/app/{$id}/{$hex:16}",
	"AWS::ElasticLoadBalancingV2::TargetGroup":  "arn:{$Partition}:elasticloadbalancing:{$Region}:{$AccountId}:targetgroup/{$id}/{$hex:16}",
	"AWS::ECS::CapacityProvider":                "arn:{$Partition}:ecs:{$Region}:{$AccountId}:capacity-provider/{$id}",
	"AWS::CertificateManager::Certificate":      "arn:{$Partition}:acm:{$Region}:{$AccountId}:certificate/{$uuid}",
	"AWS::Cognito::UserPool":                    "arn:{$Partition}:cognito-idp:{$Region}:{$AccountId}:userpool/{$id}",
	"AWS::StepFunctions::Activity":              "arn:{$Partition}:states:{$Region}:{$AccountId}:activity:{$id}",
	"AWS::SNS::Topic":                           "arn:{$Partition}:sns:{$Region}:{$AccountId}:{$id}",
	"AWS::SQS::Queue":                           "arn:{$Partition}:sqs:{$Region}:{$AccountId}:{$id}",
	"AWS::Lambda::LayerVersion":                 "arn:{$Partition}:lambda:{$Region}:{$AccountId}:layer:{$id}:1",
	"AWS::Kinesis::Stream":                      "arn:{$Partition}:kinesis:{$Region}:{$AccountId}:stream/{$id}",
	"AWS::KinesisFirehose::DeliveryStream":      "arn:{$Partition}:firehose:{$Region}:{$AccountId}:deliverystream/{$id}",
	"AWS::Batch::JobQueue":                      "arn:{$Partition}:batch:{$Region}:{$AccountId}:job-queue/{$id}",
	"AWS::Batch::JobDefinition":                 "arn:{$Partition}:batch:{$Region}:{$AccountId}:job-definition/{$id}:1",
	"AWS::Batch::ComputeEnvironment":            "arn:{$Partition}:batch:{$Region}:{$AccountId}:compute-environment/{$id}",
	"AWS::CodeBuild::Project":                   "arn:{$Partition}:codebuild:{$Region}:{$AccountId}:project/{$id}",
	"AWS::CodePipeline::Pipeline":               "arn:{$Partition}:codepipeline:{$Region}:{$AccountId}:{$id}",
	"AWS::Glue::Job":                            "arn:{$Partition}:glue:{$Region}:{$AccountId}:job/{$id}",
	"AWS::Athena::WorkGroup":                    "arn:{$Partition}:athena:{$Region}:{$AccountId}:workgroup/{$id}",
	"AWS::ECS::Cluster":                         "arn:{$Partition}:ecs:{$Region}:{$AccountId}:cluster/{$id}",
	"AWS::EKS::Cluster":                         "arn:{$Partition}:eks:{$Region}:{$AccountId}:cluster/{$id}",
	"AWS::RDS::DBCluster":                       "arn:{$Partition}:rds:{$Region}:{$AccountId}:cluster:{$id}",
	"AWS::RDS::DBSubnetGroup":                   "arn:{$Partition}:rds:{$Region}:{$AccountId}:subgrp:{$id}",
	"AWS::ElastiCache::CacheCluster":            "arn:{$Partition}:elasticache:{$Region}:{$AccountId}:cluster:{$id}",
	"AWS::Events::EventBus":                     "arn:{$Partition}:events:{$Region}:{$AccountId}:event-bus/{$id}",
	"AWS::Scheduler::Schedule":                  "arn:{$Partition}:scheduler:{$Region}:{$AccountId}:schedule/default/{$id}",
	"AWS::DynamoDB::GlobalTable":                "arn:{$Partition}:dynamodb:{$Region}:{$AccountId}:table/{$id}",
	"AWS::IAM::User":                            "arn:{$Partition}:iam::{$AccountId}:user/{$id}",
	"AWS::IAM::Group":                           "arn:{$Partition}:iam::{$AccountId}:group/{$id}",
	"AWS::IAM::ServiceLinkedRole":               "arn:{$Partition}:iam::{$AccountId}:role/aws-service-role/{$id}",
	"AWS::IAM::OIDCProvider":                    "arn:{$Partition}:iam::{$AccountId}:oidc-provider/{$id}",
	"AWS::IAM::SAMLProvider":                    "arn:{$Partition}:iam::{$AccountId}:saml-provider/{$id}",
	"AWS::S3::AccessPoint":                      "arn:{$Partition}:s3:{$Region}:{$AccountId}:accesspoint/{$id}",
	"AWS::Route53::HostedZone":                  "arn:{$Partition}:route53:::hostedzone/{$id}",
	"AWS::CloudFront::Distribution":             "arn:{$Partition}:cloudfront::{$AccountId}:distribution/{$id}",
}

// arnServices are the service names ARNs use where they differ from the
// type's namespace lower-cased.
var arnServices = map[string]string{
	"elasticloadbalancingv2": "elasticloadbalancing", "efs": "elasticfilesystem", "cognito": "cognito-idp",
	"stepfunctions": "states", "certificatemanager": "acm", "kinesisfirehose": "firehose",
	"opensearchservice": "es", "elasticsearch": "es", "docdb": "rds", "neptune": "rds", "msk": "kafka",
	"amazonmq": "mq", "apigatewayv2": "apigateway", "kinesisanalyticsv2": "kinesisanalytics",
	"ssmcontacts": "ssm-contacts", "ssmincidents": "ssm-incidents", "eventschemas": "schemas",
	"servicecatalog": "catalog", "codestarconnections": "codestar-connections",
	"codestarnotifications": "codestar-notifications", "wafregional": "waf-regional",
	"resourcegroups": "resource-groups", "directoryservice": "ds", "elasticbeanstalk": "elasticbeanstalk",
	"applicationautoscaling": "application-autoscaling", "sso": "sso", "lex": "lex",
	"iotevents": "iotevents", "route53resolver": "route53resolver", "networkfirewall": "network-firewall",
	"serverless": "lambda", "sam": "lambda", "emr": "elasticmapreduce", "emrcontainers": "emr-containers",
	"emrserverless": "emr-serverless", "ram": "ram", "appintegrations": "app-integrations",
	"cloudwatch": "cloudwatch", "kendra": "kendra", "lakeformation": "lakeformation",
	"opensearchserverless": "aoss", "billingconductor": "billingconductor", "redshiftserverless": "redshift-serverless",
}

// globalServices have ARNs without a region (and, for the last ones,
// without an account).
var (
	noRegionServices  = map[string]bool{"iam": true, "cloudfront": true, "route53": true, "waf": true, "organizations": true, "sts": true, "globalaccelerator": true, "shield": true}
	noAccountServices = map[string]bool{"s3": true, "route53": true}
)

// foreignARNs are the ARN formats of what a property named STEMArn (or with
// format T.Arn) refers to, by stem lower-cased; {$id} is a generated name.
var foreignARNs = map[string]string{
	"role":             "arn:{$Partition}:iam::{$AccountId}:role/{$id}",
	"executionrole":    "arn:{$Partition}:iam::{$AccountId}:role/{$id}",
	"servicerole":      "arn:{$Partition}:iam::{$AccountId}:role/{$id}",
	"iamrole":          "arn:{$Partition}:iam::{$AccountId}:role/{$id}",
	"user":             "arn:{$Partition}:iam::{$AccountId}:user/{$id}",
	"instanceprofile":  "arn:{$Partition}:iam::{$AccountId}:instance-profile/{$id}",
	"policy":           "arn:{$Partition}:iam::{$AccountId}:policy/{$id}",
	"kmskey":           "arn:{$Partition}:kms:{$Region}:{$AccountId}:key/{$uuid}",
	"key":              "arn:{$Partition}:kms:{$Region}:{$AccountId}:key/{$uuid}",
	"kms":              "arn:{$Partition}:kms:{$Region}:{$AccountId}:key/{$uuid}",
	"kmskeyid":         "arn:{$Partition}:kms:{$Region}:{$AccountId}:key/{$uuid}",
	"encryptionkey":    "arn:{$Partition}:kms:{$Region}:{$AccountId}:key/{$uuid}",
	"topic":            "arn:{$Partition}:sns:{$Region}:{$AccountId}:{$id}",
	"snstopic":         "arn:{$Partition}:sns:{$Region}:{$AccountId}:{$id}",
	"queue":            "arn:{$Partition}:sqs:{$Region}:{$AccountId}:{$id}",
	"function":         "arn:{$Partition}:lambda:{$Region}:{$AccountId}:function:{$id}",
	"lambda":           "arn:{$Partition}:lambda:{$Region}:{$AccountId}:function:{$id}",
	"lambdafunction":   "arn:{$Partition}:lambda:{$Region}:{$AccountId}:function:{$id}",
	"loggroup":         "arn:{$Partition}:logs:{$Region}:{$AccountId}:log-group:{$id}",
	"bucket":           "arn:{$Partition}:s3:::{$id!lower}",
	"s3bucket":         "arn:{$Partition}:s3:::{$id!lower}",
	"certificate":      "arn:{$Partition}:acm:{$Region}:{$AccountId}:certificate/{$uuid}",
	"secret":           "arn:{$Partition}:secretsmanager:{$Region}:{$AccountId}:secret:{$id}-{$mixed:6}",
	"stream":           "arn:{$Partition}:kinesis:{$Region}:{$AccountId}:stream/{$id}",
	"kinesisstream":    "arn:{$Partition}:kinesis:{$Region}:{$AccountId}:stream/{$id}",
	"statemachine":     "arn:{$Partition}:states:{$Region}:{$AccountId}:stateMachine:{$id}",
	"table":            "arn:{$Partition}:dynamodb:{$Region}:{$AccountId}:table/{$id}",
	"cluster":          "arn:{$Partition}:ecs:{$Region}:{$AccountId}:cluster/{$id}",
	"eventbus":         "arn:{$Partition}:events:{$Region}:{$AccountId}:event-bus/{$id}",
	"firehose":         "arn:{$Partition}:firehose:{$Region}:{$AccountId}:deliverystream/{$id}",
	"deliverystream":   "arn:{$Partition}:firehose:{$Region}:{$AccountId}:deliverystream/{$id}",
	"userpool":         "arn:{$Partition}:cognito-idp:{$Region}:{$AccountId}:userpool/{$Region}_{$mixed:9}",
	"targetgroup":      "arn:{$Partition}:elasticloadbalancing:{$Region}:{$AccountId}:targetgroup/{$id}/{$hex:16}",
	"loadbalancer":     "arn:{$Partition}:elasticloadbalancing:{$Region}:{$AccountId}:loadbalancer/app/{$id}/{$hex:16}",
	"listener":         "arn:{$Partition}:elasticloadbalancing:{$Region}:{$AccountId}:listener/app/{$id}/{$hex:16}/{$hex:16}",
	"vpc":              "arn:{$Partition}:ec2:{$Region}:{$AccountId}:vpc/vpc-{$hex:17}",
	"subnet":           "arn:{$Partition}:ec2:{$Region}:{$AccountId}:subnet/subnet-{$hex:17}",
	"securitygroup":    "arn:{$Partition}:ec2:{$Region}:{$AccountId}:security-group/sg-{$hex:17}",
	"workgroup":        "arn:{$Partition}:athena:{$Region}:{$AccountId}:workgroup/{$id}",
	"repository":       "arn:{$Partition}:ecr:{$Region}:{$AccountId}:repository/{$id!lower}",
	"project":          "arn:{$Partition}:codebuild:{$Region}:{$AccountId}:project/{$id}",
	"webacl":           "arn:{$Partition}:wafv2:{$Region}:{$AccountId}:regional/webacl/{$id}/{$uuid}",
	"ipset":            "arn:{$Partition}:wafv2:{$Region}:{$AccountId}:regional/ipset/{$id}/{$uuid}",
	"alarm":            "arn:{$Partition}:cloudwatch:{$Region}:{$AccountId}:alarm:{$id}",
	"acl":              "arn:{$Partition}:wafv2:{$Region}:{$AccountId}:regional/webacl/{$id}/{$uuid}",
	"layer":            "arn:{$Partition}:lambda:{$Region}:{$AccountId}:layer:{$id}",
	"layerversion":     "arn:{$Partition}:lambda:{$Region}:{$AccountId}:layer:{$id}:1",
	"hostedzone":       "arn:{$Partition}:route53:::hostedzone/Z{$upper:20}",
	"profile":          "arn:{$Partition}:iam::{$AccountId}:instance-profile/{$id}",
	"dbcluster":        "arn:{$Partition}:rds:{$Region}:{$AccountId}:cluster:{$id!lower}",
	"dbinstance":       "arn:{$Partition}:rds:{$Region}:{$AccountId}:db:{$id!lower}",
	"domain":           "arn:{$Partition}:es:{$Region}:{$AccountId}:domain/{$id!lower}",
	"api":              "arn:{$Partition}:apigateway:{$Region}::/apis/{$lower:10}",
	"restapi":          "arn:{$Partition}:apigateway:{$Region}::/restapis/{$lower:10}",
	"distribution":     "arn:{$Partition}:cloudfront::{$AccountId}:distribution/E{$upper:13}",
	"graphqlapi":       "arn:{$Partition}:appsync:{$Region}:{$AccountId}:apis/{$lower:26}",
	"connection":       "arn:{$Partition}:codestar-connections:{$Region}:{$AccountId}:connection/{$uuid}",
	"pipeline":         "arn:{$Partition}:codepipeline:{$Region}:{$AccountId}:{$id}",
	"schedulegroup":    "arn:{$Partition}:scheduler:{$Region}:{$AccountId}:schedule-group/{$id}",
	"taskdefinition":   "arn:{$Partition}:ecs:{$Region}:{$AccountId}:task-definition/{$id}:1",
	"service":          "arn:{$Partition}:ecs:{$Region}:{$AccountId}:service/{$StackName}/{$id}",
	"capacityprovider": "arn:{$Partition}:ecs:{$Region}:{$AccountId}:capacity-provider/{$id}",
	"vault":            "arn:{$Partition}:backup:{$Region}:{$AccountId}:backup-vault:{$id}",
	"backupvault":      "arn:{$Partition}:backup:{$Region}:{$AccountId}:backup-vault:{$id}",
}

// arnServiceOf is the service of a type's ARNs (ec2 for AWS::EC2::VPC).
func arnServiceOf(typeName string) string {
	ns := strings.ToLower(namespaceOf(typeName))
	if s, ok := arnServices[ns]; ok {
		return s
	}
	return ns
}

// namespaceOf is the middle part of a type name (EC2 of AWS::EC2::VPC).
func namespaceOf(typeName string) string {
	parts := strings.Split(typeName, "::")
	if len(parts) == 3 {
		return parts[1]
	}
	return typeName
}

// ownIDTemplate is the id format of a type, "" when stacksim knows none.
func ownIDTemplate(typeName string) string {
	if t, ok := ownIDs[typeName]; ok {
		return t
	}
	if namespaceOf(typeName) == "EC2" {
		if p, ok := ec2KnownPrefixes[resourceOf(typeName)]; ok {
			return p + "-{$hex:17}"
		}
	}
	return ""
}

// foreignIDTemplate is the id format of what a property named STEMId
// refers to (VpcId → vpc-...), "" when stacksim knows none.
func foreignIDTemplate(stem string) string {
	if t := foreignIDExact(stem); t != "" {
		return t
	}
	// PrivateSubnet, SourceSecurityGroup: what the stem ends with, when it
	// names one thing (a ReplicationGroup is no security group)
	for i := 1; i < len(stem); i++ {
		if stem[i] >= 'A' && stem[i] <= 'Z' && suffixStems[stem[i:]] {
			return foreignIDExact(stem[i:])
		}
	}
	return ""
}

// suffixStems are the stems a longer stem may end with and still name the
// same thing (PrivateSubnet, DefaultSecurityGroup, PeerVpc).
var suffixStems = map[string]bool{
	"Subnet": true, "Vpc": true, "VPC": true, "SecurityGroup": true, "RouteTable": true, "NetworkInterface": true,
	"Volume": true, "InternetGateway": true, "NatGateway": true, "TransitGateway": true, "KeyPair": true,
	"PrefixList": true, "LaunchTemplate": true, "NetworkAcl": true, "VPCEndpoint": true, "VpcEndpoint": true,
	"HostedZone": true, "FileSystem": true, "UserPool": true,
}

func foreignIDExact(stem string) string {
	if p, ok := ec2KnownPrefixes[stem]; ok && len(stem) > 2 {
		return p + "-{$hex:17}"
	}
	switch strings.ToLower(stem) {
	case "account", "owner", "owneraccount", "awsaccount", "sourceaccount":
		return "{$AccountId}"
	case "hostedzone":
		return "Z{$upper:20}"
	case "image", "ami":
		return "ami-{$hex:17}"
	case "snapshot":
		return "snap-{$hex:17}"
	case "filesystem":
		return "fs-{$hex:17}"
	case "userpool":
		return "{$Region}_{$mixed:9}"
	case "directory":
		return "d-{$hex:10}"
	case "kmskey", "key", "kms":
		return "{$uuid}"
	case "distribution":
		return "E{$upper:13}"
	case "restapi", "api":
		return "{$lower:10}"
	}
	return ""
}
