package javapattern

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/dlclark/regexp2/v2"
)

// Matcher is a compiled pattern: a *regexp.Regexp, or a pattern Go
// refuses run by regexp2. String is the pattern as given.
type Matcher interface {
	MatchString(s string) bool
	String() string
}

// Compile compiles a Java pattern: with regexp when Go can, else with
// regexp2; an error when neither can. It searches, as Java's find() and
// everit do: anchor it ("^(?:" + p + ")$") for a whole match.
func Compile(p string) (Matcher, error) {
	if re, err := regexp.Compile(p); err == nil {
		return re, nil
	}
	return compileJava(p)
}

// javaPattern is a pattern Go cannot compile, run by regexp2.
type javaPattern struct {
	src string // the schema's pattern (re is its .NET form)
	re  *regexp2.Regexp
}

func (p javaPattern) MatchString(s string) bool {
	ok, err := p.re.MatchString(s)
	return ok || err != nil
}

func (p javaPattern) String() string { return p.src }

// compileJava compiles a Java pattern with regexp2.
func compileJava(p string) (Matcher, error) {
	re, err := regexp2.Compile(javaToNET(p), regexp2.None)
	if err != nil {
		return nil, err
	}
	return javaPattern{src: p, re: re}, nil
}

// posixClasses are Java's POSIX character classes (US-ASCII only, as Java
// has them without UNICODE_CHARACTER_CLASS), as class members.
var posixClasses = map[string]string{
	"Lower": `a-z`, "Upper": `A-Z`, "ASCII": `\x00-\x7F`, "Alpha": `a-zA-Z`,
	"Digit": `0-9`, "Alnum": `a-zA-Z0-9`, "Punct": "!-/:-@\\[-`{-~",
	"Graph": `\x21-\x7E`, "Print": `\x20-\x7E`, "Blank": ` \t`,
	"Cntrl": `\x00-\x1F\x7F`, "XDigit": `0-9a-fA-F`, "Space": ` \t\n\x0B\f\r`,
}

// javaToNET rewrites what Java's syntax has and .NET's does not: the POSIX
// classes (\p{Graph}: in a class its members, outside one a class of
// them; \P{Graph} outside a class), and an escaped underscore (\_, which
// Java reads as "_" and .NET refuses).
func javaToNET(p string) string {
	if !strings.Contains(p, `\p{`) && !strings.Contains(p, `\P{`) && !strings.Contains(p, `\_`) {
		return p
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			next := p[i+1]
			if next == '_' {
				b.WriteByte('_')
				i++
				continue
			}
			if next == 'p' || next == 'P' {
				if end := strings.IndexByte(p[i:], '}'); i+2 < len(p) && p[i+2] == '{' && end > 0 {
					members, ok := posixClasses[p[i+3:i+end]]
					switch {
					case ok && inClass && next == 'p':
						b.WriteString(members)
						i += end
						continue
					case ok && !inClass:
						neg := ""
						if next == 'P' {
							neg = "^"
						}
						b.WriteString("[" + neg + members + "]")
						i += end
						continue
					}
				}
			}
			b.WriteByte(c)
			b.WriteByte(next)
			i++
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// GoForm is a Go expression close to a Java pattern Go refuses, for the
// value generator only (they walk Go's syntax tree): lookarounds
// dropped, \uXXXX as \x{XXXX}, \Z as \z, repetition counts cut to Go's
// 1,000, the POSIX classes as javaToNET writes them. What it generates is
// checked against the pattern itself (on regexp2), so the approximation
// can only cost a failed attempt.
func GoForm(p string) string {
	p = javaToNET(p)
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			switch next := p[i+1]; {
			case next == 'u' && i+6 <= len(p) && isHex(p[i+2:i+6]):
				b.WriteString(`\x{` + p[i+2:i+6] + `}`)
				i += 5
			case next == 'Z':
				b.WriteString(`\z`)
				i++
			default:
				b.WriteByte(c)
				b.WriteByte(next)
				i++
			}
		case c == '(' && (strings.HasPrefix(p[i:], "(?=") || strings.HasPrefix(p[i:], "(?!") ||
			strings.HasPrefix(p[i:], "(?<=") || strings.HasPrefix(p[i:], "(?<!")):
			i = groupEnd(p, i) // a lookaround asserts; it matches nothing
		case c == '{':
			if end := strings.IndexByte(p[i:], '}'); end > 0 {
				b.WriteString(cutCounts(p[i : i+end+1]))
				i += end
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

// groupEnd is the index of the ")" that closes the group opened at i
// (len(p)-1 when none does), escapes and classes skipped.
func groupEnd(p string, i int) int {
	depth, inClass := 0, false
	for ; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return len(p) - 1
}

// cutCounts is a repetition "{n}", "{n,}" or "{n,m}" with its counts cut
// to Go's limit of 1,000; anything else as it is.
func cutCounts(rep string) string {
	inner := rep[1 : len(rep)-1]
	parts := strings.Split(inner, ",")
	if len(parts) > 2 {
		return rep
	}
	for i, s := range parts {
		if s == "" && i == 1 {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return rep
		}
		parts[i] = strconv.Itoa(min(n, 1000))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// LengthAhead reads a length lookahead, the registry's idiom for a length
// bound inside a pattern ("(?=.{1,32}$)...", "(?=^.{3,63}$)..."): the
// bounds it sets, ok false when the pattern has none.
func LengthAhead(p string) (minLen, maxLen int, ok bool) {
	m := lengthAheadRe.FindStringSubmatch(p)
	if m == nil {
		return 0, 0, false
	}
	minLen, _ = strconv.Atoi(m[1])
	maxLen, _ = strconv.Atoi(m[2])
	return minLen, maxLen, minLen <= maxLen
}

var lengthAheadRe = regexp.MustCompile(`\(\?=\^?\.\{(\d+),(\d+)\}\$\)`)
