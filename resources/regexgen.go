package resources

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/stacksim/stacksim/internal/javapattern"
)

// A string generator for the patterns of registry schemas: it walks the
// parsed expression (regexp/syntax) and draws every choice from a
// byteStream, so that the same request gives the same string. The Go
// libraries that do this (goregen, last released 2016; reggen, 2020) draw
// from math/rand and know no length bounds; a schema's pattern comes with
// minLength and maxLength, and a simulated value must be derived from the
// request's key, so stacksim has its own (a small walk over the syntax
// tree).
//
// Characters come from printable ASCII where the expression allows it
// (letters and digits first), so that generated values can be read and
// typed. Every result is checked against the compiled pattern and the
// length bounds; a pattern Go cannot parse (a lookahead) is walked in a Go
// form close to it (javapattern.GoForm), its results checked against the
// pattern itself.

// patternCache holds compiled patterns, for the process: registry
// schemas repeat patterns, and both validators and the generator use
// them.
var patternCache sync.Map // string → *compiledPattern

type compiledPattern struct {
	src string
	// m is the compiled pattern (internal/javapattern: Go's regexp, else
	// regexp2), nil when neither compiles it (err says why); goForm: Go
	// refused it, and the generator walks javapattern.GoForm(src).
	m      matcher
	goForm bool
	err    error
	// tree is the parsed expression the generator walks, made on first use.
	treeOnce sync.Once
	tree     *syntax.Regexp
}

func compilePattern(p string) *compiledPattern {
	if c, ok := patternCache.Load(p); ok {
		return c.(*compiledPattern)
	}
	c := &compiledPattern{src: p}
	c.m, c.err = javapattern.Compile(p)
	_, onGo := c.m.(*regexp.Regexp)
	c.goForm = c.m != nil && !onGo
	actual, _ := patternCache.LoadOrStore(p, c)
	return actual.(*compiledPattern)
}

// matcher is a compiled pattern (a schema's are Java expressions).
type matcher = javapattern.Matcher

// cachedRegexp compiles a schema's pattern through the pattern cache:
// with regexp, else with regexp2 (internal/javapattern); an error when
// neither can.
func cachedRegexp(p string) (matcher, error) {
	c := compilePattern(p)
	return c.m, c.err
}

func (c *compiledPattern) syntaxTree() *syntax.Regexp {
	c.treeOnce.Do(func() {
		if c.m == nil {
			return
		}
		src := c.src
		if c.goForm {
			src = javapattern.GoForm(src) // close to it; what it makes is checked against the pattern
		}
		if tree, err := syntax.Parse(src, syntax.Perl); err == nil {
			c.tree = tree.Simplify()
		}
	})
	return c.tree
}

// matches reports whether s matches the pattern; a pattern neither
// regexp nor regexp2 compiles matches everything here (the generators'
// view; the validators refuse such a schema: Schema.Check).
func (c *compiledPattern) matches(s string) bool { return c.m == nil || c.m.MatchString(s) }

// generate returns a string the pattern matches, of minLen to maxLen runes
// (maxLen < 0: no bound), or false when none was found in a few tries.
func (c *compiledPattern) generate(st *byteStream, minLen, maxLen int) (string, bool) {
	tree := c.syntaxTree()
	if tree == nil {
		return "", false
	}
	if lo, hi, ok := javapattern.LengthAhead(c.src); ok && c.goForm {
		// the walk knows no lookahead: its length bound becomes the walk's
		minLen = max(minLen, lo)
		if maxLen < 0 || hi < maxLen {
			maxLen = hi
		}
	}
	for _, mode := range [...]repeatMode{repeatFew, repeatFew, repeatToMin, repeatShortest, repeatMore, repeatToMin, repeatFew, repeatMore} {
		g := regexGen{st: st, mode: mode, minLen: minLen}
		g.walk(tree)
		s := g.b.String()
		n := utf8.RuneCountInString(s)
		if n >= minLen && (maxLen < 0 || n <= maxLen) && c.matches(s) {
			return s, true
		}
	}
	return "", false
}

// repeatMode is how many times a repetition repeats in one attempt.
type repeatMode int

const (
	repeatFew      repeatMode = iota // the minimum and up to 4 more
	repeatToMin                      // enough for the whole string's minimum length
	repeatShortest                   // the minimum
	repeatMore                       // the minimum and up to 16 more
)

type regexGen struct {
	st     *byteStream
	b      strings.Builder
	mode   repeatMode
	minLen int
}

func (g *regexGen) n(k int) int {
	if k <= 1 {
		return 0
	}
	return int(g.st.next()) % k
}

func (g *regexGen) walk(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && g.n(2) == 1 {
				r = foldOnce(r)
			}
			g.b.WriteRune(r)
		}
	case syntax.OpCharClass:
		g.b.WriteRune(g.pickClass(re.Rune))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		g.b.WriteByte(alphaLowerNum[g.n(len(alphaLowerNum))])
	case syntax.OpCapture:
		g.walk(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			g.walk(s)
		}
	case syntax.OpAlternate:
		g.walk(re.Sub[g.n(len(re.Sub))])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := repeatBounds(re)
		count := lo
		switch g.mode {
		case repeatFew:
			count = lo + g.n(5)
		case repeatMore:
			count = lo + g.n(17)
		case repeatToMin:
			count = max(lo, g.minLen-utf8.RuneCountInString(g.b.String()))
		}
		if hi >= 0 && count > hi {
			count = hi
		}
		for i := 0; i < count; i++ {
			g.walk(re.Sub[0])
		}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpNoMatch:
	}
}

func repeatBounds(re *syntax.Regexp) (lo, hi int) {
	switch re.Op {
	case syntax.OpStar:
		return 0, -1
	case syntax.OpPlus:
		return 1, -1
	case syntax.OpQuest:
		return 0, 1
	}
	return re.Min, re.Max
}

// pickClass picks a rune of a class (pairs of lo, hi), printable ASCII
// letters and digits first, then other printable ASCII, then the class's
// first rune.
func (g *regexGen) pickClass(ranges []rune) rune {
	for _, pool := range [...]string{alphaMixedNum, "-_.:/=+@", "!#$%&'()*,;<>?[]^`{|}~"} {
		var ok []byte
		for i := 0; i < len(pool); i++ {
			if inClass(rune(pool[i]), ranges) {
				ok = append(ok, pool[i])
			}
		}
		if len(ok) > 0 {
			return rune(ok[g.n(len(ok))])
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] == ' ' || ranges[i+1] >= ' ' {
			return max(ranges[i], ' ')
		}
	}
	if len(ranges) > 0 {
		return ranges[0]
	}
	return 'x'
}

func inClass(r rune, ranges []rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if r >= ranges[i] && r <= ranges[i+1] {
			return true
		}
	}
	return false
}

func foldOnce(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z':
		return r - 'a' + 'A'
	case r >= 'A' && r <= 'Z':
		return r - 'A' + 'a'
	}
	return r
}
