package loadplan

import (
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestStackingNeedsPlanner: the planner refuses to stack against
// each rule in turn, so it reports the floor shortage instead.
func TestStackingRulesInPlanner(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.Positions = 1
	base := func() []Pallet {
		b := sizedPallet("bottom", 0, 1219, 1016, 1300, 800, constraints.Ambient)
		b.MayCarry = true
		tp := sizedPallet("top", 0, 1219, 1016, 1300, 400, constraints.Ambient)
		tp.MayBeStacked = true
		return []Pallet{b, tp}
	}
	planValid(t, tr, base(), 1) // stackable as given
	// A top for the earlier stop comes off first: it may ride on the
	// next stop's pallet.
	cross := base()
	cross[0].Stop = 1
	if lay := planValid(t, tr, cross, 2); lay.Placements[1].Pallet != "top" || lay.Placements[1].Level != 1 {
		t.Fatalf("want the stop-0 pallet on the stop-1 pallet, got %+v", lay.Placements)
	}
	cases := []struct {
		name string
		mod  func(ps []Pallet)
	}{
		{"top heavier", func(ps []Pallet) { ps[1].WeightKg = 900 }},
		{"together too tall", func(ps []Pallet) { ps[1].HeightMM = 1500 }},
		{"top larger", func(ps []Pallet) { ps[1].LengthMM = 1300 }},
		{"top may not be stacked", func(ps []Pallet) { ps[1].MayBeStacked = false }},
		{"bottom may not carry", func(ps []Pallet) { ps[0].MayCarry = false }},
		{"top for the later stop", func(ps []Pallet) { ps[1].Stop = 1 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ps := base()
			tc.mod(ps)
			lay, err := PlanTrailer(tr, ps, 2)
			if err == nil {
				t.Fatalf("stacked against the rules: %+v", lay.Placements)
			}
			if !constraints.AsViolations(err).Has(CodePositions) {
				t.Fatalf("want %s, got %v", CodePositions, err)
			}
		})
	}
	// Only as much stacking as the floor needs: two of four stackable
	// pallets on three positions.
	tr.Positions = 3
	var ps []Pallet
	for i := range 4 {
		p := sizedPallet(fmt.Sprint("s", i), 0, 1219, 1016, 1300, 800-float64(i)*100, constraints.Ambient)
		p.MayCarry, p.MayBeStacked = true, true
		ps = append(ps, p)
	}
	lay := planValid(t, tr, ps, 1)
	stacked := 0
	for _, p := range lay.Placements {
		stacked += p.Level
	}
	if stacked != 1 || lay.Load.Positions != 3 {
		t.Fatalf("want exactly one pallet stacked on 3 positions, got %d stacked: %+v", stacked, lay.Placements)
	}
}

// TestStackedPositions: ten pallets of one stop, four of them low pallets
// that may be stacked and carry, stand on eight positions with both pairs
// stacked. StackedPositions says 8 without a trailer that runs out: a
// trailer of 8 positions takes them, one of 7 does not. Over several
// stops, pallets pair within a stop and across neighbouring stops, the top
// for the earlier one.
func TestStackedPositions(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	pallets := func(stopOf func(i int) int) []Pallet {
		var ps []Pallet
		for i := range 10 {
			p := sizedPallet(fmt.Sprint("p", i), stopOf(i), 1219, 1016, 1500, 500, constraints.Ambient)
			if i < 4 {
				p.HeightMM, p.WeightKg = 1000, float64(200+10*i)
				p.MayBeStacked, p.MayCarry = true, true
			}
			ps = append(ps, p)
		}
		return ps
	}
	one := pallets(func(int) int { return 0 })
	if got := StackedPositions(tr, one); got != 8 {
		t.Fatalf("StackedPositions = %d; want 8", got)
	}
	tr.Positions = 8
	lay := planValid(t, tr, one, 1)
	if lay.Load.Positions != 8 {
		t.Errorf("PlanTrailer on 8 positions used %d", lay.Load.Positions)
	}
	tr.Positions = 7
	if _, err := PlanTrailer(tr, one, 1); err == nil {
		t.Errorf("PlanTrailer laid ten pallets with two pairs stacked on 7 positions")
	}
	// Stackable pallets at stops 0, 1, 0, 1: one pair a stop.
	two := pallets(func(i int) int { return i % 2 })
	if got := StackedPositions(tr, two); got != 8 {
		t.Errorf("StackedPositions over two stops = %d; want 8", got)
	}
	// Stops 0, 1, 2, 3: no two stackable pallets share a stop, but stop 2's
	// rides on stop 3's and stop 0's on stop 1's, each pair in the row
	// between its stops' pallets.
	four := pallets(func(i int) int { return i % 4 })
	if got := StackedPositions(tr, four); got != 8 {
		t.Errorf("StackedPositions over four stops = %d; want 8", got)
	}
	tr.Positions = 8
	planValid(t, tr, four, 4)
	// Two stackable pallets, for stops 0 and 2, with stop 1's pallets in
	// the zone between: their pair would need all of stop 1's pallets in
	// its row, so they do not stack.
	apart := pallets(func(i int) int { return []int{0, 2, 1, 1, 1, 1, 1, 1, 1, 1}[i] })
	for i := 2; i < 4; i++ {
		apart[i].MayCarry, apart[i].MayBeStacked = false, false
	}
	if got := StackedPositions(tr, apart); got != 10 {
		t.Errorf("StackedPositions, stops 0 and 2 apart = %d; want 10", got)
	}
}

// TestValidateStacksAcrossStops: a top for stop 0 on stop 1's pallet, in
// the row between the two stops, is legal; Validate rejects the same stack
// with the top for the later stop, too tall, on a pallet that may not
// carry, or standing behind pallets of the stop in between.
func TestValidateStacksAcrossStops(t *testing.T) {
	pallet := func(id string, stop int, kg float64) Pallet {
		p := sizedPallet(id, stop, 1219, 1016, 1200, kg, constraints.Ambient)
		p.MayCarry, p.MayBeStacked = true, true
		return p
	}
	// Row 0: stop 2; row 1: stop 1, with a0 (stop 0) on b0; row 2: stop 0.
	legal := func() (Trailer, []Pallet, *Layout) {
		ps := []Pallet{pallet("c0", 2, 400), pallet("c1", 2, 400), pallet("b0", 1, 400), pallet("b1", 1, 400), pallet("a0", 0, 300), pallet("a1", 0, 300)}
		lay := &Layout{Zones: []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 2}}, Placements: []Placement{
			{Pallet: "c0", Row: 0, Side: Left, Turned: true}, {Pallet: "c1", Row: 0, Side: Right, Turned: true},
			{Pallet: "b0", Row: 1, Side: Left, Turned: true, XMM: 1016}, {Pallet: "b1", Row: 1, Side: Right, Turned: true, XMM: 1016},
			{Pallet: "a0", Row: 1, Side: Left, Turned: true, XMM: 1016, Level: 1},
			{Pallet: "a1", Row: 2, Side: Left, Turned: true, XMM: 2032},
		}}
		return testTrailer(constraints.DryVan), ps, lay
	}
	tr, ps, lay := legal()
	mustValidate(t, tr, ps, 3, lay)
	cases := []struct {
		name   string
		break_ func(tr *Trailer, ps []Pallet, lay *Layout)
		code   string
	}{
		{"top for the later stop", func(_ *Trailer, ps []Pallet, _ *Layout) { ps[2].Stop, ps[4].Stop = 0, 1 }, CodeStacking},
		{"together too tall", func(tr *Trailer, _ []Pallet, _ *Layout) { tr.HeightMM = 2399 }, CodeTooTall},
		{"bottom may not carry", func(_ *Trailer, ps []Pallet, _ *Layout) { ps[2].MayCarry = false }, CodeStacking},
		{"stack behind the stop in between", func(_ *Trailer, _ []Pallet, lay *Layout) {
			lay.Placements[4].XMM, lay.Placements[4].Row = 0, 0 // a0 on c0, behind stop 1's row
		}, CodeUnloadingOrder},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr, ps, lay := legal()
			tc.break_(&tr, ps, lay)
			fillAxles(tr, ps, 3, lay)
			vs := Validate(tr, ps, 3, lay)
			if !vs.Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, vs)
			}
		})
	}
}

// TestHalfAndStackAcrossOneBoundary: two stops, each with some full
// pallets, one half pallet and one low pallet that may be stacked and
// carry. The halves share a position and stop 0's low pallet rides on
// stop 1's, both in the rows between the two stops, so the floor takes
// two positions fewer than the pallets: what routing counts for such
// orders. The later stop's full pallet left over from its rows (an odd
// count) stands alone before them: neither the half pallet of stop 1
// alone nor the stack undone, which would take a position more.
func TestHalfAndStackAcrossOneBoundary(t *testing.T) {
	for later := range 4 {
		for earlier := range 4 {
			t.Run(fmt.Sprintf("%d and %d full pallets", later, earlier), func(t *testing.T) {
				var ps []Pallet
				add := func(stop, full int, stackKg float64) {
					for i := range full {
						ps = append(ps, sizedPallet(fmt.Sprint("f", stop, i), stop, 1219, 1016, 1600, 500, constraints.Ambient))
					}
					ps = append(ps, sizedPallet(fmt.Sprint("h", stop), stop, 1219, 508, 1200, 150, constraints.Ambient))
					s := sizedPallet(fmt.Sprint("s", stop), stop, 1219, 1016, 1000, stackKg, constraints.Ambient)
					s.MayBeStacked, s.MayCarry = true, true
					ps = append(ps, s)
				}
				add(0, earlier, 200)
				add(1, later, 300)
				tr := trailer53(constraints.DryVan)
				tr.Positions = earlier + later + 2
				lay := planValid(t, tr, ps, 2)
				var stacked, shared []string
				for k, p := range lay.Placements {
					if p.Level == 1 {
						stacked = append(stacked, lay.Placements[k-1].Pallet+"<"+p.Pallet)
					}
				}
				for _, a := range lay.Placements {
					for _, b := range lay.Placements {
						if a.Pallet < b.Pallet && a.Pallet[0] == 'h' && b.Pallet[0] == 'h' && a.Row == b.Row && a.Side == b.Side {
							shared = append(shared, a.Pallet+"+"+b.Pallet)
						}
					}
				}
				if fmt.Sprint(stacked) != "[s1<s0]" || fmt.Sprint(shared) != "[h0+h1]" {
					t.Fatalf("stacked %v, sharing %v; want s0 on s1 and h0 beside h1: %+v", stacked, shared, lay.Placements)
				}
			})
		}
	}
}
