package loadplan

import (
	"context"
	"sort"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// FleetTrailer is one trailer type of a fleet and how many of it are free.
type FleetTrailer struct {
	Trailer Trailer
	Count   int
}

// FleetOptions tunes PackFleet. The zero value means the defaults.
type FleetOptions struct {
	// TimeLimit bounds the whole call, except that the first packing
	// (first-fit, a few milliseconds for hundreds of pallets) always
	// completes; 0 means DefaultFleetTimeLimit. PackFleet returns earlier
	// when it meets the lower bound or no move improves the plan, which
	// on most inputs is well before the limit.
	TimeLimit time.Duration
	// MaxLayouts, when positive, bounds the layouts (PlanTrailer calls)
	// the search may make after the first packing, and the phases share
	// it instead of the time: the plan then depends on the input, the
	// seed and this budget alone, on any machine, as long as TimeLimit
	// does not end the call first.
	MaxLayouts int
	// Seed drives the randomised orders of the binpack-guided packing and
	// binpack.Solve (whose search has a fixed move budget). The same
	// input, options and seed give the same plan unless the time limit or
	// ctx cuts a search short.
	Seed uint64
}

// DefaultFleetTimeLimit is PackFleet's time limit when the options give none.
const DefaultFleetTimeLimit = time.Second

// TrailerLoad is one loaded trailer of a FleetPlan.
type TrailerLoad struct {
	Fleet   int      // index of the trailer's type in the fleet
	Trailer string   // the type's Trailer.ID
	Stores  []string // its stops in order: Stores[s] is stop s
	// Pallets are the pallets on board with Stop set to their store's stop;
	// Validate(fleet[Fleet].Trailer, Pallets, len(Stores), Layout) accepts
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
	// LowerBound is FleetLowerBound of the pallets in Loads: a proven
	// lower bound on the number of trailers any plan needs for them.
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
// The plan is the best, by pallets left without a trailer, then trailers,
// then stops summed over the trailers, of two packings, each improved
// (the second is built only when the first misses the bound, and the
// better start is improved first):
//
//   - first-fit in store order: stores with the most freight first, a
//     store's pallets of one class into the first open trailer that takes
//     them all, or else each into the first open trailer that takes it, a
//     new trailer (the most preferred type left that can take it, see
//     below) otherwise;
//   - guided by binpack: per temperature class, colder first, a vector bin
//     packing (floor positions, floor length, weight, volume, as estimated
//     for the most preferred type that carries the class) whose bins are
//     the free trailers that carry it, most preferred first, each with its
//     own capacity: the pallets spread over the fewest of them that can
//     hold them (largest first, each into the bin with the most room,
//     keeping stores together where it can; in several orders until every
//     bin lays out), or where no count works, binpack.Solve's packing,
//     spread again over fewer bins where that fits. Each bin becomes a
//     trailer of a type it lays out on, the most
//     constrained bins first and each on the least versatile, largest type
//     that takes it (dry vans before reefers before multi-temperature ones),
//     so smaller types serve the bins that fit them when the large ones run
//     short. A bin that lays out on no free type keeps the longest run of
//     its pallets that does, and the rest are first-fitted as above.
//
// The improvement phase then, until it meets the lower bound (or a second
// one, not reported: the fewest trailers, counted from the largest free
// one, whose payload, volume and floor positions suffice), the time
// limit, ctx or no move helps: merges two trailers into one of any free
// type (a multi-temperature reefer can take a frozen and a chilled one),
// empties a trailer into the others, shifts pallets from the least loaded
// trailer to fuller ones; and, with a third of the time kept for it, moves
// a store's pallets to a trailer that already visits it, or swaps them
// there with another store's, whenever that saves a stop. Stores are kept
// together in this second sense only: the trailer count comes first, and
// a store is split over two trailers when that saves one.
//
// Every move is checked by cheap necessary conditions (equipment and zone
// count, payload, volume, floor positions, floor area) before any layout,
// and layouts are remembered per trailer type and pallet set. The result
// is deterministic for the same input and Seed unless the time limit (or
// the shares of it the phases get) cuts a search short; with
// FleetOptions.MaxLayouts the phases share a count of layouts instead, so
// only TimeLimit itself can.
// When ctx ends during the first packing, the pallets not yet packed are
// returned in Unplaced with CodeCancelled and the error is nil; when it
// ends later, the best complete plan so far is returned. Every load
// returned is legal.
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
	f := newFleetPacker(ctx, fleet, flat, time.Now().Add(limit))
	plan := &FleetPlan{}
	todo := f.screen(plan)

	// The store-order first-fit is the baseline every other packing must
	// beat, and the answer if ctx ends before it is complete.
	order := f.storeOrder(todo)
	a, done := f.firstFit(order)
	if opts.MaxLayouts > 0 {
		// Clamped far beyond any run, so the shares cannot overflow.
		f.end.layouts = f.calls + min(opts.MaxLayouts, 1<<40)
	}
	for _, i := range order[done:] {
		plan.Unplaced = append(plan.Unplaced, UnplacedPallet{Pallet: flat[i].ID, Code: CodeCancelled, Reason: "the context ended before the pallet was packed"})
	}
	best := a
	atBound := func(s *packing) bool { return len(s.noRoom) == 0 && len(s.loads) <= f.stopBound(s) }
	if done == len(todo) {
		cands := []*packing{a}
		if !atBound(a) && !f.stopped(f.end) {
			if b, ok := f.binpackFirst(todo, f.share(f.end, 1, 8), opts.Seed); ok {
				cands = append(cands, b)
			}
		}
		// The better start gets two thirds of the time (all of it if the
		// other leaves more pallets without room); the other one only runs
		// if the first misses the bound.
		sort.SliceStable(cands, func(x, y int) bool { return f.better(cands[x], cands[y]) })
		if len(cands) > 1 && len(cands[1].noRoom) > len(cands[0].noRoom) {
			cands = cands[:1] // it would have to free trailers to win
		}
		for n, c := range cands {
			until := f.end
			if n+1 < len(cands) {
				until = f.share(f.end, 2, 3)
			}
			f.improve(c, until)
			if n == 0 || f.better(c, best) {
				best = c
			}
			if atBound(best) {
				break
			}
		}
	}
	f.finish(plan, best)
	return plan, nil
}

// finish writes packing s into plan: its loads, its pallets without room,
// the bound and whether it is met.
func (f *fleetPacker) finish(plan *FleetPlan, s *packing) {
	for _, i := range s.noRoom {
		plan.Unplaced = append(plan.Unplaced, UnplacedPallet{Pallet: f.pallets[i].ID, Code: CodeNoTrailer, Reason: "no trailer left in the fleet has room for it"})
	}
	short := false
	for _, u := range plan.Unplaced {
		short = short || u.Code == CodeNoTrailer || u.Code == CodeCancelled
	}
	for _, l := range s.loads {
		ps, stores := f.withStops(l.pallets)
		plan.Loads = append(plan.Loads, TrailerLoad{Fleet: l.kind, Trailer: f.fleet[l.kind].Trailer.ID, Stores: stores, Pallets: ps, Layout: l.layout})
	}
	plan.LowerBound = f.lowerBound(s)
	plan.Optimal = !short && len(plan.Loads) == plan.LowerBound
}
