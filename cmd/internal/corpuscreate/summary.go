package main

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/internal/corpus"
)

// summarize prints the templates that did not create, by verdict (each
// with stacksim's reason and the verdict's), the unexplained ones grouped
// by reason, and the counts. It answers the exit status: 1 when a created
// stack did not delete to DELETE_COMPLETE, stacksim broke, a template
// failed without a verdict or one with a verdict created (the list is
// stale), or fewer than minCreated created. standIns says whether the
// templates were given stand-ins (standins.go): those listed as needing
// them (corpus.StandIn) must then create with them, and the others must
// create without.
func summarize(w io.Writer, results []result, known map[string]corpus.Why, minCreated int, standIns bool) int {
	created, deleted, broken, standIn := 0, 0, 0, 0
	byVerdict := map[corpus.Verdict][]result{}
	var unexplained, stale []result
	for _, r := range results {
		if r.created {
			created++
			if len(r.standIns) > 0 {
				standIn++
			}
		}
		if r.deleted {
			deleted++
		}
		if r.broken != "" {
			broken++
		}
		why, listed := known[r.rel]
		if why.Verdict == corpus.StandIn && standIns {
			// It must create, given its stand-ins.
			if r.created && len(r.standIns) == 0 {
				stale = append(stale, r)
				continue
			}
			listed = false
		}
		switch {
		case r.created && listed:
			stale = append(stale, r)
		case r.created:
		case listed:
			byVerdict[why.Verdict] = append(byVerdict[why.Verdict], r)
		default:
			unexplained = append(unexplained, r)
		}
	}
	if n := len(results) - created; n > 0 {
		fmt.Fprintf(w, "\nThe %d that did not create, by verdict:\n", n)
	}
	verdicts := []corpus.Verdict{corpus.TemplateFault, corpus.CannotHave}
	if !standIns {
		verdicts = append(verdicts, corpus.StandIn)
	}
	var counts []string
	for _, v := range verdicts {
		rs := byVerdict[v]
		counts = append(counts, v.Plural(len(rs)))
		if len(rs) == 0 {
			continue
		}
		fmt.Fprintf(w, "  %s (%d):\n", v, len(rs))
		for _, r := range rs {
			fmt.Fprintf(w, "    %s\n        %s: %s\n        stacksim: %s %s\n", r.rel, v, known[r.rel].Reason, r.status, clip(r.reason, 300))
		}
	}
	if len(unexplained) > 0 {
		fmt.Fprintf(w, "  unexplained (%d), by reason: a fault of stacksim, or a verdict to write in internal/corpus/unmade.go:\n", len(unexplained))
		groups := map[string][]string{}
		for _, r := range unexplained {
			k := r.status + ": " + reasonKind(r.reason)
			groups[k] = append(groups[k], r.rel)
		}
		keys := make([]string, 0, len(groups))
		for k := range groups {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if len(groups[keys[i]]) != len(groups[keys[j]]) {
				return len(groups[keys[i]]) > len(groups[keys[j]])
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			fmt.Fprintf(w, "%4d  %s\n", len(groups[k]), k)
			for _, rel := range groups[k] {
				fmt.Fprintf(w, "        %s\n", rel)
			}
		}
	}
	for _, r := range stale {
		if known[r.rel].Verdict == corpus.StandIn {
			fmt.Fprintf(w, "STALE %s creates without stand-ins, but internal/corpus/unmade.go says it needs them (%s): remove it\n", r.rel, known[r.rel].Reason)
			continue
		}
		fmt.Fprintf(w, "STALE %s creates, but internal/corpus/unmade.go lists it (%s: %s): remove it\n", r.rel, known[r.rel].Verdict, known[r.rel].Reason)
	}
	fmt.Fprintf(w, "\n%d templates: %d CREATE_COMPLETE (%d deleted to DELETE_COMPLETE; %d given stand-ins for their author's code or macros), %d did not create (%s, %d unexplained), %d broke stacksim\n",
		len(results), created, deleted, standIn, len(results)-created, strings.Join(counts, ", "), len(unexplained), broken)
	if created < minCreated {
		fmt.Fprintf(w, "FAIL: %d created, fewer than -min %d\n", created, minCreated)
	}
	if broken > 0 || deleted != created || created < minCreated || len(unexplained) > 0 || len(stale) > 0 {
		return 1
	}
	return 0
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// kinds turn reasons into groups: names, numbers and quoted values out.
var kinds = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`^[A-Za-z0-9]+ \(`), "RESOURCE ("},
	{regexp.MustCompile(`(for resource|resource with id|Resource with id|logical id|references undefined resource) \[?[A-Za-z0-9]+\]?`), "$1 R"},
	{regexp.MustCompile(`\[[^\]]*\]`), "[...]"},
	{regexp.MustCompile(`RequestToken: [0-9a-f-]+`), "RequestToken: ..."},
	{regexp.MustCompile(`\([^()]*:[0-9]+\)$`), "(FILE:LINE)"},
	{regexp.MustCompile(`\b[0-9]+\b`), "N"},
}

func reasonKind(reason string) string {
	for _, k := range kinds {
		reason = k.re.ReplaceAllString(reason, k.with)
	}
	return clip(reason, 160)
}
