// A CDK app with CDK's default synthesizer (DefaultStackSynthesizer), as
// `cdk init` makes them: `cdk deploy` uploads the template to the staging
// bucket `cdk bootstrap` made, assumes the bootstrap roles and reads the
// bootstrap version from SSM. Deployed to stacksim serve by cmd/stacksim's
// TestServeCDKBootstrap. TOPIC_NAME changes the topic's display name (the
// test's update). The function's code is a file asset (fn/, zipped and
// uploaded beside the template), and so is the nested stack's template
// (its TemplateURL names the staging bucket).
import { App, Stack, NestedStack, CfnOutput } from "aws-cdk-lib";
import * as sqs from "aws-cdk-lib/aws-sqs";
import * as sns from "aws-cdk-lib/aws-sns";
import * as lambda from "aws-cdk-lib/aws-lambda";

const app = new App();
const stack = new Stack(app, "Modern", { env: { account: "123456789012", region: "us-east-1" } });
const topic = new sns.Topic(stack, "Alerts", { displayName: process.env.TOPIC_NAME || "alerts" });
new lambda.Function(stack, "Fn", { runtime: lambda.Runtime.NODEJS_20_X, handler: "index.handler", code: lambda.Code.fromAsset("fn") });
class Queues extends NestedStack {
  constructor(scope, id) {
    super(scope, id);
    this.work = new sqs.Queue(this, "Work");
  }
}
const queues = new Queues(stack, "Queues");
new CfnOutput(stack, "AlertsArn", { value: topic.topicArn });
new CfnOutput(stack, "WorkQueueUrl", { value: queues.work.queueUrl });
app.synth();
