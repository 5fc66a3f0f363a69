package loadplan

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// mixedFleet is a realistic DC fleet: 53 ft and 48 ft dry vans, 53 ft
// single-temperature reefers and 53 ft three-zone reefers, the reefers
// narrower and lower inside for their insulation.
func mixedFleet() []FleetTrailer {
	mk := func(id string, length, width, height, positions int, payload float64, eq constraints.Equipment) Trailer {
		return Trailer{ID: id, LengthMM: length, WidthMM: width, HeightMM: height, Positions: positions, PayloadKg: payload, Equipment: eq,
			Axles: constraints.AxleGeometry{KingpinMM: 900, AxleGroupMM: float64(length) - 3000, TareKg: 6500, TareCentreMM: float64(length) * 0.45,
				KingpinLimitKg: 12000, AxleGroupLimitKg: 15422}}
	}
	mt := mk("MT53", 15700, 2440, 2500, 30, 17500, constraints.Equipment{Kind: constraints.MultiTempReefer, MaxZones: 3})
	mt.Doors = noseCurbDoor
	return []FleetTrailer{
		{mk("DRY53", 16000, 2490, 2700, 30, 20000, constraints.Equipment{Kind: constraints.DryVan}), 10},
		{mk("DRY48", 14500, 2490, 2700, 26, 19000, constraints.Equipment{Kind: constraints.DryVan}), 6},
		{mk("REEF53", 15700, 2440, 2500, 30, 18000, constraints.Equipment{Kind: constraints.Reefer}), 5},
		{mt, 4},
	}
}

// scarceFleet is mixedFleet with few large trailers left: mostly 48 ft
// dry vans, few 53 ft reefers, and some shorter reefers.
func scarceFleet() []FleetTrailer {
	fleet := mixedFleet()
	fleet[0].Count, fleet[1].Count, fleet[2].Count, fleet[3].Count = 3, 20, 2, 6
	short := fleet[2].Trailer
	short.ID, short.LengthMM, short.Positions, short.PayloadKg = "REEF40", 12000, 24, 14000
	short.Axles.AxleGroupMM, short.Axles.TareCentreMM = 9000, 5400
	return append(fleet, FleetTrailer{Trailer: short, Count: 4})
}

// mixedPallets draws n pallets for the given number of stores: about 65 %
// ambient, 25 % chilled, 10 % frozen; one in ten a half pallet; low light
// pallets may be stacked, heavy ones may carry.
func mixedPallets(n, stores int, seed uint64) []Pallet {
	rng := rand.New(rand.NewPCG(seed, 7))
	ps := make([]Pallet, n)
	for i := range ps {
		p := Pallet{ID: fmt.Sprint("p", i), Store: fmt.Sprint("S", rng.IntN(stores)), LengthMM: 1219, WidthMM: 1016}
		switch r := rng.IntN(100); {
		case r < 65:
			p.Temperature = constraints.Ambient
		case r < 90:
			p.Temperature = constraints.Chilled
		default:
			p.Temperature = constraints.Frozen
		}
		p.HeightMM = 900 + rng.IntN(800)
		p.WeightKg = float64(150 + rng.IntN(650))
		if rng.IntN(10) == 0 {
			p.WidthMM, p.WeightKg = 508, p.WeightKg/2
		}
		p.VolumeM3 = float64(p.LengthMM) * float64(p.WidthMM) * float64(p.HeightMM) / 1e9
		p.MayBeStacked = p.HeightMM <= 1150 && p.WeightKg <= 400 && rng.IntN(2) == 0
		p.MayCarry = p.WeightKg >= 300 && rng.IntN(2) == 0
		ps[i] = p
	}
	return ps
}

// firstFitCount is the number of trailers of the store-order first-fit
// alone, PackFleet's first packing, and the pallets it left without room,
// for comparison.
func firstFitCount(fleet []FleetTrailer, ps []Pallet) (trailers, noRoom int) {
	f := newFleetPacker(context.Background(), fleet, ps, farFuture)
	s, _ := f.firstFit(f.storeOrder(f.screen(&FleetPlan{})))
	return len(s.loads), len(s.noRoom)
}

// countBoundOf is countBound of the pallets a plan loads.
func countBoundOf(fleet []FleetTrailer, ps []Pallet, plan *FleetPlan) int {
	f := newFleetPacker(context.Background(), fleet, ps, farFuture)
	loaded := map[string]bool{}
	for _, l := range plan.Loads {
		for _, p := range l.Pallets {
			loaded[p.ID] = true
		}
	}
	var idx []int
	for i, p := range ps {
		if loaded[p.ID] {
			idx = append(idx, i)
		}
	}
	return f.countBound(&packing{loads: []*fleetLoad{{pallets: idx}}})
}

// farFuture is a deadline no test reaches.
var farFuture = time.Now().Add(24 * time.Hour)
