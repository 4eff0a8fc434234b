package template

import (
	"reflect"
	"strings"
	"testing"
)

// refParseSub is parseSub as it was before literal runs became substrings:
// the reference FuzzParseSub checks it against.
func refParseSub(s string) ([]subPart, bool) {
	if !strings.Contains(s, "${") {
		return []subPart{{text: s}}, true
	}
	var parts []subPart
	var lit strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			lit.WriteString(s)
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			lit.WriteString(s)
			break
		}
		lit.WriteString(s[:i])
		name := s[i+2 : i+2+j]
		s = s[i+3+j:]
		if strings.HasPrefix(name, "!") {
			lit.WriteString("${")
			lit.WriteString(name[1:])
			lit.WriteString("}")
			continue
		}
		// CloudFormation reads "${ Name }" as "${Name}".
		name = strings.TrimSpace(name)
		if !isSubVar(name) {
			return nil, false
		}
		if lit.Len() > 0 {
			parts = append(parts, subPart{text: lit.String()})
			lit.Reset()
		}
		parts = append(parts, subPart{text: name, isVar: true})
	}
	if lit.Len() > 0 {
		parts = append(parts, subPart{text: lit.String()})
	}
	return parts, true
}

func FuzzParseSub(f *testing.F) {
	for _, s := range []string{"", "a", "${A}", "x${A}y${B.C}z", "${!A}", "a${!B}c${D}", "${ A }", "${a-b}", "${A", "}${", "${!}${}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseSub(s)
		want, wok := refParseSub(s)
		if ok != wok || !reflect.DeepEqual(got, want) {
			t.Fatalf("parseSub(%q) = %v %v, want %v %v", s, got, ok, want, wok)
		}
		// The evaluator writes the scanner's pieces as they come: they
		// make the same text as the parts.
		if rendered, want := renderScan(s), renderParts(want, wok); rendered != want {
			t.Fatalf("the pieces of %q make %q, the parts %q", s, rendered, want)
		}
	})
}

// renderScan and renderParts write an Fn::Sub string's literal text as it
// is and each variable as <name>; "refused" when a name is.
func renderScan(s string) string {
	var b strings.Builder
	sc := subScanner{s: s}
	for {
		p, more, ok := sc.next()
		switch {
		case !ok:
			return "refused"
		case !more:
			return b.String()
		case p.isVar:
			b.WriteString("<" + p.text + ">")
		default:
			b.WriteString(p.text)
		}
	}
}

func renderParts(parts []subPart, ok bool) string {
	if !ok {
		return "refused"
	}
	var b strings.Builder
	for _, p := range parts {
		if p.isVar {
			b.WriteString("<" + p.text + ">")
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}
