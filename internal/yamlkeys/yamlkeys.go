package yamlkeys

import (
	"fmt"

	"go.yaml.in/yaml/v4"
)

// Duplicate is a key written a second time in one mapping.
type Duplicate struct {
	Key string
	// First is the key where it is first written, Again where it is
	// written again.
	First, Again *yaml.Node
}

// Message says what is wrong and what to do, without the position of
// Again (the caller's errors carry it).
func (d Duplicate) Message() string {
	return fmt.Sprintf("mapping key %q already defined at line %d, column %d; keep one (YAML would silently keep only the last)",
		d.Key, d.First.Line, d.First.Column)
}

// Duplicates lists the keys written twice in a mapping anywhere under n,
// in the order they appear in the file.
func Duplicates(n *yaml.Node) []Duplicate {
	var out []Duplicate
	walk(n, &out)
	return out
}

func walk(n *yaml.Node, out *[]Duplicate) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			walk(c, out)
		}
	case yaml.MappingNode:
		var seen map[string]*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.Tag != "!!merge" {
				if seen == nil {
					seen = make(map[string]*yaml.Node, len(n.Content)/2)
				}
				if first, ok := seen[k.Value]; ok {
					*out = append(*out, Duplicate{Key: k.Value, First: first, Again: k})
				} else {
					seen[k.Value] = k
				}
			}
			walk(k, out)
			walk(v, out)
		}
	}
}
