package loadplan

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan/binpack"
)

// FleetTrailer is one trailer type of a fleet and how many of it are free.
type FleetTrailer struct {
	Trailer Trailer
	Count   int
}

// FleetOptions tunes PackFleet. The zero value means the defaults.
type FleetOptions struct {
	// TimeLimit bounds the search that tries to empty trailers after the
	// first packing; 0 means DefaultFleetTimeLimit. PackFleet returns
	// earlier when it meets the lower bound or runs out of moves.
	TimeLimit time.Duration
}

// DefaultFleetTimeLimit is PackFleet's time limit when the options give none.
const DefaultFleetTimeLimit = time.Second

// TrailerLoad is one loaded trailer of a FleetPlan.
type TrailerLoad struct {
	Fleet   int      // index of the trailer's type in the fleet
	Trailer string   // the type's Trailer.ID
	Stores  []string // its stops in order: Stores[s] is stop s
	// Pallets are the pallets on board with Stop set to their store's stop;
	// Check(fleet[Fleet].Trailer, Pallets, len(Stores), Layout) accepts
	// the layout.
	Pallets []Pallet
	Layout  *Layout
}

// UnplacedPallet is a pallet PackFleet put in no trailer, and why.
type UnplacedPallet struct {
	Pallet string
	Code   string // a loadplan code: the first reason it rides on no type, CodeNoTrailer or CodeCancelled
	Reason string
}

// FleetPlan is PackFleet's answer.
type FleetPlan struct {
	Loads    []TrailerLoad
	Unplaced []UnplacedPallet
	// LowerBound is a proven lower bound on the number of trailers any
	// plan needs for the pallets in Loads: the bin-packing bounds L1 and L2
	// over floor area, floor positions, weight and volume against the
	// largest trailer of the fleet in each.
	LowerBound int
	// Optimal reports len(Loads) == LowerBound with no pallet left over for
	// want of a trailer: no plan uses fewer trailers.
	Optimal bool
}

// PackFleet puts the pallets of several stores into as few trailers of the
// fleet as it can, every trailer laid out by PlanTrailer (so temperature
// zones, equipment, positions, weight, volume, unloading order and axle
// loads hold). Each store is one stop; a trailer's stops follow the order
// in which the stores first appear in pallets, and the pallets' Stop is
// ignored. Pallets that no trailer type can carry even alone, or that find
// no room once the fleet is used up, are returned in Unplaced with the
// reason. Invalid input gives a constraints.Violations error listing every
// fault with paths "fleet[k]..." and "pallets[i]...".
//
// The first packing is first-fit: stores with the most freight first,
// each pallet into the first open trailer whose layout still succeeds, a
// new trailer (the largest type left that can take it) otherwise. Then,
// until the time limit, the lower bound or no progress, it tries to empty
// the trailer with the fewest pallets into the others. When ctx ends, the
// pallets not yet packed are returned in Unplaced with CodeCancelled and
// the error is nil: every load returned is legal.
func PackFleet(ctx context.Context, fleet []FleetTrailer, pallets []Pallet, opts FleetOptions) (*FleetPlan, error) {
	var vs constraints.Violations
	for k, ft := range fleet {
		path := constraints.Index("fleet", k)
		vs = append(vs, checkTrailer(ft.Trailer, constraints.Field(path, "trailer"))...)
		if ft.Count < 0 {
			vs.Add(CodeInvalid, constraints.Field(path, "count"), "must not be negative")
		}
	}
	flat := make([]Pallet, len(pallets))
	for i, p := range pallets {
		p.Stop = 0
		flat[i] = p
	}
	vs = append(vs, checkPallets(flat, 1)...)
	if len(vs) > 0 {
		return nil, vs
	}
	limit := opts.TimeLimit
	if limit <= 0 {
		limit = DefaultFleetTimeLimit
	}
	deadline := time.Now().Add(limit)

	f := &fleetPacker{fleet: fleet, pallets: flat, left: make([]int, len(fleet)), storeRank: map[string]int{}}
	for k, ft := range fleet {
		f.left[k] = ft.Count
	}
	for _, p := range flat {
		if _, ok := f.storeRank[p.Store]; !ok {
			f.storeRank[p.Store] = len(f.storeRank)
		}
	}
	plan := &FleetPlan{}

	// Pallets no type carries even alone.
	var todo []int
	for i, p := range flat {
		code, reason := "", ""
		for _, ft := range fleet {
			if ft.Count <= 0 {
				continue
			}
			_, err := PlanTrailer(ft.Trailer, []Pallet{p}, 1)
			if err == nil {
				code = ""
				break
			}
			if code == "" {
				if v := constraints.AsViolations(err); len(v) > 0 {
					code, reason = v[0].Code, v[0].Message
				} else {
					code, reason = CodeInvalid, err.Error()
				}
			}
		}
		if code == "" && !f.anyType() {
			code, reason = CodeNoTrailer, "the fleet has no trailer"
		}
		if code != "" {
			plan.Unplaced = append(plan.Unplaced, UnplacedPallet{Pallet: p.ID, Code: code, Reason: reason})
			continue
		}
		todo = append(todo, i)
	}

	// Stores with the most freight first, measured against the largest
	// capacity of the fleet; a store's pallets in input order.
	size := map[string]float64{}
	capW, capV := 0.0, 0.0
	for _, ft := range fleet {
		if ft.Count > 0 {
			capW, capV = math.Max(capW, ft.Trailer.PayloadKg), math.Max(capV, ft.Trailer.Volume())
		}
	}
	for _, i := range todo {
		p := flat[i]
		size[p.Store] += math.Max(p.WeightKg/math.Max(capW, 1), p.VolumeM3/math.Max(capV, 1e-9))
	}
	sort.SliceStable(todo, func(a, b int) bool {
		sa, sb := flat[todo[a]].Store, flat[todo[b]].Store
		if sa != sb && size[sa] != size[sb] {
			return size[sa] > size[sb]
		}
		return f.storeRank[sa] < f.storeRank[sb]
	})
	cancelled := false
	for _, i := range todo {
		if ctx.Err() != nil {
			cancelled = true
		}
		if cancelled {
			plan.Unplaced = append(plan.Unplaced, UnplacedPallet{Pallet: flat[i].ID, Code: CodeCancelled, Reason: "the context ended before the pallet was packed"})
			continue
		}
		if !f.place(i) {
			plan.Unplaced = append(plan.Unplaced, UnplacedPallet{Pallet: flat[i].ID, Code: CodeNoTrailer, Reason: "no trailer left in the fleet has room for it"})
		}
	}

	lb := f.lowerBound()
	// Empty the trailer with the fewest pallets into the others.
	for !cancelled && len(f.bins) > lb && ctx.Err() == nil && time.Now().Before(deadline) {
		if !f.emptyOne(ctx, deadline) {
			break
		}
		lb = f.lowerBound()
	}

	short := false
	for _, u := range plan.Unplaced {
		short = short || u.Code == CodeNoTrailer || u.Code == CodeCancelled
	}
	for _, b := range f.bins {
		ps, stores := f.withStops(b.pallets)
		plan.Loads = append(plan.Loads, TrailerLoad{Fleet: b.kind, Trailer: fleet[b.kind].Trailer.ID, Stores: stores, Pallets: ps, Layout: b.layout})
	}
	plan.LowerBound = lb
	plan.Optimal = !short && len(plan.Loads) == lb
	return plan, nil
}

// fleetPacker holds PackFleet's working state.
type fleetPacker struct {
	fleet     []FleetTrailer
	pallets   []Pallet
	left      []int // trailers of each type still free
	storeRank map[string]int
	bins      []*fleetBin
}

type fleetBin struct {
	kind    int
	pallets []int
	layout  *Layout
}

func (f *fleetPacker) anyType() bool {
	for _, ft := range f.fleet {
		if ft.Count > 0 {
			return true
		}
	}
	return false
}

// withStops returns copies of the pallets with Stop set by store, stores
// in order of first appearance in the input, and the store of each stop.
func (f *fleetPacker) withStops(idx []int) ([]Pallet, []string) {
	var stores []string
	seen := map[string]bool{}
	for _, i := range idx {
		if s := f.pallets[i].Store; !seen[s] {
			seen[s] = true
			stores = append(stores, s)
		}
	}
	sort.SliceStable(stores, func(a, b int) bool { return f.storeRank[stores[a]] < f.storeRank[stores[b]] })
	stop := make(map[string]int, len(stores))
	for s, name := range stores {
		stop[name] = s
	}
	// Input order keeps the layout independent of the packing order.
	sorted := append([]int(nil), idx...)
	sort.Ints(sorted)
	ps := make([]Pallet, len(sorted))
	for j, i := range sorted {
		ps[j] = f.pallets[i]
		ps[j].Stop = stop[ps[j].Store]
	}
	return ps, stores
}

// layout lays the pallets out on a trailer of the given type.
func (f *fleetPacker) layout(kind int, idx []int) (*Layout, bool) {
	ps, stores := f.withStops(idx)
	lay, err := PlanTrailer(f.fleet[kind].Trailer, ps, len(stores))
	return lay, err == nil
}

// place puts pallet i into the first open trailer that takes it, or opens
// the largest free type that does.
func (f *fleetPacker) place(i int) bool {
	for _, b := range f.bins {
		if lay, ok := f.layout(b.kind, append(append([]int(nil), b.pallets...), i)); ok {
			b.pallets, b.layout = append(b.pallets, i), lay
			return true
		}
	}
	kinds := make([]int, 0, len(f.fleet))
	for k := range f.fleet {
		if f.left[k] > 0 {
			kinds = append(kinds, k)
		}
	}
	sort.SliceStable(kinds, func(a, b int) bool { return f.larger(kinds[a], kinds[b]) })
	for _, k := range kinds {
		if lay, ok := f.layout(k, []int{i}); ok {
			f.left[k]--
			f.bins = append(f.bins, &fleetBin{kind: k, pallets: []int{i}, layout: lay})
			return true
		}
	}
	return false
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

// emptyOne tries to move every pallet of the least loaded trailer into the
// others; it keeps the move only if all of them find room.
func (f *fleetPacker) emptyOne(ctx context.Context, deadline time.Time) bool {
	order := make([]int, len(f.bins))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return len(f.bins[order[a]].pallets) < len(f.bins[order[b]].pallets) })
	for _, victim := range order {
		if ctx.Err() != nil || time.Now().After(deadline) {
			return false
		}
		trial := make([]*fleetBin, 0, len(f.bins)-1)
		for j, b := range f.bins {
			if j != victim {
				c := *b
				c.pallets = append([]int(nil), b.pallets...)
				trial = append(trial, &c)
			}
		}
		ok := true
		for _, i := range f.bins[victim].pallets {
			if ctx.Err() != nil || time.Now().After(deadline) {
				return false
			}
			moved := false
			for _, b := range trial {
				if lay, fits := f.layout(b.kind, append(append([]int(nil), b.pallets...), i)); fits {
					b.pallets, b.layout, moved = append(b.pallets, i), lay, true
					break
				}
			}
			if !moved {
				ok = false
				break
			}
		}
		if ok {
			f.left[f.bins[victim].kind]++
			f.bins = trial
			return true
		}
	}
	return false
}

// lowerBound bounds the number of trailers the packed pallets need.
func (f *fleetPacker) lowerBound() int {
	var packed []Pallet
	for _, b := range f.bins {
		for _, i := range b.pallets {
			packed = append(packed, f.pallets[i])
		}
	}
	return FleetLowerBound(f.fleet, packed)
}

// FleetLowerBound returns a proven lower bound on the number of trailers
// of the fleet that any plan needs to carry all the pallets, each trailer
// used once: binpack's L1 and L2 in four dimensions against the largest
// free trailer of the fleet in each (floor area, floor positions when
// every type states them, weight and volume). A pallet that may be stacked
// might ride on another one, so it counts no floor. Sizes round down and
// capacities up, so the integer problem is a relaxation. The same bound
// over the pallets of one temperature class, against the types that carry
// that class, also holds, and the best of them is returned. It is 0 for no
// pallets; pallets of a class no free type carries count in no bound.
func FleetLowerBound(fleet []FleetTrailer, pallets []Pallet) int {
	best := boundOf(fleet, pallets, func(Trailer) bool { return true })
	for _, c := range constraints.Temperatures {
		var of []Pallet
		for _, p := range pallets {
			if p.Temperature == c {
				of = append(of, p)
			}
		}
		best = max(best, boundOf(fleet, of, func(t Trailer) bool { return t.Equipment.Carries(c) }))
	}
	return best
}

// boundOf is FleetLowerBound's bound for the given pallets against the
// fleet's free types that usable accepts.
func boundOf(fleet []FleetTrailer, pallets []Pallet, usable func(Trailer) bool) int {
	var capA, capP, capW, capV int64
	allPositions, types := true, 0
	for _, ft := range fleet {
		if ft.Count <= 0 || !usable(ft.Trailer) {
			continue
		}
		types++
		t := ft.Trailer
		capA = max(capA, int64(t.LengthMM)*int64(t.WidthMM))
		capP = max(capP, int64(t.Positions))
		capW = max(capW, int64(math.Ceil(t.PayloadKg)))
		capV = max(capV, int64(math.Ceil(t.Volume()*1000)))
		allPositions = allPositions && t.Positions > 0
	}
	if len(pallets) == 0 || types == 0 {
		return 0
	}
	prob := binpack.Problem{Capacity: []int64{max(capA, 1), max(capW, 1), max(capV, 1)}}
	if allPositions {
		prob.Capacity = append(prob.Capacity, max(capP, 1))
	}
	for _, p := range pallets {
		area, pos := int64(p.LengthMM)*int64(p.WidthMM), int64(1)
		if p.MayBeStacked {
			area, pos = 0, 0
		}
		s := []int64{area, int64(math.Floor(p.WeightKg)), int64(math.Floor(p.VolumeM3 * 1000))}
		if allPositions {
			s = append(s, pos)
		}
		// A pallet bigger than every trailer rides on none; clamping keeps
		// the relaxation valid for the others.
		for d := range s {
			s[d] = min(max(s[d], 0), prob.Capacity[d])
		}
		prob.Sizes = append(prob.Sizes, s)
	}
	return max(1, binpack.L1(prob), binpack.L2(prob))
}
