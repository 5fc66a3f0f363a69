package report

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// TestZoneLabelsDoNotOverlap: a one-row frozen zone at the nose is
// narrower than its label; the labels of neighbouring zones must still not
// write over each other (they did, in the README's trailer floor).
func TestZoneLabelsDoNotOverlap(t *testing.T) {
	px := func(mm float64) float64 { return 70 + mm*900/14630 }
	for _, zones := range [][]engine.Zone{
		{
			{Temperature: constraints.Frozen, FirstRow: 0, LastRow: 0, FromMM: 0, ToMM: 1016},
			{Temperature: constraints.Chilled, FirstRow: 1, LastRow: 6, FromMM: 1016, ToMM: 7112},
			{Temperature: constraints.Ambient, FirstRow: 7, LastRow: 12, FromMM: 7112, ToMM: 14350},
		},
		{
			{Temperature: constraints.Frozen, FirstRow: 0, LastRow: 0, FromMM: 0, ToMM: 1016},
			{Temperature: constraints.Chilled, FirstRow: 1, LastRow: 1, FromMM: 1016, ToMM: 2032},
			{Temperature: constraints.Ambient, FirstRow: 2, LastRow: 12, FromMM: 2032, ToMM: 14350},
		},
		{
			{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 13, FromMM: 0, ToMM: 14350},
		},
	} {
		labels := zoneLabels(zones, px)
		for i := range labels {
			for j := i + 1; j < len(labels); j++ {
				if labels[i].y != labels[j].y {
					continue
				}
				endI := px(float64(zones[i].FromMM)) + 4 + labelCharWidth*float64(len([]rune(labels[i].text)))
				if startJ := px(float64(zones[j].FromMM)) + 4; endI > startJ {
					t.Errorf("labels %q and %q overlap on the line at y=%v (%.0f > %.0f)", labels[i].text, labels[j].text, labels[i].y, endI, startJ)
				}
			}
		}
		if len(zones) == 1 && labels[0].y != floorTop-5 {
			t.Errorf("a single zone's label moved off the line above the floor: y=%v", labels[0].y)
		}
	}
	// A person counts rows from 1 at the nose; the plan from 0.
	if got := rowsText(engine.Zone{FirstRow: 3, LastRow: 3}); got != "row 4" {
		t.Errorf("row index 3 reads %q, want row 4", got)
	}
	if got := rowsText(engine.Zone{FirstRow: 0, LastRow: 7}); got != "rows 1–8" {
		t.Errorf("row indices 0 to 7 read %q, want rows 1–8", got)
	}
}

// TestSharedPositionsDrawnApart: two halves standing straight in one
// position are drawn side by side, one in each half of the position's
// width; two turned halves one behind the other; four quarters two by two.
// No two rectangles overlap, and each lies on the floor.
func TestSharedPositionsDrawnApart(t *testing.T) {
	tt := engine.TrailerType{ID: "T", Inside: engine.Dimensions{LengthMM: 16002, WidthMM: 2540, HeightMM: 2700}, PalletPositions: 30, PayloadKg: 20000}
	req := engine.Request{Fleet: []engine.TrailerType{tt}}
	quarter := engine.Footprint{LengthMM: 610, WidthMM: 508}
	var pls []engine.Placement
	add := func(id string, fp engine.Footprint, pl engine.Placement) {
		req.Pallets = append(req.Pallets, engine.Pallet{ID: id, Store: "S", WeightKg: 100, Footprint: fp, HeightMM: 1000})
		pl.Pallet = id
		pls = append(pls, pl)
	}
	add("H1", engine.HalfFootprint, engine.Placement{Row: 0, Side: "LEFT"})
	add("H2", engine.HalfFootprint, engine.Placement{Row: 0, Side: "LEFT", Slot: 1})
	add("H3", engine.HalfFootprint, engine.Placement{Row: 0, Side: "RIGHT", Turned: true})
	add("H4", engine.HalfFootprint, engine.Placement{Row: 0, Side: "RIGHT", Turned: true, XMM: 508})
	for i, at := range [][2]int{{0, 0}, {0, 1}, {610, 0}, {610, 1}} {
		add(fmt.Sprint("Q", i), quarter, engine.Placement{Row: 1, Side: "RIGHT", XMM: 1219 + at[0], Slot: at[1]})
	}
	r := engine.Route{ID: "R1", Trailer: "T", Stops: []engine.Stop{{Store: "S"}}, Load: engine.LoadPlan{Placements: pls}}
	for _, p := range req.Pallets {
		r.Stops[0].Pallets = append(r.Stops[0].Pallets, p.ID)
	}
	plan := engine.Result{Routes: []engine.Route{r}}
	var buf bytes.Buffer
	if err := TrailerFloor(&buf, req, plan, "R1"); err != nil {
		t.Fatal(err)
	}
	type box struct{ x0, y0, x1, y1 float64 }
	drawn := map[string]box{}
	var floor box
	for _, e := range parseSVG(t, buf.Bytes()) {
		switch {
		case hasClass(e, "floor"):
			floor = box{e.f(t, "x"), e.f(t, "y"), e.f(t, "x") + e.f(t, "width"), e.f(t, "y") + e.f(t, "height")}
		case hasClass(e, "pallet"):
			drawn[e.attrs["data-pallet"]] = box{e.f(t, "x"), e.f(t, "y"), e.f(t, "x") + e.f(t, "width"), e.f(t, "y") + e.f(t, "height")}
		}
	}
	if len(drawn) != len(pls) {
		t.Fatalf("%d pallets drawn, %d placed", len(drawn), len(pls))
	}
	for a, ba := range drawn {
		if ba.x0 < floor.x0 || ba.x1 > floor.x1 || ba.y0 < floor.y0 || ba.y1 > floor.y1 {
			t.Errorf("%s drawn at %v, off the floor %v", a, ba, floor)
		}
		for b, bb := range drawn {
			if a < b && ba.x0 < bb.x1 && bb.x0 < ba.x1 && ba.y0 < bb.y1 && bb.y0 < ba.y1 {
				t.Errorf("%s %v and %s %v are drawn over each other", a, ba, b, bb)
			}
		}
	}
	if h1, h2 := drawn["H1"], drawn["H2"]; h1.x0 != h2.x0 || h1.y0 <= h2.y0 {
		t.Errorf("straight halves H1 %v (slot 0, against the left wall, drawn at the bottom) and H2 %v not side by side", h1, h2)
	}
	if h3, h4 := drawn["H3"], drawn["H4"]; h3.y0 != h4.y0 || h3.x1 > h4.x0+0.01 {
		t.Errorf("turned halves H3 %v and H4 %v not one behind the other", h3, h4)
	}
}

// TestCrossStopStackShowsBothStops: a pallet for stop 1 riding on one for
// stop 2 is drawn inside it, and the picture names both stops there: the
// bottom's number in its own part, the top's on the top.
func TestCrossStopStackShowsBothStops(t *testing.T) {
	tt := engine.TrailerType{ID: "T", Inside: engine.Dimensions{LengthMM: 16002, WidthMM: 2540, HeightMM: 2700}, PalletPositions: 30, PayloadKg: 20000}
	req := engine.Request{Fleet: []engine.TrailerType{tt}}
	r := engine.Route{ID: "R1", Trailer: "T", Stops: []engine.Stop{{Store: "A"}, {Store: "B"}}}
	add := func(id string, stop int, pl engine.Placement) {
		req.Pallets = append(req.Pallets, engine.Pallet{ID: id, Store: r.Stops[stop].Store, WeightKg: 300, Footprint: engine.StandardFootprint,
			HeightMM: 1000, MayBeStacked: true, MayCarry: true})
		r.Stops[stop].Pallets = append(r.Stops[stop].Pallets, id)
		pl.Pallet = id
		r.Load.Placements = append(r.Load.Placements, pl)
	}
	add("B1", 1, engine.Placement{Row: 0, Side: "LEFT", Turned: true})
	add("A1", 0, engine.Placement{Row: 0, Side: "LEFT", Turned: true, Level: 1})
	add("A2", 0, engine.Placement{Row: 0, Side: "RIGHT", Turned: true})
	var buf bytes.Buffer
	if err := TrailerFloor(&buf, req, engine.Result{Routes: []engine.Route{r}}, "R1"); err != nil {
		t.Fatal(err)
	}
	type box struct{ x0, y0, x1, y1 float64 }
	drawn := map[string]box{}
	stopOf := map[string]string{}
	var labels []*svgElement
	for _, e := range parseSVG(t, buf.Bytes()) {
		switch {
		case hasClass(e, "pallet"):
			drawn[e.attrs["data-pallet"]] = box{e.f(t, "x"), e.f(t, "y"), e.f(t, "x") + e.f(t, "width"), e.f(t, "y") + e.f(t, "height")}
			stopOf[e.attrs["data-pallet"]] = e.attrs["data-stop"]
		case hasClass(e, "stop-label"):
			labels = append(labels, e)
		}
	}
	bottom, top := drawn["B1"], drawn["A1"]
	if stopOf["B1"] != "2" || stopOf["A1"] != "1" {
		t.Fatalf("stops drawn %v, want B1 at stop 2 and A1 at stop 1", stopOf)
	}
	if top.x0 < bottom.x0 || top.x1 > bottom.x1 || top.y0 < bottom.y0 || top.y1 > bottom.y1 {
		t.Errorf("top %v not drawn inside its bottom %v", top, bottom)
	}
	var inBottom []string
	for _, l := range labels {
		if x, y := l.f(t, "x"), l.f(t, "y"); x > bottom.x0 && x < bottom.x1 && y > bottom.y0 && y < bottom.y1 {
			inBottom = append(inBottom, l.text)
		}
	}
	slices.Sort(inBottom)
	if !slices.Equal(inBottom, []string{"1", "2"}) {
		t.Errorf("labels on the stacked position %v, want both stops, 1 and 2", inBottom)
	}
}

// TestDoorsDrawnOnTheirWalls: the rear door across the door end, a
// curbside door on the curb side (the right wall, drawn at the top) over
// its opening, a roadside door on the road side (at the bottom); a type
// that lists no doors gets the rear door alone.
func TestDoorsDrawnOnTheirWalls(t *testing.T) {
	tt := engine.TrailerType{ID: "T", Inside: engine.Dimensions{LengthMM: 14630, WidthMM: 2464, HeightMM: 2600}, PalletPositions: 28, PayloadKg: 18000,
		Equipment: constraints.Equipment{Kind: constraints.MultiTempReefer},
		Doors:     []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, ToMM: 2500}, {Side: constraints.RoadDoor, FromMM: 7315, ToMM: 9144}}}
	draw := func(tt engine.TrailerType) map[string]*svgElement {
		req := engine.Request{Fleet: []engine.TrailerType{tt}}
		r := engine.Route{ID: "R1", Trailer: "T"}
		var buf bytes.Buffer
		if err := TrailerFloor(&buf, req, engine.Result{Routes: []engine.Route{r}}, "R1"); err != nil {
			t.Fatal(err)
		}
		doors := map[string]*svgElement{}
		for _, e := range parseSVG(t, buf.Bytes()) {
			if hasClass(e, "door") {
				doors[e.attrs["data-side"]] = e
			}
		}
		return doors
	}
	px := func(mm float64) float64 { return floorLeft + mm*floorWidth/14630 }
	doors := draw(tt)
	if len(doors) != 3 {
		t.Fatalf("doors drawn %v, want REAR, CURB and ROAD", doors)
	}
	floorH := 2464 * floorWidth / 14630
	for side, want := range map[string][4]float64{ // x0, x1, and the wall's y the bar straddles
		"CURB": {px(0), px(2500), floorTop},
		"ROAD": {px(7315), px(9144), floorTop + floorH},
	} {
		e := doors[side]
		x0, x1, y := e.f(t, "x"), e.f(t, "x")+e.f(t, "width"), e.f(t, "y")+e.f(t, "height")/2
		if math.Abs(x0-want[0]) > 0.5 || math.Abs(x1-want[1]) > 0.5 || math.Abs(y-want[2]) > 0.5 {
			t.Errorf("%s door drawn over x %.1f–%.1f on y %.1f, want %.1f–%.1f on y %.1f", side, x0, x1, y, want[0], want[1], want[2])
		}
	}
	if x := doors["REAR"].f(t, "x"); x < floorLeft+floorWidth-2 {
		t.Errorf("rear door drawn at x %.1f, not at the door end %.1f", x, floorLeft+floorWidth)
	}
	tt.Doors = nil
	if doors := draw(tt); len(doors) != 1 || doors["REAR"] == nil {
		t.Errorf("a type with no doors listed draws %v, want the rear door alone", doors)
	}
}
