package webview

import (
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/stacksim/stacksim/timeline"
)

// MaxGanttRows is how many actions the gantt chart draws; the JSON
// (/view/api/timeline) has them all.
const MaxGanttRows = 400

// ganttSVG draws a timeline: a row per action (by phase), its bar from
// start to end in virtual time coloured by how it ended, the critical
// path's bars marked critical (and listed in order in the title of
// each), a diamond for an action of no duration.
func ganttSVG(tl timeline.JSON) string {
	const (
		labelW = 230.0
		chartW = 720.0
		rowH   = 18.0
		top    = 34.0
	)
	span := tl.EndTime.Sub(tl.StartTime).Seconds()
	if span <= 0 {
		span = 1
	}
	xOf := func(sec float64) float64 { return labelW + sec/span*chartW }
	rows := 0
	for _, p := range tl.Phases {
		rows++ // the phase's heading
		for _, a := range tl.Actions {
			if a.Phase == p {
				rows++
			}
		}
	}
	drawn := min(len(tl.Actions), MaxGanttRows)
	height := top + float64(min(rows, drawn+len(tl.Phases)))*rowH + 30
	var s svgWriter
	s.open("gantt", labelW+chartW+20, height, fmt.Sprintf("Timeline of %s: %s", tl.StackName, tl.Operation))
	s.printf(`<text class="title" x="0" y="14">%s: %s, %s to %s (virtual time), critical path %s</text>`+"\n",
		esc(tl.StackName), esc(tl.Operation), timeline.Clock(tl.StartTime), timeline.Clock(tl.EndTime), esc(timeline.Seconds(secDur(tl.CriticalPathSeconds))))
	// The axis: about eight ticks, on whole seconds.
	step := niceStep(span / 8)
	for t := 0.0; t <= span+1e-9; t += step {
		x := xOf(t)
		s.printf(`<line class="tick" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x), num(top-6), num(x), num(height-24))
		s.printf(`<text class="tick" x="%s" y="%s">%s</text>`, num(x), num(height-10), timeline.Clock(tl.StartTime.Add(secDur(int64(t)))))
	}
	s.printf("\n")
	critOrder := map[int]int{}
	for i, id := range tl.CriticalPath {
		critOrder[id] = i + 1
	}
	y := top
	n := 0
	for _, p := range tl.Phases {
		if n >= drawn {
			break
		}
		s.printf(`<text class="phase" x="0" y="%s">%s</text>`+"\n", num(y+12), esc(p))
		y += rowH
		for _, a := range tl.Actions {
			if a.Phase != p || n >= drawn {
				continue
			}
			n++
			cat := catProgress
			if !a.InMotion {
				cat = category(a.ResourceStatus)
			}
			class := "bar " + cat
			if a.Critical {
				class += " critical"
			}
			x0 := xOf(a.StartTime.Sub(tl.StartTime).Seconds())
			x1 := xOf(a.EndTime.Sub(tl.StartTime).Seconds())
			status := a.ResourceStatus
			if a.InMotion {
				status = "in motion"
			}
			tip := fmt.Sprintf("%s %s (%s): %s → %s, %s, %s", a.LogicalResourceId, a.Action, a.ResourceType,
				timeline.Clock(a.StartTime), timeline.Clock(a.EndTime), timeline.Seconds(secDur(a.Seconds)), status)
			if k := critOrder[a.Id]; k > 0 {
				tip += fmt.Sprintf("; critical path, %d of %d", k, len(tl.CriticalPath))
			}
			s.printf(`<g class="%s" data-action="%d" data-logical-id="%s"><title>%s</title>`, class, a.Id, esc(a.LogicalResourceId), esc(tip))
			s.printf(`<text class="label" x="%s" y="%s">%s %s</text>`, num(labelW-8), num(y+12), esc(a.LogicalResourceId), esc(a.Action))
			if x1-x0 < 0.5 {
				cy := y + rowH/2
				s.printf(`<path d="M%s,%sl5,5l-5,5l-5,-5z"/>`, num(x0), num(cy-5))
			} else {
				s.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="2"/>`, num(x0), num(y+3), num(x1-x0), num(rowH-6))
			}
			s.printf("</g>\n")
			y += rowH
		}
	}
	if more := len(tl.Actions) - drawn; more > 0 {
		s.printf(`<text class="more" x="0" y="%s">… and %d more action(s), not drawn: the timeline's JSON has them all</text>`+"\n", num(y+12), more)
	}
	return s.close()
}

func secDur(s int64) time.Duration { return time.Duration(s) * time.Second }

// niceStep rounds a tick interval up to 1, 2, 5 × 10^k seconds (at least
// one second).
func niceStep(x float64) float64 {
	if x <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

func (v *View) getGanttSVG(w http.ResponseWriter, r *http.Request) {
	name, ok := stackName(w, r)
	if !ok {
		return
	}
	tl, err := timeline.Of(r.Context(), v.e, name)
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	writeSVG(w, ganttSVG(tl.JSON()))
}
