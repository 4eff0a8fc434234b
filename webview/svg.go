package webview

import (
	"fmt"
	"html"
	"strconv"
	"strings"
)

// svgWriter builds an SVG document; text is escaped, numbers are written
// to a tenth.
type svgWriter struct {
	b strings.Builder
}

func (s *svgWriter) printf(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

func (s *svgWriter) open(class string, w, h float64, label string) {
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" class="%s" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-label="%s">`,
		class, num(w), num(h), num(w), num(h), esc(label))
	s.b.WriteByte('\n')
}

func (s *svgWriter) close() string {
	s.b.WriteString("</svg>\n")
	return s.b.String()
}

// num writes a coordinate: a tenth of a point is as fine as a page draws.
func num(f float64) string {
	return strconv.FormatFloat(float64(int64(f*10+copysignHalf(f)))/10, 'f', -1, 64)
}

func copysignHalf(f float64) float64 {
	if f < 0 {
		return -0.5
	}
	return 0.5
}

func esc(s string) string { return html.EscapeString(s) }
