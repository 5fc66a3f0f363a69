package report

import (
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

// GeoJSON returns the plan as an RFC 7946 feature collection: the DC and
// each store as a Point, each route as a LineString from the DC through its
// stops in order and back. Coordinates are [longitude, latitude], as the
// RFC and orb order them.
//
// Properties: every feature has "kind" ("dc", "store" or "route"), "id"
// and "name". A store has "windows", its receiving windows over the day as
// {"start","end"} in RFC 3339 with the request's offset, and "route" and
// "stop" (1-based) when a route serves it. A route has "trailer",
// "trailerName", "shift", "km", "pallets", "stops" (the store ids in order)
// and "stroke", the colour the route map draws it in, which map viewers
// that follow the simplestyle convention use too.
//
// It returns the collection rather than its bytes so that a caller can
// add or drop features (one route, the stores only) before it encodes it
// with json.Marshal.
func GeoJSON(req engine.Request, plan engine.Result) *geojson.FeatureCollection {
	d := newDay(&req, &plan)
	fc := geojson.NewFeatureCollection()

	dc := geojson.NewFeature(orbPoint(req.DC.Location))
	dc.Properties = geojson.Properties{"kind": "dc", "id": req.DC.ID, "name": req.DC.Name}
	fc.Append(dc)

	servedBy := map[string][2]any{}
	for _, r := range plan.Routes {
		for k, s := range r.Stops {
			servedBy[s.Store] = [2]any{r.ID, k + 1}
		}
	}
	for _, s := range req.Stores {
		f := geojson.NewFeature(orbPoint(s.Location))
		windows := []map[string]string{}
		for _, w := range d.storeWindows(s.ID) {
			if w.End.Before(d.from) || w.Start.After(d.to) {
				continue
			}
			windows = append(windows, map[string]string{
				"start": w.Start.In(d.loc).Format(time.RFC3339),
				"end":   w.End.In(d.loc).Format(time.RFC3339),
			})
		}
		f.Properties = geojson.Properties{"kind": "store", "id": s.ID, "name": s.Name, "windows": windows}
		if by, ok := servedBy[s.ID]; ok {
			f.Properties["route"], f.Properties["stop"] = by[0], by[1]
		}
		fc.Append(f)
	}

	for i, r := range plan.Routes {
		line := d.routeLine(&r)
		f := geojson.NewFeature(line)
		stops := make([]string, len(r.Stops))
		for k, s := range r.Stops {
			stops[k] = s.Store
		}
		f.Properties = geojson.Properties{
			"kind": "route", "id": r.ID, "name": r.ID,
			"trailer": r.Trailer, "trailerName": d.trailerName(r.Trailer), "shift": r.Shift,
			"km": r.Metrics.DistanceM / 1000, "pallets": r.Metrics.Pallets, "stops": stops,
			"stroke": routeColour(i),
		}
		fc.Append(f)
	}
	return fc
}

// routeLine is the route's path: DC, the stops' stores in order, DC.
func (d *day) routeLine(r *engine.Route) orb.LineString {
	line := orb.LineString{orbPoint(d.req.DC.Location)}
	for _, s := range r.Stops {
		if st, ok := d.store[s.Store]; ok {
			line = append(line, orbPoint(st.Location))
		}
	}
	return append(line, orbPoint(d.req.DC.Location))
}

// orbPoint converts to orb's [lon, lat] order, the one place this package
// does.
func orbPoint(p geo.Point) orb.Point { return orb.Point{p.Lng, p.Lat} }

// palette holds colours for routes, as far apart as lines on a light
// map allow (Trubetskoy's 20 distinct colours without the pale ones, and
// darker stand-ins for yellow and lime), reused in turn beyond 16 routes.
var palette = []string{
	"#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42b4e6", "#f032e6", "#9a6324",
	"#469990", "#000075", "#808000", "#800000", "#d4a017", "#2f4f4f", "#ff69b4", "#7f7f7f",
}

// routeColour is route i's colour on the map, the schedule and in GeoJSON.
func routeColour(i int) string { return palette[i%len(palette)] }
