package corpus

import "fmt"

// The templates of the corpus that do not create, each with why: a fault
// of the template (CloudFormation refuses or fails it as well), an input
// stacksim cannot have, or an input of its author's that the run stands
// in for (it creates with the stand-in, and not without). `make
// corpus-create` checks the list both ways: a template that does not
// create and is not listed is a failure of the run (a stacksim bug, or a
// verdict to write), and so is a listed template that creates (the list is
// stale). `make corpus` reads the entries marked Validation: those the
// template package refuses already.

// Verdict is why a template does not create.
type Verdict int

const (
	// TemplateFault: the template is wrong; CloudFormation refuses or
	// fails it too.
	TemplateFault Verdict = iota + 1
	// CannotHave: the template needs an input stacksim cannot have: a
	// local artefact the corpus does not hold (so `stacksim package`
	// cannot upload it), an S3 object of its author's, an export or a
	// parameter no stack
	// of the corpus makes, a macro whose function's code is not in the
	// corpus (the run's macros answer what they are given), a type or a
	// module registered in its author's account.
	CannotHave
	// StandIn: the template creates once the run stands in for what its
	// author had (cmd/internal/corpuscreate's standins.go and macros.go):
	// code beside it that the corpus does not hold, the function of one of
	// AWS's sample macros. corpuscreate checks that it creates with
	// stand-ins and counts it as not created with -no-stand-ins.
	StandIn
)

func (v Verdict) String() string {
	switch v {
	case TemplateFault:
		return "template fault"
	case CannotHave:
		return "an input stacksim cannot have"
	case StandIn:
		return "an input of its author's, given a stand-in"
	}
	return "unknown verdict"
}

// Plural names the verdict for n templates ("3 template faults").
func (v Verdict) Plural(n int) string {
	if n == 1 {
		return "1 " + v.String()
	}
	switch v {
	case TemplateFault:
		return fmt.Sprintf("%d template faults", n)
	case CannotHave:
		return fmt.Sprintf("%d inputs stacksim cannot have", n)
	case StandIn:
		return fmt.Sprintf("%d inputs of their authors', given stand-ins", n)
	}
	return fmt.Sprintf("%d %s", n, v)
}

// Why a template does not create.
type Why struct {
	Verdict Verdict
	Reason  string
	// Validation: the template package refuses it already (`make corpus`
	// fails it too).
	Validation bool
}

// Unmade are the corpus templates that do not create, by path relative to
// the corpus directory.
var Unmade = unmade()

const (
	aws  = "aws-cloudformation-templates/"
	lint = "cfn-lint-good/"
	mx   = aws + "CloudFormation/MacrosExamples/"
)

func unmade() map[string]Why {
	m := map[string]Why{}
	add := func(v Verdict, validation bool, reason string, files ...string) {
		for _, f := range files {
			if _, dup := m[f]; dup {
				panic("corpus: " + f + " is listed twice")
			}
			m[f] = Why{Verdict: v, Reason: reason, Validation: validation}
		}
	}
	// both is a template written twice, as JSON and as YAML.
	both := func(base string) []string { return []string{base + ".json", base + ".yaml"} }

	// Faults of the templates.
	add(TemplateFault, true, "rule SubnetsInVPC asserts Fn::EachMemberEquals over the literal list [Subnets, VpcId] "+
		"(the YAML version has Fn::ValueOf [Subnets, VpcId]); the assertion can never hold",
		aws+"AWSSupplyChain/SapPrivateLink/SapPrivateLink.json", aws+"AWSSupplyChain/SapPrivateLink/SapPrivateLinkNoHostedZone.json")
	add(TemplateFault, true, "a macro invocation event (requestId, fragment), not a template",
		mx+"Count/event.json", mx+"Count/event_bad.json")
	add(TemplateFault, true, "Resources is empty: CloudFormation requires at least one resource",
		lint+"core/config_cfn_lint.json", lint+"core/config_cfn_lint.yaml", lint+"core/config_only_i1002.yaml",
		lint+"core/config_only_i1003.yaml", lint+"core/config_parameters.yaml", lint+"decode/parsing.json",
		lint+"mappings/name.yaml", lint+"resources/cloudformation/stack_nested.yaml")
	add(TemplateFault, true, "parameter type List<String> does not exist outside AWS::SSM::Parameter::Value<>, and Resources is empty",
		lint+"parameters/default.yaml")
	add(TemplateFault, true, "top-level section Parameter (for Parameters): CloudFormation refuses unknown sections",
		lint+"custom/is-defined.yaml")
	add(TemplateFault, true, "refers to GreetingLambda, GreetingResource and GreetingApi, which it does not declare",
		lint+"functions/sub_needed.yaml")
	add(TemplateFault, true, "Fn::FindInMap [myMap, !Ref AWS::Region, !Ref AWS::Region]: myMap has no second-level key named after a region, in any region",
		lint+"functions_findinmap.yaml")
	add(TemplateFault, true, "DeletionPolicy Fn::FindInMap [StackIdMap01, !Ref AWS::StackId, ...]: the keys are teststack1/teststack2, a stack id is an ARN",
		lint+"resources_deletionpolicy.yaml", lint+"resources_updatereplacepolicy.yaml")
	add(TemplateFault, false, "CloudwatchLogsGroup's KmsKeyId is !Ref LogsKmsKey, an AWS::KMS::Key's key id: AWS::Logs::LogGroup "+
		"takes the key's ARN (its pattern ^arn:...:kms:...:(key|alias)/.+\\Z), and AWS fails it so: \"Model validation failed "+
		"(#/KmsKeyId: failed validation constraint for keyword [pattern])\" (cloudformation-resource-schema#119)",
		both(aws+"ECS/ECS_Schedule_Example")...)
	add(TemplateFault, false, "several AWS::AppMesh::Mesh resources get the same MeshName (Value1) from the mapping: a mesh's name "+
		"is its identity in the account (its ARN ends mesh/NAME), so CloudFormation fails all but one with AlreadyExists",
		lint+"functions_findinmap_default_value.yaml", lint+"functions_findinmap_enhanced.yaml")
	add(TemplateFault, false, "WaitHandle's UpdateReplacePolicy is Fn::FindInMap [StackIdMap01, !Ref AWS::StackId, DeletionPolicy]: "+
		"the keys are teststack1/teststack2, a stack id is an ARN (its SSM default /network/vpc/primary/id given, as --ssm-parameter gives it)",
		lint+"transform/language_extension.yaml")
	add(TemplateFault, false, "LambdaFunctionTestNotDefinedFromParent's Environment.Variables is !GetAtt LambdaExecutionRole.Arn, a string: "+
		"AWS::Lambda::Function takes an object of variables (packaged first: Code: ./ is its own folder)",
		lint+"custom/is-not-defined.yaml")
	add(TemplateFault, false, "cidrBlockAllowedPattern is both myVpc1's CidrBlock (a VPC's block is /16 to /28) and the block of "+
		"Fn::Cidr [!Ref cidrBlockAllowedPattern, 3, 16] (three /16 subnets, which need a /14 or wider): no value is both "+
		"(its SSM default /Infra/VpcCidr given, as --ssm-parameter gives it)", lint+"properties_ec2_vpc.yaml")
	add(TemplateFault, false, "AMIIDLookup's Role is Fn::If [isPrimary, ..., AWS::NoValue], and isPrimary (Fn::Equals [!Ref AWS::NoValue, us-east-1]) never holds: "+
		"AWS::Lambda::Function requires Role", lint+"functions/relationship_conditions.yaml")
	add(TemplateFault, false, "ImageFunctionWithImageUri has an ImageUri but no PackageType: Image, so the SAM translator takes it for a Zip function "+
		"and wants InlineCode or CodeUri (and ImageFunction's image, from a local DockerContext, was never built or pushed: it has no ImageUri)",
		lint+"resources/lambda/sam_required_properties.yaml")
	add(TemplateFault, false, "FunctionC has neither InlineCode nor CodeUri (nor Globals for them): the SAM translator refuses it",
		lint+"functions/relationship_conditions_sam.yaml")
	add(TemplateFault, false, "App2's Location names a Serverless Application Repository application without its required SemanticVersion "+
		"(and App1's Location, ./step_function_local_definition.yaml, names a DefinitionUri ./test.json the corpus does not hold, "+
		"so `aws cloudformation package` refuses the template)", lint+"transform/applications_location.yaml")

	// Local artefacts the corpus does not hold (the run packages the
	// templates whose artefacts it holds, and stands in for code).
	add(StandIn, false, "a SAM function (or layer, or state machine) whose code is a local path (CodeUri/ContentUri/DefinitionUri) "+
		"the corpus does not hold: its author's code, given a stand-in and packaged (without it, `aws cloudformation package` cannot "+
		"upload it, and CloudFormation's SAM transform refuses a path that is not an S3 URI)",
		mx+"Boto3/macro.json", mx+"Boto3/macro.yaml", mx+"Count/template.json", mx+"Count/template.yaml",
		mx+"ExecutionRoleBuilder/macro.json", mx+"ExecutionRoleBuilder/macro.yaml", mx+"Explode/macro.json", mx+"Explode/macro.yaml",
		mx+"S3Objects/macro.json", mx+"S3Objects/macro.yaml", mx+"StackMetrics/macro.json", mx+"StackMetrics/macro.yaml",
		lint+"functions/sub_needed_transform.yaml", lint+"some_logs_stream_lambda.yaml",
		lint+"transform/list_transform_many.yaml", lint+"transform/step_function_local_definition.yaml")
	add(CannotHave, false, "a SAM function of PackageType Image built from a local DockerContext that `sam build` never built or pushed: "+
		"no ImageUri, which the SAM translator requires", lint+"transform/function_using_image.yaml")
	add(CannotHave, false, "AWS::Include's Location is built from parameter IncludeBaseUrl: the included snippets (attribute-definitions.yaml, key-schema.yaml) "+
		"were never uploaded, and are not in the corpus", lint+"resources/dynamodb/attributes_transform.yaml")
	add(CannotHave, false, "AWS::Serverless::Applications from local files (AppInvalidPath's ./nonexistent_template.yaml is not in the corpus, "+
		"so `aws cloudformation package` refuses the template) and from the Serverless Application Repository, "+
		"which the SAM translator asks AWS for: offline, it cannot", lint+"resources/cloudformation/sam_stacks.yaml")
	add(CannotHave, false, "the layer's ContentUri ./layers/example.zip is a local file the corpus does not hold, and its AWS::Serverless::Application names a "+
		"Serverless Application Repository application by a placeholder ARN (<my-account-id>, <app-name>), which the SAM translator asks AWS for",
		lint+"transform.yaml")

	// Inputs stacksim cannot have: exports and parameters no stack makes.
	add(CannotHave, false, "imports ${VPCStack}-VPCID and -PrivateSubnet1/2: no template of the corpus exports them", both(aws+"NeptuneDB/Neptune")...)
	add(CannotHave, false, "imports Custom-GetFromJson, the export of the getfromjson function's stack, which no template of the corpus makes "+
		"(src/template.yml, which creates once packaged, declares no Outputs)", aws+"CloudFormation/CustomResources/getfromjson/example-templates/getfromjson-consumer.yml")
	add(CannotHave, false, "imports ${pApplicationName}:config:env, which no template of the corpus exports", lint+"no_value.yaml")
	add(CannotHave, false, "imports TestImport and Version, which no template of the corpus exports", lint+"resources_codepipeline.yaml")
	add(CannotHave, false, "imports ${ECSStack}-VPCLink, ${AppStack}-PrivateDNSEndpoint and ${CognitoStackName}-Arn, which no template of the corpus exports",
		lint+"parameters/used_transform_removed.yaml")
	add(CannotHave, false, "Fn::GetStackOutput reads stack producer-stack (and the same in us-west-2 through a cross-account role), which no template of the corpus makes",
		lint+"functions/get_stack_output.yaml")

	// Inputs stacksim cannot have: types, modules and macros of someone's
	// account.
	add(CannotHave, false, "Initech::TPS::Report is a private type registered in its author's account; the corpus holds no schema or handler of it",
		lint+"schema_resource.yaml")
	add(CannotHave, false, "a registry module (NAME::MODULE) registered in its author's account; the corpus holds no module of that name "+
		"(stacksim does not expand modules either)", lint+"generic.yaml", lint+"functions/ref.yaml", lint+"modules/minimal.yaml")
	add(CannotHave, false, "the Boto3 macro (its function's code is not in the corpus) turns Boto3::CodeCommit.put_file resources into custom resources; "+
		"answered as given, the type is unrecognized", both(mx+"Boto3/example")...)
	add(CannotHave, false, "the S3Objects macro (its function's code is not in the corpus) turns AWS::S3::Object resources into custom resources; "+
		"answered as given, the type is unrecognized", both(mx+"S3Objects/example")...)
	add(StandIn, false, "the Count macro (its function's code is not in the corpus) consumes the resource property Count: a stand-in of the sample makes the copies",
		both(mx+"Count/test")...)
	add(StandIn, false, "the Explode macro (its function's code is not in the corpus) consumes the resource property ExplodeMap: a stand-in of the sample makes the copies",
		both(mx+"Explode/test")...)
	add(StandIn, false, "the ExecutionRoleBuilder macro (its function's code is not in the corpus) turns Type/Name/Permissions into an IAM role's properties: "+
		"a stand-in of the sample makes them", both(mx+"ExecutionRoleBuilder/example")...)
	add(StandIn, false, "the Date macro (no template or code of it in the corpus) makes each tag's Value: a stand-in of the sample makes them",
		both(mx+"DateFunctions/date_example")...)
	add(StandIn, false, "the DatetimeNow macro makes each tag's Value: its function is Python code (datetimenow.yaml) that stacksim does not run "+
		"(a user maps it with --service-token ARN=exec:...); a stand-in of the sample makes them", both(mx+"DatetimeNow/datetimenow_example")...)
	add(StandIn, false, "the String macro (no template or code of it in the corpus) makes each tag's Value: a stand-in of the sample makes them",
		both(mx+"StringFunctions/string_example")...)
	add(StandIn, false, "the PyPlate macro (no template or code of it in the corpus) runs the Python in Tags: a stand-in of the sample runs it",
		both(mx+"PyPlate/python_example")...)
	add(CannotHave, false, "the DynamicUserData macro (no template or code of it in the corpus) makes Fn::Sub's string; answered as given, Fn::Sub has no string",
		lint+"functions/sub.yaml", lint+"parameters/not_used_parameters.yaml", lint+"parameters/used_transforms.yaml")

	// Nested stacks, now that their children are created: a child
	// template the corpus does not hold, or a TemplateURL CloudFormation
	// refuses.
	add(CannotHave, false, "a nested stack's child template is not in the corpus (an S3 object its author uploaded): "+
		"TemplateURL must reference a valid S3 object to which you have access.",
		lint+"minimal.yaml", lint+"resources/iam/instance_profile.yaml")
	add(CannotHave, false, "a nested stack's TemplateURL is an SSM parameter's value ({{resolve:ssm:/sdlf/pipeline/main:1}}) "+
		"that names a child template no stack of the corpus uploads",
		lint+"resources/cloudformation/nested_stack_dynamic.yaml")
	add(CannotHave, false, "a nested stack's child template is not in the corpus, and its URL's bucket (s3_bucket_name) is not one "+
		"CloudFormation reads: TemplateURL must be a supported URL.",
		lint+"resources/properties/hard_coded_arn_properties.yaml")
	add(CannotHave, false, "an AWS::Serverless::Application whose Location is a local path (path/) the corpus does not hold, "+
		"so `aws cloudformation package` cannot upload it: the nested stack's TemplateURL is not a URL",
		lint+"resources/properties/templated_code_sam.yaml")
	add(TemplateFault, false, "nested stacks whose TemplateURL is a local path (./stack_nested.yaml, and ./invalid_stack.yaml, which is not there, "+
		"so `aws cloudformation package` refuses the template), a web URL outside S3 (https://someurl.com) and a bare key: "+
		"CloudFormation refuses each, TemplateURL must be a supported URL (and stack_nested.yaml declares no Resources).",
		lint+"resources/cloudformation/stacks.yaml")
	add(TemplateFault, false, "VPCPeeringAccepterTagStack passes the parameter LambdaRoleName to VPCPeering-Accepter-Tag.cfn, "+
		"which does not declare it: CloudFormation fails the nested stack with Parameters: [LambdaRoleName] do not exist in the template",
		both(aws+"Solutions/VPCPeering/templates/VPCPeering-Accepter.main.cfn")...)
	return m
}
