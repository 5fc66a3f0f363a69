package routeplan

import (
	"math"
	"slices"
	"sync/atomic"

	"github.com/haulplan/haulplan/geo"
)

// instance is the solver's read-only view of a validated Problem, with the
// lookups the search needs precomputed.
type instance struct {
	p      *Problem
	n      int
	dist   []float64
	dur    []float64
	matrix Legs // when set, read instead of dist and dur (see legs.go)
	// rush times the legs of the simulation when it has slow intervals
	// (Problem.Rush); bounds keep the free-flow legs of dur and matrix.
	rush geo.SlowTimeline
	// sites are the Problem's sites, then the reloads (see trips.go):
	// nSites of the first kind.
	sites  []Site
	nSites int
	// reloadClass is each type's class of reloads, -1 for a type of one
	// trip; reloads, reloadTypes and reloadPool are each class's reloads
	// (site indices), types and pool size.
	reloadClass []int
	// relaxedStart is each type's start windows as bounds read them
	// (see tripstart.go).
	relaxedStart [][]Window
	reloads      [][]int
	reloadTypes  [][]int
	reloadPool   []int
	types        []VehicleType
	dims         int
	allowed      [][]bool // allowed[site][type]
	// value is each site's Value, 0 read as 1; uniform is true when they
	// are all equal, so that the search need not favour any site.
	value   []float64
	uniform bool
	// usable is false for a type that can never drive: no vehicle, or a
	// resource it needs has none.
	usable []bool
	// twin[t] is the lowest type whose routes are evaluated exactly as
	// t's (same locations, shift, capacity, rules and costs; only the ID,
	// count, resources and the sites allowed may differ), so that routes
	// of one site are evaluated once per twin class.
	twin []int
	// newRouteTypes lists, per servable site, the types that can serve it on a
	// route of its own, cheapest first (see newroute.go).
	newRouteTypes [][]int32
	// newRouteCost is the distance and cost of those routes.
	newRouteCost [][]routeCost
	// stop holds each site's StopService; nil when no site has any.
	stop []float64
	// exact is true (the Solomon case) when every site has at most one window, no
	// rush hours slow travel, and no type has a break rule, a duty or driving limit, a time cost, a start service
	// or a group limit: then a route's earliest departures and latest
	// starts decide every inter-route move in constant time (see solomon.go).
	exact bool
	// wholeTimes is true when every time the simulation adds up is a
	// whole number small enough that sums of them stay exact in a
	// float64: durations (of the Problem's matrix, without rush hours),
	// windows, service, stop service, shift, start windows, start service
	// (with whole loads), the break rule; no trip loading and no timed
	// resource. Then the simulation's times carry no rounding, which the
	// departure search's slack-free shortcut relies on (see
	// slackFreeDeparture). It is false in the Solomon case.
	wholeTimes bool
	// symmetric is true when both matrices are symmetric. Then distTo
	// and durTo read the leg a→b as b→a, in row b: toCol is 1 and toRow
	// the row length; otherwise toCol is the row length and toRow 1.
	symmetric    bool
	toCol, toRow int
	// price holds what bounds read of each type, kept small and together:
	// a bound runs for nearly every candidate move.
	price []typePrice
	// hierarchical is true under the fewest-vehicles objectives
	// (Hierarchical, FewestTrips); tripsRanked under FewestTrips when a
	// route may drive several trips: a route then counts its trips;
	// tripsSecond under Hierarchical with such routes: their trips come
	// right after the routes. countTrips is either.
	hierarchical, tripsRanked, tripsSecond, countTrips bool
	// oneRoute is what a route of one trip counts under them.
	oneRoute int
	// timedOf lists, per type, the Timed resources it takes; anyTimed says
	// that some type takes one (see timed_resources.go).
	timedOf  [][]int
	anyTimed bool
	// loadingHeld says that some type takes a Timed resource held over
	// loadings (a dock door: see free_runs.go).
	loadingHeld bool
	// noReach turns off the tests that rule out loadings no door can
	// reach in time (loading_reach.go), for a test that compares.
	noReach bool
	// stamps numbers the contents of routes (route.stamp), for all the
	// streams that share the instance.
	stamps atomic.Uint64
	// oneFree says that distancesOne of a known join is
	// distancesOneFree: outside the Solomon case, on the matrices of the
	// Problem, with trips not counted.
	oneFree bool
	// oneExact says that distancesOne of a join is distancesOneExact:
	// in the Solomon case, on the matrices of the Problem.
	oneExact bool
	// capLimit is, per type and dimension, the capacity plus the
	// rounding a bound allows; loadRead says, per type, whether bounds
	// read a route's load beyond the capacity (readLoads).
	capLimit [][]float64
	loadRead []bool
	// oneLoad says that loads have one dimension and routes one trip: a
	// join's load is then three reads of the routes' prefix loads (see
	// twoOptStar).
	oneLoad bool
}

// readLoads fills capLimit and loadRead: per type, the most a bound lets
// a candidate load, and whether a bound of a route of that type reads its
// load beyond the capacity, for a loading time per unit, a group limit,
// trips loaded ahead or the trips of a route (see join.fits).
func (in *instance) readLoads() {
	in.loadRead = make([]bool, len(in.types))
	in.capLimit = make([][]float64, len(in.types))
	for t := range in.types {
		vt := &in.types[t]
		in.capLimit[t] = make([]float64, in.dims)
		for x := range in.capLimit[t] {
			c := vt.Capacity[x]
			in.capLimit[t][x] = c + 1e-9*(1+math.Abs(c))
		}
		in.loadRead[t] = vt.MaxGroups > 0 || vt.Loading != nil || len(in.reloads) > 0
		for _, u := range vt.StartServicePerUnit {
			in.loadRead[t] = in.loadRead[t] || u != 0
		}
	}
}

// typePrice is the cost terms of a vehicle type and its start service.
type typePrice struct {
	fixed, perDist, perTime, startService float64
}

func newInstance(p *Problem) *instance {
	return newInstanceUnless(p, func() bool { return false })
}

// newInstanceUnless is newInstance that gives up, returning nil, when stop
// says so: reading a matrix of thousands of locations takes a second.
func newInstanceUnless(p *Problem, stop func() bool) *instance {
	in := &instance{p: p, n: p.N, dist: p.Distance, dur: p.Duration, matrix: p.Legs, rush: p.Rush, sites: foldServicePerUnit(p.Sites), types: p.VehicleTypes}
	if len(p.VehicleTypes) > 0 {
		in.dims = len(p.VehicleTypes[0].Capacity)
	}
	for i := range p.Sites {
		if p.Sites[i].StopService > 0 {
			in.stop = make([]float64, len(p.Sites))
			for j := range p.Sites {
				in.stop[j] = p.Sites[j].StopService
			}
			break
		}
	}
	// The stop's share depends on the neighbours, and under rush hours a
	// leg's time depends on when it starts: neither is the Solomon case.
	in.exact = in.stop == nil && p.Rush.Len() == 0
	in.readSites()
	in.readTypes()
	in.readTimed()
	in.relaxStartWindows()
	in.addReloads()
	in.readLoads()
	// The Solomon case seldom searches a departure (it has no time
	// cost): its shortcut is not worth reading the matrix for.
	in.wholeTimes = !in.exact && in.timesWhole()
	symmetric, ok := in.symmetricLegs(stop)
	if !ok {
		return nil
	}
	in.symmetric = symmetric
	in.toCol, in.toRow = in.n, 1
	if symmetric {
		in.toCol, in.toRow = 1, in.n
	}
	in.hierarchical = p.Objective == Hierarchical || p.Objective == FewestTrips
	in.tripsRanked = p.Objective == FewestTrips && len(in.reloads) > 0
	in.tripsSecond = p.Objective == Hierarchical && len(in.reloads) > 0
	in.countTrips = in.tripsRanked || in.tripsSecond
	in.oneFree = !in.exact && in.matrix == nil && !in.countTrips
	in.oneLoad = in.dims == 1 && len(in.reloads) == 0
	in.oneExact = in.exact && in.matrix == nil
	in.oneRoute = 1 // a route of one trip
	if in.tripsSecond {
		in.oneRoute = tripsScale + 1
	}
	return in
}

// timesWhole reports whether the instance's times are whole (see
// instance.wholeTimes); it reads every duration of the matrix once.
func (in *instance) timesWhole() bool {
	// Timed resources hold trips back to times of their own (see
	// holdback.go): not read here, so not taken as whole.
	if in.matrix != nil || in.rush.Len() > 0 || in.anyTimed {
		return false
	}
	windows := func(ws []Window) bool {
		for _, w := range ws {
			if !whole(w.Start) || !whole(w.End) {
				return false
			}
		}
		return true
	}
	for i := range in.sites {
		s := &in.sites[i]
		if !whole(s.Service) || !windows(s.Windows) {
			return false
		}
		for _, d := range s.Demand {
			if !whole(d) {
				return false
			}
		}
	}
	for _, x := range in.stop {
		if !whole(x) {
			return false
		}
	}
	// A start service per unit times any load stays whole and small.
	total := make([]float64, in.dims)
	for i := range in.sites {
		for k, d := range in.sites[i].Demand {
			if k < len(total) {
				total[k] += d
			}
		}
	}
	for t := range in.types {
		vt := &in.types[t]
		if vt.Loading != nil || !windows(vt.StartWindows) || !whole(vt.ShiftStart) || !whole(vt.ShiftEnd) ||
			!whole(vt.StartService) || !whole(vt.BreakAfter) || !whole(vt.BreakDuration) {
			return false
		}
		for k, u := range vt.StartServicePerUnit {
			if !whole(u) || (k < len(total) && !whole(u*total[k])) {
				return false
			}
		}
	}
	for _, x := range in.dur {
		if !whole(x) {
			return false
		}
	}
	return true
}

// whole reports whether x is a whole number of magnitude at most 2^32:
// sums and differences of up to 2^20 such numbers stay below 2^53, exact.
// (Within that range the conversion to an integer and back is exact for
// whole numbers only; NaN and the infinities fail the first test.)
func whole(x float64) bool {
	return math.Abs(x) <= 1<<32 && x == float64(int64(x))
}

// foldServicePerUnit returns sites with the per-unit part of the service
// folded into Service, since the search reads Site.Service as the whole
// service time: on a copy, so that the caller's Problem stays as it is.
func foldServicePerUnit(sites []Site) []Site {
	for i := range sites {
		if len(sites[i].ServicePerUnit) > 0 {
			folded := append([]Site(nil), sites...)
			for j := range folded {
				folded[j].Service = folded[j].ServiceTime()
				folded[j].ServicePerUnit = nil
			}
			return folded
		}
	}
	return sites
}

// readSites fills the types each site allows and its value, and clears
// exact when a site has several windows.
func (in *instance) readSites() {
	sites, nTypes := in.p.Sites, len(in.p.VehicleTypes)
	in.allowed = make([][]bool, len(sites))
	in.value = make([]float64, len(sites))
	in.uniform = true
	for i := range sites {
		a := make([]bool, nTypes)
		if sites[i].VehicleTypes == nil {
			for t := range a {
				a[t] = true
			}
		} else {
			for _, t := range sites[i].VehicleTypes {
				a[t] = true
			}
		}
		in.allowed[i] = a
		if len(sites[i].Windows) > 1 {
			in.exact = false
		}
		in.value[i] = sites[i].Value
		if in.value[i] == 0 {
			in.value[i] = 1
		}
		in.uniform = in.uniform && in.value[i] == in.value[0]
	}
}

// readTypes fills which types can drive, their twins and prices, and
// clears exact when a type has a rule beyond the Solomon case.
func (in *instance) readTypes() {
	types := in.p.VehicleTypes
	in.usable = make([]bool, len(types))
	in.twin = make([]int, len(types))
	in.price = make([]typePrice, len(types))
	for t := range types {
		vt := &types[t]
		if vt.BreakAfter > 0 || vt.MaxDuty > 0 || vt.MaxDriving > 0 || vt.TimeCost > 0 || vt.MaxGroups > 0 || hasStartService(vt) || vt.trips() > 1 {
			in.exact = false
		}
		in.usable[t] = vt.Count > 0
		for _, r := range vt.Resources {
			in.usable[t] = in.usable[t] && in.p.Resources[r].Count > 0
		}
		in.twin[t] = t
		for u := 0; u < t; u++ {
			if in.twin[u] == u && sameRoutes(vt, &types[u]) {
				in.twin[t] = u
				break
			}
		}
		// A route drives one trip at least: its bound counts one.
		in.price[t] = typePrice{vt.FixedCost + vt.TripCost, vt.DistanceCost, vt.TimeCost, vt.StartService}
	}
}

// hasStartService reports whether routes of vt work at the depot before
// departure or may only begin inside windows.
func hasStartService(vt *VehicleType) bool {
	if vt.StartService > 0 || len(vt.StartWindows) > 0 || vt.Loading != nil {
		return true
	}
	for _, u := range vt.StartServicePerUnit {
		if u > 0 {
			return true
		}
	}
	return false
}

// sameRoutes reports whether every route has the same schedule, cost and
// feasibility (sites allowed aside) on types a and b.
func sameRoutes(a, b *VehicleType) bool {
	if !slices.Equal(a.Capacity, b.Capacity) || !slices.Equal(a.StartServicePerUnit, b.StartServicePerUnit) || !slices.Equal(a.StartWindows, b.StartWindows) {
		return false
	}
	return a.StartLocation == b.StartLocation && a.EndLocation == b.EndLocation &&
		a.ShiftStart == b.ShiftStart && a.ShiftEnd == b.ShiftEnd && a.StartService == b.StartService &&
		a.MaxDuty == b.MaxDuty && a.MaxDriving == b.MaxDriving && a.BreakAfter == b.BreakAfter &&
		a.BreakDuration == b.BreakDuration && a.FixedCost == b.FixedCost && a.TripCost == b.TripCost && a.DistanceCost == b.DistanceCost &&
		a.TimeCost == b.TimeCost && a.MaxGroups == b.MaxGroups && a.trips() == b.trips() && sameLoading(a.Loading, b.Loading)
}

// earliestIn returns the earliest time not before t inside one of ws (sorted),
// the end of that window, and false when every window has closed. An empty
// list imposes nothing. Whether t waits for the window to open is as good
// as random to the processor, so it is a max, which has no branch (times
// are never −0, where it would differ from testing t < w.Start).
func earliestIn(ws []Window, t float64) (start, end float64, ok bool) {
	for _, w := range ws {
		if !(t > w.End) { // as t <= w.End, and a NaN t goes on as it did
			return max(t, w.Start), w.End, true
		}
	}
	if len(ws) == 0 {
		return t, inf, true
	}
	return 0, 0, false
}

// latestIn returns the latest time not after t inside one of ws (sorted),
// and false when no window has opened by t. An empty list imposes nothing.
func latestIn(ws []Window, t float64) (float64, bool) {
	if len(ws) == 0 {
		return t, true
	}
	for k := len(ws) - 1; k >= 0; k-- {
		if w := ws[k]; w.Start <= t {
			return min(t, w.End), true
		}
	}
	return 0, false
}
