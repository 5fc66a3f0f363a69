package loadplan

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// fleetPacker holds PackFleet's input in the form its phases share, and the
// memory of layouts already computed.
type fleetPacker struct {
	ctx          context.Context
	end          limit // of the whole call
	fleet        []FleetTrailer
	pallets      []Pallet
	storeRank    map[string]int
	rank         []int    // store rank of each pallet
	allowed      [][]bool // allowed[i][k]: pallet i alone lays out on type k
	bySize       []int    // types, largest first
	byPreference []int    // types, most preferred first
	memo         map[string]*Layout
	key          []byte
	calls        int // PlanTrailer calls, for tests and tuning
}

// newFleetPacker ranks the stores by first appearance and orders the
// types by size and by preference; the search ends at deadline.
func newFleetPacker(ctx context.Context, fleet []FleetTrailer, pallets []Pallet, deadline time.Time) *fleetPacker {
	f := &fleetPacker{ctx: ctx, end: limit{at: deadline, layouts: math.MaxInt}, fleet: fleet, pallets: pallets, storeRank: map[string]int{},
		rank: make([]int, len(pallets)), allowed: make([][]bool, len(pallets)), memo: map[string]*Layout{}}
	for i, p := range pallets {
		r, ok := f.storeRank[p.Store]
		if !ok {
			r = len(f.storeRank)
			f.storeRank[p.Store] = r
		}
		f.rank[i] = r
	}
	for k := range fleet {
		f.bySize = append(f.bySize, k)
	}
	sort.SliceStable(f.bySize, func(a, b int) bool { return f.larger(f.bySize[a], f.bySize[b]) })
	f.byPreference = append([]int(nil), f.bySize...)
	sort.SliceStable(f.byPreference, func(a, b int) bool { return f.preferred(f.byPreference[a], f.byPreference[b]) })
	return f
}

// screen records which types can carry each pallet alone and puts the
// pallets no free type carries into plan.Unplaced with the first reason;
// it returns the others.
func (f *fleetPacker) screen(plan *FleetPlan) []int {
	anyType := false
	for _, ft := range f.fleet {
		anyType = anyType || ft.Count > 0
	}
	var todo []int
	for i, p := range f.pallets {
		f.allowed[i] = make([]bool, len(f.fleet))
		code, reason, ok := "", "", false
		for k, ft := range f.fleet {
			if ft.Count <= 0 {
				continue
			}
			_, err := PlanTrailer(ft.Trailer, []Pallet{p}, 1)
			if err == nil {
				f.allowed[i][k], ok = true, true
				continue
			}
			if code == "" {
				if v := constraints.AsViolations(err); len(v) > 0 {
					code, reason = v[0].Code, v[0].Message
				} else {
					code, reason = CodeInvalid, err.Error()
				}
			}
		}
		switch {
		case !anyType:
			plan.Unplaced = append(plan.Unplaced, UnplacedPallet{Pallet: p.ID, Code: CodeNoTrailer, Reason: "the fleet has no trailer"})
		case !ok:
			plan.Unplaced = append(plan.Unplaced, UnplacedPallet{Pallet: p.ID, Code: code, Reason: reason})
		default:
			todo = append(todo, i)
		}
	}
	return todo
}

// storeOrder sorts pallets by store, the stores with the most freight
// (against the largest capacity of the fleet) first, a store's pallets
// colder classes first, each class in input order.
func (f *fleetPacker) storeOrder(idx []int) []int {
	capW, capV := 0.0, 0.0
	for _, ft := range f.fleet {
		if ft.Count > 0 {
			capW, capV = math.Max(capW, ft.Trailer.PayloadKg), math.Max(capV, ft.Trailer.Volume())
		}
	}
	size := map[string]float64{}
	for _, i := range idx {
		p := f.pallets[i]
		size[p.Store] += math.Max(p.WeightKg/math.Max(capW, 1), p.VolumeM3/math.Max(capV, 1e-9))
	}
	out := append([]int(nil), idx...)
	sort.SliceStable(out, func(a, b int) bool {
		sa, sb := f.pallets[out[a]].Store, f.pallets[out[b]].Store
		if sa != sb && size[sa] != size[sb] {
			return size[sa] > size[sb]
		}
		if ra, rb := f.rank[out[a]], f.rank[out[b]]; ra != rb {
			return ra < rb
		}
		return f.pallets[out[a]].Temperature > f.pallets[out[b]].Temperature
	})
	return out
}

// larger orders trailer types by floor area, then payload, then volume.
func (f *fleetPacker) larger(a, b int) bool {
	ta, tb := f.fleet[a].Trailer, f.fleet[b].Trailer
	if aa, ab := ta.LengthMM*ta.WidthMM, tb.LengthMM*tb.WidthMM; aa != ab {
		return aa > ab
	}
	if ta.PayloadKg != tb.PayloadKg {
		return ta.PayloadKg > tb.PayloadKg
	}
	return ta.Volume() > tb.Volume()
}
