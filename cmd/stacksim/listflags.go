package main

import "strings"

// listFlags take several values after them, as the AWS CLI's list
// arguments do (nargs='+'): --capabilities CAPABILITY_IAM CAPABILITY_NAMED_IAM.
var listFlags = map[string]bool{
	"--parameters": true, "--tags": true, "--capabilities": true, "--retain-resources": true,
	"--resources-to-skip": true, "--notification-arns": true, "--stack-status-filter": true,
	"--logical-resource-ids": true, "--stack-resource-drift-status-filters": true,
}

// spreadListFlags rewrites "--flag a b c" into "--flag a --flag b --flag c"
// for the list flags, so that cobra, which takes one value per flag,
// reads the AWS CLI's spelling. A value ends at the next argument that
// starts with "--", and at "--" itself.
func spreadListFlags(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if !listFlags[a] || i+1 >= len(args) {
			continue
		}
		i++
		out = append(out, args[i])
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
			i++
			out = append(out, a, args[i])
		}
	}
	return out
}
