// Package yamlkeys finds the keys written twice in one mapping of a YAML
// (or JSON) document read as a yaml.Node tree. YAML's decoders keep the
// last of two such keys without a word, so a loader that walks nodes
// itself (fault files, scenarios) refuses them with Duplicates, at the
// file:line:column of the second, as the template parser does for
// templates ("mapping key ... already defined").
//
// Keys are compared by their text, as the loaders read them (so 1 and "1"
// are one key); merge keys (<<) and keys that are not scalars are left
// alone; aliases are not followed (what they name is checked where it is
// written).
//
// It is a leaf: it knows YAML's node tree (go.yaml.in/yaml/v4) and no file
// format of stacksim's.
package yamlkeys
