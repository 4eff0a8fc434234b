package main

// knownFaults are the corpus templates that fail for a fault of their own,
// each with the fault. A template listed here that fails is reported but
// does not fail the run; one that passes does (the list is stale), and so
// does any other failure.
var knownFaults = map[string]string{
	"aws-cloudformation-templates/AWSSupplyChain/SapPrivateLink/SapPrivateLink.json": "" +
		"rule SubnetsInVPC asserts Fn::EachMemberEquals over the literal list [Subnets, VpcId] " +
		"(the YAML version has Fn::ValueOf [Subnets, VpcId]); the assertion can never hold",
	"aws-cloudformation-templates/AWSSupplyChain/SapPrivateLink/SapPrivateLinkNoHostedZone.json": "" +
		"same rule as SapPrivateLink.json: Fn::EachMemberEquals over a literal list instead of Fn::ValueOf",
	"aws-cloudformation-templates/CloudFormation/MacrosExamples/Count/event.json":     "a macro invocation event (requestId, fragment), not a template",
	"aws-cloudformation-templates/CloudFormation/MacrosExamples/Count/event_bad.json": "a macro invocation event (requestId, fragment), not a template",
	"cfn-lint-good/core/config_cfn_lint.json":                                         "Resources is empty: CloudFormation requires at least one resource",
	"cfn-lint-good/core/config_cfn_lint.yaml":                                         "Resources is empty: CloudFormation requires at least one resource",
	"cfn-lint-good/core/config_only_i1002.yaml":                                       "Resources is empty: CloudFormation requires at least one resource",
	"cfn-lint-good/core/config_only_i1003.yaml":                                       "Resources is empty: CloudFormation requires at least one resource",
	"cfn-lint-good/core/config_parameters.yaml":                                       "Resources is empty: CloudFormation requires at least one resource",
	"cfn-lint-good/decode/parsing.json":                                               "Resources is empty: CloudFormation requires at least one resource",
	"cfn-lint-good/mappings/name.yaml":                                                "Resources is empty: CloudFormation requires at least one resource",
	"cfn-lint-good/resources/cloudformation/stack_nested.yaml":                        "Resources is empty: CloudFormation requires at least one resource",
	"cfn-lint-good/parameters/default.yaml":                                           "parameter type List<String> does not exist outside AWS::SSM::Parameter::Value<>, and Resources is empty",
	"cfn-lint-good/properties_ec2_vpc.yaml": "" +
		"the default of its AWS::SSM::Parameter::Value<String> parameter names /Infra/VpcCidr, a parameter of its author's account that no template of the corpus makes " +
		"(the command line reads it with --ssm-parameter /Infra/VpcCidr=10.0.0.0/16)",
	"cfn-lint-good/custom/is-defined.yaml":    "top-level section Parameter (for Parameters): CloudFormation refuses unknown sections",
	"cfn-lint-good/functions/sub_needed.yaml": "refers to GreetingLambda, GreetingResource and GreetingApi, which it does not declare",
	"cfn-lint-good/functions_findinmap.yaml": "" +
		"Fn::FindInMap [myMap, !Ref AWS::Region, !Ref AWS::Region]: myMap has no second-level key named after a region, in any region",
	"cfn-lint-good/resources_deletionpolicy.yaml": "" +
		"DeletionPolicy Fn::FindInMap [StackIdMap01, !Ref AWS::StackId, ...]: the keys are teststack1/teststack2, a stack id is an ARN",
	"cfn-lint-good/resources_updatereplacepolicy.yaml": "" +
		"UpdateReplacePolicy Fn::FindInMap [StackIdMap01, !Ref AWS::StackId, ...]: the keys are teststack1/teststack2, a stack id is an ARN",
}
