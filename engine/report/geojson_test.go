package report

import (
	"encoding/json"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
)

func TestGeoJSONIsRFC7946(t *testing.T) {
	req, plan := samplePlan(t)
	b, err := json.Marshal(GeoJSON(req, plan))
	if err != nil {
		t.Fatal(err)
	}
	fc, err := geojson.UnmarshalFeatureCollection(b)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + len(req.Stores) + len(plan.Routes); len(fc.Features) != want {
		t.Fatalf("%d features, want %d", len(fc.Features), want)
	}
	// Coordinates are [lng, lat]: read the raw JSON, not orb's reading of it.
	var raw struct {
		Type     string `json:"type"`
		Features []struct {
			Type     string         `json:"type"`
			Geometry map[string]any `json:"geometry"`
		} `json:"features"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Type != "FeatureCollection" || raw.Features[0].Type != "Feature" {
		t.Fatalf("types %q %q", raw.Type, raw.Features[0].Type)
	}
	dc := raw.Features[0].Geometry["coordinates"].([]any)
	if dc[0].(float64) != req.DC.Location.Lng || dc[1].(float64) != req.DC.Location.Lat {
		t.Errorf("DC at %v, want [lng %v, lat %v]", dc, req.DC.Location.Lng, req.DC.Location.Lat)
	}
	stores := map[string]orb.Point{}
	for _, s := range req.Stores {
		stores[s.ID] = orb.Point{s.Location.Lng, s.Location.Lat}
	}
	routes := 0
	for _, f := range fc.Features {
		switch f.Properties["kind"] {
		case "store":
			id := f.Properties.MustString("id")
			if f.Geometry.(orb.Point) != stores[id] {
				t.Errorf("store %s at %v, want %v", id, f.Geometry, stores[id])
			}
			if _, ok := f.Properties["windows"].([]any); !ok {
				t.Errorf("store %s has no windows: %v", id, f.Properties)
			}
		case "route":
			r := plan.Routes[routes]
			routes++
			line := f.Geometry.(orb.LineString)
			if len(line) != len(r.Stops)+2 || line[0] != dcPoint(req) || line[len(line)-1] != dcPoint(req) {
				t.Fatalf("route %s: line %v does not run from the DC through %d stops back to it", r.ID, line, len(r.Stops))
			}
			for k, s := range r.Stops {
				if line[k+1] != stores[s.Store] {
					t.Errorf("route %s point %d is %v, want store %s at %v", r.ID, k+1, line[k+1], s.Store, stores[s.Store])
				}
			}
			if f.Properties.MustString("id") != r.ID || f.Properties.MustInt("pallets") != r.Metrics.Pallets ||
				f.Properties.MustFloat64("km") != r.Metrics.DistanceM/1000 || f.Properties.MustString("shift") != r.Shift {
				t.Errorf("route %s properties %v", r.ID, f.Properties)
			}
		}
	}
	if routes != len(plan.Routes) {
		t.Errorf("%d routes, want %d", routes, len(plan.Routes))
	}
}
