package plan

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// String renders the plan for people: the operation, then each phase with
// its levels of parallelism and its steps, one a line.
//
//	UPDATE
//	UPDATE_IN_PROGRESS  levels [1 3] [2]
//	  #1  Topic1  AWS::SNS::Topic  CreateThenDelete  arn:...:a  replacement=True policy=ReplaceAndDelete scope=Properties
//	  ...
func (p *Plan) String() string {
	var b strings.Builder
	_ = p.Format(&b)
	return b.String()
}

// Format writes what String returns.
func (p *Plan) Format(w io.Writer) error {
	if _, err := fmt.Fprintln(w, p.Operation); err != nil {
		return err
	}
	for _, ph := range p.Phases() {
		var levels []string
		for _, l := range p.Levels(ph) {
			levels = append(levels, fmt.Sprint(l))
		}
		line := string(ph)
		if len(levels) > 0 {
			line += "  levels " + strings.Join(levels, " ")
		} else {
			line += "  (nothing)"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
		var table strings.Builder
		tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
		for _, s := range p.In(ph) {
			phys := s.PhysicalID
			if phys == "" {
				phys = "-"
			}
			fmt.Fprintf(tw, "  #%d\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.LogicalID, s.ResourceType, s.Action, phys, s.extras())
		}
		_ = tw.Flush()
		for _, line := range strings.SplitAfter(table.String(), "\n") {
			if line == "" {
				continue
			}
			if _, err := io.WriteString(w, strings.TrimRight(line, " \n")+"\n"); err != nil {
				return err
			}
		}
	}
	return nil
}

// extras renders the step's other fields as key=value pairs.
func (s *Step) extras() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	ids := func(list []int) string {
		if len(list) == 0 {
			return ""
		}
		out := make([]string, len(list))
		for i, id := range list {
			out[i] = fmt.Sprint(id)
		}
		return strings.Join(out, ",")
	}
	add("replacement", string(s.Replacement))
	add("policy", s.PolicyAction)
	add("scope", strings.Join(s.Scope, ","))
	add("after", ids(s.After))
	add("new", s.NewPhysicalID)
	if s.Replaces != 0 {
		add("replaces", fmt.Sprint(s.Replaces))
	}
	if s.IfReplaced {
		add("if", "replaced")
	}
	if s.Undoes != 0 {
		add("undoes", fmt.Sprint(s.Undoes))
	}
	if s.Custom {
		add("custom", "true")
	}
	if !s.CallsHandler() && s.Action != NoOp {
		add("handler", "none")
	}
	return strings.Join(parts, " ")
}
