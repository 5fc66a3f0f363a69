package loadplan

import (
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestMultiTempThreeClassesFewRows: three classes of one pallet each
// take three zones of one row each, frozen at the nose, and Validate rejects
// the same layout on a reefer limited to two zones.
func TestMultiTempThreeClassesFewRows(t *testing.T) {
	tr := trailer53(constraints.MultiTempReefer)
	ps := []Pallet{
		sizedPallet("amb", 0, 1219, 1016, 1000, 300, constraints.Ambient),
		sizedPallet("chl", 1, 1219, 1016, 1000, 300, constraints.Chilled),
		sizedPallet("frz", 0, 1219, 1016, 1000, 300, constraints.Frozen),
	}
	lay := planValid(t, tr, ps, 2)
	if len(lay.Zones) != 3 || lay.Rows != 3 {
		t.Fatalf("zones %+v rows %d", lay.Zones, lay.Rows)
	}
	want := []constraints.Temperature{constraints.Frozen, constraints.Chilled, constraints.Ambient}
	for zi, z := range lay.Zones {
		if z.Temperature != want[zi] || z.FirstRow != zi || z.LastRow != zi {
			t.Fatalf("zones %+v, want one row each, frozen first", lay.Zones)
		}
	}
	two := tr
	two.Equipment.MaxZones = 2
	if _, err := PlanTrailer(two, ps, 2); !constraints.AsViolations(err).Has(CodeTooManyZones) {
		t.Fatalf("three classes in a two-zone reefer: want %s, got %v", CodeTooManyZones, err)
	}
	if vs := Validate(two, ps, 2, lay); !vs.Has(CodeTooManyZones) {
		t.Fatalf("Validate on a two-zone reefer: want %s, got %v", CodeTooManyZones, vs)
	}
	// Two zones of one class, or a warmer zone nearer the nose, are wrong.
	bad := *lay
	bad.Zones = append([]Zone(nil), lay.Zones...)
	bad.Zones[1].Temperature = constraints.Frozen
	if vs := Validate(tr, ps, 2, &bad); !vs.Has(CodeZone) {
		t.Fatalf("two frozen zones: want %s, got %v", CodeZone, vs)
	}
	// A dry van and a single-temperature reefer hold one zone.
	one := tr
	one.Equipment.Kind = constraints.Reefer
	if vs := Validate(one, ps, 2, lay); !vs.Has(CodeTooManyZones) {
		t.Fatalf("reefer with three zones: want %s, got %v", CodeTooManyZones, vs)
	}
	// A zone of a class the equipment cannot hold is refused even when
	// no pallet stands in it.
	dry := trailer53(constraints.DryVan)
	amb := []Pallet{ps[0]}
	l2 := planValid(t, dry, amb, 2)
	l2.Zones[0].Temperature = constraints.Frozen
	if vs := Validate(dry, amb, 2, l2); !vs.Has(CodeTemperature) {
		t.Fatalf("frozen zone on a dry van: want %s, got %v", CodeTemperature, vs)
	}
}

// TestZoneRangesAndRows: zone bookkeeping that no test broke.
func TestZoneRangesAndRows(t *testing.T) {
	tr := trailer53(constraints.MultiTempReefer)
	ps := []Pallet{
		sizedPallet("c1", 1, 1219, 1016, 1000, 300, constraints.Chilled),
		sizedPallet("c2", 0, 1219, 1016, 1000, 300, constraints.Chilled),
		sizedPallet("c3", 0, 1219, 1016, 1000, 300, constraints.Chilled),
		sizedPallet("f1", 0, 1219, 1016, 1000, 300, constraints.Frozen),
	}
	good := planValid(t, tr, ps, 2)
	if good.Zones[0].FromMM != 0 || good.Zones[len(good.Zones)-1].ToMM != tr.LengthMM {
		t.Fatalf("zones should cover the floor from the nose to the door: %+v", good.Zones)
	}
	clone := func() *Layout { return cloneLayout(good) }
	idx := func(l *Layout, id string) int { return placementOf(t, l, id) }
	cases := []struct {
		name   string
		break_ func(l *Layout)
		code   string
	}{
		{"row outside its zone's rows", func(l *Layout) { l.Placements[idx(l, "f1")].Row = l.Zones[1].LastRow + 5 }, CodeZone},
		{"zone rows empty", func(l *Layout) { l.Zones[0].LastRow = l.Zones[0].FirstRow - 1 }, CodeZone},
		{"zone rows overlap", func(l *Layout) { l.Zones[1].FirstRow = l.Zones[0].LastRow }, CodeZone},
		{"zone range beyond the door", func(l *Layout) { l.Zones[1].ToMM = tr.LengthMM + 1 }, CodeZone},
		{"pallet beyond its zone's door-side end", func(l *Layout) { l.Zones[1].ToMM = l.Placements[idx(l, "c1")].XMM + 500 }, CodeZone},
		{"negative row", func(l *Layout) { l.Placements[idx(l, "f1")].Row = -1 }, CodeRowOrder},
		{"missing axle state", func(l *Layout) { l.Axles = l.Axles[:len(l.Axles)-1] }, CodeAxleReport},
		{"axle group reported wrong", func(l *Layout) { l.Axles[1].AxleGroupKg += 100 }, CodeAxleReport},
		{"axle state for the wrong stop", func(l *Layout) { l.Axles[2].AfterStop = 0 }, CodeAxleReport},
		{"pallet twice", func(l *Layout) { l.Placements = append(l.Placements, l.Placements[0]) }, CodeDuplicate},
		{"unknown pallet", func(l *Layout) { l.Placements[0].Pallet = "ghost" }, CodeUnknown},
		{"beyond the door", func(l *Layout) { l.Placements[idx(l, "c1")].XMM = tr.LengthMM - 1000 }, CodeOutsideFloor},
		{"bad side", func(l *Layout) { l.Placements[0].Side = Side(7) }, CodeInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := clone()
			tc.break_(l)
			if vs := Validate(tr, ps, 2, l); !vs.Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, vs)
			}
		})
	}
}

// TestMaxZonesValidated: MaxZones is documented as 2 or 3; a
// negative value makes every trip fail with TOO_MANY_ZONES, even an empty
// one, instead of an INVALID_VALUE on the trailer.
func TestMaxZonesValidated(t *testing.T) {
	tr := trailer53(constraints.MultiTempReefer)
	tr.Equipment.MaxZones = -1
	_, err := PlanTrailer(tr, nil, 1)
	vs := constraints.AsViolations(err)
	if !vs.Has(CodeInvalid) {
		t.Fatalf("Equipment.MaxZones -1 not reported as invalid; PlanTrailer(no pallets) = %v", err)
	}
}
