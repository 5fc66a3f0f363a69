package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
	"pgregory.net/rapid"
)

// The floor rules of Validate are written from loadplan's documentation,
// not with its code. These tests hold them to loadplan.Validate: on the
// layouts the planner makes and on broken copies of them, both give the
// same verdict and the same violation codes. Only this test file imports
// loadplan for the floor.

// floorByLoadplan is the floor check as the engine made it before Validate
// had code of its own: the load plan converted to loadplan's form (a
// placement whose side cannot be read is reported and dropped), then
// loadplan.Validate, with paths under path.
func floorByLoadplan(t TrailerType, on []routePallet, stops int, lp *LoadPlan, path string) (constraints.Violations, bool) {
	c := t.capacity()
	tr := loadplan.Trailer{ID: t.ID, LengthMM: t.Inside.LengthMM, WidthMM: t.Inside.WidthMM, HeightMM: t.Inside.HeightMM,
		Positions: t.PalletPositions, PayloadKg: t.PayloadKg, VolumeM3: c.VolumeM3, Equipment: t.Equipment, Axles: t.Axles, Doors: t.Doors}
	ps := make([]loadplan.Pallet, len(on))
	for i, rp := range on {
		l, w := rp.p.Footprint.Dims()
		ps[i] = loadplan.Pallet{ID: rp.p.ID, Stop: rp.stop, LengthMM: l, WidthMM: w, HeightMM: rp.p.HeightMM, WeightKg: rp.p.WeightKg,
			VolumeM3: rp.p.volume(), Temperature: rp.p.Temperature, MayBeStacked: rp.p.MayBeStacked, MayCarry: rp.p.MayCarry}
	}
	var vs constraints.Violations
	lay := &loadplan.Layout{}
	for _, z := range lp.Zones {
		lay.Zones = append(lay.Zones, loadplan.Zone{Temperature: z.Temperature, FirstRow: z.FirstRow, LastRow: z.LastRow, FromMM: z.FromMM, ToMM: z.ToMM})
	}
	for i, p := range lp.Placements {
		side, ok := loadplan.ParseSide(p.Side)
		if !ok {
			vs.Add(CodeInvalidValue, constraints.Index(path+".placements", i)+".side", "bad side")
			continue
		}
		lay.Placements = append(lay.Placements, loadplan.Placement{Pallet: p.Pallet, Row: p.Row, Side: side, Turned: p.Turned, Zone: p.Zone, XMM: p.XMM, Level: p.Level, Slot: p.Slot})
	}
	for _, a := range lp.Axles {
		lay.Axles = append(lay.Axles, loadplan.AxleLoad{AfterStop: a.AfterStop, KingpinKg: a.KingpinKg, AxleGroupKg: a.AxleGroupKg})
	}
	judged := true
	for _, v := range loadplan.Validate(tr, ps, stops, lay) {
		if v.Code == loadplan.CodeInvalid && !slices.Contains([]string{"placements", ""}, v.Path) {
			judged = false // input Request.Check rejects: no layout is judged against it
		}
		v.Path = constraints.Field(path, v.Path)
		vs = append(vs, v)
	}
	return vs, judged
}

func floorByValidate(t TrailerType, on []routePallet, stops int, lp *LoadPlan, path string) constraints.Violations {
	f := floorCheck{t: &t, pallets: on, stops: stops, lp: lp, path: path}
	return f.run()
}

func codeSet(vs constraints.Violations) []string {
	set := map[string]bool{}
	for _, v := range vs {
		set[v.Code] = true
	}
	return slices.Sorted(maps.Keys(set))
}

func TestFloorCodesAreLoadplans(t *testing.T) {
	for mine, theirs := range map[string]string{
		codeTooTall: loadplan.CodeTooTall, codeTooManyZones: loadplan.CodeTooManyZones, codePositions: loadplan.CodePositions,
		codePayload: loadplan.CodePayload, codeVolume: loadplan.CodeVolume, codeKingpin: loadplan.CodeKingpin,
		codeAxleGroup: loadplan.CodeAxleGroup, codeUnloadingOrder: loadplan.CodeUnloadingOrder, codeOverlap: loadplan.CodeOverlap,
		codeOutsideFloor: loadplan.CodeOutsideFloor, codeRowOrder: loadplan.CodeRowOrder, codeZone: loadplan.CodeZone,
		codeNotOnTrailer: loadplan.CodeUnknown, codeAxleReport: loadplan.CodeAxleReport, codeStacking: loadplan.CodeStacking,
		codeSharing:     loadplan.CodeSharing,
		CodeTemperature: loadplan.CodeTemperature, CodePalletMissing: loadplan.CodeMissing, CodePalletTwice: loadplan.CodeDuplicate,
	} {
		if mine != theirs {
			t.Errorf("engine code %s, loadplan code %s", mine, theirs)
		}
	}
}

// floorCase is one trailer floor to judge.
type floorCase struct {
	trailer TrailerType
	on      []routePallet
	stops   int
	load    LoadPlan
}

// routeFloors returns the floors of a plan's routes, with copies of the
// pallets and the load plan that a test may break.
func routeFloors(req Request, plan Result) []floorCase {
	byID := map[string]Pallet{}
	for _, p := range req.Pallets {
		byID[p.ID] = p
	}
	types := map[string]TrailerType{}
	for _, tt := range req.Fleet {
		types[tt.ID] = tt
	}
	var out []floorCase
	for _, r := range plan.Routes {
		fc := floorCase{trailer: types[r.Trailer], stops: len(r.Stops)}
		for k, st := range r.Stops {
			for _, id := range st.Pallets {
				p := byID[id]
				fc.on = append(fc.on, routePallet{&p, k})
			}
		}
		fc.load = LoadPlan{Zones: slices.Clone(r.Load.Zones), Placements: slices.Clone(r.Load.Placements), Axles: slices.Clone(r.Load.Axles)}
		out = append(out, fc)
	}
	return out
}

// clone deep-copies a floor case.
func (fc floorCase) clone() floorCase {
	c := fc
	c.on = make([]routePallet, len(fc.on))
	for i, rp := range fc.on {
		p := *rp.p
		c.on[i] = routePallet{&p, rp.stop}
	}
	c.load = LoadPlan{Zones: slices.Clone(fc.load.Zones), Placements: slices.Clone(fc.load.Placements), Axles: slices.Clone(fc.load.Axles)}
	return c
}

// trueAxles replaces the reported axle states by the true ones (by the
// lever rule of package constraints), so that a broken copy fails, if at
// all, on what was broken.
func (fc *floorCase) trueAxles() {
	fc.load.Axles = nil
	idx := map[string]int{}
	for i, rp := range fc.on {
		idx[rp.p.ID] = i
	}
	for after := -1; after < fc.stops; after++ {
		var loads []constraints.PointLoad
		seen := map[string]bool{}
		for _, pl := range fc.load.Placements {
			i, ok := idx[pl.Pallet]
			if !ok || seen[pl.Pallet] || fc.on[i].stop <= after {
				continue
			}
			seen[pl.Pallet] = true
			l, w := fc.on[i].p.Footprint.Dims()
			along := l
			if pl.Turned {
				along = w
			}
			loads = append(loads, constraints.PointLoad{XMM: float64(pl.XMM) + float64(along)/2, Kg: fc.on[i].p.WeightKg})
		}
		kp, ax := fc.trailer.Axles.Loads(loads)
		fc.load.Axles = append(fc.load.Axles, AxleLoad{AfterStop: after, KingpinKg: kp, AxleGroupKg: ax})
	}
}

// breakFloor applies one drawn change to a floor case: to a placement, a
// zone, an axle state, the trailer or a pallet.
func breakFloor(t *rapid.T, fc *floorCase) string {
	pls := fc.load.Placements
	n := len(pls)
	pick := func(label string) int { return rapid.IntRange(0, n-1).Draw(t, label) }
	kinds := []string{"xmm", "turn", "side", "row", "zone", "level", "swapPallets", "swapX", "drop", "duplicate", "unknown",
		"stackOn", "slot", "shareWith", "slideAll", "zoneRows", "zoneTemp", "zoneRange", "zoneUnstated", "zoneDrop", "zoneAdd",
		"axleKg", "axleAfter", "axleCount", "payload", "positions", "axleLimit", "tare", "height", "width", "length", "kind",
		"carry", "stacked", "weight", "palletHeight", "stops", "doors", "doorSpan"}
	kind := rapid.SampledFrom(kinds).Draw(t, "break")
	if n == 0 && slices.Index(kinds, kind) < slices.Index(kinds, "zoneRows") {
		kind = "payload"
	}
	L := fc.trailer.Inside.LengthMM
	switch kind {
	case "xmm":
		i := pick("i")
		pls[i].XMM += rapid.SampledFrom([]int{-1, 1, -10, 10, -508, 508, -1219, 1219, L / 3, -L / 3, L}).Draw(t, "dx")
	case "turn":
		i := pick("i")
		pls[i].Turned = !pls[i].Turned
	case "side":
		i := pick("i")
		pls[i].Side = rapid.SampledFrom([]string{"LEFT", "RIGHT", "CENTER", "MIDDLE"}).Draw(t, "side")
	case "row":
		i := pick("i")
		pls[i].Row += rapid.SampledFrom([]int{-1, 1, -2, 2, -100}).Draw(t, "dr")
	case "zone":
		i := pick("i")
		pls[i].Zone += rapid.SampledFrom([]int{-1, 1, 5}).Draw(t, "dz")
	case "level":
		i := pick("i")
		pls[i].Level = rapid.IntRange(-1, 2).Draw(t, "level")
	case "swapPallets":
		i, j := pick("i"), pick("j")
		pls[i].Pallet, pls[j].Pallet = pls[j].Pallet, pls[i].Pallet
	case "swapX":
		i, j := pick("i"), pick("j")
		pls[i].XMM, pls[j].XMM = pls[j].XMM, pls[i].XMM
	case "drop":
		i := pick("i")
		fc.load.Placements = slices.Delete(pls, i, i+1)
	case "duplicate":
		i := pick("i")
		fc.load.Placements = append(pls, pls[i])
	case "unknown":
		pls[pick("i")].Pallet = "NOBODY"
	case "stackOn":
		// Stand pallet i on pallet j's place, on the floor or on top.
		i, j := pick("i"), pick("j")
		pls[i].XMM, pls[i].Side, pls[i].Row, pls[i].Turned, pls[i].Zone = pls[j].XMM, pls[j].Side, pls[j].Row, pls[j].Turned, pls[j].Zone
		pls[i].Level = rapid.IntRange(0, 1).Draw(t, "onTop")
	case "slot":
		pls[pick("i")].Slot = rapid.IntRange(-1, 2).Draw(t, "slot")
	case "shareWith":
		// Stand pallet i in pallet j's floor position, beside it or one
		// half or quarter behind it.
		i, j := pick("i"), pick("j")
		pls[i].Side, pls[i].Row, pls[i].Turned, pls[i].Zone, pls[i].Level = pls[j].Side, pls[j].Row, pls[j].Turned, pls[j].Zone, 0
		pls[i].XMM = pls[j].XMM + rapid.SampledFrom([]int{0, 508, 610}).Draw(t, "behind")
		pls[i].Slot = rapid.IntRange(0, 1).Draw(t, "slot")
	case "slideAll":
		d := rapid.SampledFrom([]int{1, 100, 1000, -1}).Draw(t, "slide")
		for i := range pls {
			pls[i].XMM += d
		}
		for i := range fc.load.Zones {
			if fc.load.Zones[i].FromMM != 0 || fc.load.Zones[i].ToMM != 0 {
				fc.load.Zones[i].FromMM += d
				fc.load.Zones[i].ToMM += d
			}
		}
	case "zoneRows", "zoneTemp", "zoneRange", "zoneUnstated", "zoneDrop":
		if len(fc.load.Zones) == 0 {
			return kind
		}
		zi := rapid.IntRange(0, len(fc.load.Zones)-1).Draw(t, "zi")
		z := &fc.load.Zones[zi]
		switch kind {
		case "zoneRows":
			z.FirstRow += rapid.IntRange(-1, 1).Draw(t, "dfirst")
			z.LastRow += rapid.IntRange(-1, 1).Draw(t, "dlast")
		case "zoneTemp":
			z.Temperature = constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "temp"))
		case "zoneRange":
			z.FromMM += rapid.SampledFrom([]int{-1, 1, 500, -500}).Draw(t, "dfrom")
			z.ToMM += rapid.SampledFrom([]int{-1, 1, 500, -500, L}).Draw(t, "dto")
		case "zoneUnstated":
			for i := range fc.load.Zones {
				fc.load.Zones[i].FromMM, fc.load.Zones[i].ToMM = 0, 0
			}
		case "zoneDrop":
			fc.load.Zones = slices.Delete(fc.load.Zones, zi, zi+1)
		}
	case "zoneAdd":
		fc.load.Zones = append(fc.load.Zones, Zone{Temperature: constraints.Ambient, FirstRow: 50, LastRow: 60})
	case "axleKg":
		if len(fc.load.Axles) > 0 {
			a := &fc.load.Axles[rapid.IntRange(0, len(fc.load.Axles)-1).Draw(t, "ai")]
			d := rapid.SampledFrom([]float64{0.4, -0.4, 0.6, -0.6, 100}).Draw(t, "dkg")
			if rapid.Bool().Draw(t, "kingpin") {
				a.KingpinKg += d
			} else {
				a.AxleGroupKg += d
			}
		}
	case "axleAfter":
		if len(fc.load.Axles) > 0 {
			fc.load.Axles[rapid.IntRange(0, len(fc.load.Axles)-1).Draw(t, "ai")].AfterStop += rapid.SampledFrom([]int{-1, 1}).Draw(t, "da")
		}
	case "axleCount":
		if rapid.Bool().Draw(t, "add") || len(fc.load.Axles) == 0 {
			fc.load.Axles = append(fc.load.Axles, AxleLoad{AfterStop: fc.stops})
		} else {
			fc.load.Axles = fc.load.Axles[:len(fc.load.Axles)-1]
		}
	case "payload":
		var kg float64
		for _, rp := range fc.on {
			kg += rp.p.WeightKg
		}
		fc.trailer.PayloadKg = max(1, kg+rapid.SampledFrom([]float64{-1, 0, 1, -1e-6}).Draw(t, "dpayload"))
	case "positions":
		used := 0
		for _, pl := range pls {
			if pl.Level == 0 && pl.Side != "" {
				used++
			}
		}
		fc.trailer.PalletPositions = max(1, used+rapid.IntRange(-2, 1).Draw(t, "dpos"))
	case "axleLimit":
		if len(fc.load.Axles) > 0 {
			a := fc.load.Axles[rapid.IntRange(0, len(fc.load.Axles)-1).Draw(t, "ai")]
			d := rapid.SampledFrom([]float64{-1, -1e-3, 0, 1}).Draw(t, "dlimit")
			if rapid.Bool().Draw(t, "kingpin") {
				fc.trailer.Axles.KingpinLimitKg = max(1, a.KingpinKg+d)
			} else {
				fc.trailer.Axles.AxleGroupLimitKg = max(1, a.AxleGroupKg+d)
			}
		}
	case "tare":
		// A tare resting on or behind the axle group: the kingpin carries
		// little, and a load behind the axles may lift it.
		fc.trailer.Axles.TareCentreMM = fc.trailer.Axles.AxleGroupMM + rapid.Float64Range(-300, 3000).Draw(t, "dtare")
	case "height":
		fc.trailer.Inside.HeightMM = rapid.IntRange(1000, 2800).Draw(t, "height")
	case "width":
		fc.trailer.Inside.WidthMM = rapid.IntRange(1900, 2600).Draw(t, "width")
	case "length":
		fc.trailer.Inside.LengthMM = max(int(fc.trailer.Axles.AxleGroupMM)+1, L+rapid.IntRange(-3000, 100).Draw(t, "dlen"))
	case "kind":
		fc.trailer.Equipment = constraints.Equipment{Kind: constraints.EquipmentKind(rapid.IntRange(0, 2).Draw(t, "kind"))}
	case "doors":
		fc.trailer.Doors = drawDoors(t, L)
	case "doorSpan":
		for i, d := range fc.trailer.Doors {
			if d.Side != constraints.RearDoor {
				ds := slices.Clone(fc.trailer.Doors)
				shift := rapid.SampledFrom([]int{-1, 1, -508, 508, -1016, 1016}).Draw(t, "dspan")
				ds[i].FromMM, ds[i].ToMM = max(0, d.FromMM+shift), min(L, max(d.ToMM+shift, d.FromMM+shift+1))
				if rapid.Bool().Draw(t, "otherWall") {
					ds[i].Side = constraints.CurbDoor + constraints.RoadDoor - d.Side
				}
				fc.trailer.Doors = ds
				break
			}
		}
	case "carry", "stacked", "weight", "palletHeight", "stops":
		if len(fc.on) == 0 {
			return kind
		}
		p := fc.on[rapid.IntRange(0, len(fc.on)-1).Draw(t, "pi")].p
		switch kind {
		case "carry":
			p.MayCarry = !p.MayCarry
		case "stacked":
			p.MayBeStacked = !p.MayBeStacked
		case "weight":
			p.WeightKg = rapid.Float64Range(1, 1500).Draw(t, "kg")
		case "palletHeight":
			p.HeightMM = rapid.IntRange(300, 2800).Draw(t, "h")
		case "stops":
			i, j := rapid.IntRange(0, len(fc.on)-1).Draw(t, "si"), rapid.IntRange(0, len(fc.on)-1).Draw(t, "sj")
			fc.on[i].stop, fc.on[j].stop = fc.on[j].stop, fc.on[i].stop
		}
	}
	return kind
}

// floorStats counts what the equivalence tests compared.
type floorStats struct{ planned, broken, accepted, rejected atomic.Int64 }

func (s *floorStats) log(t *testing.T) {
	t.Logf("%d layouts compared: %d as planned, %d broken copies; %d accepted, %d rejected by both",
		s.planned.Load()+s.broken.Load(), s.planned.Load(), s.broken.Load(), s.accepted.Load(), s.rejected.Load())
}

// sameVerdict runs both checks on one floor and demands the same codes
// (hence the same verdict).
func sameVerdict(t *rapid.T, fc floorCase, what string, stats *floorStats) {
	theirs, judged := floorByLoadplan(fc.trailer, fc.on, fc.stops, &fc.load, "routes[0].load")
	if !judged {
		return
	}
	mine := floorByValidate(fc.trailer, fc.on, fc.stops, &fc.load, "routes[0].load")
	if a, b := codeSet(mine), codeSet(theirs); !slices.Equal(a, b) {
		t.Fatalf("%s: Validate's floor check gives %v, loadplan.Validate %v\nValidate: %v\nloadplan: %v", what, a, b, mine, theirs)
	}
	if len(mine) == 0 {
		stats.accepted.Add(1)
	} else {
		stats.rejected.Add(1)
	}
}

// checkFloors plans a drawn request and compares the two floor checks on
// every route's layout and on broken copies of it.
func checkFloors(t *rapid.T, req Request, copies int, stats *floorStats) {
	plan, err := Plan(context.Background(), req)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	for ri, fc := range routeFloors(req, plan) {
		stats.planned.Add(1)
		sameVerdict(t, fc, fmt.Sprintf("route %d as planned", ri), stats)
		for c := range copies {
			b := fc.clone()
			var changes []string
			for range rapid.IntRange(1, 3).Draw(t, "changes") {
				changes = append(changes, breakFloor(t, &b))
			}
			if rapid.Bool().Draw(t, "trueAxles") {
				b.trueAxles()
			}
			stats.broken.Add(1)
			sameVerdict(t, b, fmt.Sprintf("route %d, copy %d broken by %v", ri, c, changes), stats)
		}
	}
}

// TestFloorCheckMatchesLoadplanOnPlans: random requests of the property
// test, planned, and broken copies of every route's layout.
func TestFloorCheckMatchesLoadplanOnPlans(t *testing.T) {
	var stats floorStats
	rapid.Check(t, func(rt *rapid.T) { checkFloors(rt, genRequest(rt), 20, &stats) })
	stats.log(t)
}

// TestFloorCheckMatchesLoadplanOnFleets: the heavier requests of the
// fleet review (stacking, multi-temperature reefers, full trailers).
func TestFloorCheckMatchesLoadplanOnFleets(t *testing.T) {
	var stats floorStats
	rapid.Check(t, func(rt *rapid.T) { checkFloors(rt, oddFreightRequest(rt), 10, &stats) })
	stats.log(t)
}

// sharedPositionsDay is one store's 40 half pallets and 8 quarter pallets
// and a 30-position dry van: as halves and quarters they fill 22
// positions, so one trailer carries them, which a position per pallet
// could not.
func sharedPositionsDay() Request {
	req := packingRequest(1, 2, []TrailerType{packingTrailer("DRY53", constraints.DryVan, 2)})
	for i := range 48 {
		p := Pallet{ID: fmt.Sprint("P", i), Store: "S0", WeightKg: 150, Footprint: HalfFootprint, HeightMM: 1200}
		if i >= 40 {
			p.ID, p.Footprint, p.WeightKg = fmt.Sprint("Q", i), Footprint{LengthMM: 610, WidthMM: 508}, 80
		}
		req.Pallets = append(req.Pallets, p)
	}
	return req
}

// TestHalvesAndQuartersShareFloorPositions: the day's pallets ride on one
// trailer, two halves or four quarters to a position, and the metric of
// positions says so.
func TestHalvesAndQuartersShareFloorPositions(t *testing.T) {
	req := sharedPositionsDay()
	plan := planOK(t, req)
	if plan.Metrics.Routes != 1 || len(plan.Unassigned) != 0 {
		t.Fatalf("%d routes, %d unassigned; want all 48 pallets on one trailer", plan.Metrics.Routes, len(plan.Unassigned))
	}
	if got := plan.Routes[0].Metrics.Positions; got != 22 {
		t.Errorf("%d floor positions, want 22 (20 for 40 halves, 2 for 8 quarters)", got)
	}
	slots := 0
	for _, pl := range plan.Routes[0].Load.Placements {
		slots += pl.Slot
	}
	if slots == 0 {
		t.Errorf("no pallet in slot 1: halves standing straight share a position side by side")
	}
}

// TestFloorChecksRejectBrokenSharing breaks the planned shared positions
// in the ways a loader could get them wrong, and demands that both floor
// checks reject each break, with the same codes.
func TestFloorChecksRejectBrokenSharing(t *testing.T) {
	req := sharedPositionsDay()
	req.Pallets = append(req.Pallets, Pallet{ID: "F", Store: "S0", WeightKg: 150, Footprint: StandardFootprint, HeightMM: 1200})
	plan := planOK(t, req)
	fc := routeFloors(req, plan)[0]
	find := func(c floorCase, pred func(Placement) bool) int {
		for k, pl := range c.load.Placements {
			if pred(pl) {
				return k
			}
		}
		t.Fatalf("no placement as wanted in %+v", c.load.Placements)
		return -1
	}
	// samePosition finds a second pallet in placement k's position.
	samePosition := func(c floorCase, k int) int {
		a := c.load.Placements[k]
		return find(c, func(pl Placement) bool {
			return pl.Pallet != a.Pallet && pl.Row == a.Row && pl.Side == a.Side && pl.Level == 0
		})
	}
	isHalf := func(pl Placement) bool { return pl.Pallet[0] == 'P' && pl.Level == 0 }
	for _, tc := range []struct {
		name   string
		break_ func(c floorCase)
	}{
		{"two halves in one slot", func(c floorCase) {
			k := find(c, isHalf)
			j := samePosition(c, k)
			c.load.Placements[j].Slot, c.load.Placements[j].XMM = c.load.Placements[k].Slot, c.load.Placements[k].XMM
		}},
		{"a full pallet sharing with a half", func(c floorCase) {
			f := find(c, func(pl Placement) bool { return pl.Pallet == "F" })
			k := find(c, isHalf)
			j := samePosition(c, k)
			c.load.Placements[j].Row, c.load.Placements[j].Side = c.load.Placements[f].Row, c.load.Placements[f].Side
		}},
		{"three halves in one position", func(c floorCase) {
			k := find(c, isHalf)
			j := find(c, func(pl Placement) bool {
				a := c.load.Placements[k]
				return isHalf(pl) && (pl.Row != a.Row || pl.Side != a.Side)
			})
			a := c.load.Placements[k]
			c.load.Placements[j].Row, c.load.Placements[j].Side, c.load.Placements[j].Zone = a.Row, a.Side, a.Zone
		}},
		{"a slot on a CENTER side", func(c floorCase) {
			k := find(c, isHalf)
			c.load.Placements[k].Side, c.load.Placements[k].Slot = "CENTER", 1
		}},
		{"slot 2", func(c floorCase) { c.load.Placements[find(c, isHalf)].Slot = 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fc.clone()
			tc.break_(c)
			c.trueAxles()
			mine := floorByValidate(c.trailer, c.on, c.stops, &c.load, "routes[0].load")
			theirs, _ := floorByLoadplan(c.trailer, c.on, c.stops, &c.load, "routes[0].load")
			if len(mine) == 0 {
				t.Fatalf("Validate accepts the broken floor")
			}
			if a, b := codeSet(mine), codeSet(theirs); !slices.Equal(a, b) {
				t.Fatalf("Validate gives %v, loadplan.Validate %v\n%v\n%v", a, b, mine, theirs)
			}
		})
	}
}

// drawDoors draws a trailer's door list for a floor length long: none
// listed (the rear door), the rear door and a curbside door over the
// first 2,500 mm, the rear door and one or two side doors anywhere, or a
// three-zone reefer's doors: the rear door and curbside doors for the
// nose compartment and further back.
func drawDoors(t *rapid.T, length int) []constraints.Door {
	switch rapid.IntRange(0, 3).Draw(t, "doors") {
	case 1:
		return []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, ToMM: min(2500, length)}}
	case 3:
		from := rapid.IntRange(min(length, 2500), max(min(length, 2500), length-1500)).Draw(t, "doorFrom")
		return []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, ToMM: min(2500, length)},
			{Side: constraints.CurbDoor, FromMM: from, ToMM: min(length, from+rapid.IntRange(1500, 4000).Draw(t, "doorLength"))}}
	case 2:
		ds := []constraints.Door{{Side: constraints.RearDoor}}
		for k := range rapid.IntRange(1, 2).Draw(t, "sideDoors") {
			from := rapid.IntRange(0, max(0, length-600)).Draw(t, "doorFrom")
			ds = append(ds, constraints.Door{Side: constraints.CurbDoor + constraints.DoorSide(k), FromMM: from,
				ToMM: rapid.IntRange(min(length, from+600), min(length, from+5000)).Draw(t, "doorTo")})
		}
		return ds
	}
	return nil
}

// doorFloor draws a multi-temperature reefer with drawn doors and pallets
// of two or three classes for several stops, and returns PlanTrailer's
// layout as a floor case; ok is false when PlanTrailer finds none.
func doorFloor(t *rapid.T) (fc floorCase, ok bool) {
	tt := packingTrailer("T", constraints.MultiTempReefer, 1)
	tt.Equipment.MaxZones = rapid.IntRange(2, 3).Draw(t, "maxZones")
	tt.Doors = drawDoors(t, tt.Inside.LengthMM)
	stops := rapid.IntRange(1, 5).Draw(t, "stops")
	var lps []loadplan.Pallet
	for stop := range stops {
		for range rapid.IntRange(1, 6).Draw(t, "pallets") {
			p := Pallet{ID: fmt.Sprint("P", len(lps)), Store: "S", Footprint: StandardFootprint,
				HeightMM: rapid.IntRange(800, 1500).Draw(t, "h"), WeightKg: rapid.Float64Range(100, 600).Draw(t, "kg"),
				Temperature: constraints.Temperature(rapid.IntRange(0, tt.Equipment.MaxZones-1).Draw(t, "temp"))}
			switch rapid.IntRange(0, 9).Draw(t, "footprint") {
			case 0:
				p.Footprint = HalfFootprint
			case 1:
				p.MayBeStacked, p.MayCarry, p.HeightMM = true, true, 1000
			}
			fc.on = append(fc.on, routePallet{&p, stop})
			lps = append(lps, layoutPallet(p, stop))
		}
	}
	lay, err := loadplan.PlanTrailer(layoutTrailer(tt), lps, stops)
	if err != nil {
		return fc, false
	}
	fc.trailer, fc.stops, fc.load = tt, stops, fromLayout(lay)
	return fc, true
}

// TestFloorCheckMatchesLoadplanOnDoors: multi-temperature floors that
// PlanTrailer lays out for drawn doors, as planned and broken (doors moved,
// dropped or drawn anew among the other breaks): both checks accept them
// as planned and agree on every break; some of the floors need a side
// door, and both checks reject those without their side doors. Some need
// a side door away from the nose, and both checks agree on those without
// it.
func TestFloorCheckMatchesLoadplanOnDoors(t *testing.T) {
	var stats floorStats
	var sideFloors, awayFloors atomic.Int64
	rapid.Check(t, func(rt *rapid.T) {
		fc, ok := doorFloor(rt)
		if !ok {
			return
		}
		stats.planned.Add(1)
		if mine := floorByValidate(fc.trailer, fc.on, fc.stops, &fc.load, "routes[0].load"); len(mine) > 0 {
			rt.Fatalf("Validate rejects PlanTrailer's floor: %v\n%+v", mine, fc.load.Placements)
		}
		sameVerdict(rt, fc, "as planned", &stats)
		rear := fc.clone()
		rear.trailer.Doors = nil
		if mine := floorByValidate(rear.trailer, rear.on, rear.stops, &rear.load, "routes[0].load"); len(mine) > 0 {
			sideFloors.Add(1)
			if !slices.Equal(codeSet(mine), []string{codeUnloadingOrder}) {
				rt.Fatalf("without its side doors the floor breaks %v, want only %s", codeSet(mine), codeUnloadingOrder)
			}
		}
		stats.broken.Add(1)
		sameVerdict(rt, rear, "rear door only", &stats)
		nose := fc.clone()
		nose.trailer.Doors = slices.DeleteFunc(slices.Clone(fc.trailer.Doors), func(d constraints.Door) bool { return d.FromMM > 0 })
		if len(nose.trailer.Doors) < len(fc.trailer.Doors) {
			if mine := floorByValidate(nose.trailer, nose.on, nose.stops, &nose.load, "routes[0].load"); len(mine) > 0 {
				awayFloors.Add(1)
			}
			stats.broken.Add(1)
			sameVerdict(rt, nose, "without the side doors away from the nose", &stats)
		}
		for c := range 8 {
			b := fc.clone()
			what := breakFloor(rt, &b)
			if rapid.Bool().Draw(rt, "trueAxles") {
				b.trueAxles()
			}
			stats.broken.Add(1)
			sameVerdict(rt, b, fmt.Sprintf("copy %d broken by %s", c, what), &stats)
		}
	})
	stats.log(t)
	// How many draws need a side door is luck (none in some -short
	// runs); TestFloorChecksAgreeOnMiddleZoneDoor plants a floor that
	// needs its side doors, whatever the draws.
	t.Logf("%d floors need a side door, %d one away from the nose", sideFloors.Load(), awayFloors.Load())
}

// TestFloorChecksAgreeOnMiddleZoneDoor: a three-zone reefer with curbside
// doors for its nose and middle compartments, on a trip whose middle
// zone's pallets for the first stop can come off only through the middle
// door (its pallets for the last stop fill most of the zone, and ambient
// pallets for stops 1 and 2 stand behind it). Both checks accept
// PlanTrailer's floor, and both reject it, with the same codes, once the
// middle door is gone.
func TestFloorChecksAgreeOnMiddleZoneDoor(t *testing.T) {
	tt := packingTrailer("MT3", constraints.MultiTempReefer, 1)
	tt.Equipment.MaxZones = 3
	tt.Doors = []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, ToMM: 2500},
		{Side: constraints.CurbDoor, FromMM: 5000, ToMM: 7500}}
	var fc floorCase
	var lps []loadplan.Pallet
	for _, g := range []struct {
		n, stop int
		temp    constraints.Temperature
	}{{2, 0, constraints.Frozen}, {2, 3, constraints.Frozen}, {2, 0, constraints.Chilled}, {2, 2, constraints.Chilled},
		{8, 3, constraints.Chilled}, {2, 1, constraints.Ambient}, {2, 2, constraints.Ambient}} {
		for range g.n {
			p := Pallet{ID: fmt.Sprint("P", len(lps)), Store: "S", Footprint: StandardFootprint, HeightMM: 1500, WeightKg: 300, Temperature: g.temp}
			fc.on = append(fc.on, routePallet{&p, g.stop})
			lps = append(lps, layoutPallet(p, g.stop))
		}
	}
	lay, err := loadplan.PlanTrailer(layoutTrailer(tt), lps, 4)
	if err != nil {
		t.Fatalf("PlanTrailer: %v", err)
	}
	fc.trailer, fc.stops, fc.load = tt, 4, fromLayout(lay)
	check := func(fc floorCase, what string, want []string) {
		t.Helper()
		mine := floorByValidate(fc.trailer, fc.on, fc.stops, &fc.load, "routes[0].load")
		theirs, _ := floorByLoadplan(fc.trailer, fc.on, fc.stops, &fc.load, "routes[0].load")
		if a, b := codeSet(mine), codeSet(theirs); !slices.Equal(a, b) {
			t.Errorf("%s: Validate's floor check gives %v, loadplan.Validate %v", what, a, b)
		}
		if got := codeSet(mine); !slices.Equal(got, want) {
			t.Errorf("%s: Validate gives %v, want %v (%v)", what, got, want, mine)
		}
	}
	check(fc, "as planned", []string{})
	noMiddle := fc.clone()
	noMiddle.trailer.Doors = tt.Doors[:2]
	check(noMiddle, "without the middle door", []string{codeUnloadingOrder})
}

// crossStopFloor draws a trailer and pallets of several stops whose floor
// runs short, so that PlanTrailer stacks across stops (a top for an
// earlier stop on the next stop's pallet), and returns the layout as a
// floor case; ok is false when PlanTrailer finds none.
func crossStopFloor(t *rapid.T) (fc floorCase, ok bool) {
	kind := constraints.EquipmentKind(rapid.IntRange(0, 2).Draw(t, "kind"))
	tt := packingTrailer("T", kind, 1)
	if kind == constraints.MultiTempReefer {
		tt.Equipment.MaxZones = rapid.IntRange(2, 3).Draw(t, "maxZones")
	}
	tt.Inside.HeightMM = rapid.IntRange(2200, 2800).Draw(t, "height")
	stops := rapid.IntRange(2, 6).Draw(t, "stops")
	class := constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "class"))
	var lps []loadplan.Pallet
	add := func(p Pallet, stop int) {
		switch kind {
		case constraints.DryVan:
			p.Temperature = constraints.Ambient
		case constraints.MultiTempReefer:
			p.Temperature = constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "temp"))
		default:
			p.Temperature = class
		}
		fc.on = append(fc.on, routePallet{&p, stop})
		lps = append(lps, layoutPallet(p, stop))
	}
	// Each stop has a few pallets and perhaps one low one that
	// may be stacked and carry, as on a DC's day: most stacks then pair
	// two stops.
	for stop := range stops {
		for range rapid.IntRange(0, 1).Draw(t, "low") {
			add(Pallet{ID: fmt.Sprint("L", len(lps)), Store: "S", Footprint: StandardFootprint,
				HeightMM: rapid.IntRange(800, 1300).Draw(t, "h"), WeightKg: rapid.Float64Range(100, 400).Draw(t, "kg"),
				MayBeStacked: true, MayCarry: true}, stop)
		}
		for range rapid.IntRange(0, 6).Draw(t, "others") {
			p := Pallet{ID: fmt.Sprint("P", len(lps)), Store: "S", Footprint: StandardFootprint,
				HeightMM: rapid.IntRange(800, 2000).Draw(t, "h"), WeightKg: rapid.Float64Range(100, 700).Draw(t, "kg")}
			switch rapid.IntRange(0, 19).Draw(t, "footprint") {
			case 0:
				p.Footprint = HalfFootprint
			case 1:
				p.Footprint = Footprint{LengthMM: 610, WidthMM: 508}
			case 2:
				p.MayBeStacked = true
			case 3:
				p.MayCarry = true
			}
			add(p, stop)
		}
	}
	// The floor runs short by about what stacks across the stops'
	// boundaries can save.
	tt.PalletPositions = max(1, len(lps)-rapid.IntRange(1, max(1, stops/2)).Draw(t, "short"))
	lay, err := loadplan.PlanTrailer(layoutTrailer(tt), lps, stops)
	if err != nil {
		return fc, false
	}
	fc.trailer, fc.stops, fc.load = tt, stops, fromLayout(lay)
	return fc, true
}

// crossStacks lists the stacked pairs of fc (bottom, top placement) whose
// top comes off at another stop than its bottom.
func crossStacks(fc floorCase) [][2]int {
	stop := map[string]int{}
	for _, rp := range fc.on {
		stop[rp.p.ID] = rp.stop
	}
	var out [][2]int
	pls := fc.load.Placements
	for k, top := range pls {
		if top.Level != 1 {
			continue
		}
		for j, b := range pls {
			if b.Level == 0 && b.Zone == top.Zone && b.Side == top.Side && b.Row == top.Row && b.XMM == top.XMM && b.Slot == top.Slot &&
				stop[b.Pallet] != stop[top.Pallet] {
				out = append(out, [2]int{j, k})
			}
		}
	}
	return out
}

// breakCrossStack breaks stacked pair pr of fc in one of the ways a loader
// could get a stack across stops wrong: the top for the later stop, the
// two together taller than the trailer, a bottom that may not carry, a top
// heavier than its bottom or one that may not be stacked.
func breakCrossStack(t *rapid.T, fc *floorCase, pr [2]int) string {
	kind := rapid.SampledFrom(crossStackBreaks).Draw(t, "crossBreak")
	breakCrossStackBy(fc, pr, kind, rapid.Float64Range(1, 300).Draw(t, "by"))
	return kind
}

// crossStackBreaks are the ways breakCrossStackBy breaks a stack.
var crossStackBreaks = []string{"topLater", "tooTall", "bottomMayNotCarry", "topHeavier", "topMayNotBeStacked"}

// breakCrossStackBy breaks the stacked pair pr (bottom, top placement) of
// fc against one stacking rule: the top comes off after the bottom, the
// stack is taller than the trailer by up to by mm, the bottom may not
// carry, the top is heavier than the bottom by up to by kg, or the top may
// not be stacked.
func breakCrossStackBy(fc *floorCase, pr [2]int, kind string, by float64) {
	rp := map[string]*routePallet{}
	for i := range fc.on {
		rp[fc.on[i].p.ID] = &fc.on[i]
	}
	bottom, top := rp[fc.load.Placements[pr[0]].Pallet], rp[fc.load.Placements[pr[1]].Pallet]
	switch kind {
	case "topLater":
		bottom.stop, top.stop = top.stop, bottom.stop
	case "tooTall":
		fc.trailer.Inside.HeightMM = bottom.p.HeightMM + top.p.HeightMM - max(1, int(by))
	case "bottomMayNotCarry":
		bottom.p.MayCarry = false
	case "topHeavier":
		top.p.WeightKg = bottom.p.WeightKg + by
	case "topMayNotBeStacked":
		top.p.MayBeStacked = false
	}
}

// plantedCrossStopFloor is a floor PlanTrailer can only lay out with a
// stack across stops: two stops, each with one low pallet that may be
// stacked and may carry beside taller pallets that may do neither, on a
// dry van one floor position short.
func plantedCrossStopFloor(t *testing.T) floorCase {
	t.Helper()
	tt := packingTrailer("T", constraints.DryVan, 1)
	tt.Inside.HeightMM = 2600
	var fc floorCase
	var lps []loadplan.Pallet
	for stop, kg := range []float64{200, 300} {
		p := Pallet{ID: fmt.Sprint("L", stop), Store: "S", Footprint: StandardFootprint, HeightMM: 1000, WeightKg: kg,
			MayBeStacked: true, MayCarry: true, Temperature: constraints.Ambient}
		fc.on = append(fc.on, routePallet{&p, stop})
		lps = append(lps, layoutPallet(p, stop))
		for k := range 4 {
			q := Pallet{ID: fmt.Sprint("P", stop, k), Store: "S", Footprint: StandardFootprint, HeightMM: 1800, WeightKg: 500,
				Temperature: constraints.Ambient}
			fc.on = append(fc.on, routePallet{&q, stop})
			lps = append(lps, layoutPallet(q, stop))
		}
	}
	tt.PalletPositions = len(lps) - 1
	lay, err := loadplan.PlanTrailer(layoutTrailer(tt), lps, 2)
	if err != nil {
		t.Fatalf("PlanTrailer: %v", err)
	}
	fc.trailer, fc.stops, fc.load = tt, 2, fromLayout(lay)
	return fc
}

// TestFloorChecksRejectEveryBrokenStackAcrossStops: on a floor that needs a
// stack across stops, both checks accept the stack as planned and reject
// it broken against each stacking rule, with the same codes.
func TestFloorChecksRejectEveryBrokenStackAcrossStops(t *testing.T) {
	fc := plantedCrossStopFloor(t)
	pairs := crossStacks(fc)
	if len(pairs) != 1 {
		t.Fatalf("PlanTrailer made %d stacks across stops on a floor one position short, want 1: %+v", len(pairs), fc.load.Placements)
	}
	check := func(fc floorCase, what string, wantOK bool) {
		t.Helper()
		mine := floorByValidate(fc.trailer, fc.on, fc.stops, &fc.load, "routes[0].load")
		theirs, _ := floorByLoadplan(fc.trailer, fc.on, fc.stops, &fc.load, "routes[0].load")
		if a, b := codeSet(mine), codeSet(theirs); !slices.Equal(a, b) {
			t.Errorf("%s: Validate's floor check gives %v, loadplan.Validate %v", what, a, b)
		}
		if ok := len(mine) == 0; ok != wantOK {
			t.Errorf("%s: Validate accepts the floor: %v, want %v (%v)", what, ok, wantOK, mine)
		}
	}
	check(fc, "as planned", true)
	for _, kind := range crossStackBreaks {
		for _, by := range []float64{1, 150} {
			b := fc.clone()
			breakCrossStackBy(&b, pairs[0], kind, by)
			b.trueAxles()
			check(b, fmt.Sprintf("broken by %s (%g)", kind, by), false)
		}
	}
}

// TestFloorCheckMatchesLoadplanOnCrossStopStacks: floors that PlanTrailer
// lays out with stacks across stops, as planned and broken: both checks
// accept the stacks as planned, reject every stack broken against a
// stacking rule, and agree on every other break.
func TestFloorCheckMatchesLoadplanOnCrossStopStacks(t *testing.T) {
	var stats floorStats
	var crossFloors, crossBroken atomic.Int64
	rapid.Check(t, func(rt *rapid.T) {
		fc, ok := crossStopFloor(rt)
		if !ok {
			return
		}
		pairs := crossStacks(fc)
		if len(pairs) > 0 {
			crossFloors.Add(1)
		}
		stats.planned.Add(1)
		if mine := floorByValidate(fc.trailer, fc.on, fc.stops, &fc.load, "routes[0].load"); len(mine) > 0 {
			rt.Fatalf("Validate rejects PlanTrailer's floor: %v\n%+v", mine, fc.load.Placements)
		}
		sameVerdict(rt, fc, "as planned", &stats)
		for c := range 8 {
			b := fc.clone()
			var what string
			if len(pairs) > 0 && rapid.Bool().Draw(rt, "cross") {
				what = breakCrossStack(rt, &b, pairs[rapid.IntRange(0, len(pairs)-1).Draw(rt, "pair")])
				b.trueAxles()
				if mine := floorByValidate(b.trailer, b.on, b.stops, &b.load, "routes[0].load"); len(mine) == 0 {
					rt.Fatalf("copy %d: Validate accepts a stack across stops broken by %s", c, what)
				}
				crossBroken.Add(1)
			} else {
				what = breakFloor(rt, &b)
				if rapid.Bool().Draw(rt, "trueAxles") {
					b.trueAxles()
				}
			}
			stats.broken.Add(1)
			sameVerdict(rt, b, fmt.Sprintf("copy %d broken by %s", c, what), &stats)
		}
	})
	stats.log(t)
	t.Logf("%d floors with stacks across stops, %d of them broken", crossFloors.Load(), crossBroken.Load())
}
