package report

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

// RouteMap writes an SVG map of the plan's routes: each route a polyline of
// its own colour from the DC through its stores in order and back, the DC
// a black square, each store a dot in the colour of the route that serves
// it (hollow grey when none does), a legend of the routes and a scale bar.
// The projection is equirectangular at the DC's latitude, true to scale in
// every direction near the DC, which is plenty for one DC's delivery area.
func RouteMap(w io.Writer, req engine.Request, plan engine.Result) error {
	d := newDay(&req, &plan)
	_, err := w.Write(d.routeMap().bytes())
	return err
}

// mapFrame projects latitude and longitude to picture coordinates.
type mapFrame struct {
	lat0, lng0, kx float64 // kx: cos of the DC's latitude
	scale          float64 // pixels per km
	x0, y0         float64 // picture position of the DC
}

const kmPerDegree = geo.EarthRadius * math.Pi / 180 / 1000

// km returns east and north kilometres from the DC.
func (f mapFrame) km(p geo.Point) (east, north float64) {
	return (p.Lng - f.lng0) * f.kx * kmPerDegree, (p.Lat - f.lat0) * kmPerDegree
}

func (f mapFrame) xy(p geo.Point) [2]float64 {
	e, n := f.km(p)
	return [2]float64{f.x0 + e*f.scale, f.y0 - n*f.scale}
}

// The route map's layout, in pixels.
const (
	mapWidth    = 760.0
	mapMargin   = 30.0
	mapTop      = 44.0
	legendWidth = 330.0 // at least; wider when a route's line needs it
)

func (d *day) routeMap() *svgDoc {
	dc := d.req.DC.Location
	f, mapHeight := d.frame()
	legendHeight := 40 + 34*float64(len(d.plan.Routes)) + 80
	height := mapTop + max(mapHeight, legendHeight) + 10
	legend := legendWidth
	for _, r := range d.plan.Routes {
		legend = max(legend, 14+70+textWidth(d.legendLine(&r), 11)+12)
	}
	s := newSVG(mapWidth+legend, height, "Routes of "+d.title())
	s.text(mapMargin, 28, "Routes · "+d.title(), attrs{"font-size", "18", "font-weight", "bold"})
	s.rect(0.5, mapTop+0.5, mapWidth-1, mapHeight-1, attrs{"fill", "#f7f7f4", "stroke", "#cccccc"})
	d.mapRoutes(s, f)
	d.mapStores(s, f)
	p := f.xy(dc)
	s.rectTip(p[0]-7, p[1]-7, 14, 14, attrs{"id", "dc", "data-x", num(p[0]), "data-y", num(p[1]), "fill", "#111111", "stroke", "#ffffff", "stroke-width", "1.5"}, d.dcName())
	name := d.dcName()
	s.rect(p[0]+10, p[1]-9, textWidth(name, 12)+8, 18, attrs{"fill", "#ffffff", "fill-opacity", "0.85", "rx", "3"})
	s.text(p[0]+14, p[1]+4, name, attrs{"font-weight", "bold"})

	d.scaleBar(s, f.scale, mapMargin, mapTop+mapHeight-18)
	s.text(mapWidth-mapMargin, mapTop+mapHeight-10, fmt.Sprintf("equirectangular at %.2f° latitude", dc.Lat), attrs{"text-anchor", "end", "font-size", "10", "fill", "#777777"})
	d.mapLegend(s, mapWidth+14, mapTop)
	return s
}

// frame returns the projection that fits the DC and every store into
// the map area, centred, and the map area's height.
func (d *day) frame() (mapFrame, float64) {
	dc := d.req.DC.Location
	f := mapFrame{lat0: dc.Lat, lng0: dc.Lng, kx: math.Cos(dc.Lat * math.Pi / 180)}
	// The extent in km of the DC and every store.
	minE, maxE, minN, maxN := 0.0, 0.0, 0.0, 0.0
	for _, s := range d.req.Stores {
		e, n := f.km(s.Location)
		minE, maxE, minN, maxN = min(minE, e), max(maxE, e), min(minN, n), max(maxN, n)
	}
	spanE, spanN := max(maxE-minE, 1), max(maxN-minN, 1)
	inner := mapWidth - 2*mapMargin
	mapHeight := min(max(inner*spanN/spanE, 360), 760) + 2*mapMargin
	f.scale = min(inner/spanE, (mapHeight-2*mapMargin)/spanN)
	// Centre the extent in the map area.
	f.x0 = mapMargin + (inner-spanE*f.scale)/2 - minE*f.scale
	f.y0 = mapTop + mapMargin + (mapHeight-2*mapMargin-spanN*f.scale)/2 + maxN*f.scale
	return f, mapHeight
}

// mapRoutes draws each route through its stores in order.
func (d *day) mapRoutes(s *svgDoc, f mapFrame) {
	s.group(attrs{"id", "routes", "stroke-width", "2.2", "stroke-linejoin", "round", "stroke-opacity", "0.85"})
	for i := range d.plan.Routes {
		r := &d.plan.Routes[i]
		var pts [][2]float64
		for _, p := range d.routeLine(r) {
			pts = append(pts, f.xy(geo.Point{Lat: p[1], Lng: p[0]}))
		}
		s.polyline(pts, attrs{"class", "route", "data-route", r.ID, "stroke", routeColour(i)},
			fmt.Sprintf("%s: %s, shift %s, %s, %s, %.1f km", r.ID, d.trailerName(r.Trailer), r.Shift, plural(len(r.Stops), "stop"), plural(r.Metrics.Pallets, "pallet"), r.Metrics.DistanceM/1000))
	}
	s.end()
}

// mapStores draws each store as a marker in the colour of the first route
// that serves it, a ring for each other one (a store on several routes,
// one per temperature, say), white when none does; then their ids.
func (d *day) mapStores(s *svgDoc, f mapFrame) {
	served := map[string][]int{} // store → indices of the routes that serve it
	for i, r := range d.plan.Routes {
		for _, st := range r.Stops {
			served[st.Store] = append(served[st.Store], i)
		}
	}
	s.group(attrs{"id", "stores"})
	for _, st := range d.req.Stores {
		p := f.xy(st.Location)
		a := attrs{"class", "store", "data-store", st.ID, "stroke", "#ffffff", "stroke-width", "1.2"}
		tip := st.ID + " " + st.Name
		rs := served[st.ID]
		for k, i := range rs {
			tip += " · " + d.plan.Routes[i].ID
			if k > 0 {
				s.circle(p[0], p[1], 4.5+2.2*float64(k), attrs{"fill", "none", "stroke", routeColour(i), "stroke-width", "2"}, "")
			}
		}
		if len(rs) > 0 {
			a = append(a, "fill", routeColour(rs[0]))
		} else {
			a = attrs{"class", "store", "data-store", st.ID, "fill", "#ffffff", "stroke", "#888888", "stroke-width", "1.5"}
			tip += " · not served"
		}
		s.circle(p[0], p[1], 4.5, a, tip)
	}
	s.end()
	s.group(attrs{"id", "store-labels", "font-size", "9", "fill", "#555555"})
	for _, st := range d.req.Stores {
		p := f.xy(st.Location)
		s.text(p[0]+6, p[1]+3, st.ID, nil)
	}
	s.end()
}

// scaleBar draws a bar of a round length near a fifth of the map's width.
func (d *day) scaleBar(s *svgDoc, pxPerKm, x, y float64) {
	target := mapWidth / 5 / pxPerKm
	step := math.Pow(10, math.Floor(math.Log10(target)))
	length := step
	for _, m := range []float64{2, 5, 10} {
		if step*m <= target {
			length = step * m
		}
	}
	w := length * pxPerKm
	s.group(attrs{"id", "scale", "data-km", num(length), "data-px", num(w)})
	s.rect(x, y-5, w/2, 5, attrs{"fill", "#333333"})
	s.rect(x+w/2, y-5, w/2, 5, attrs{"fill", "#ffffff", "stroke", "#333333"})
	s.text(x, y-9, "0", attrs{"font-size", "10", "text-anchor", "middle"})
	s.text(x+w, y-9, fmt.Sprintf("%s km", num(length)), attrs{"font-size", "10", "text-anchor", "middle"})
	s.end()
}

// legendLine is a route's first line in the map's legend: its trailer and shift.
func (d *day) legendLine(r *engine.Route) string {
	return fmt.Sprintf("%s · shift %s", d.trailerName(r.Trailer), r.Shift)
}

func (d *day) mapLegend(s *svgDoc, x, y float64) {
	s.text(x, y+14, "Route · trailer · shift", attrs{"font-weight", "bold"})
	y += 34
	for i, r := range d.plan.Routes {
		s.line(x, y-4, x+26, y-4, attrs{"stroke", routeColour(i), "stroke-width", "4"})
		s.text(x+34, y, r.ID, attrs{"font-weight", "bold"})
		s.text(x+70, y, d.legendLine(&r), attrs{"font-size", "11"})
		s.text(x+70, y+14, fmt.Sprintf("%s, %s, %.0f km", plural(len(r.Stops), "stop"), plural(r.Metrics.Pallets, "pallet"), r.Metrics.DistanceM/1000), attrs{"font-size", "11", "fill", "#555555"})
		y += 34
	}
	y += 6
	s.rect(x+6, y-10, 12, 12, attrs{"fill", "#111111"})
	s.text(x+34, y, "distribution centre", nil)
	s.circle(x+12, y+16, 4.5, attrs{"fill", "#ffffff", "stroke", "#888888", "stroke-width", "1.5"}, "")
	s.text(x+34, y+20, "store no route serves", nil)
	s.circle(x+12, y+36, 4.5, attrs{"fill", routeColour(0), "stroke", "#ffffff"}, "")
	s.circle(x+12, y+36, 6.7, attrs{"fill", "none", "stroke", routeColour(1), "stroke-width", "2"}, "")
	s.text(x+34, y+40, "store on two routes (a ring per route)", nil)
}

// dcName is the DC's name, or its id.
func (d *day) dcName() string {
	if d.req.DC.Name != "" {
		return d.req.DC.Name
	}
	return d.req.DC.ID
}

// firstStart is when the first driver comes on duty, or the first shift
// starts when there are no routes.
func (d *day) firstStart() time.Time {
	t := d.from
	for i, r := range d.plan.Routes {
		if i == 0 || r.Start.Before(t) {
			t = r.Start
		}
	}
	return t
}

// title names the day: the DC and the local date the first route starts.
func (d *day) title() string {
	t := d.firstStart()
	if t.IsZero() {
		return d.dcName()
	}
	return d.dcName() + ", " + t.In(d.loc).Format("Mon 2 Jan 2006")
}
