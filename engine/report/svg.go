package report

import (
	"fmt"
	"strconv"
	"strings"
)

// svgDoc builds one SVG document by hand: the pictures are rectangles,
// polylines, circles and text at coordinates this package computes, so a
// writer of a few elements is all they need (see the package doc).
type svgDoc struct {
	b    strings.Builder
	w, h float64
}

// attrs are attribute name and value pairs, written in order.
type attrs []string

func newSVG(w, h float64, title string) *svgDoc {
	s := &svgDoc{w: w, h: h}
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
		num(w), num(h), num(w), num(h))
	s.b.WriteString("\n<title>" + esc(title) + "</title>\n")
	s.rect(0, 0, w, h, attrs{"fill", "#ffffff"})
	return s
}

// num formats a coordinate with at most two decimals, so files stay small.
func num(x float64) string {
	return strconv.FormatFloat(float64(int64(x*100+sign(x)*0.5))/100, 'f', -1, 64)
}

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// esc escapes text and attribute values.
func esc(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")
	return r.Replace(s)
}

func (s *svgDoc) open(tag string, a attrs) {
	s.b.WriteString("<" + tag)
	for i := 0; i+1 < len(a); i += 2 {
		s.b.WriteString(" " + a[i] + `="` + esc(a[i+1]) + `"`)
	}
}

// element writes an empty element, or one holding a tooltip when tip is set.
func (s *svgDoc) element(tag string, a attrs, tip string) {
	s.open(tag, a)
	if tip == "" {
		s.b.WriteString("/>\n")
		return
	}
	s.b.WriteString("><title>" + esc(tip) + "</title></" + tag + ">\n")
}

func (s *svgDoc) rect(x, y, w, h float64, a attrs) { s.rectTip(x, y, w, h, a, "") }

func (s *svgDoc) rectTip(x, y, w, h float64, a attrs, tip string) {
	s.element("rect", append(attrs{"x", num(x), "y", num(y), "width", num(max(w, 0)), "height", num(max(h, 0))}, a...), tip)
}

func (s *svgDoc) line(x1, y1, x2, y2 float64, a attrs) {
	s.element("line", append(attrs{"x1", num(x1), "y1", num(y1), "x2", num(x2), "y2", num(y2)}, a...), "")
}

func (s *svgDoc) circle(x, y, r float64, a attrs, tip string) {
	s.element("circle", append(attrs{"cx", num(x), "cy", num(y), "r", num(r)}, a...), tip)
}

// polyline draws through points given as x, y pairs.
func (s *svgDoc) polyline(pts [][2]float64, a attrs, tip string) {
	var p strings.Builder
	for i, q := range pts {
		if i > 0 {
			p.WriteByte(' ')
		}
		p.WriteString(num(q[0]) + "," + num(q[1]))
	}
	s.element("polyline", append(attrs{"points", p.String(), "fill", "none"}, a...), tip)
}

func (s *svgDoc) polygon(pts [][2]float64, a attrs) {
	var p strings.Builder
	for i, q := range pts {
		if i > 0 {
			p.WriteByte(' ')
		}
		p.WriteString(num(q[0]) + "," + num(q[1]))
	}
	s.element("polygon", append(attrs{"points", p.String()}, a...), "")
}

// path draws the path data given.
func (s *svgDoc) path(data string, a attrs) { s.element("path", append(attrs{"d", data}, a...), "") }

// hatch defines a pattern of diagonal strokes under id, to fill a shape
// with ("url(#id)") over what it covers. Ids are unique on a page that
// holds several pictures only when each picture names its own.
func (s *svgDoc) hatch(id string) {
	s.b.WriteString(`<defs><pattern id="` + esc(id) + `" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">` +
		`<rect width="6" height="6" fill="#ffffff" fill-opacity="0.25"/><line x1="1.5" y1="0" x2="1.5" y2="6" stroke="#1a1a1a" stroke-width="1.6" stroke-opacity="0.55"/></pattern></defs>` + "\n")
}

// padlock draws a closed padlock of height h from x, y (its top left): a
// mark for what is locked that needs no font.
func (s *svgDoc) padlock(x, y, h float64) {
	w := 0.8 * h
	bodyTop := y + 0.45*h
	s.path(fmt.Sprintf("M%s %sV%sA%s %s 0 0 1 %s %sV%s", num(x+0.2*w), num(bodyTop), num(y+0.3*w), num(0.3*w), num(0.3*w), num(x+0.8*w), num(y+0.3*w), num(bodyTop)),
		attrs{"fill", "none", "stroke", "#222222", "stroke-width", num(max(1, 0.14*h))})
	s.rect(x, bodyTop, w, 0.55*h, attrs{"fill", "#222222", "rx", num(0.08 * h)})
}

// padlockWidth is the width padlock draws at height h.
func padlockWidth(h float64) float64 { return 0.8 * h }

func (s *svgDoc) text(x, y float64, text string, a attrs) {
	s.open("text", append(attrs{"x", num(x), "y", num(y)}, a...))
	s.b.WriteString(">" + esc(text) + "</text>\n")
}

func (s *svgDoc) group(a attrs) { s.open("g", a); s.b.WriteString(">\n") }
func (s *svgDoc) end()          { s.b.WriteString("</g>\n") }

func (s *svgDoc) bytes() []byte { return []byte(s.b.String() + "</svg>\n") }

// textWidth estimates the width of text in a sans-serif font of the given
// size, for laying out labels without a font's metrics.
func textWidth(text string, size float64) float64 {
	return float64(len([]rune(text))) * size * 0.58
}
