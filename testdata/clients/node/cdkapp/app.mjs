// A small CDK app with no assets, synthesized with LegacyStackSynthesizer so
// that `cdk deploy` needs no bootstrap stack: the template goes in
// TemplateBody. Deployed to stacksim serve by cmd/stacksim's TestServeCDK.
// Shared has a fixed name and is retained: destroyed, it stays, and a
// second deploy takes it over with --import-existing-resources.
import { App, Stack, LegacyStackSynthesizer, CfnOutput, RemovalPolicy } from "aws-cdk-lib";
import * as sns from "aws-cdk-lib/aws-sns";
import * as ssm from "aws-cdk-lib/aws-ssm";

const app = new App();
const stack = new Stack(app, "CdkDemo", {
  synthesizer: new LegacyStackSynthesizer(),
  env: { account: "123456789012", region: "us-east-1" },
});
const topic = new sns.Topic(stack, "Alerts", { displayName: "alerts" });
new ssm.StringParameter(stack, "TopicArn", { stringValue: topic.topicArn });
const shared = new ssm.StringParameter(stack, "Shared", { parameterName: "/cdkdemo/shared", stringValue: "shared" });
shared.applyRemovalPolicy(RemovalPolicy.RETAIN);
new CfnOutput(stack, "AlertsArn", { value: topic.topicArn });
app.synth();
