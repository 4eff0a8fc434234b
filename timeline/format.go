package timeline

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Clock writes a virtual time as the CLI does: 15:04:05.
func Clock(t time.Time) string { return t.UTC().Format("15:04:05") }

// Seconds writes a duration as the CLI does: "5s" under a minute, "2m30s"
// above.
func Seconds(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return d.Round(time.Second).String()
}

func (tl *Timeline) criticalSet() map[*Action]bool {
	crit := make(map[*Action]bool, len(tl.Critical))
	for _, x := range tl.Critical {
		crit[x] = true
	}
	return crit
}

// Mermaid writes the timeline as a Mermaid gantt chart; the critical path
// is tagged crit, and written again in text as Mermaid comments.
func (tl *Timeline) Mermaid(w io.Writer) {
	crit := tl.criticalSet()
	fmt.Fprintln(w, "gantt")
	fmt.Fprintf(w, "    title %s: %s, %s to %s (virtual time)\n", tl.Stack, tl.Operation, Clock(tl.Start), Clock(tl.End))
	fmt.Fprintln(w, "    dateFormat HH:mm:ss")
	fmt.Fprintln(w, "    axisFormat %H:%M:%S")
	for _, p := range tl.Phases {
		fmt.Fprintf(w, "    section %s\n", p)
		for _, x := range tl.Actions {
			if x.Phase != p {
				continue
			}
			var tags []string
			if crit[x] {
				tags = append(tags, "crit")
			}
			if x.Result != "" {
				tags = append(tags, "done")
			} else {
				tags = append(tags, "active")
			}
			if x.Duration() == 0 {
				tags = append(tags, "milestone")
			}
			tags = append(tags, fmt.Sprintf("a%d", x.ID))
			fmt.Fprintf(w, "    %s :%s, %s, %s\n", x.Label(), strings.Join(tags, ", "), Clock(x.Start), Seconds(x.Duration()))
		}
	}
	var b strings.Builder
	tl.criticalText(&b)
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		fmt.Fprintf(w, "    %%%% %s\n", line)
	}
}

// Text writes the actions, by phase, and the critical path.
func (tl *Timeline) Text(w io.Writer) {
	fmt.Fprintf(w, "%s: %s, %s to %s (%s of virtual time), %d resource action(s)\n", tl.Stack, tl.Operation, Clock(tl.Start), Clock(tl.End), Seconds(tl.End.Sub(tl.Start)), len(tl.Actions))
	width := 8
	for _, x := range tl.Actions {
		width = max(width, len(x.LogicalID))
	}
	for _, p := range tl.Phases {
		fmt.Fprintf(w, "\n%s\n", p)
		for _, x := range tl.Actions {
			if x.Phase != p {
				continue
			}
			result := x.Result
			if result == "" {
				result = "(in motion)"
			}
			fmt.Fprintf(w, "  %s  %s  %5s  %-*s  %-8s %s\n", Clock(x.Start), Clock(x.End), Seconds(x.Duration()), width, x.LogicalID, x.Verb, result)
		}
	}
	fmt.Fprintln(w)
	tl.criticalText(w)
}

func (tl *Timeline) criticalText(w io.Writer) {
	if len(tl.Critical) == 0 {
		fmt.Fprintln(w, "Critical path: no resource actions")
		return
	}
	first, last := tl.Critical[0], tl.Critical[len(tl.Critical)-1]
	fmt.Fprintf(w, "Critical path: %s, %s to %s\n", Seconds(last.End.Sub(first.Start)), Clock(first.Start), Clock(last.End))
	for _, x := range tl.Critical {
		fmt.Fprintf(w, "  %s → %s  %-5s %s (%s)\n", Clock(x.Start), Clock(x.End), Seconds(x.Duration()), x.Label(), x.Phase)
	}
}
