package main

import (
	"fmt"

	"github.com/stacksim/stacksim/internal/pyjson"
	"github.com/stacksim/stacksim/internal/readfile"
)

// checkJSONArg refuses a flag's JSON value as the AWS CLI does: it reads
// every JSON argument with Python's json.loads and prints that error,
// "Error parsing parameter '--parameters': Invalid JSON: Expecting ','
// delimiter: line 1 column 19 (char 18)", then the value it received.
// name is the parameter as the AWS CLI names it in the message
// ("--parameters"; "cli-input-json", which it names without dashes).
// text is the value as given, before any trimming, so the position is
// Python's. A good value is then read as the AWS CLI holds it
// (decodePyJSON), and a member of the wrong type refused in botocore's
// words (invalidType, checkStruct).
func checkJSONArg(name, text string) error {
	if err := pyjson.Check(text); err != nil {
		return fmt.Errorf("Error parsing parameter '%s': Invalid JSON: %v\nJSON received: %s", name, err, readfile.Excerpt(text))
	}
	return nil
}
