package webview

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/engine"
)

// MaxPlanSteps is how many steps the plan's graph draws; the JSON
// (/view/api/plan) has them all.
const MaxPlanSteps = 300

// planSVG draws an operation's plan: a band per phase, in order; in each,
// a column per level (a step's level is one more than the highest of the
// steps it waits for, as plan.Levels counts), the steps of a level in
// plan order under one another, and an arrow from each step to the steps
// that wait for it. A step is coloured by its state: pending, running,
// done, failed, cancelled; the running phase is marked.
func planSVG(p *engine.DescribeOperationPlanOutput) string {
	const (
		boxW, boxH = 170.0, 30.0
		colGap     = 46.0
		rowGap     = 8.0
		bandGap    = 30.0
		left       = 8.0
	)
	type placed struct {
		step engine.PlanStepState
		x, y float64
	}
	pos := map[string]placed{} // by phase and id
	key := func(phase string, id int) string { return fmt.Sprintf("%s#%d", phase, id) }
	var bands []struct {
		phase  string
		y, h   float64
		levels int
	}
	y := 26.0
	width := 300.0
	drawn := 0
	for _, phase := range p.Phases {
		var steps []engine.PlanStepState
		for _, s := range p.Steps {
			if string(s.Phase) == phase {
				steps = append(steps, s)
			}
		}
		level := map[int]int{}
		var levelOf func(s engine.PlanStepState) int
		byID := map[int]engine.PlanStepState{}
		for _, s := range steps {
			byID[s.ID] = s
		}
		levelOf = func(s engine.PlanStepState) int {
			if l, ok := level[s.ID]; ok {
				return l
			}
			level[s.ID] = 0 // a cycle (never in a valid plan) stops here
			l := 0
			for _, a := range s.After {
				if d, ok := byID[a]; ok {
					l = max(l, levelOf(d)+1)
				}
			}
			level[s.ID] = l
			return l
		}
		cols := map[int]int{}
		maxRows, levels := 0, 0
		start := y + 18
		for _, s := range steps {
			if drawn >= MaxPlanSteps {
				break
			}
			l := levelOf(s)
			row := cols[l]
			cols[l]++
			maxRows, levels = max(maxRows, row+1), max(levels, l+1)
			x := left + float64(l)*(boxW+colGap)
			pos[key(phase, s.ID)] = placed{s, x, start + float64(row)*(boxH+rowGap)}
			drawn++
		}
		h := 18 + float64(maxRows)*(boxH+rowGap)
		if len(steps) == 0 {
			h = 32
		}
		bands = append(bands, struct {
			phase  string
			y, h   float64
			levels int
		}{phase, y, h, levels})
		width = max(width, left+float64(levels)*(boxW+colGap), 16+7.2*float64(len(phase)))
		y += h + bandGap
	}
	var s svgWriter
	s.open("plan", width, y, fmt.Sprintf("Plan of %s", p.Operation))
	s.printf(`<text class="title" x="0" y="14">%s: %d step(s) in %d phase(s)</text>`+"\n", esc(p.Operation), len(p.Steps), len(p.Phases))
	for _, b := range bands {
		class := "band"
		if b.phase == p.Phase && p.InMotion {
			class += " running"
		}
		s.printf(`<g class="%s" data-phase="%s"><rect x="0" y="%s" width="%s" height="%s" rx="4"/><text x="6" y="%s">%s</text></g>`+"\n",
			class, esc(b.phase), num(b.y), num(width), num(b.h), num(b.y+13), esc(b.phase))
	}
	keys := make([]string, 0, len(pos))
	for k := range pos {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := pos[keys[i]], pos[keys[j]]
		if a.step.ID != b.step.ID {
			return a.step.ID < b.step.ID
		}
		return keys[i] < keys[j]
	})
	s.printf(`<g class="edges">` + "\n")
	for _, k := range keys {
		to := pos[k]
		for _, a := range to.step.After {
			from, ok := pos[key(string(to.step.Phase), a)]
			if !ok {
				continue
			}
			x0, y0 := from.x+boxW, from.y+boxH/2
			x1, y1 := to.x, to.y+boxH/2
			mx := (x0 + x1) / 2
			s.printf(`<path d="M%s,%sC%s,%s %s,%s %s,%s"/>`+"\n", num(x0), num(y0), num(mx), num(y0), num(mx), num(y1), num(x1-2), num(y1))
		}
	}
	s.printf("</g>\n")
	for _, k := range keys {
		pl := pos[k]
		st := pl.step
		s.printf(`<g class="step %s" data-step="%d" data-logical-id="%s"><title>#%d %s %s (%s), %s%s</title>`,
			esc(st.State), st.ID, esc(st.LogicalID), st.ID, esc(st.LogicalID), esc(string(st.Action)), esc(st.ResourceType), esc(st.State), afterText(st.After))
		s.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="4"/>`, num(pl.x), num(pl.y), num(boxW), num(boxH))
		s.printf(`<text class="name" x="%s" y="%s">%s</text>`, num(pl.x+6), num(pl.y+12), esc(clip(st.LogicalID, 24)))
		s.printf(`<text class="action" x="%s" y="%s">#%d %s · %s</text>`, num(pl.x+6), num(pl.y+24), st.ID, esc(string(st.Action)), esc(st.State))
		s.printf("</g>\n")
	}
	if more := len(p.Steps) - drawn; more > 0 {
		s.printf(`<text class="more" x="0" y="%s">… and %d more step(s), not drawn: the plan's JSON has them all</text>`+"\n", num(y-10), more)
	}
	return s.close()
}

func afterText(after []int) string {
	if len(after) == 0 {
		return ""
	}
	parts := make([]string, len(after))
	for i, a := range after {
		parts[i] = fmt.Sprintf("#%d", a)
	}
	return "; after " + strings.Join(parts, ", ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func (v *View) getPlanSVG(w http.ResponseWriter, r *http.Request) {
	name, ok := stackName(w, r)
	if !ok {
		return
	}
	out, err := v.e.DescribeOperationPlan(r.Context(), engine.DescribeStackOperationInput{StackName: name})
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	writeSVG(w, planSVG(out))
}
