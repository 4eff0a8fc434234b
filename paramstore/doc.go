// Package paramstore is what CloudFormation reads from outside a template:
// AWS Systems Manager Parameter Store and AWS Secrets Manager, as a stack
// operation sees them.
//
// It owns:
//
//   - the names AWS publishes as public parameters (/aws/service/...: the
//     latest Amazon Linux, Windows, ECS-, EKS-optimized, Ubuntu, Debian and
//     Bottlerocket images, the global infrastructure's regions), answered
//     with deterministic values of the shape AWS answers (ami- and 17 hex
//     digits, the JSON of an ECS "recommended" parameter, a region's long
//     name): Public;
//   - the lookup order of one account's parameter store (Sources: the
//     parameters the account holds, then those the user gives, then AWS's
//     public ones) and the message AWS gives for a name it cannot find;
//   - the syntax of dynamic references ({{resolve:ssm:NAME:VERSION}},
//     {{resolve:ssm-secure:...}}, {{resolve:secretsmanager:ID:SecretString:
//     KEY:STAGE:VERSIONID}}): Find, Parse, Replace;
//   - the properties where AWS accepts an ssm-secure reference, and the
//     value of a secret (a JSON key of its SecretString; a generated
//     secret string, derived from the secret's id, for a secret made with
//     GenerateSecretString).
//
// It must not know about stacks, templates' structure or the store: the
// engine hands it what the account holds (a Lookup) and the user's values.
package paramstore
