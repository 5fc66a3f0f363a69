package dcday

import (
	"fmt"
	"math/rand/v2"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// storePallets returns a store's order: MinPallets to MaxPallets pallets,
// each ambient, chilled or frozen by the shares. Most are full 48×40 in
// pallets 1.2 to 1.9 m tall; some are half pallets of high-value goods
// (f.halfShare of them, with a full footprint when f.halvesAsFull), some
// low pallets (0.9 to 1.2 m, light) that may stand on one another.
func storePallets(r *rand.Rand, store string, f freight) []engine.Pallet {
	n := MinPallets + r.IntN(MaxPallets-MinPallets+1)
	ps := make([]engine.Pallet, n)
	for i := range ps {
		p := engine.Pallet{ID: fmt.Sprintf("%s-P%02d", store, i+1), Store: store, Footprint: engine.StandardFootprint}
		switch u := r.Float64(); {
		case u < AmbientShare:
			p.Temperature = constraints.Ambient
		case u < AmbientShare+ChilledShare:
			p.Temperature = constraints.Chilled
		default:
			p.Temperature = constraints.Frozen
		}
		switch u := r.Float64(); {
		case u < f.halfShare:
			if !f.halvesAsFull {
				p.Footprint = engine.HalfFootprint
			}
			p.WeightKg = between(r, 120, 300)
			p.HeightMM = 1000 + 50*r.IntN(11)
		case u < f.halfShare+StackShare:
			p.WeightKg = between(r, 150, 400)
			p.HeightMM = 900 + 50*r.IntN(7)
			p.MayBeStacked, p.MayCarry = true, true
		default:
			lo, hi := 250.0, 750.0 // dry grocery: from chips to canned goods
			if p.Temperature != constraints.Ambient {
				lo, hi = 300, 680
			}
			p.WeightKg = between(r, lo, hi)
			p.HeightMM = 1200 + 50*r.IntN(15)
		}
		ps[i] = p
	}
	return ps
}

// between returns a whole number of kilograms in [lo, hi).
func between(r *rand.Rand, lo, hi float64) float64 {
	return float64(int(lo + r.Float64()*(hi-lo)))
}
