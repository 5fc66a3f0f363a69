package engine

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// fleetBounds are the plan metrics ShiftsLowerBound and
// TrailerUnitsLowerBound.
type fleetBounds struct {
	shifts, trailerUnits int
}

// fleetLowerBounds returns proven lower bounds on the driver shifts and on
// the trailer units that any plan Validate accepts needs to deliver the
// pallets idx (indices into req.Pallets): the pallets a plan delivers, so
// that the bounds hold for that plan whatever it leaves unassigned. trips
// is trailersLowerBound(req, idx), a lower bound on the plan's trips.
//
// Travel is req.Travel's, or with Options.Matrix or RoadMatrix set the matrix mx, in
// which place p (0 the DC, 1+i store i) is row rowOf(p); see dcRoundTrips.
// It reads the request alone: the planner reports the bounds, and
// Validate recomputes them from the plan's delivered pallets.
//
// The proofs rest on these rules of a legal plan (Validate's):
//
//   - a trip's times run LoadingStart ≤ LoadingEnd ≤ Start ≤ Depart, then
//     its legs and stops one after the other to its Return: LoadingEnd −
//     LoadingStart ≥ DC.LoadingTime(its pallets), Depart − Start ≥ the hook
//     time, each leg takes its travel time, and a stop lasts at least its
//     store's unloading of the stop's pallets (each stop one or more),
//     starting inside the store's receiving hours;
//   - a shift's trips run one after another, each inside the shift, on one
//     duty of at most MaxDuty and MaxDriving (ShiftLimits), and at most
//     MaxTrips of them when it is set;
//   - a trailer unit's trips never overlap from LoadingStart to Return plus
//     the turnaround, and loading starts inside the dock hours;
//   - a trip takes one trailer of a type with units, that carries the
//     classes of its pallets together (a dry van AMBIENT only, a reefer
//     one class, a multi-temperature reefer as many as its zones) and is
//     no longer than its stores allow, and
//     its pallets fit that trailer (positions, payload and volume, the
//     last two to a relative 1e-9).
//
// shiftsBound and unitsBound give the bounds and their proofs.
func fleetLowerBounds(req *Request, idx []int, trips int, mx *geo.Matrix, rowOf func(place int) int) fleetBounds {
	if len(idx) == 0 || len(req.Shifts) == 0 {
		return fleetBounds{}
	}
	d := newDayDemand(req, idx, mx, rowOf)
	w := tripWork{driving: d.drivingBound(trips), unloading: d.unloadingBound()}
	return fleetBounds{shifts: d.shiftsBound(trips, w), trailerUnits: d.unitsBound(trips, w)}
}

// tripWork bounds from below the driving (drivingBound) and the
// unloading (unloadingBound) of all the trips of a day together, which
// both the shift and the unit bounds count.
type tripWork struct {
	driving, unloading time.Duration
}

// shareScale is one whole trailer in the fixed-point shares of a trailer
// that storeDemand holds: sums of shares are exact integers.
const shareScale = 1_000_000_000

// storeDemand is what the bounds need of one store that receives pallets:
// its round trip, its receiving hours, and its pallets' shares of a
// trailer in each of three dimensions.
type storeDemand struct {
	store int
	// out and back bound the driving from the DC to the store and from
	// the store back, by any way a trip can take (dcRoundTrips).
	out, back time.Duration
	pallets   int
	// shares sums, over the store's pallets, share(p) = size(p)/cap(p) in
	// shareScale units, rounded down, for floor positions, weight and
	// volume (palletShares): every trip carries at most one trailer's
	// worth, shareScale, in each dimension.
	shares [3]int64
	// most is the largest share of one of its pallets, in each
	// dimension.
	most [3]int64
	// classes says which temperature classes its pallets are of;
	// multiShares, by class, the shares of its pallets of the class of
	// the largest multi-class trailer it may take (palletSharesOn with
	// multiClass), and onMulti whether one carries the class.
	classes     [3]bool
	multiShares [3][3]int64
	onMulti     [3]bool
}

// dayDemand is what the delivered pallets ask of the fleet: the stores in
// index order, and the horizon of the shifts.
type dayDemand struct {
	req      *Request
	stores   []storeDemand
	pallets  int
	from, to time.Time // the earliest shift start, the latest shift end
	// legOut and legBack are at least the driving of any direct leg from
	// the DC to a store of the day and from one back (dcLegs).
	legOut, legBack time.Duration
	// banded holds what bandedDrivingBound needs on req.Travel with
	// speed bands; nil otherwise.
	banded *bandedDriving
	// mostPallets is the most of the pallets one trip can carry
	// (mostTripPallets).
	mostPallets int
}

func newDayDemand(req *Request, idx []int, mx *geo.Matrix, rowOf func(int) int) *dayDemand {
	d := &dayDemand{req: req, pallets: len(idx), mostPallets: mostTripPallets(req, idx)}
	for i, s := range req.Shifts {
		if i == 0 || s.Start.Before(d.from) {
			d.from = s.Start
		}
		if i == 0 || s.End.After(d.to) {
			d.to = s.End
		}
	}
	storeOf := make(map[string]int, len(req.Stores))
	for i, s := range req.Stores {
		storeOf[s.ID] = i
	}
	at := map[int]int{} // store → index in d.stores
	for _, pi := range idx {
		p := req.Pallets[pi]
		s, ok := storeOf[p.Store]
		if !ok {
			continue
		}
		k, seen := at[s]
		if !seen {
			k = len(d.stores)
			at[s] = k
			d.stores = append(d.stores, storeDemand{store: s})
		}
		sd := &d.stores[k]
		sd.pallets++
		for dim, v := range palletShares(req, &p, req.Stores[s].MaxTrailerLengthMM) {
			sd.shares[dim] += v
			sd.most[dim] = max(sd.most[dim], v)
		}
		if c := p.Temperature; c.Valid() {
			sd.classes[c] = true
			shares, ok := palletSharesOn(req, &p, req.Stores[s].MaxTrailerLengthMM, multiClass)
			sd.onMulti[c] = ok
			for dim, v := range shares {
				sd.multiShares[c][dim] += v
			}
		}
	}
	slices.SortFunc(d.stores, func(a, b storeDemand) int { return cmp.Compare(a.store, b.store) })
	places := make([]int, len(d.stores))
	for k, sd := range d.stores {
		places[k] = 1 + sd.store
	}
	out, back := dcRoundTrips(req, places, mx, rowOf)
	for k := range d.stores {
		d.stores[k].out, d.stores[k].back = out[k], back[k]
	}
	d.legOut, d.legBack = dcLegs(req, places, mx, rowOf)
	d.banded = newBandedDriving(req, d.stores)
	return d
}

// dcLegs returns upper bounds on the driving of a direct leg from the DC
// to one of the places (1+i for store i) and of one from such a place
// back: the longest such leg, as Validate times it (legTravel: req.Travel's
// Duration, or the matrix's), plus a second for floating point. It is the
// free-flow time: under a travel profile a leg may take longer from
// departure to arrival, but its driving at free flow is this. A leg the
// matrix has no route for is left out: no legal trip drives it.
func dcLegs(req *Request, places []int, mx *geo.Matrix, rowOf func(int) int) (out, back time.Duration) {
	matrix := (req.Options.Matrix != nil || req.RoadMatrix != nil) && mx != nil
	for _, p := range places {
		var o, b time.Duration
		if matrix {
			dc, at := rowOf(0), rowOf(p)
			if mx.Routed(dc, at) {
				o = mx.Duration(dc, at)
			}
			if mx.Routed(at, dc) {
				b = mx.Duration(at, dc)
			}
		} else {
			dc, at := req.DC.Location, req.Stores[p-1].Location
			o, b = req.Travel.Duration(dc, at), req.Travel.Duration(at, dc)
		}
		out, back = max(out, o+time.Second), max(back, b+time.Second)
	}
	return out, back
}

// palletShares is pallet p's share of a trailer in floor positions,
// weight and volume, in shareScale units rounded down, for a pallet of a
// store that takes trailers up to maxLength mm (0: any). Its trailer is
// one of the usable types: with units, carrying p's class, no longer than
// the store allows; cap(p) is the largest capacity among them, dimension
// by dimension, so that on any trip Σ size(p)/cap(p) ≤ Σ size(p)/cap(its
// trailer) ≤ 1, the last up to Validate's tolerance of 1e-9 in weight and
// volume, which the shares give up (with float rounding) by a factor 1 −
// 1e-8.
//
// A pallet's size in positions is its share of a position on the floor
// (positionQuarters: 1 for most, ½ for a half pallet, ¼ for a quarter),
// halved when it may be stacked or carry: a pallet on the floor takes at
// least its share; a pallet on top stands inside the footprint of a floor
// pallet that carries no other, whose share is at least its own, and the
// two together take at least that. A pallet no usable type takes has no
// share (no legal plan delivers it).
func palletShares(req *Request, p *Pallet, maxLength int) [3]int64 {
	s, _ := palletSharesOn(req, p, maxLength, nil)
	return s
}

// mostTripPallets is the most of the pallets idx (indices into
// req.Pallets) that one trip can carry on a trailer type with units, by
// the rules Validate holds a layout to, the largest over the types. On
// type t:
//
//   - a trip's floor pallets take at most t's positions, a position
//     holding one pallet, or halves and quarters making at most one
//     (positionQuarters), so their quarters add up to at most four a
//     position: at most f floor pallets, f the most of idx whose quarters
//     fit in four times the positions, which taking the smallest first
//     attains;
//   - a pallet at level 1 stands on one floor pallet that carries no
//     other and may carry, and it may be stacked: at most min(f, the
//     pallets that may carry, those that may be stacked) more;
//   - their weights add up to at most t's payload (to a relative 1e-9):
//     no more than the most of idx that do, the lightest first.
//
// Never more than all of idx.
func mostTripPallets(req *Request, idx []int) int {
	quarters := make([]int, 0, len(idx))
	weights := make([]float64, 0, len(idx))
	carry, stacked := 0, 0
	for _, pi := range idx {
		p := &req.Pallets[pi]
		quarters = append(quarters, positionQuarters(p))
		weights = append(weights, p.WeightKg)
		if p.MayCarry {
			carry++
		}
		if p.MayBeStacked {
			stacked++
		}
	}
	slices.Sort(quarters)
	slices.Sort(weights)
	most := 0
	for _, t := range req.Fleet {
		if t.Count <= 0 {
			continue
		}
		floor, room := 0, 4*t.PalletPositions
		for _, q := range quarters {
			if q > room {
				break
			}
			room -= q
			floor++
		}
		light, kg := 0, 0.0
		for _, w := range weights {
			if kg += w; kg > t.PayloadKg*(1+1e-9) {
				break
			}
			light++
		}
		most = max(most, min(floor+min(floor, carry, stacked), light))
	}
	return min(len(idx), most)
}

// multiClass reports whether one trip of trailer type t may carry
// pallets of more than one temperature class (Validate's carriesAll): a
// multi-temperature reefer of two zones or more.
func multiClass(t *TrailerType) bool { return t.Equipment.Zones() >= 2 }

// palletSharesOn is palletShares over the usable types that only (nil:
// any) takes, and whether there is one.
func palletSharesOn(req *Request, p *Pallet, maxLength int, only func(*TrailerType) bool) ([3]int64, bool) {
	var best constraints.Load
	usable := false
	for i := range req.Fleet {
		t := &req.Fleet[i]
		if t.Count <= 0 || !t.Equipment.Carries(p.Temperature) || (maxLength > 0 && t.nominalLength() > maxLength) {
			continue
		}
		if only != nil && !only(t) {
			continue
		}
		usable = true
		c := t.capacity()
		best.Positions = max(best.Positions, c.Positions)
		best.WeightKg = max(best.WeightKg, c.WeightKg)
		best.VolumeM3 = max(best.VolumeM3, c.VolumeM3)
	}
	var s [3]int64
	if best.Positions > 0 {
		eighths := 2 * int64(positionQuarters(p))
		if p.MayBeStacked || p.MayCarry {
			eighths /= 2
		}
		s[0] = shareScale * eighths / (8 * int64(best.Positions))
	}
	s[1] = floatShare(p.WeightKg, best.WeightKg)
	s[2] = floatShare(p.volume(), best.VolumeM3)
	return s, usable
}

// floatShare is size/capacity in shareScale units, shrunk by 1e-8 and
// rounded down; 0 without a capacity.
func floatShare(size, capacity float64) int64 {
	if !(capacity > 0) || !(size > 0) {
		return 0
	}
	return int64(math.Floor(shareScale * size / capacity * (1 - 1e-8)))
}

// dcRoundTrips returns, for each place (1+i for store i), lower bounds on
// the driving of any trip from the DC to it (out) and from it back (back),
// whatever stores the trip visits on the way.
//
// With req.Travel (Options.Matrix unset), a leg a→b takes ⌈f(g(a, b))⌉
// seconds, g the great-circle distance, a metric, and f the model's time
// for a great-circle distance: c·x for a single speed (c > 0 the circuity
// over the speed), and for speed bands the sum over the bands of the part
// of x in the band times its circuity over its speed. Either way f is 0 at
// 0, nondecreasing, and concave: the bands' slopes, circuity over speed,
// never rise from band to band, since Check holds speeds from falling and
// circuities from rising (geo.SpeedBand). A concave f with f(0) = 0 is
// subadditive, f(x + y) ≤ f(x) + f(y). A way DC → … → s of legs x₁…xₘ
// then takes Σ⌈f(g(xᵢ))⌉ ≥ Σf(g(xᵢ)) ≥ f(Σg(xᵢ)) ≥ f(g(DC, s)) >
// ⌈f(g(DC, s))⌉ − 1 seconds (subadditivity, then the triangle inequality
// and f nondecreasing), up to floating point's relative 1e-15 in each
// term; both ends are whole seconds, so it takes at least the direct leg
// less one second. The bound is the direct leg's time less a second, in
// each direction.
//
// With Options.Matrix or a road matrix, whose times need not obey the
// triangle inequality,
// it is the shortest way in the matrix over the DC and the places, which
// is every store a trip of the plan visits (a stop unloads a pallet).
func dcRoundTrips(req *Request, places []int, mx *geo.Matrix, rowOf func(int) int) (out, back []time.Duration) {
	out, back = make([]time.Duration, len(places)), make([]time.Duration, len(places))
	if (req.Options.Matrix == nil && req.RoadMatrix == nil) || mx == nil {
		dc := req.DC.Location
		for k, p := range places {
			at := req.Stores[p-1].Location
			out[k] = max(0, req.Travel.Duration(dc, at)-time.Second)
			back[k] = max(0, req.Travel.Duration(at, dc)-time.Second)
		}
		return out, back
	}
	rows := make([]int, 1+len(places))
	rows[0] = rowOf(0)
	for k, p := range places {
		rows[1+k] = rowOf(p)
	}
	from := shortestFromFirst(len(rows), func(a, b int) int64 { return mx.Seconds(rows[a], rows[b]) })
	to := shortestFromFirst(len(rows), func(a, b int) int64 { return mx.Seconds(rows[b], rows[a]) })
	for k := range places {
		out[k] = time.Duration(from[1+k]) * time.Second
		back[k] = time.Duration(to[1+k]) * time.Second
	}
	return out, back
}

// shortestFromFirst is Dijkstra's algorithm on the complete graph of n
// nodes with arc lengths seconds(a, b) ≥ 0: the shortest way from node 0
// to each node, in O(n²).
func shortestFromFirst(n int, seconds func(a, b int) int64) []int64 {
	dist := make([]int64, n)
	done := make([]bool, n)
	for i := range dist {
		dist[i] = math.MaxInt64
	}
	dist[0] = 0
	for range n {
		u := -1
		for v := range n {
			if !done[v] && (u < 0 || dist[v] < dist[u]) {
				u = v
			}
		}
		done[u] = true
		for v := range n {
			if !done[v] {
				dist[v] = min(dist[v], dist[u]+seconds(u, v))
			}
		}
	}
	return dist
}

// drivingBound is a lower bound on the driving of all the trips together,
// of which there are at least trips.
//
// A trip that visits store s drives out to it and back, at least out(s) +
// back(s) =: R(s) (dcRoundTrips), so a trip drives at least ρ, the largest
// R(s) of its stores. Sort the stores by R, largest first, s₁, s₂, …, and
// let Cₖ be the shares of s₁…sₖ (palletShares, in one dimension, in
// trailers). Every pallet of s₁…sₖ rides a trip with ρ ≥ R(sₖ), and a trip
// carries at most one trailer's worth, so at least ⌈Cₖ⌉ trips have
// ρ ≥ R(sₖ). With the trips in order of ρ, largest first, the j-th
// therefore has ρⱼ ≥ rⱼ := R(sₖ) for the first k with Cₖ > j − 1, for
// j up to ⌈C⌉ (C the shares of all stores); the others, up to trips,
// have ρⱼ ≥ the smallest R of all. The driving is at least Σⱼ rⱼ, in the
// dimension that gives most. (This is at least Σ_p share(p)·R(store of
// p): the shares in (j − 1, j] all belong to stores with R ≤ rⱼ.)
//
// Shares are fixed-point, rounded down, so the ⌈Cₖ⌉ are never too large,
// and the sums are exact.
//
// On speed bands, bandedDrivingBound also counts the legs between stores;
// both bound the same driving, so the larger holds.
func (d *dayDemand) drivingBound(trips int) time.Duration {
	return max(sumDurations(d.tripRadials(trips)), d.bandedDrivingBound(trips))
}

// tripRadials are the rⱼ of drivingBound, in the dimension whose sum is
// largest: lower bounds on the round trips of the plan's trips, sorted
// largest first, one for each trip the plan must have (at least trips).
func (d *dayDemand) tripRadials(trips int) []time.Duration {
	return d.tripItems(trips, func(k int) time.Duration { return d.stores[k].out + d.stores[k].back })
}

// tripItems is drivingBound's argument on any radius R(s) that every trip
// visiting store s (d.stores[k]) drives at least as its part: the rⱼ, in
// the dimension whose sum is largest, sorted largest first, at least
// trips of them.
func (d *dayDemand) tripItems(trips int, radius func(k int) time.Duration) []time.Duration {
	if len(d.stores) == 0 {
		return nil
	}
	byR := make([]int, len(d.stores))
	for k := range byR {
		byR[k] = k
	}
	slices.SortStableFunc(byR, func(a, b int) int { return cmp.Compare(radius(b), radius(a)) })
	var best []time.Duration
	for dim := range 3 {
		var rs []time.Duration
		var cum int64
		for _, k := range byR {
			cum += d.stores[k].shares[dim]
			// Trips j with (j − 1)·shareScale < cum take R(s).
			for int64(len(rs))*shareScale < cum {
				rs = append(rs, radius(k))
			}
		}
		least := radius(byR[len(byR)-1])
		for len(rs) < trips {
			rs = append(rs, least)
		}
		if best == nil || sumDurations(rs) > sumDurations(best) {
			best = rs
		}
	}
	return best
}

// tripsByShares is the most trips the shares ask for in one dimension,
// ⌈C⌉: a trip carries at most one trailer's worth.
func (d *dayDemand) tripsByShares() int {
	most := int64(0)
	for dim := range 3 {
		var c int64
		for _, s := range d.stores {
			c += s.shares[dim]
		}
		most = max(most, (c+shareScale-1)/shareScale)
	}
	return int(most)
}

func sumDurations(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum
}

// unloadingBound is a lower bound on the unloading of all the trips
// together: every store is a stop at least once, and every pallet comes
// off at one stop, so Σ_s Fixed_s + pallets_s × PerPallet_s, and each
// stop a store needs beyond one adds its Fixed_s (extraStops).
func (d *dayDemand) unloadingBound() time.Duration {
	var sum time.Duration
	for _, s := range d.stores {
		sum += d.req.Stores[s.store].Unloading.Time(s.pallets)
	}
	return sum + d.extraStops()
}

// extraStops is a lower bound on Σ_s Fixed_s × (stops at s − 1): the
// unloading of the stops that stores receiving several temperature
// classes need beyond one.
//
// A trip on a type that carries one class at a time (a dry van, a
// single-temperature reefer) carries pallets of one class (Validate's
// carriesAll); only a multi-class type (multiClass: two zones or more)
// carries more. Let store s receive pallets of cₛ classes, and let qₛ of
// them ride multi-class trips whole (every pallet of the class on such a
// trip). Each other class has a pallet on a single-class trip, one trip a
// class, and with qₛ > 0 a multi-class trip visits s too: s is visited by
// at least cₛ − qₛ + [qₛ > 0] trips, each stopping there at least once,
// and a stop unloads for Fixed_s on top of PerPallet_s a pallet. So
// Σ_s Fixed_s × (stops − 1) ≥ Σ_s Fixed_s × (cₛ − 1 − saved_s), saved_s
// = max(0, qₛ − 1).
//
// saved_s ≥ j needs j + 1 classes of s whole on multi-class trips,
// whose shares of a multi-class trailer (multiShares: over the
// largest capacity among the multi-class types s may take and that carry
// the class, so that a multi-class trip's pallets add up to at most one,
// as in palletShares) are at least those of its j + 1 smallest classes
// that such a type carries: the j-th saving at s costs at least wₛⱼ, the
// two smallest for j = 1, the (j + 1)-th smallest after. The multi-class
// trips carry at most one trailer each, and there are at most T = (their
// types' units) × tripsPerUnit of them (loading waves): Σ over the
// savings of their costs ≤ T. Every plan's savings are thus at most the
// optimum of the fractional knapsack of items (s, j) of weight wₛⱼ and
// value Fixed_s under T (dropping that the j-th saving needs the
// (j − 1)-th only raises it), which taking items by value over weight,
// the last in part, attains; in each dimension, of which the least
// optimum is kept, rounded up to a second. With trips a unit runs not
// bounded (tripsPerUnit), no saving is ruled out and it is 0.
func (d *dayDemand) extraStops() time.Duration {
	var all time.Duration // Σ_s Fixed_s × (cₛ − 1)
	for _, s := range d.stores {
		c := 0
		for _, has := range s.classes {
			if has {
				c++
			}
		}
		if c > 1 {
			all += time.Duration(c-1) * d.req.Stores[s.store].Unloading.Fixed
		}
	}
	if all <= 0 {
		return 0
	}
	units := 0
	for i := range d.req.Fleet {
		if t := &d.req.Fleet[i]; t.Count > 0 && multiClass(t) {
			units += t.Count
		}
	}
	perUnit, ok := d.tripsPerUnit()
	if units > 0 && !ok {
		return 0
	}
	// room = units × perUnit × shareScale, saturated: a day whose units
	// may turn very often (a hook time and turnaround of nanoseconds)
	// has room for every saving.
	room := int64(0)
	if units > 0 {
		room = math.MaxInt64
		if perUnit <= math.MaxInt64/shareScale/int64(units) {
			room = int64(units) * perUnit * shareScale
		}
	}
	saved := time.Duration(math.MaxInt64)
	for dim := range 3 {
		saved = min(saved, d.mostSaved(dim, room))
	}
	return max(0, all-saved)
}

// mostSaved is the optimum of extraStops's fractional knapsack in
// dimension dim with room shares, rounded up to a second.
func (d *dayDemand) mostSaved(dim int, room int64) time.Duration {
	type item struct {
		weight int64
		value  time.Duration
	}
	var items []item
	for _, s := range d.stores {
		fixed := d.req.Stores[s.store].Unloading.Fixed
		var ws []int64
		for c, has := range s.classes {
			if has && s.onMulti[c] {
				ws = append(ws, s.multiShares[c][dim])
			}
		}
		if len(ws) < 2 || fixed <= 0 {
			continue
		}
		slices.Sort(ws)
		items = append(items, item{ws[0] + ws[1], fixed})
		for _, w := range ws[2:] {
			items = append(items, item{w, fixed})
		}
	}
	// By value over weight, largest first: v₁/w₁ > v₂/w₂ ⇔ v₁w₂ > v₂w₁,
	// in floating point (a weight of 0 comes first).
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Compare(float64(b.value)*float64(a.weight), float64(a.value)*float64(b.weight))
	})
	var saved float64 // nanoseconds
	for _, it := range items {
		if it.weight <= room {
			room -= it.weight
			saved += float64(it.value)
			continue
		}
		saved += float64(it.value) * float64(room) / float64(it.weight)
		break
	}
	if saved == 0 {
		return 0
	}
	// Up to a whole second, and one more for floating point.
	return time.Duration(math.Ceil(saved/float64(time.Second))+1) * time.Second
}

// shiftsBound is a lower bound on the shifts that drive the day. It is
// the largest of:
//
//   - 1, for a trip needs a shift;
//   - work: a trip's duty, Start to Return, holds its hook time, its legs
//     and its stops one after another, and a shift's trips do not overlap
//     inside its one duty, so the shifts' duties hold at least trips ×
//     hook time + drivingBound + unloadingBound of work; a shift works at
//     most workCap, so the shifts used are at least the fewest shifts
//     whose workCaps add up to that;
//   - driving: likewise drivingBound against min(MaxDriving, workCap) a
//     shift;
//   - trips: against MaxTrips a shift (no limit counting as all trips);
//   - at one instant: a shift drives one trip at a time (overlapBound).
//
// Where even all shifts fall short, no legal plan delivers the pallets,
// and the bound is the number of shifts.
func (d *dayDemand) shiftsBound(trips int, work tripWork) int {
	req := d.req
	duty, driving := make([]int64, len(req.Shifts)), make([]int64, len(req.Shifts))
	tripCaps := make([]int64, len(req.Shifts))
	w := d.deliveryWindow()
	for i, s := range req.Shifts {
		h := req.ShiftLimits(i)
		span := d.workCap(s, h.MaxDuty, w)
		duty[i], driving[i] = int64(span), int64(min(h.MaxDriving, span))
		tripCaps[i] = int64(trips)
		if s.MaxTrips > 0 {
			tripCaps[i] = int64(min(s.MaxTrips, trips))
		}
	}
	drive := work.driving
	need := time.Duration(trips)*req.HookTime() + drive + work.unloading
	return max(1,
		fewestToCover(duty, int64(need)),
		fewestToCover(driving, int64(drive)),
		fewestToCover(tripCaps, int64(trips)),
		overlapBound(d.dutySpans()))
}

// deliveryWindow is when the day's unloading can happen at all: first,
// the earliest instant a stop of any trip can start unloading, and last,
// the latest instant one can end, each store's reach (the latest start)
// plus its unloading of all its delivered pallets (more than any one stop
// unloads). ok is false when no store is reached.
type deliveryWindow struct {
	first, last time.Time
	ok          bool
}

func (d *dayDemand) deliveryWindow() deliveryWindow {
	var w deliveryWindow
	for k, r := range d.reach() {
		if !r.ok {
			continue
		}
		end := r.last.Add(d.req.Stores[d.stores[k].store].Unloading.Time(d.stores[k].pallets))
		if !w.ok || r.first.Before(w.first) {
			w.first = r.first
		}
		if !w.ok || end.After(w.last) {
			w.last = end
		}
		w.ok = true
	}
	return w
}

// workCap is the most work a shift s with duty limit maxDuty can do:
// work being what shiftsBound counts of its trips, the hook time of each
// (inside Start to Depart: take the last hook time of it), the driving of
// each leg (inside the leg's departure to arrival: take the first that
// long of it) and the least unloading of each stop (from its start).
// These parts lie one after another, inside the shift's duty, so work is
// at most min(maxDuty, End − Start). With the day's deliveryWindow w:
//
//   - every part but the first trip's hook and first leg comes at or after
//     its first stop's start, itself at or after w.first, and before End;
//   - every part but the last trip's leg back ends at or before its last
//     stop's unloading, so by w.last, and comes after Start;
//   - that first leg and that leg back are direct legs between the DC and
//     a store, at most legOut and legBack (dcLegs);
//
// so work is also at most End − w.first + hook + legOut, w.last − Start +
// legBack, and w.last − w.first + hook + legOut + legBack. A shift that
// starts late or ends early thus counts for the part of the day in which
// stores receive, not for its whole length.
func (d *dayDemand) workCap(s constraints.Shift, maxDuty time.Duration, w deliveryWindow) time.Duration {
	c := min(maxDuty, s.End.Sub(s.Start))
	if w.ok {
		hook := d.req.HookTime()
		c = min(c, s.End.Sub(w.first)+hook+d.legOut, w.last.Sub(s.Start)+d.legBack, w.last.Sub(w.first)+hook+d.legOut+d.legBack)
	}
	return max(0, c)
}

// unitsBound is a lower bound on the trailer units that run the day, all
// types together. It is the largest of:
//
//   - 1, for a trip needs a unit;
//   - occupancy: a unit is busy with a trip of n pallets from its
//     LoadingStart to its Return plus the turnaround, which holds [Start −
//     DC.LoadingTime(n), Return + turnaround), since LoadingStart ≤
//     LoadingEnd − LoadingTime(n) ≤ Start − LoadingTime(n). That part lasts
//     LoadingTime(n) + hook + the trip's legs and stops + turnaround, and
//     lies inside [first shift start − LoadingTime(nₘₐₓ), last shift end +
//     turnaround], where nₘₐₓ is the most pallets a trip can hold
//     (mostTripPallets). A unit's trips
//     do not overlap, so the units used are at least the sum of those
//     parts over the trips, trips × (LoadingFixed + hook + turnaround) +
//     pallets × LoadingPerPallet + drivingBound + unloadingBound, over the
//     length of that horizon, rounded up. The horizon is also at most
//     the deliveryWindow w's length + LoadingTime(nₘₐₓ) + hook + legOut +
//     legBack + turnaround: of the parts counted, a unit's first trip
//     loads, hooks and drives its first leg before its first stop starts
//     (at or after w.first), and its last trip drives its leg back and
//     turns around after its last stop's unloading ends (by w.last); all
//     else lies between (as in workCap);
//   - at one instant: a unit runs one trip at a time (overlapBound);
//   - by loading waves: a unit runs one trip at a time, and loading
//     starts only in the dock hours (loadingWavesBound).
func (d *dayDemand) unitsBound(trips int, work tripWork) int {
	req := d.req
	turn := req.Turnaround()
	horizon := d.unitWorkCap()
	busy := time.Duration(trips)*(req.DC.LoadingFixed+req.HookTime()+turn) +
		time.Duration(d.pallets)*req.DC.LoadingPerPallet + work.driving + work.unloading
	occupancy := 0
	if horizon > 0 {
		occupancy = int((busy + horizon - 1) / horizon)
	}
	return max(1, occupancy, overlapBound(d.unitSpans()), d.loadingWavesBound(trips))
}

// unitWorkCap is the most a trailer unit can be busy with the parts
// unitsBound counts (its occupancy): the horizon, or the deliveryWindow
// with what may come before and after it, whichever is shorter.
func (d *dayDemand) unitWorkCap() time.Duration {
	req := d.req
	turn := req.Turnaround()
	loading := req.DC.LoadingTime(d.mostPallets)
	horizon := d.to.Add(turn).Sub(d.from) + loading
	if w := d.deliveryWindow(); w.ok {
		horizon = min(horizon, w.last.Sub(w.first)+loading+req.HookTime()+d.legOut+d.legBack+turn)
	}
	return horizon
}

// fewestToCover is the fewest of caps whose sum reaches need, taking the
// largest first; all of them when they fall short, 0 when need ≤ 0.
func fewestToCover(caps []int64, need int64) int {
	if need <= 0 {
		return 0
	}
	sorted := slices.Clone(caps)
	slices.SortFunc(sorted, func(a, b int64) int { return cmp.Compare(b, a) })
	var sum int64
	for k, c := range sorted {
		if sum += c; sum >= need {
			return k + 1
		}
	}
	return len(caps)
}

// storeSpan is an interval [from, til) in which every trip that delivers
// to a store holds a resource (a shift, a trailer unit), with the store's
// shares of a trailer.
type storeSpan struct {
	from, til time.Time
	shares    [3]int64
}

// unloadingReach is when a store's first stop of any trip can start
// unloading at the earliest (first) and at the latest (last); ok is false
// when no legal trip reaches it in the shifts.
type unloadingReach struct {
	first, last time.Time
	ok          bool
}

// reach returns each store's unloadingReach. A stop at store s starts
// unloading inside its receiving hours (resolved, as Validate does, over
// the shifts' horizon), no sooner than the first shift start + hook +
// out(s) (the trip's Start, hook-up, the way out), and no later than the
// last shift end − back(s) − its unloading of one pallet (the least it
// unloads, then the way back before the shift ends).
func (d *dayDemand) reach() []unloadingReach {
	rs := make([]unloadingReach, len(d.stores))
	hook := d.req.HookTime()
	for k, s := range d.stores {
		st := &d.req.Stores[s.store]
		// Request.Check has checked the hours, so Resolve cannot fail.
		ws, _ := st.Hours.Resolve(d.from, d.to)
		lo := d.from.Add(hook + s.out)
		hi := d.to.Add(-s.back - st.Unloading.Time(1))
		first, ok := constraints.EarliestIn(ws, lo)
		if !ok || first.After(hi) {
			continue
		}
		rs[k] = unloadingReach{first: first, last: latestIn(ws, hi), ok: true}
	}
	return rs
}

// latestIn is the latest instant not after t inside one of the windows
// (sorted by Start); t itself when none is.
func latestIn(ws []constraints.Window, t time.Time) time.Time {
	for i := len(ws) - 1; i >= 0; i-- {
		if !ws[i].Start.After(t) {
			if ws[i].End.Before(t) {
				return ws[i].End
			}
			return t
		}
	}
	return t
}

// dutySpans are the stores' spans of a shift's duty: a trip that unloads
// at store s at u is on duty from its Start ≤ u − out(s) − hook to its
// Return ≥ u + the unloading of one pallet + back(s), so over
// [last − out(s) − hook, first + unloading + back(s)) of reach.
func (d *dayDemand) dutySpans() []storeSpan {
	var spans []storeSpan
	hook := d.req.HookTime()
	for k, r := range d.reach() {
		s := d.stores[k]
		if r.ok {
			from := r.last.Add(-s.out - hook)
			til := r.first.Add(d.req.Stores[s.store].Unloading.Time(1) + s.back)
			spans = append(spans, storeSpan{from, til, s.shares})
		}
	}
	return spans
}

// unitSpans are the stores' spans of a trailer unit: a trip that unloads
// at store s at u holds its unit from its LoadingStart, which is at most
// u − out(s) − hook − DC.LoadingTime(1) and inside the dock hours, so at
// most the latest dock instant before that (dockLatest), to its Return +
// turnaround ≥ u + the unloading of one pallet + back(s) + turnaround.
func (d *dayDemand) unitSpans() []storeSpan {
	var spans []storeSpan
	req := d.req
	lead := req.HookTime() + req.DC.LoadingTime(1)
	for k, r := range d.reach() {
		s := d.stores[k]
		if r.ok {
			from := d.dockLatest(r.last.Add(-s.out - lead))
			til := r.first.Add(req.Stores[s.store].Unloading.Time(1) + s.back + req.Turnaround())
			spans = append(spans, storeSpan{from, til, s.shares})
		}
	}
	return spans
}

// dockLookBack is how far before an instant dockLatest looks for dock
// hours: more than a week, so that weekly hours open at all show.
const dockLookBack = 8 * 24 * time.Hour

// dockLatest is the latest instant not after t at which loading may
// start: t without dock hours, else the end of the last dock window in
// the dockLookBack before t (clipped to t). Any loading start s ≤ t in
// the dock hours is at most that: within the look-back it lies in one of
// its windows, and before it, it lies before them all. With no window in
// the look-back it is t.
func (d *dayDemand) dockLatest(t time.Time) time.Time {
	if d.req.DC.DockHours == nil {
		return t
	}
	// Request.Check has checked the hours, so Resolve cannot fail.
	ws, _ := d.req.DC.DockHours.Resolve(t.Add(-dockLookBack), t)
	if len(ws) == 0 {
		return t
	}
	return ws[len(ws)-1].End
}

// overlapBound is the most trips that hold one resource each at one
// instant: every trip that delivers to a store holds a resource of its
// own over the store's span, so at an instant τ the trips that carry the
// pallets of the stores whose spans hold τ are all out, at least as many
// as those pallets' shares add up to, rounded up, in any dimension (a trip
// carries at most one trailer's worth). The largest such count over τ is
// found by a sweep over the spans' starts; shares are fixed-point, so the
// sums are exact.
func overlapBound(spans []storeSpan) int {
	type event struct {
		at     time.Time
		starts bool
		shares [3]int64
	}
	events := make([]event, 0, 2*len(spans))
	for _, s := range spans {
		if s.from.Before(s.til) {
			events = append(events, event{s.from, true, s.shares}, event{s.til, false, s.shares})
		}
	}
	// At one instant, spans ending there leave before those starting join
	// (a span is open at its end).
	slices.SortStableFunc(events, func(a, b event) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(boolRank(a.starts), boolRank(b.starts))
	})
	var open [3]int64
	best := 0
	for i, e := range events {
		for dim := range 3 {
			if e.starts {
				open[dim] += e.shares[dim]
			} else {
				open[dim] -= e.shares[dim]
			}
		}
		if i+1 < len(events) && events[i+1].at.Equal(e.at) {
			continue
		}
		for dim := range 3 {
			best = max(best, int((open[dim]+shareScale-1)/shareScale))
		}
	}
	return best
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
