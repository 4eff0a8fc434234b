package template

// How a plain (unquoted, untagged) YAML scalar is typed. CloudFormation's
// YAML reader is YAML 1.1-flavoured, and templates rely on its quirks, so
// the rule is written down here once:
//
//   - null: "", "~", "null", "Null", "NULL" (refused later with AWS's
//     "'null' values are not allowed in templates").
//   - booleans: true/false and the YAML 1.1 words yes/no/on/off, in lower,
//     Title and UPPER case. CloudFormation turns an unquoted `Value: YES`
//     into the boolean true (and so the string "true" in a property); we do
//     the same. y/Y/n/N stay strings: YAML 1.1 lists them, but the readers
//     CloudFormation and its tooling use do not.
//   - numbers: a literal that is a JSON number (-12, 3.5, 1e3) is a number,
//     kept exactly as written.
//   - everything else is a string with the literal text: dates such as
//     2010-09-09 (so `AWSTemplateFormatVersion: 2010-09-09` and
//     `Version: 2012-10-17` read as written), leading-zero and octal-looking
//     numbers (0123, 0o17), hex (0x1F), YAML 1.1 sexagesimals (1:30),
//     .5, +1, 1_000, .inf and .nan. CloudFormation passes scalar properties to
//     handlers as strings, so keeping the literal is what a handler sees.

func resolvePlain(s string) (Kind, string) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return Null, ""
	}
	if b, ok := yamlBool(s); ok {
		return Bool, b
	}
	if isJSONNumber(s) {
		return Number, s
	}
	return String, s
}

// yamlBool recognises a YAML 1.1 boolean and returns "true" or "false".
func yamlBool(s string) (string, bool) {
	switch s {
	case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON":
		return "true", true
	case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF":
		return "false", true
	}
	return "", false
}

// isJSONNumber tells whether s is a number in JSON's grammar.
func isJSONNumber(s string) bool {
	i, n := 0, len(s)
	if i < n && s[i] == '-' {
		i++
	}
	if i >= n {
		return false
	}
	if s[i] == '0' {
		i++
	} else if s[i] >= '1' && s[i] <= '9' {
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	} else {
		return false
	}
	if i < n && s[i] == '.' {
		i++
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == n
}
