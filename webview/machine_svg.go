package webview

import (
	"strconv"
	"strings"
)

// machineSVG draws the stack state machine. With a path (the statuses a
// stack passed through, oldest first), the statuses and arcs it took are
// marked visited, each status with the places it holds in the path (the
// last three), and the last status current. Every status is a <g
// class="node" data-status="..."> (NotExist's is ""), every arc a <g
// class="arc" data-from="..." data-to="...">: the page's script and tests
// find them so.
func machineSVG(l *layout, path []string) string {
	nodes, arcs := stackMachine()
	order := map[string][]int{}
	taken := map[string]int{}
	prev := ""
	for i, s := range path {
		order[s] = append(order[s], i+1)
		k := dotID(prev) + ">" + dotID(s)
		if _, ok := taken[k]; !ok {
			taken[k] = i + 1
		}
		prev = s
	}
	current := ""
	if len(path) > 0 {
		current = path[len(path)-1]
	}
	const pad = 14.0
	var s svgWriter
	label := "The stack state machine"
	if current != "" {
		label += ", now " + current
	}
	s.open("machine", l.Width+2*pad, l.Height+2*pad, label)
	s.printf(`<defs><marker id="m-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead"/></marker>`)
	s.printf(`<marker id="m-arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead taken"/></marker></defs>` + "\n")
	s.printf(`<g transform="translate(%s,%s)">`+"\n", num(pad), num(pad))
	s.printf(`<g class="arcs">` + "\n")
	// Arcs not taken first, so that those taken are drawn over them.
	for pass := 0; pass < 2; pass++ {
		for _, a := range arcs {
			step, ok := taken[a.key()]
			if ok != (pass == 1) {
				continue
			}
			al, found := l.Arcs[a.key()]
			if !found || len(al.Points) < 4 {
				continue
			}
			class, marker := "arc", "m-arrow"
			if ok {
				class, marker = "arc taken", "m-arrow-taken"
			}
			s.printf(`<g class="%s" data-from="%s" data-to="%s"`, class, esc(a.From), esc(a.To))
			if ok {
				s.printf(` data-step="%d"`, step)
			}
			s.printf(`><title>%s → %s: %s</title>`, esc(dotLabel(a.From)), esc(a.To), esc(strings.Join(a.Events, ", ")))
			s.printf(`<path d="%s" marker-end="url(#%s)"/>`, splinePath(al.Points), marker)
			for i, ev := range a.Events {
				y := al.Label[1] + (float64(i)-float64(len(a.Events)-1)/2)*9 + 3
				s.printf(`<text x="%s" y="%s">%s</text>`, num(al.Label[0]), num(y), esc(ev))
			}
			s.printf("</g>\n")
		}
	}
	s.printf("</g>\n" + `<g class="nodes">` + "\n")
	for _, n := range nodes {
		box, ok := l.Nodes[dotID(n.Status)]
		if !ok {
			continue
		}
		class := "node " + n.Class
		if len(order[n.Status]) > 0 {
			class += " visited"
		}
		if n.Status == current && current != "" {
			class += " current"
		}
		s.printf(`<g class="%s" data-status="%s"`, class, esc(n.Status))
		if o := order[n.Status]; len(o) > 0 {
			s.printf(` data-order="%s"`, joinInts(o))
		}
		tip := dotLabel(n.Status) + ": " + n.Summary
		if n.Status == current && current != "" {
			tip = "Now " + tip
		}
		s.printf(`><title>%s</title>`, esc(tip))
		if n.Status == "" {
			s.printf(`<circle cx="%s" cy="%s" r="%s"/>`, num(box.X), num(box.Y), num(box.W/2))
			s.printf("</g>\n")
			continue
		}
		x, y := box.X-box.W/2, box.Y-box.H/2
		s.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="6"/>`, num(x), num(y), num(box.W), num(box.H))
		for i, line := range n.Lines {
			ty := box.Y + (float64(i)-float64(len(n.Lines)-1)/2)*13 + 4
			cls := "name"
			if i > 0 {
				cls = "phase"
			}
			s.printf(`<text class="%s" x="%s" y="%s">%s</text>`, cls, num(box.X), num(ty), esc(line))
		}
		if o := order[n.Status]; len(o) > 0 {
			shown := o
			if len(shown) > 3 {
				shown = shown[len(shown)-3:]
			}
			badge := joinInts(shown)
			if len(o) > 3 {
				badge = "…" + badge
			}
			bw := 8 + 6.2*float64(len([]rune(badge)))
			bx, by := x+box.W-bw/2-2, y-2
			s.printf(`<g class="badge"><rect x="%s" y="%s" width="%s" height="13" rx="6.5"/><text x="%s" y="%s">%s</text></g>`,
				num(bx-bw/2), num(by-6.5), num(bw), num(bx), num(by+3.5), esc(badge))
		}
		s.printf("</g>\n")
	}
	s.printf("</g>\n</g>\n")
	return s.close()
}

// splinePath turns dot's B-spline control points (a start, then three per
// segment) into an SVG path of cubic Béziers.
func splinePath(p [][2]float64) string {
	var b strings.Builder
	b.WriteString("M" + num(p[0][0]) + "," + num(p[0][1]))
	for i := 1; i+2 < len(p); i += 3 {
		b.WriteString("C" + num(p[i][0]) + "," + num(p[i][1]) + " " + num(p[i+1][0]) + "," + num(p[i+1][1]) + " " + num(p[i+2][0]) + "," + num(p[i+2][1]))
	}
	return b.String()
}

func dotLabel(status string) string {
	if status == "" {
		return "(does not exist)"
	}
	return status
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}
