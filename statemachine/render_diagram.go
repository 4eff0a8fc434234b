package statemachine

import (
	"fmt"
	"strings"
)

// Colours shared by the diagrams: in motion, failed at rest, final.
const (
	colourInMotion = "#fff3cd"
	strokeInMotion = "#b8860b"
	colourFailed   = "#f8d7da"
	strokeFailed   = "#a94442"
	colourFinal    = "#e2e3e5"
	strokeFinal    = "#6c757d"
)

// mermaid renders the machine as a Mermaid stateDiagram-v2, which GitHub
// draws as a picture. NotExist is the start marker [*]; a final status
// points to the end marker. An in-progress stack status shows its phase.
func (v view) mermaid() string {
	var b strings.Builder
	b.WriteString("stateDiagram-v2\n")
	fmt.Fprintf(&b, "    classDef inMotion fill:%s,stroke:%s\n", colourInMotion, strokeInMotion)
	fmt.Fprintf(&b, "    classDef failed fill:%s,stroke:%s\n", colourFailed, strokeFailed)
	fmt.Fprintf(&b, "    classDef ended fill:%s,stroke:%s\n", colourFinal, strokeFinal)
	for _, s := range v.statuses[1:] {
		if s.phase != 0 {
			fmt.Fprintf(&b, "    state \"%s [%s]\" as %s\n", s.name, s.phase, s.name)
		}
	}
	for _, a := range v.arcs() {
		from := a.from
		if from == NotExist {
			from = "[*]"
		}
		fmt.Fprintf(&b, "    %s --> %s: %s\n", from, a.to, strings.Join(a.events, ", "))
	}
	for _, s := range v.statuses[1:] {
		if s.final {
			fmt.Fprintf(&b, "    %s --> [*]\n", s.name)
		}
	}
	for _, s := range v.statuses[1:] {
		if c := s.class(); c != "" {
			fmt.Fprintf(&b, "    class %s %s\n", s.name, c)
		}
	}
	return b.String()
}

func (s statusView) class() string {
	switch {
	case s.inMotion:
		return "inMotion"
	case s.final:
		return "ended"
	case s.failed():
		return "failed"
	}
	return ""
}

// dot renders the machine for Graphviz. As in seeds/001, a status at rest
// has a double border; one in motion is rounded.
func (v view) dot() string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", v.machine)
	b.WriteString("    rankdir=TB;\n")
	b.WriteString("    node [shape=box, fontname=\"Helvetica\", fontsize=11];\n")
	b.WriteString("    edge [fontname=\"Helvetica\", fontsize=9];\n")
	b.WriteString("    \"NotExist\" [shape=circle, style=filled, fillcolor=black, label=\"\", width=0.25, xlabel=\"does not exist\"];\n")
	for _, s := range v.statuses[1:] {
		lbl := s.name
		if s.phase != 0 {
			lbl += "\\n[" + s.phase.String() + "]"
		}
		var attrs []string
		attrs = append(attrs, fmt.Sprintf("label=\"%s\"", lbl))
		switch {
		case s.inMotion:
			attrs = append(attrs, "style=\"rounded,filled\"", "fillcolor=\""+colourInMotion+"\"")
		case s.final:
			attrs = append(attrs, "peripheries=2", "style=filled", "fillcolor=\""+colourFinal+"\"")
		case s.failed():
			attrs = append(attrs, "peripheries=2", "style=filled", "fillcolor=\""+colourFailed+"\"")
		default:
			attrs = append(attrs, "peripheries=2")
		}
		fmt.Fprintf(&b, "    %q [%s];\n", s.name, strings.Join(attrs, ", "))
	}
	for _, a := range v.arcs() {
		fmt.Fprintf(&b, "    %q -> %q [label=%q];\n", label(a.from), a.to, strings.Join(a.events, "\n"))
	}
	b.WriteString("}\n")
	return b.String()
}
