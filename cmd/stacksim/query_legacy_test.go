package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// A literal that is not JSON is the string of its text, as the AWS CLI's
// JMESPath reads it; JSON literals, raw strings and quoted identifiers
// stay as they are.
func TestLegacyLiterals(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"StackEvents[?LogicalResourceId==`Queue`]", "StackEvents[?LogicalResourceId==`\"Queue\"`]"},
		{"a[?b==`  x1`]", "a[?b==`\"x1\"`]"},                     // left-trimmed
		{"a[?c==`2`]", "a[?c==`2`]"},                             // JSON: a number
		{"a[?c==`\"q\"`]", "a[?c==`\"q\"`]"},                     // JSON: a string
		{"a[?c==`true`] | `[1, 2]`", "a[?c==`true`] | `[1, 2]`"}, // JSON
		{"a[?b=='`x`']", "a[?b=='`x`']"},                         // a raw string holds the backticks
		{"\"we`ird\".b", "\"we`ird\".b"},                         // so does a quoted identifier
		{"a[?b==`x\\`y`]", "a[?b==`\"x\\`y\"`]"},                 // an escaped backtick stays one
		{"a[?b==`x\"y`]", "a[?b==`x\"y`]"},                       // no JSON string either: left for the compiler's error
		{"a[?b==`x", "a[?b==`x"},                                 // unterminated
		{"a[?b==`x\\`", "a[?b==`x\\`"},                           // so is one whose last backtick is escaped
	} {
		if got := legacyLiterals(c.in); got != c.want {
			t.Errorf("legacyLiterals(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// --query answers what the AWS CLI's JMESPath (jmespath.py, the reference
// implementation) answers, legacy literals included.
func TestQueryMatchesReferenceJMESPath(t *testing.T) {
	if err := exec.Command("python3", "-c", "import jmespath").Run(); err != nil {
		t.Skip("python3 cannot import jmespath (the AWS CLI's JMESPath): nothing to compare with")
	}
	doc := object{{"StackEvents", []any{
		object{{"LogicalResourceId", "Queue"}, {"ResourceStatus", "CREATE_COMPLETE"}, {"Attempt", json.Number("2")}},
		object{{"LogicalResourceId", "Web"}, {"ResourceStatus", "CREATE_FAILED"}, {"Attempt", json.Number("1")}},
		object{{"LogicalResourceId", "Queue"}, {"ResourceStatus", "CREATE_IN_PROGRESS"}, {"Attempt", json.Number("1")}},
	}}}
	exprs := []string{
		"StackEvents[?LogicalResourceId==`Queue`].ResourceStatus",
		"StackEvents[?LogicalResourceId==` Web`].ResourceStatus",
		"StackEvents[?Attempt==`2`].LogicalResourceId",
		"StackEvents[?ResourceStatus=='CREATE_FAILED'] | length(@)",
		"StackEvents[?contains(ResourceStatus, `FAILED`)].LogicalResourceId",
		"StackEvents[?LogicalResourceId==`\"Queue\"`] | [0].ResourceStatus",
	}
	plain, _ := json.Marshal(toPlain(doc))
	script := `import json, sys, warnings, jmespath
warnings.simplefilter("ignore")
doc = json.loads(sys.argv[1])
print(json.dumps([jmespath.search(e, doc) for e in json.loads(sys.argv[2])]))`
	list, _ := json.Marshal(exprs)
	out, err := exec.Command("python3", "-c", script, string(plain), string(list)).CombinedOutput()
	if err != nil {
		t.Fatalf("jmespath.py: %v\n%s", err, out)
	}
	var want []any
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("jmespath.py's answer %s: %v", out, err)
	}
	for i, e := range exprs {
		q, err := compileQuery(e)
		if err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		got, err := q.apply(doc)
		if err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		g, _ := json.Marshal(toPlain(got))
		w, _ := json.Marshal(want[i])
		if strings.TrimSpace(string(g)) != strings.TrimSpace(string(w)) {
			t.Errorf("%s: stacksim %s, jmespath.py %s", e, g, w)
		}
	}
}

// legacyLiterals never panics, changes nothing but literals that are not
// JSON, and leaves what it wrote alone when given it again.
func FuzzLegacyLiterals(f *testing.F) {
	for _, s := range []string{"a[?b==`x`]", "a[?b==`\"x\"`]", "'`x`'", "\"`\".a", "`a\\`b`", "`", "``", "a[?b==` 1`]", "`x\"y`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		out := legacyLiterals(expr)
		if !strings.Contains(expr, "`") && out != expr {
			t.Fatalf("%q has no literal and became %q", expr, out)
		}
		if again := legacyLiterals(out); again != out {
			t.Fatalf("%q -> %q -> %q", expr, out, again)
		}
	})
}
