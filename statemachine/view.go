package statemachine

import (
	"fmt"
	"io"
	"strings"
)

// Machine selects one of the two machines for rendering.
type Machine int

// The machines.
const (
	StackMachine Machine = iota
	ResourceMachine
)

func (m Machine) String() string {
	if m == ResourceMachine {
		return "resource"
	}
	return "stack"
}

// Format is a rendering of a machine.
type Format string

// The formats. FormatMarkdown renders both machines and everything said of
// them: it is docs/states.md.
const (
	FormatMermaid  Format = "mermaid"
	FormatDOT      Format = "dot"
	FormatTable    Format = "table"
	FormatJSON     Format = "json"
	FormatMarkdown Format = "markdown"
)

// Formats lists the formats, for help texts.
func Formats() []Format {
	return []Format{FormatMermaid, FormatDOT, FormatTable, FormatJSON, FormatMarkdown}
}

// Render writes machine m in format f. FormatMarkdown ignores m.
func Render(w io.Writer, m Machine, f Format) error {
	v := viewOf(m)
	switch f {
	case FormatMermaid:
		return writeAll(w, v.mermaid())
	case FormatDOT:
		return writeAll(w, v.dot())
	case FormatTable:
		return v.table(w)
	case FormatJSON:
		return v.json(w)
	case FormatMarkdown:
		return writeAll(w, markdown())
	}
	return fmt.Errorf("statemachine: unknown format %q (want %s)", string(f), formatList())
}

func formatList() string {
	var fs []string
	for _, f := range Formats() {
		fs = append(fs, string(f))
	}
	return strings.Join(fs, ", ")
}

func writeAll(w io.Writer, s string) error {
	_, err := io.WriteString(w, s)
	return err
}

// view is a machine as strings: what every renderer draws from.
type view struct {
	machine  string
	statuses []statusView // NotExist first, then lifecycle order
	events   []eventView
}

type statusView struct {
	name        string // "" for NotExist
	inMotion    bool
	final       bool
	phase       Actions
	summary     string
	permissions []Permission // stack only
}

type eventView struct {
	name    string
	summary string
	edges   []Edge
}

func (s statusView) label() string { return label(s.name) }
func (s statusView) failed() bool  { return strings.Contains(s.name, "FAILED") }

func viewOf(m Machine) view {
	if m == ResourceMachine {
		return resourceView()
	}
	return stackView()
}

func stackView() view {
	v := view{machine: "stack"}
	v.statuses = append(v.statuses, statusView{permissions: Permissions(NotExist), summary: "The stack does not exist yet (or its name is free again)."})
	for _, s := range stackStatuses {
		v.statuses = append(v.statuses, statusView{
			name: string(s), inMotion: s.InMotion(), final: s.Final(), phase: s.Phase(),
			summary: stackProse[s].Summary, permissions: Permissions(s),
		})
	}
	for _, def := range stackMachine().table {
		v.events = append(v.events, eventView{name: string(def.Name), summary: def.Summary, edges: edgesOfDef(def)})
	}
	return v
}

func resourceView() view {
	v := view{machine: "resource"}
	v.statuses = append(v.statuses, statusView{summary: "The physical resource does not exist yet."})
	for _, s := range resourceStatuses {
		v.statuses = append(v.statuses, statusView{
			name: string(s), inMotion: s.InMotion(), final: s.Final(), summary: resourceProse[s].Summary,
		})
	}
	for _, def := range resourceMachine().table {
		v.events = append(v.events, eventView{name: string(def.Name), summary: def.Summary, edges: edgesOfDef(def)})
	}
	return v
}

func edgesOfDef[S ~string, E ~string](def eventDef[S, E]) []Edge {
	out := make([]Edge, len(def.Edges))
	for i, e := range def.Edges {
		out[i] = Edge{Event: string(def.Name), From: string(e.From), To: string(e.To), Why: e.Why}
	}
	return out
}

// arc is every event between one pair of statuses: diagrams draw one arrow
// per pair.
type arc struct {
	from, to string
	events   []string
}

// arcs merges the edges by (from, to), in table order.
func (v view) arcs() []arc {
	var out []arc
	index := map[[2]string]int{}
	for _, ev := range v.events {
		for _, e := range ev.edges {
			k := [2]string{e.From, e.To}
			if i, ok := index[k]; ok {
				out[i].events = append(out[i].events, e.Event)
				continue
			}
			index[k] = len(out)
			out = append(out, arc{from: e.From, to: e.To, events: []string{e.Event}})
		}
	}
	return out
}

// out returns the edges leaving status s, in table order.
func (v view) out(s string) []Edge {
	var out []Edge
	for _, ev := range v.events {
		for _, e := range ev.edges {
			if e.From == s {
				out = append(out, e)
			}
		}
	}
	return out
}

func (s statusView) motion() string {
	switch {
	case s.name == NotExist:
		return "-"
	case s.final:
		return "at rest, final"
	case s.inMotion:
		return "in motion"
	}
	return "at rest"
}

func permissionList(ps []Permission) string {
	if len(ps) == 0 {
		return "none"
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return strings.Join(out, ", ")
}
