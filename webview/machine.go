package webview

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/statemachine"
)

// The stack state machine as a diagram: its statuses and arcs come from
// statemachine's tables (StackStatuses, StackTransitions) each time it is
// drawn; where each is placed comes from layout.json, which Graphviz's dot
// made from the same tables (TestMachineLayoutCurrent keeps it current:
// go test ./webview -run TestMachineLayoutCurrent -update).

// machineNode is a status of the diagram; Status "" is NotExist, the
// start.
type machineNode struct {
	Status  string
	Lines   []string // the label: the status, and its phase when in motion
	Class   string   // start, progress, failed, final, rest
	Summary string
}

// machineArc is every event between one pair of statuses.
type machineArc struct {
	From, To string
	Events   []string
}

func (a machineArc) key() string { return dotID(a.From) + ">" + dotID(a.To) }

// stackMachine reads the diagram off statemachine's tables.
func stackMachine() ([]machineNode, []machineArc) {
	nodes := []machineNode{{Status: "", Class: "start", Summary: "The stack does not exist yet."}}
	for _, s := range statemachine.StackStatuses() {
		n := machineNode{Status: string(s), Lines: []string{string(s)}}
		if x, err := statemachine.ExplainStack(s); err == nil {
			n.Summary = x.Summary
		}
		switch {
		case s.InMotion():
			n.Class = "progress"
			if ph := s.Phase(); ph != 0 {
				n.Lines = append(n.Lines, "["+ph.String()+"]")
			}
		case s.Final():
			n.Class = "final"
		case strings.Contains(string(s), "FAILED"):
			n.Class = "failed"
		default:
			n.Class = "rest"
		}
		nodes = append(nodes, n)
	}
	var arcs []machineArc
	index := map[string]int{}
	for _, t := range statemachine.StackTransitions() {
		a := machineArc{From: string(t.From), To: string(t.To)}
		if i, ok := index[a.key()]; ok {
			arcs[i].Events = append(arcs[i].Events, string(t.Event))
			continue
		}
		index[a.key()] = len(arcs)
		a.Events = []string{string(t.Event)}
		arcs = append(arcs, a)
	}
	return nodes, arcs
}

// dotID names a status in DOT and in layout.json.
func dotID(status string) string {
	if status == "" {
		return "NotExist"
	}
	return status
}

// machineDOT is the graph that layout.json is dot's layout of.
func machineDOT(nodes []machineNode, arcs []machineArc) string {
	var b strings.Builder
	b.WriteString("digraph stack {\n")
	b.WriteString("  rankdir=TB; ranksep=0.3; nodesep=0.2;\n")
	b.WriteString("  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11, margin=\"0.12,0.05\"];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=8];\n")
	for _, n := range nodes {
		if n.Status == "" {
			b.WriteString("  \"NotExist\" [shape=circle, label=\"\", width=0.22, fixedsize=true];\n")
			continue
		}
		fmt.Fprintf(&b, "  %q [label=%q];\n", n.Status, strings.Join(n.Lines, "\n"))
	}
	for _, a := range arcs {
		fmt.Fprintf(&b, "  %q -> %q [label=%q];\n", dotID(a.From), dotID(a.To), strings.Join(a.Events, "\n"))
	}
	b.WriteString("}\n")
	return b.String()
}

// layout is where dot placed the diagram: points (1/72 in), y downwards.
type layout struct {
	Width  float64              `json:"width"`
	Height float64              `json:"height"`
	Nodes  map[string]nodeBox   `json:"nodes"`
	Arcs   map[string]arcLayout `json:"arcs"`
}

type nodeBox struct {
	X float64 `json:"x"` // the centre
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

type arcLayout struct {
	// Points are a cubic B-spline's control points, as dot gives them:
	// a start, then three points per segment.
	Points [][2]float64 `json:"points"`
	Label  [2]float64   `json:"label"`
}

//go:embed layout.json
var layoutJSON []byte

func loadLayout() (*layout, error) {
	var l layout
	if err := json.Unmarshal(layoutJSON, &l); err != nil {
		return nil, fmt.Errorf("webview: layout.json: %w", err)
	}
	return &l, nil
}

// parsePlain reads dot's "plain" output into a layout.
func parsePlain(out string) (*layout, error) {
	l := &layout{Nodes: map[string]nodeBox{}, Arcs: map[string]arcLayout{}}
	const pt = 72.0
	round := func(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }
	for _, line := range strings.Split(out, "\n") {
		f := plainFields(line)
		if len(f) == 0 {
			continue
		}
		num := func(i int) float64 {
			var v float64
			if i < len(f) {
				fmt.Sscan(f[i], &v)
			}
			return v
		}
		switch f[0] {
		case "graph":
			l.Width, l.Height = round(num(2)*pt), round(num(3)*pt)
		case "node":
			l.Nodes[f[1]] = nodeBox{X: round(num(2) * pt), Y: round(l.Height - num(3)*pt), W: round(num(4) * pt), H: round(num(5) * pt)}
		case "edge":
			n := int(num(3))
			var a arcLayout
			for i := 0; i < n; i++ {
				a.Points = append(a.Points, [2]float64{round(num(4+2*i) * pt), round(l.Height - num(5+2*i)*pt)})
			}
			if k := 4 + 2*n; k+2 < len(f) {
				a.Label = [2]float64{round(num(k+1) * pt), round(l.Height - num(k+2)*pt)}
			}
			l.Arcs[f[1]+">"+f[2]] = a
		case "stop":
			return l, nil
		}
	}
	return nil, fmt.Errorf("webview: dot's plain output has no stop line")
}

// plainFields splits a line of dot's plain output: words, and quoted
// strings (with \" and \n inside) as one.
func plainFields(line string) []string {
	var out []string
	for i := 0; i < len(line); {
		switch {
		case line[i] == ' ':
			i++
		case line[i] == '"':
			j := i + 1
			for j < len(line) && line[j] != '"' {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, line[i+1:min(j, len(line))])
			i = j + 1
		default:
			j := strings.IndexByte(line[i:], ' ')
			if j < 0 {
				j = len(line) - i
			}
			out = append(out, line[i:i+j])
			i += j
		}
	}
	return out
}

// marshalLayout writes layout.json: stable (sorted keys), one entry a
// line.
func marshalLayout(l *layout) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "{\n  \"width\": %g,\n  \"height\": %g,\n  \"nodes\": {\n", l.Width, l.Height)
	keys := make([]string, 0, len(l.Nodes))
	for k := range l.Nodes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		n, _ := json.Marshal(l.Nodes[k])
		fmt.Fprintf(&b, "    %q: %s%s\n", k, n, comma(i, len(keys)))
	}
	b.WriteString("  },\n  \"arcs\": {\n")
	keys = keys[:0]
	for k := range l.Arcs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		a, _ := json.Marshal(l.Arcs[k])
		fmt.Fprintf(&b, "    %q: %s%s\n", k, a, comma(i, len(keys)))
	}
	b.WriteString("  }\n}\n")
	return []byte(b.String())
}

func comma(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}
