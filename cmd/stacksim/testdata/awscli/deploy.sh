#!/usr/bin/env bash
# A deploy script written for the AWS CLI. TestAWSCLIScript runs it as it
# is, with an `aws` on PATH that is stacksim in place of `aws cloudformation`.
set -euo pipefail
STACK=orders-api

aws cloudformation deploy --template-file app.yaml --stack-name "$STACK" \
  --parameter-overrides Env=prod --no-fail-on-empty-changeset
aws cloudformation wait stack-create-complete --stack-name "$STACK"
aws cloudformation describe-stacks --stack-name "$STACK" --query "Stacks[0].Outputs"
aws cloudformation describe-stacks --stack-name "$STACK" \
  --query "Stacks[0].Outputs[?OutputKey=='QueueUrl'].OutputValue" --output text

# Deploying the same template again changes nothing.
aws cloudformation deploy --template-file app.yaml --stack-name "$STACK" \
  --parameter-overrides Env=prod --no-fail-on-empty-changeset

# The parameter keeps its value when it is not overridden.
aws cloudformation describe-stacks --stack-name "$STACK" \
  --query "Stacks[0].Parameters[0].[ParameterKey,ParameterValue]" --output text

aws cloudformation delete-stack --stack-name "$STACK"
aws cloudformation wait stack-delete-complete --stack-name "$STACK"
echo "deleted"
