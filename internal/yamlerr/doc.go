// Package yamlerr reads where a YAML syntax error is: the line and column
// of the problem, and of the construct it was found in, from the YAML
// library's error (go.yaml.in/yaml/v4's *yaml.LoadError).
//
// CloudFormation reads YAML templates with PyYAML and reports a malformed
// one at PyYAML's problem mark: "Template format error: YAML not
// well-formed. (line 5, column 15)". libyaml, which go.yaml.in/yaml ports,
// places its marks where PyYAML does, but for the end of a body without a
// final line break: the library puts it on a line after the last, PyYAML
// after the last character, and Of moves it there (it is given the body
// for that). So every loader of stacksim (templates, scenarios, fault
// files, the settings file) points at the line and column AWS would, and
// names the construct ("while parsing a block mapping at line 2, column
// 3") as PyYAML does.
//
// It is a leaf: it knows the YAML library's error type and nothing of
// stacksim's file formats.
package yamlerr
