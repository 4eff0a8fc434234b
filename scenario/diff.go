package scenario

import (
	"fmt"
	"strings"
)

// Diff returns a line diff of two texts, with three lines of context around
// each change: "-" for want, "+" for got; "" when they are equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	// lcs[i][j]: length of the longest common subsequence of a[i:], b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			lines = append(lines, line{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', a[i]})
			i++
		default:
			lines = append(lines, line{'+', b[j]})
			j++
		}
	}
	const context = 3
	keep := make([]bool, len(lines))
	for k, l := range lines {
		if l.op == ' ' {
			continue
		}
		for c := max(0, k-context); c <= min(len(lines)-1, k+context); c++ {
			keep[c] = true
		}
	}
	var out strings.Builder
	skipped := false
	for k, l := range lines {
		if !keep[k] {
			skipped = true
			continue
		}
		if skipped && out.Len() > 0 {
			out.WriteString("...\n")
		}
		skipped = false
		fmt.Fprintf(&out, "%c %s\n", l.op, strings.TrimSuffix(l.text, "\n"))
	}
	return out.String()
}
