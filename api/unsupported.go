package api

import "strings"

// The operations of the model that stacksim does not serve are answered
// with the model's InvalidOperationException (400), naming what is
// missing, rather than with an error a client would take for a fault of
// its input.

// unsupportedMessage says why an operation of the model is not served.
func unsupportedMessage(action string) string {
	switch {
	case strings.Contains(action, "StackSet") || strings.Contains(action, "StackInstance"):
		return "stacksim does not simulate StackSets: " + action + " is not supported"
	}
	return "stacksim does not support " + action + " yet (see the README's list of what stacksim serve supports)"
}
