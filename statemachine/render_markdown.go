package statemachine

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// The hand-written prose of docs/states.md: the paths through each machine.
// Everything else in the document is generated from the tables.
var (
	//go:embed prose/intro.md
	proseIntro string
	//go:embed prose/stack_paths.md
	proseStackPaths string
	//go:embed prose/resource_paths.md
	proseResourcePaths string
)

// markdown renders docs/states.md: both machines, every status, event and
// operation, the paths through them and the notes on the seeds.
func markdown() string {
	var b strings.Builder
	stack, resource := stackView(), resourceView()

	b.WriteString(strings.TrimSpace(proseIntro))
	b.WriteString("\n\n## The stack\n\n### Diagram\n\n```mermaid\n")
	b.WriteString(stack.mermaid())
	b.WriteString("```\n\n### Statuses\n\n")
	stack.mdStatusTable(&b)
	b.WriteString("\n### Events\n\n")
	stack.mdEventTable(&b)
	b.WriteString("\n### Operations\n\n")
	mdOperations(&b)
	b.WriteString("\n")
	b.WriteString(strings.TrimSpace(proseStackPaths))
	b.WriteString("\n\n### Status by status\n\n")
	for _, s := range stackStatuses {
		x, _ := ExplainStack(s)
		mdExplanation(&b, x)
	}

	b.WriteString("## The resource\n\n### Diagram\n\n```mermaid\n")
	b.WriteString(resource.mermaid())
	b.WriteString("```\n\n### Statuses\n\n")
	resource.mdStatusTable(&b)
	b.WriteString("\n### Events\n\n")
	resource.mdEventTable(&b)
	b.WriteString("\n")
	b.WriteString(strings.TrimSpace(proseResourcePaths))
	b.WriteString("\n\n### Status by status\n\n")
	for _, s := range resourceStatuses {
		x, _ := ExplainResource(s)
		mdExplanation(&b, x)
	}

	b.WriteString("## Where the seeds and AWS differ\n\n")
	b.WriteString("The machines encode what AWS does. Where the seed documents (`seeds/001`, the CDK's notes on stack and resource states; `seeds/003`, \"stack states explained\") say otherwise, or disagree with each other, this is what differs.\n\n")
	b.WriteString("| Where | The seed | Encoded here (AWS) |\n|---|---|---|\n")
	for _, n := range seedNotes {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", cell(n.Source), cell(n.Seed), cell(n.Encoded))
	}
	return b.String()
}

func (v view) mdStatusTable(b *strings.Builder) {
	if v.machine == "stack" {
		b.WriteString("| Status | Motion | Phase | Operations accepted | Meaning |\n|---|---|---|---|---|\n")
		for _, s := range v.statuses {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", s.label(), s.motion(), s.phase, cell(permissionList(s.permissions)), cell(s.summary))
		}
		b.WriteString("\nIn parentheses: the change set types accepted. `[if rollback disabled]`: only when the failed operation disabled rollback. `[no-op]`: accepted, and does nothing. In NotExist and DELETE_COMPLETE, CreateStack and CREATE or IMPORT change sets make a new stack, with a new stack ID; a DELETE_COMPLETE stack stays as it is.\n")
		return
	}
	b.WriteString("| Status | Motion | Events | Meaning |\n|---|---|---|---|\n")
	for _, s := range v.statuses {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", s.label(), s.motion(), cell(eventList(v.out(s.name))), cell(s.summary))
	}
}

func (v view) mdEventTable(b *strings.Builder) {
	b.WriteString("| Event | What happens | Transitions |\n|---|---|---|\n")
	for _, ev := range v.events {
		var ts []string
		for _, e := range ev.edges {
			ts = append(ts, fmt.Sprintf("%s → %s: %s", label(e.From), e.To, e.Why))
		}
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", ev.name, cell(ev.summary), cellLines(ts))
	}
}

// mdOperations renders where each operation is accepted, what it fires, and
// what AWS answers elsewhere: all derived from CheckOperation and
// OperationEvent.
func mdOperations(b *strings.Builder) {
	b.WriteString("Whether an API call is accepted depends on the stack's status (`CheckOperation`). An accepted call fires the event shown; a refused one changes nothing and returns AWS's error.\n\n")
	b.WriteString("| Operation | Accepted in | Fires |\n|---|---|---|\n")
	for _, op := range operations {
		var where, fires []string
		silent := false
		for _, s := range allStackStatuses() {
			for _, p := range Permissions(s) {
				if p.Operation != op {
					continue
				}
				w := label(string(s))
				var notes []string
				if len(p.ChangeSetTypes) > 0 {
					notes = append(notes, changeSetTypeList(p.ChangeSetTypes))
				}
				if p.IfRollbackDisabled {
					notes = append(notes, "if rollback disabled")
				}
				if p.NoOp {
					notes = append(notes, "no-op")
				}
				if len(notes) > 0 {
					w += " (" + strings.Join(notes, "; ") + ")"
				}
				where = append(where, w)
				for _, t := range typesOf(p) {
					info := StackInfo{Status: s, ChangeSetType: t, DisableRollback: p.IfRollbackDisabled}
					if _, ev, ok := OperationEvent(op, info); ok {
						if !slices.Contains(fires, "`"+string(ev)+"`") {
							fires = append(fires, "`"+string(ev)+"`")
						}
					} else {
						silent = true
					}
				}
			}
		}
		f := strings.Join(fires, ", ")
		if silent {
			f += ", or nothing"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", op, strings.Join(where, ", "), f)
	}
	b.WriteString("\nRefusals, for a stack named NAME with stack ID STACK_ID (the ARN) and a change set CHANGE_SET; STATUS is the stack's status:\n\n")
	b.WriteString("| Operation | Refused in | Code | Message |\n|---|---|---|---|\n")
	for _, r := range refusalGroups() {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", r.op, strings.Join(r.statuses, ", "), r.code, cell(r.message))
	}
}

func allStackStatuses() []StackStatus { return append([]StackStatus{NotExist}, stackStatuses[:]...) }

func typesOf(p Permission) []ChangeSetType {
	if len(p.ChangeSetTypes) == 0 {
		return []ChangeSetType{""}
	}
	return p.ChangeSetTypes
}

func changeSetTypeList(ts []ChangeSetType) string {
	var out []string
	for _, t := range ts {
		out = append(out, string(t))
	}
	return strings.Join(out, ", ")
}

type refusalGroup struct {
	op       string
	statuses []string
	code     string
	message  string // the message, with the status as STATUS when it applies to several
	example  string // the message of the first status
}

// refusalGroups groups the refusals of every operation by message, with the
// status replaced by STATUS.
func refusalGroups() []refusalGroup {
	var groups []refusalGroup
	for _, op := range operations {
		types := []ChangeSetType{""}
		if op == CreateChangeSet || op == ExecuteChangeSet {
			types = []ChangeSetType{ChangeSetTypeUpdate, ChangeSetTypeCreate, ChangeSetTypeImport}
		}
		for _, t := range types {
			name := string(op)
			if t != "" {
				name += " (" + string(t) + ")"
			}
			start := len(groups)
			for _, s := range allStackStatuses() {
				for _, doNothing := range []bool{false, true} {
					info := exampleStack(s)
					info.ChangeSetType, info.OnFailureDoNothing = t, doNothing
					oe, ok := CheckOperation(op, info).(*OperationError)
					if !ok {
						continue
					}
					tmpl := oe.Message
					if s != NotExist {
						tmpl = strings.ReplaceAll(tmpl, string(s), "STATUS")
					}
					who := label(string(s))
					switch {
					case doNothing:
						who += " (OnFailure DO_NOTHING)"
					case CheckOperation(op, StackInfo{Status: s, ChangeSetType: t, DisableRollback: true}) == nil:
						who += " (rollback not disabled)"
					}
					i := slices.IndexFunc(groups[start:], func(g refusalGroup) bool { return g.code == oe.Code && g.message == tmpl })
					if i < 0 {
						groups = append(groups, refusalGroup{op: name, code: oe.Code, message: tmpl, example: oe.Message})
						i = len(groups) - 1 - start
					}
					g := &groups[start+i]
					// A status refused the same way with and without
					// DO_NOTHING is listed once.
					if !slices.ContainsFunc(g.statuses, func(w string) bool { return strings.HasPrefix(w, label(string(s))+" ") || w == label(string(s)) }) {
						g.statuses = append(g.statuses, who)
					}
				}
			}
		}
	}
	for i := range groups {
		if len(groups[i].statuses) == 1 {
			groups[i].message = groups[i].example
		}
	}
	return groups
}

// mdExplanation renders one status for "Status by status".
func mdExplanation(b *strings.Builder, x Explanation) {
	fmt.Fprintf(b, "#### %s\n\n", x.Status)
	fmt.Fprintf(b, "*%s.* %s\n\n", motionWords(x), x.Summary)
	if x.During != "" {
		fmt.Fprintf(b, "- **In it:** %s\n", x.During)
	}
	fmt.Fprintf(b, "- **Gets here by:** %s\n", edgeSentence(x.Arrivals, true))
	fmt.Fprintf(b, "- **Leaves by:** %s\n", edgeSentence(x.Departures, false))
	if x.Machine == "stack" {
		fmt.Fprintf(b, "- **Operations accepted:** %s\n", permissionList(x.Permissions))
	}
	fmt.Fprintf(b, "- **Next:** %s\n\n", x.Next)
}

func motionWords(x Explanation) string {
	var w string
	switch {
	case x.Final:
		w = "At rest, final"
	case x.InMotion:
		w = "In motion"
	default:
		w = "At rest"
	}
	if x.Phase != 0 {
		w += ", phase " + x.Phase.String() + " (" + x.Phase.Words() + ")"
	}
	return w
}

// edgeSentence lists edges as "`event` from FROM" (arrivals) or "`event` →
// TO" (departures).
func edgeSentence(es []Edge, arrivals bool) string {
	if len(es) == 0 {
		return "nothing"
	}
	var out []string
	for _, e := range es {
		if arrivals {
			out = append(out, fmt.Sprintf("`%s` from %s", e.Event, label(e.From)))
		} else {
			out = append(out, fmt.Sprintf("`%s` → %s", e.Event, e.To))
		}
	}
	return strings.Join(out, "; ")
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// cellLines joins lines inside one Markdown table cell.
func cellLines(lines []string) string {
	for i, l := range lines {
		lines[i] = cell(l)
	}
	return strings.Join(lines, "<br>")
}
