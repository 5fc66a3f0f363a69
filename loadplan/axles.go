package loadplan

import (
	"math"
	"strconv"

	"github.com/haulplan/haulplan/constraints"
)

// slideOffset returns the smallest distance in whole millimetres, from 0 to
// the free floor, by which the block of rows can move towards the door with
// the axle loads legal at departure and after every stop. Moving the block
// by d shifts W·d/span kilograms from the kingpin to the axle group, W
// being the weight on board, so each state and limit allows an interval of
// d, and the intersection is exact. When it is empty, the violations are
// those at the offset that exceeds the limits least, each saying that no
// position along the floor is legal.
func slideOffset(tr Trailer, pallets []Pallet, fp floorPlan, stops int) (int, constraints.Violations) {
	slack := tr.LengthMM - fp.length
	g := tr.Axles
	span := g.AxleGroupMM - g.KingpinMM
	at := func(off int) ([]AxleLoad, constraints.Violations) {
		pl := make([]Placement, len(fp.placements))
		for i, p := range fp.placements {
			p.XMM += off
			pl[i] = p
		}
		return axleLoads(tr, pallets, fp.placedIdx, pl, stops)
	}
	base, vs := at(0)
	if len(vs) == 0 || slack <= 0 || span <= 0 {
		return 0, vs
	}
	onBoard := make([]float64, len(base)) // weight on board in each state
	for s := range base {
		after := base[s].AfterStop
		for _, i := range fp.placedIdx {
			if pallets[i].Stop > after {
				onBoard[s] += pallets[i].WeightKg
			}
		}
	}
	lo, hi := 0.0, float64(slack)
	for s, a := range base {
		w := onBoard[s]
		if w <= 0 {
			continue // sliding changes nothing here
		}
		rate := w / span // kg moved from kingpin to axle group per mm
		lo = math.Max(lo, (a.KingpinKg-g.KingpinLimitKg)/rate)
		hi = math.Min(hi, a.KingpinKg/rate)
		hi = math.Min(hi, (g.AxleGroupLimitKg-a.AxleGroupKg)/rate)
	}
	if lo <= hi {
		// Rounding may put the interval's ends a hair off: try the whole
		// millimetres in it, from the nose, and their neighbours.
		for off := max(0, int(math.Ceil(lo))-1); off <= min(slack, int(math.Floor(hi))+1); off++ {
			if _, vs := at(off); len(vs) == 0 {
				return off, nil
			}
			if off > int(math.Ceil(lo))+2 {
				break
			}
		}
	}
	// No legal offset: report the one that exceeds the limits least.
	best, bestExcess := 0, math.Inf(1)
	for _, off := range []int{0, slack, clampInt(lo, 0, slack), clampInt(hi, 0, slack)} {
		loads, _ := at(off)
		excess := 0.0
		for _, a := range loads {
			excess += math.Max(0, a.KingpinKg-g.KingpinLimitKg) + math.Max(0, -a.KingpinKg) + math.Max(0, a.AxleGroupKg-g.AxleGroupLimitKg)
		}
		if excess < bestExcess {
			best, bestExcess = off, excess
		}
	}
	_, vs = at(best)
	for i := range vs {
		vs[i].Message = "no position of the load along the floor keeps the axle loads legal; " + strconv.Itoa(best) + " mm from the nose: " + vs[i].Message
	}
	return 0, vs
}

func clampInt(v float64, lo, hi int) int {
	if v != v || v <= float64(lo) {
		return lo
	}
	if v >= float64(hi) {
		return hi
	}
	return int(math.Round(v))
}

// axleLoads computes the loads at departure and after every stop, and the
// violations of the trailer's limits among them.
func axleLoads(tr Trailer, pallets []Pallet, placedIdx []int, pl []Placement, stops int) ([]AxleLoad, constraints.Violations) {
	var vs constraints.Violations
	out := make([]AxleLoad, 0, stops+1)
	loads := make([]constraints.PointLoad, 0, len(pl))
	for after := -1; after < stops; after++ {
		loads = loads[:0]
		for k, i := range placedIdx {
			p := pallets[i]
			if p.Stop > after {
				loads = append(loads, constraints.PointLoad{XMM: float64(pl[k].XMM) + float64(along(p, pl[k].Turned))/2, Kg: p.WeightKg})
			}
		}
		kp, ax := tr.Axles.Loads(loads)
		out = append(out, AxleLoad{AfterStop: after, KingpinKg: kp, AxleGroupKg: ax})
		vs = append(vs, axleLimitViolations(tr.Axles, after, kp, ax)...)
	}
	return out, vs
}

func axleLimitViolations(g constraints.AxleGeometry, after int, kp, ax float64) constraints.Violations {
	var vs constraints.Violations
	when := "at departure"
	if after >= 0 {
		when = "after stop " + strconv.Itoa(after)
	}
	const tol = 1e-6
	if kp > g.KingpinLimitKg+tol {
		vs.Add(CodeKingpin, "axles", "kingpin carries %.0f kg %s, limit %.0f kg", kp, when, g.KingpinLimitKg)
	}
	if kp < -tol {
		vs.Add(CodeKingpin, "axles", "kingpin load %.0f kg %s: the load lifts the trailer's nose", kp, when)
	}
	if ax > g.AxleGroupLimitKg+tol {
		vs.Add(CodeAxleGroup, "axles", "axle group carries %.0f kg %s, limit %.0f kg", ax, when, g.AxleGroupLimitKg)
	}
	return vs
}
