package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/engine"
)

// svgElement is one element of a parsed SVG, with its attributes, the
// text directly inside it, and the elements it lies in, outermost first.
type svgElement struct {
	name      string
	attrs     map[string]string
	text      string
	ancestors []*svgElement
}

// parseSVG checks that b is well-formed XML with an svg root and returns
// its elements in document order.
func parseSVG(t *testing.T, b []byte) []*svgElement {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var els, open []*svgElement
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG does not parse as XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &svgElement{name: tok.Name.Local, attrs: map[string]string{}, ancestors: slices.Clone(open)}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			els = append(els, e)
			open = append(open, e)
		case xml.EndElement:
			open = open[:len(open)-1]
		case xml.CharData:
			if len(open) > 0 {
				open[len(open)-1].text += string(tok)
			}
		}
	}
	if len(els) == 0 || els[0].name != "svg" {
		t.Fatalf("no svg root element")
	}
	return els
}

// within is the innermost element e lies in that has class, or nil.
func (e *svgElement) within(class string) *svgElement {
	for i := len(e.ancestors) - 1; i >= 0; i-- {
		if hasClass(e.ancestors[i], class) {
			return e.ancestors[i]
		}
	}
	return nil
}

func (e *svgElement) f(t *testing.T, name string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(e.attrs[name], 64)
	if err != nil {
		t.Fatalf("<%s> %s=%q: %v", e.name, name, e.attrs[name], err)
	}
	return x
}

func hasClass(e *svgElement, class string) bool {
	for _, c := range strings.Fields(e.attrs["class"]) {
		if c == class {
			return true
		}
	}
	return false
}

func points(t *testing.T, s string) [][2]float64 {
	var out [][2]float64
	for _, p := range strings.Fields(s) {
		xy := strings.Split(p, ",")
		x, err1 := strconv.ParseFloat(xy[0], 64)
		y, err2 := strconv.ParseFloat(xy[1], 64)
		if len(xy) != 2 || err1 != nil || err2 != nil {
			t.Fatalf("bad point %q", p)
		}
		out = append(out, [2]float64{x, y})
	}
	return out
}

func near(a, b [2]float64) bool { return math.Abs(a[0]-b[0]) < 0.02 && math.Abs(a[1]-b[1]) < 0.02 }

// A route's line starts at the DC, passes through its stores' markers in
// stop order and ends at the DC; the scale bar says how many pixels a
// kilometre is, and the DC-to-store distances on the picture agree with it.
func TestRouteMapGeometry(t *testing.T) {
	req, plan := samplePlan(t)
	var buf bytes.Buffer
	if err := RouteMap(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	els := parseSVG(t, buf.Bytes())
	store := map[string][2]float64{}
	var dc [2]float64
	var lines []*svgElement
	var scaleKm, scalePx float64
	for _, e := range els {
		switch {
		case hasClass(e, "store"):
			store[e.attrs["data-store"]] = [2]float64{e.f(t, "cx"), e.f(t, "cy")}
		case e.attrs["id"] == "dc":
			dc = [2]float64{e.f(t, "data-x"), e.f(t, "data-y")}
		case hasClass(e, "route"):
			lines = append(lines, e)
		case e.attrs["id"] == "scale":
			scaleKm, scalePx = e.f(t, "data-km"), e.f(t, "data-px")
		}
	}
	if len(store) != len(req.Stores) || len(lines) != len(plan.Routes) {
		t.Fatalf("%d store markers and %d route lines, want %d and %d", len(store), len(lines), len(req.Stores), len(plan.Routes))
	}
	for i, r := range plan.Routes {
		e := lines[i]
		if e.attrs["data-route"] != r.ID {
			t.Fatalf("line %d is route %q, want %q", i, e.attrs["data-route"], r.ID)
		}
		pts := points(t, e.attrs["points"])
		if len(pts) != len(r.Stops)+2 || !near(pts[0], dc) || !near(pts[len(pts)-1], dc) {
			t.Fatalf("route %s: %d points from %v to %v, want %d from and to the DC at %v", r.ID, len(pts), pts[0], pts[len(pts)-1], len(r.Stops)+2, dc)
		}
		for k, s := range r.Stops {
			if !near(pts[k+1], store[s.Store]) {
				t.Errorf("route %s point %d at %v, store %s's marker at %v", r.ID, k+1, pts[k+1], s.Store, store[s.Store])
			}
		}
		for _, p := range pts {
			if p[0] < 0 || p[0] > mapWidth || p[1] < mapTop {
				t.Errorf("route %s leaves the map at %v", r.ID, p)
			}
		}
	}
	// The legend's lines fit on the picture, by the width text of their
	// size takes.
	for _, r := range plan.Routes {
		line := fmt.Sprintf("%s · shift %s", req.Fleet[slices.IndexFunc(req.Fleet, func(t engine.TrailerType) bool { return t.ID == r.Trailer })].Name, r.Shift)
		if end := mapWidth + 14 + 70 + textWidth(line, 11); end > els[0].f(t, "width") {
			t.Errorf("route %s: the legend's %q ends at %.0f px, the picture is %v px wide", r.ID, line, end, els[0].attrs["width"])
		}
	}
	// The picture is to scale: great-circle km from the DC, times the
	// scale bar's pixels per km, is the distance on the picture (within
	// what the equirectangular projection distorts over a city region).
	pxPerKm := scalePx / scaleKm
	for _, s := range req.Stores {
		km := haversineKm(req.DC.Location.Lat, req.DC.Location.Lng, s.Location.Lat, s.Location.Lng)
		p := store[s.ID]
		px := math.Hypot(p[0]-dc[0], p[1]-dc[1])
		if math.Abs(px/pxPerKm-km) > 0.005*km+0.05 {
			t.Errorf("store %s: %.2f km from the DC on the map, %.2f km on the ground", s.ID, px/pxPerKm, km)
		}
	}
}

func haversineKm(lat1, lng1, lat2, lng2 float64) float64 {
	const r = 6378.137
	rad := math.Pi / 180
	dlat, dlng := (lat2-lat1)*rad, (lng2-lng1)*rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlng/2)*math.Sin(dlng/2)
	return 2 * r * math.Asin(math.Sqrt(a))
}

// Every pallet is drawn inside the floor, once, labelled with its stop's
// number, and a stacked pallet inside the one it stands on.
func TestTrailerFloorGeometry(t *testing.T) {
	req, plan := samplePlan(t)
	for _, r := range plan.Routes {
		checkFloor(t, req, plan, r)
	}
	// Stack one pallet of the first route on another: the sample has no
	// stacked pallets, and the picture must draw them inside.
	r := plan.Routes[0]
	r.Load.Placements = append([]engine.Placement(nil), r.Load.Placements...)
	a, b := r.Load.Placements[0], &r.Load.Placements[1]
	b.Row, b.Side, b.XMM, b.Turned, b.Level = a.Row, a.Side, a.XMM, a.Turned, 1
	r.Load.Placements[2].Side = "CENTER" // a pallet alone in its row, midway across
	checkFloor(t, req, plan, r)
	if err := TrailerFloor(io.Discard, req, plan, "NO-SUCH-ROUTE"); err == nil {
		t.Error("an unknown route draws a floor")
	}
}

func checkFloor(t *testing.T, req engine.Request, plan engine.Result, r engine.Route) {
	t.Helper()
	p2 := plan
	p2.Routes = []engine.Route{r}
	var buf bytes.Buffer
	if err := TrailerFloor(&buf, req, p2, r.ID); err != nil {
		t.Fatal(err)
	}
	els := parseSVG(t, buf.Bytes())
	var floor *svgElement
	type rect struct{ x0, y0, x1, y1 float64 }
	pallets := map[string]rect{}
	levels := map[string]int{}
	labels := 0
	for _, e := range els {
		switch {
		case hasClass(e, "floor"):
			floor = e
		case hasClass(e, "pallet"):
			x, y := e.f(t, "x"), e.f(t, "y")
			pallets[e.attrs["data-pallet"]] = rect{x, y, x + e.f(t, "width"), y + e.f(t, "height")}
			levels[e.attrs["data-pallet"]], _ = strconv.Atoi(e.attrs["data-level"])
		case hasClass(e, "stop-label"):
			labels++
		}
	}
	if floor == nil {
		t.Fatalf("%s: no floor", r.ID)
	}
	fx, fy := floor.f(t, "x"), floor.f(t, "y")
	fl := rect{fx, fy, fx + floor.f(t, "width"), fy + floor.f(t, "height")}
	if len(pallets) != len(r.Load.Placements) || labels != len(r.Load.Placements) {
		t.Errorf("%s: %d pallets and %d labels drawn, %d placed", r.ID, len(pallets), labels, len(r.Load.Placements))
	}
	const eps = 0.02
	inside := func(a, b rect) bool {
		return a.x0 >= b.x0-eps && a.y0 >= b.y0-eps && a.x1 <= b.x1+eps && a.y1 <= b.y1+eps
	}
	stop := stopOf(&r)
	for _, pl := range r.Load.Placements {
		pr, ok := pallets[pl.Pallet]
		if !ok {
			t.Errorf("%s: pallet %s not drawn", r.ID, pl.Pallet)
			continue
		}
		if !inside(pr, fl) {
			t.Errorf("%s: pallet %s drawn at %v, outside the floor %v", r.ID, pl.Pallet, pr, fl)
		}
		if levels[pl.Pallet] != pl.Level {
			t.Errorf("%s: pallet %s drawn at level %d, placed at %d", r.ID, pl.Pallet, levels[pl.Pallet], pl.Level)
		}
		if pl.Level == 0 {
			continue
		}
		carried := false
		for _, q := range r.Load.Placements {
			if q.Level == 0 && inside(pr, pallets[q.Pallet]) {
				carried = true
			}
		}
		if !carried {
			t.Errorf("%s: stacked pallet %s is not drawn on a floor pallet", r.ID, pl.Pallet)
		}
	}
	// The label of the pallet nearest the door is its stop's number.
	if !strings.Contains(buf.String(), `data-stop="`+strconv.Itoa(stop[r.Load.Placements[0].Pallet]+1)+`"`) {
		t.Errorf("%s: stop numbers not drawn", r.ID)
	}
}

// A route of one stop and one pallet reads "1 stop, 1 pallet" on the map
// and on its floor, never "1 stops".
func TestOneReadsSingular(t *testing.T) {
	req, plan := samplePlan(t)
	r := plan.Routes[0]
	r.Stops = []engine.Stop{r.Stops[0]}
	r.Stops[0].Pallets = r.Stops[0].Pallets[:1]
	r.Metrics.Pallets = 1
	plan.Routes = []engine.Route{r}
	var m, f bytes.Buffer
	if err := RouteMap(&m, req, plan); err != nil {
		t.Fatal(err)
	}
	if err := TrailerFloor(&f, req, plan, r.ID); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.String(), "1 stop, 1 pallet,") {
		t.Errorf("the route map does not say 1 stop, 1 pallet")
	}
	if !strings.Contains(f.String(), ">1 pallet (") {
		t.Errorf("the floor does not say 1 pallet")
	}
	for _, page := range []string{m.String(), f.String()} {
		if regexp.MustCompile(`\b1 (stops|pallets)\b`).MatchString(page) {
			t.Errorf("a count of one in the plural: %s", regexp.MustCompile(`[^>]*\b1 (stops|pallets)\b[^<]*`).FindString(page))
		}
	}
}
