package loadplan

import (
	"context"
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestCountBound checks the search's stopping bound on cases worked out by
// hand.
func TestCountBound(t *testing.T) {
	big, small := testTrailer(constraints.DryVan), testTrailer(constraints.DryVan)
	small.ID, small.PayloadKg, small.Positions = "small", 10000, 20
	many := func(n int, kg float64, store func(int) string) []Pallet {
		var ps []Pallet
		for i := range n {
			ps = append(ps, storePallet(fmt.Sprint("p", i), store(i), kg, constraints.Ambient))
		}
		return ps
	}
	one := func(int) string { return "S" }
	type countCase struct {
		name    string
		fleet   []FleetTrailer
		pallets []Pallet
		want    int
	}
	cases := []countCase{
		// 45 pallets of 1,000 kg: 20 + 20 t of payload is short, a third
		// (small) trailer makes 50 t. Positions: 30 + 30 >= 45.
		{"payload", []FleetTrailer{{big, 2}, {small, 3}}, many(45, 1000, one), 3},
		// 65 light pallets: 30 + 30 positions are short; a small one adds 20.
		{"positions", []FleetTrailer{{big, 2}, {small, 3}}, many(65, 100, one), 3},
		// Ten of them may be stacked and ten may carry, all of one store:
		// up to ten stand on others, 55 on the floor: two big trailers.
		{"pairs", []FleetTrailer{{big, 2}, {small, 3}}, func() []Pallet {
			ps := many(65, 100, one)
			for i := range 10 {
				ps[i].MayBeStacked, ps[10+i].MayCarry = true, true
			}
			return ps
		}(), 2},
		// The same pallets spread over stores one by one: a top rides on
		// a bottom of its own store or, two to a boundary, of the next
		// stop: up to ten pairs still, two big trailers.
		{"pairs across stores", []FleetTrailer{{big, 2}, {small, 3}}, func() []Pallet {
			ps := many(65, 100, func(i int) string { return fmt.Sprint("S", i) })
			for i := range 10 {
				ps[i].MayBeStacked, ps[10+i].MayCarry = true, true
			}
			return ps
		}(), 2},
		// Of two stores, one with the tops and one with the bottoms: two
		// pairs across their boundary, 63 on the floor: three trailers.
		{"pairs across one boundary", []FleetTrailer{{big, 2}, {small, 3}}, func() []Pallet {
			ps := many(65, 100, func(i int) string { return fmt.Sprint("S", min(i/10, 1)) })
			for i := range 10 {
				ps[i].MayBeStacked, ps[10+i].MayCarry = true, true
			}
			return ps
		}(), 3},
	}
	reefer := testTrailer(constraints.Reefer)
	reefer.ID, reefer.Positions = "reefer20", 20
	classes := func(n map[constraints.Temperature]int) []Pallet {
		var ps []Pallet
		for _, c := range constraints.Temperatures {
			for i := range n[c] {
				ps = append(ps, storePallet(fmt.Sprint(c, i), "S", 100, c))
			}
		}
		return ps
	}
	cases = append(cases,
		// 30 pallets fit one big dry van by count, but the 25 frozen ones
		// ride only on the 20-position reefers: 2.
		countCase{"class", []FleetTrailer{{big, 3}, {reefer, 3}}, classes(map[constraints.Temperature]int{constraints.Ambient: 5, constraints.Frozen: 25}), 2},
		// 15 chilled and 15 frozen: each class fits one reefer, but both
		// ride only on reefers: 30 on 20-position reefers: 2.
		countCase{"cold", []FleetTrailer{{big, 3}, {reefer, 3}}, classes(map[constraints.Temperature]int{constraints.Chilled: 15, constraints.Frozen: 15}), 2},
	)
	for _, c := range cases {
		f := newFleetPacker(context.Background(), c.fleet, c.pallets, farFuture)
		all := make([]int, len(c.pallets))
		for i := range all {
			all[i] = i
		}
		s := &packing{loads: []*fleetLoad{{pallets: all}}}
		if got := f.countBound(s); got != c.want {
			t.Errorf("%s: bound %d, want %d", c.name, got, c.want)
		}
	}
}
