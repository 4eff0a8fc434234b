package scenario

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/shlex"

	"github.com/stacksim/stacksim/internal/readfile"
)

// SplitCommand splits a command line into words as a POSIX shell would
// (quotes, backslashes, # comments), without running a shell: no
// variables, globs or pipes. A JSON list is taken as the words themselves.
func SplitCommand(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	var argv []string
	if strings.HasPrefix(s, "[") {
		if err := json.Unmarshal([]byte(s), &argv); err != nil {
			return nil, fmt.Errorf("exec:%s: the JSON list of words does not parse: %v", readfile.Capped(s), err)
		}
	} else {
		words, err := shlex.Split(s)
		if err != nil {
			return nil, fmt.Errorf("exec:%s: %v (close every quote)", readfile.Capped(s), err)
		}
		argv = words
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf("exec: names no program; write exec:PROGRAM ARG...")
	}
	return argv, nil
}
