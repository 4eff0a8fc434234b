// The AWS SDK for JavaScript v3 against stacksim serve, unchanged, with its
// waiter. Run by cmd/stacksim's TestServeNode with STACKSIM_ENDPOINT set;
// by hand: npm ci && STACKSIM_ENDPOINT=http://127.0.0.1:4599 node sdk_test.mjs
import assert from "node:assert/strict";
import {
  CloudFormationClient,
  CreateStackCommand,
  DescribeStacksCommand,
  DescribeStackEventsCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  waitUntilStackCreateComplete,
  waitUntilStackDeleteComplete,
  ChangeSetNotFoundException,
  AlreadyExistsException,
} from "@aws-sdk/client-cloudformation";

const client = new CloudFormationClient({
  endpoint: process.env.STACKSIM_ENDPOINT,
  region: "us-east-1",
  credentials: { accessKeyId: "test", secretAccessKey: "test" },
  maxAttempts: 1,
});

const template = `
Parameters:
  Env:
    Type: String
Resources:
  P:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !Ref Env
Outputs:
  Value:
    Value: !GetAtt P.Value
`;

const created = await client.send(new CreateStackCommand({
  StackName: "js", TemplateBody: template,
  Parameters: [{ ParameterKey: "Env", ParameterValue: "prod" }],
  Tags: [{ Key: "team", Value: "web" }],
}));
assert.match(created.StackId, /^arn:aws:cloudformation:us-east-1:123456789012:stack\/js\//);

const waited = await waitUntilStackCreateComplete({ client, maxWaitTime: 60, minDelay: 1 }, { StackName: "js" });
assert.equal(waited.state, "SUCCESS");

const { Stacks: [stack] } = await client.send(new DescribeStacksCommand({ StackName: created.StackId }));
assert.equal(stack.StackStatus, "CREATE_COMPLETE");
assert.ok(stack.CreationTime instanceof Date);
assert.deepEqual(stack.Outputs.map((o) => [o.OutputKey, o.OutputValue]), [["Value", "prod"]]);
assert.deepEqual(stack.Tags, [{ Key: "team", Value: "web" }]);

const { StackEvents: events } = await client.send(new DescribeStackEventsCommand({ StackName: "js" }));
assert.equal(events.length, 5);
assert.equal(events[0].ResourceStatus, "CREATE_COMPLETE");
assert.equal(events.at(-1).ResourceStatusReason, "User Initiated");

await assert.rejects(
  client.send(new CreateStackCommand({ StackName: "js", TemplateBody: template, Parameters: [{ ParameterKey: "Env", ParameterValue: "x" }] })),
  (err) => err instanceof AlreadyExistsException && err.message === "Stack [js] already exists",
);
await assert.rejects(
  client.send(new DescribeChangeSetCommand({ StackName: "js", ChangeSetName: "nope" })),
  (err) => err instanceof ChangeSetNotFoundException && err.$metadata.httpStatusCode === 404,
);

await client.send(new DeleteStackCommand({ StackName: "js" }));
const deleted = await waitUntilStackDeleteComplete({ client, maxWaitTime: 60, minDelay: 1 }, { StackName: created.StackId });
assert.equal(deleted.state, "SUCCESS");
console.log("sdk_test.mjs: ok");
