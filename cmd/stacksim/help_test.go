package main

import (
	"strings"
	"testing"
)

// Every command's --help shows at least one example.
func TestEveryCommandHasAnExample(t *testing.T) {
	root := newApp(nil, nil, nil).rootCommand()
	for _, c := range root.Commands() {
		if c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		if !strings.Contains(c.Example, "stacksim "+c.Name()) {
			t.Errorf("%s: no example in its help", c.Name())
		}
	}
}
