// A CDK app with CDK's default synthesizer (DefaultStackSynthesizer), as
// `cdk init` makes them: `cdk deploy` uploads the template to the staging
// bucket `cdk bootstrap` made, assumes the bootstrap roles and reads the
// bootstrap version from SSM. Deployed to stacksim serve by cmd/stacksim's
// TestServeCDKBootstrap. TOPIC_NAME changes the topic's display name (the
// test's update). The function's code is a file asset (fn/, zipped and
// uploaded beside the template).
import { App, Stack, CfnOutput } from "aws-cdk-lib";
import * as sns from "aws-cdk-lib/aws-sns";
import * as lambda from "aws-cdk-lib/aws-lambda";

const app = new App();
const stack = new Stack(app, "Modern", { env: { account: "123456789012", region: "us-east-1" } });
const topic = new sns.Topic(stack, "Alerts", { displayName: process.env.TOPIC_NAME || "alerts" });
new lambda.Function(stack, "Fn", { runtime: lambda.Runtime.NODEJS_20_X, handler: "index.handler", code: lambda.Code.fromAsset("fn") });
new CfnOutput(stack, "AlertsArn", { value: topic.topicArn });
app.synth();
