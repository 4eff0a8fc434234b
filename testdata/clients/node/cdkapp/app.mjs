// A small CDK app with no assets, synthesized with LegacyStackSynthesizer so
// that `cdk deploy` needs no bootstrap stack: the template goes in
// TemplateBody. Deployed to stacksim serve by cmd/stacksim's TestServeCDK.
import { App, Stack, LegacyStackSynthesizer, CfnOutput } from "aws-cdk-lib";
import * as sns from "aws-cdk-lib/aws-sns";
import * as ssm from "aws-cdk-lib/aws-ssm";

const app = new App();
const stack = new Stack(app, "CdkDemo", {
  synthesizer: new LegacyStackSynthesizer(),
  env: { account: "123456789012", region: "us-east-1" },
});
const topic = new sns.Topic(stack, "Alerts", { displayName: "alerts" });
new ssm.StringParameter(stack, "TopicArn", { stringValue: topic.topicArn });
new CfnOutput(stack, "AlertsArn", { value: topic.topicArn });
app.synth();
