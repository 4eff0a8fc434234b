package suite

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// Summary counts results.
type Summary struct{ Passed, Failed, Skipped int }

// Summarize counts results by outcome.
func Summarize(rs []Result) Summary {
	var s Summary
	for _, r := range rs {
		switch r.Outcome {
		case Pass:
			s.Passed++
		case Fail:
			s.Failed++
		case Skip:
			s.Skipped++
		}
	}
	return s
}

func (s Summary) String() string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped", s.Passed, s.Failed, s.Skipped)
}

// TextOptions configure WriteText.
type TextOptions struct {
	// RealTime shows the handler's real time with each test (the one
	// figure that differs from run to run).
	RealTime bool
}

// WriteText writes a line per test (PASS, FAIL or SKIP, the input set,
// the virtual time of its callbacks and the handler's real time), and for
// a failed test each problem with its rule or assertion, the request and
// the answer; then the summary line.
func WriteText(w io.Writer, rs []Result, opts TextOptions) {
	width := 0
	for _, r := range rs {
		width = max(width, len(r.Test))
	}
	for _, r := range rs {
		line := fmt.Sprintf("%-4s  %-*s  set %d", r.Outcome, width, r.Test, r.Set)
		if r.Outcome == Skip {
			fmt.Fprintf(w, "%s  %s\n", line, r.Reason)
			continue
		}
		line += fmt.Sprintf("  virtual %s", r.Virtual)
		if opts.RealTime {
			line += fmt.Sprintf("  handler %s (%s)", r.Real.Round(100*time.Microsecond), callCount(r.Calls))
		} else {
			line += fmt.Sprintf("  (%s)", callCount(r.Calls))
		}
		fmt.Fprintln(w, line)
		if r.Reason != "" {
			fmt.Fprintf(w, "      %s\n", r.Reason)
		}
		for _, p := range r.Problems {
			kind := "assertion"
			if p.Rule != "" {
				kind = "rule"
			}
			fmt.Fprintf(w, "      %s %s: %s\n", kind, p.ID(), p.Message)
			if p.Request != nil {
				fmt.Fprintf(w, "        request: %s\n", jsonLine(p.Request))
			}
			if p.Event != nil {
				fmt.Fprintf(w, "        answer:  %s\n", jsonLine(p.Event))
			}
		}
	}
	fmt.Fprintln(w, Summarize(rs))
}

func jsonLine(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := string(b)
	if len(s) > 2000 {
		s = s[:1997] + "..."
	}
	return s
}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes the results as JUnit XML (a test suite per input set,
// a test case per test, its time the handler's real time, the virtual
// time in its output).
func WriteJUnit(w io.Writer, typeName string, rs []Result) error {
	var doc junitSuites
	index := map[int]int{}
	for _, r := range rs {
		i, ok := index[r.Set]
		if !ok {
			i = len(doc.Suites)
			index[r.Set] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: fmt.Sprintf("stacksim test-handler %s (inputs set %d)", typeName, r.Set)})
		}
		s := &doc.Suites[i]
		c := junitCase{Name: r.Test, Classname: "contract." + strings.Join(r.Markers, "."), Time: seconds(r.Real),
			SystemOut: fmt.Sprintf("virtual time %s, %d handler calls", r.Virtual, r.Calls)}
		s.Tests++
		switch r.Outcome {
		case Fail:
			s.Failures++
			var body strings.Builder
			WriteText(&body, []Result{r}, TextOptions{})
			first := r.Problems[0]
			c.Failure = &junitMessage{Message: first.ID() + ": " + first.Message, Type: first.ID(), Body: body.String()}
		case Skip:
			s.Skipped++
			c.Skipped = &junitMessage{Message: r.Reason}
		}
		s.Cases = append(s.Cases, c)
	}
	for i := range doc.Suites {
		var total time.Duration
		for _, r := range rs {
			if index[r.Set] == i {
				total += r.Real
			}
		}
		doc.Suites[i].Time = seconds(total)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// callCount words a test's number of handler calls: "1 call", "3 calls".
func callCount(n int) string {
	if n == 1 {
		return "1 call"
	}
	return fmt.Sprintf("%d calls", n)
}
