package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// ---- yaml and yaml-stream: as the AWS CLI (version 2) prints them ----
//
// The AWS CLI's YAML is ruamel's safe dumper: block style, the members of
// a sequence at the indentation of the key that holds it, a string in
// single quotes where it would read as something else (true, 123, null, a
// timestamp), an empty list or object as [] or {}. An empty response
// prints nothing. yaml-stream prints the response as the one item of a
// sequence (the AWS CLI streams one item per page; stacksim fetches every
// page first, as it does for the other formats).

func writeYAML(b *strings.Builder, v any, stream bool) error {
	node := yamlNode(v)
	if o, ok := v.(object); ok && len(o.present()) == 0 && !stream {
		return nil
	}
	if stream {
		node = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{node}}
	}
	var out bytes.Buffer
	e := yaml.NewEncoder(&out)
	e.SetIndent(2)
	e.CompactSeqIndent()
	if err := e.Encode(node); err != nil {
		return err
	}
	if err := e.Close(); err != nil {
		return err
	}
	b.Write(out.Bytes())
	return nil
}

// yamlNode is a value as a YAML node.
func yamlNode(v any) *yaml.Node {
	switch t := v.(type) {
	case object:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, m := range t.present() {
			n.Content = append(n.Content, yamlString(m.key), yamlNode(m.value))
		}
		if len(n.Content) == 0 {
			n.Style = yaml.FlowStyle
		}
		return n
	case []string:
		return yamlNode(stringsToAny(t))
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, x := range t {
			n.Content = append(n.Content, yamlNode(x))
		}
		if len(n.Content) == 0 {
			n.Style = yaml.FlowStyle
		}
		return n
	case string:
		return yamlString(t)
	case bool:
		if t {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"}
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(t.String(), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: t.String()}
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(t)}
	case nil, jsonNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	return yamlString(pyStr(v))
}

// yamlString is a string scalar: plain where it reads as itself, in single
// quotes where it would read as another type, as the encoder chooses
// otherwise (a string with a line break or a character only double quotes
// can hold).
func yamlString(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.ContainsAny(s, "\n\r\t") || !printable(s) {
		return n
	}
	probe, err := yaml.Marshal(s)
	if err == nil && (bytes.HasPrefix(probe, []byte(`"`)) || bytes.HasPrefix(probe, []byte(`'`))) {
		n.Style = yaml.SingleQuotedStyle
	}
	return n
}

func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\ufffd' {
			return false
		}
	}
	return true
}
