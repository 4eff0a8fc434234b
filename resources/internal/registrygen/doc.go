// Command registrygen writes stacksim's pack of registry facts
// (resources/registry/us-east-1.pack) from a directory of CloudFormation
// registry schemas, by default ../shared/schemas/us-east-1:
//
//	go run ./resources/internal/registrygen            # or: make registry
//	go run ./resources/internal/registrygen -schemas DIR -out FILE
//
// The pack holds the facts package schemapack keeps, never the files
// themselves; a test of package resources regenerates it in memory and
// fails when the committed pack is stale.
package main
