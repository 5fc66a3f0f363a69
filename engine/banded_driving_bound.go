package engine

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/haulplan/haulplan/geo"
)

// bandedDriving is what bandedDrivingBound needs of a day whose travel is
// req.Travel with speed bands: the model's time for a great-circle
// distance split as f(x) = slope·x + h(x), and for each store of the day
// (dayDemand.stores, in that order) the distance of the DC and of its
// nearest neighbour.
type bandedDriving struct {
	// slope is the last band's circuity over its speed in seconds a
	// great-circle metre, the least slope of f.
	slope float64
	// bands are the model's bands, cut as geo cuts a leg.
	bands []geo.SpeedBand
	// fromDC is each store's great-circle distance from the DC, in
	// metres; near its nn', the least distance from it to another store
	// of the day or to the DC, in metres, capped at the last band's start
	// (where h stops growing).
	fromDC, near []float64
	// forest are the weights in h of the edges of a minimum spanning tree
	// of the stores under h(g), or h of g capped lower on a dense day,
	// heaviest first; nil when even the cap does not keep it within its
	// budget (spanningTree).
	forest []float64
}

// newBandedDriving returns the bandedDriving of the stores of a day on
// req.Travel, or nil when travel is a matrix or a single speed (f is then
// linear and h is 0: the bound would add nothing to the radial one).
func newBandedDriving(req *Request, stores []storeDemand) *bandedDriving {
	t := req.Travel
	if req.Options.Matrix != nil || req.RoadMatrix != nil || len(stores) == 0 {
		return nil
	}
	// geo.TravelModel's forms: bands when set, a single speed when
	// SpeedKmh or Circuity is, else the default bands.
	bands := t.Bands
	if len(bands) == 0 {
		if t.SpeedKmh != 0 || t.Circuity != 0 {
			return nil
		}
		bands = geo.DefaultBands()
	}
	if len(bands) < 2 {
		return nil
	}
	last := bands[len(bands)-1]
	b := &bandedDriving{slope: last.Circuity * 3.6 / last.SpeedKmh, bands: bands}
	reach := bands[len(bands)-2].UpToKm * 1000 // h is constant beyond
	dc := req.DC.Location
	at := make([]geo.Point, len(stores))
	b.fromDC, b.near = make([]float64, len(stores)), make([]float64, len(stores))
	for k, s := range stores {
		at[k] = req.Stores[s.store].Location
		b.fromDC[k] = geo.Distance(dc, at[k])
		b.near[k] = min(b.fromDC[k], reach)
	}
	nearestNeighbours(at, b.near, neighbourScan)
	b.forest = spanningTree(at, reach, b.h, treePairs)
	return b
}

// treePairs is the most pairs of points spanningTree looks at: a few
// tens of milliseconds of distances.
const treePairs = 1 << 17

// spanningTree returns the edge weights, heaviest first, of a minimum
// spanning tree of the points under the weight w(min(g(a, b), ρ)), w
// nondecreasing and constant from reach on, and ρ ≤ reach: Kruskal's
// algorithm over the pairs less than ρ apart, found by latitude as
// nearestNeighbours does, then edges of weight w(ρ) between the trees
// left, which any pair at ρ or beyond weighs. ρ is the largest of reach,
// reach/2, reach/4, … whose latitude windows hold at most budget pairs
// (treePairs), so that a dense day costs no more than a sparse one; below
// reach/64 it gives up (nil). Capping g lowers the weights: the tree
// weighs no more than one under w(g).
func spanningTree(at []geo.Point, reach float64, w func(float64) float64, budget int) []float64 {
	n := len(at)
	lat := make([]float64, n)
	byLat := make([]int, n)
	for i := range byLat {
		byLat[i] = i
	}
	slices.SortFunc(byLat, func(a, b int) int { return cmp.Compare(at[a].Lat, at[b].Lat) })
	for i, k := range byLat {
		lat[i] = at[k].Lat
	}
	// A pair less than ρ apart lies within ρ/EarthRadius radians of
	// latitude; a micrometre and the factor keep that true of floating
	// point.
	window := func(rho float64) float64 { return (rho + 1e-6) / (1 - 1e-9) / geo.EarthRadius * 180 / math.Pi }
	rho := reach
	for ; ; rho /= 2 {
		if rho < reach/64 {
			return nil
		}
		pairs := 0
		for i := range lat {
			j, _ := slices.BinarySearch(lat, lat[i]+window(rho))
			if pairs += j - i; pairs > budget {
				break
			}
		}
		if pairs <= budget {
			break
		}
	}
	type edge struct {
		a, b int
		w    float64
	}
	var edges []edge
	for pos, k := range byLat {
		for q := pos + 1; q < n && lat[q] < lat[pos]+window(rho); q++ {
			o := byLat[q]
			if g := geo.Distance(at[k], at[o]); g < rho {
				edges = append(edges, edge{k, o, w(g)})
			}
		}
	}
	slices.SortFunc(edges, func(x, y edge) int { return cmp.Compare(x.w, y.w) })
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	root := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	tree := make([]float64, 0, max(0, n-1))
	for _, e := range edges {
		if ra, rb := root(e.a), root(e.b); ra != rb {
			parent[ra] = rb
			tree = append(tree, e.w)
		}
	}
	for len(tree) < n-1 {
		tree = append(tree, w(rho))
	}
	slices.Reverse(tree)
	return tree
}

// nearestNeighbours lowers near[k] to the great-circle distance from
// at[k] to the nearest other point, where that is less, or to a lower
// bound on it. It scans the points in order of latitude outward from
// each and stops where the difference in latitude alone, a lower bound on
// the distance (a meridian's arc), reaches near[k]: the stores of a day
// spread, and near[k] is capped, so it looks at a few neighbours each.
// Points spread along a parallel would have it look at every pair, so it
// looks at no more than budget points on each side: where that stops it,
// every point not looked at on that side lies at least the arc to the
// first of them away, and near[k] is lowered to that arc, which keeps it
// a lower bound on the nearest distance.
func nearestNeighbours(at []geo.Point, near []float64, budget int) {
	byLat := make([]int, len(at))
	for i := range byLat {
		byLat[i] = i
	}
	slices.SortFunc(byLat, func(a, b int) int { return cmp.Compare(at[a].Lat, at[b].Lat) })
	// A point a latitude difference dφ away is at least EarthRadius·dφ
	// away; the factor and a micrometre keep that true of geo.Distance's
	// floating point by a wide margin, even for points that close.
	arc := func(a, b int) float64 {
		return geo.EarthRadius * math.Abs(at[a].Lat-at[b].Lat) * math.Pi / 180 * (1 - 1e-9)
	}
	for pos, k := range byLat {
		for _, step := range [2]int{-1, 1} {
			looked := 0
			for q := pos + step; q >= 0 && q < len(byLat); q += step {
				o := byLat[q]
				a := arc(k, o)
				if a >= near[k]+1e-6 {
					break
				}
				if looked == budget {
					near[k] = max(0, min(near[k], a-1e-6))
					break
				}
				looked++
				near[k] = min(near[k], geo.Distance(at[k], at[o]))
			}
		}
	}
}

// neighbourScan is the most points nearestNeighbours looks at on each
// side of a point: a day's stores spread, so that its nearest neighbour
// is among the first few; only points along a parallel reach it.
const neighbourScan = 128

// h is f(x) − slope·x for a great-circle distance x in metres, in
// seconds: the sum over the bands of the part of x in the band times the
// band's slope less the last's. Slopes never rise from band to band
// (geo.SpeedBand), so h is 0 at 0, nondecreasing and constant from the
// last band's start.
func (b *bandedDriving) h(x float64) float64 {
	var sum, from float64
	for _, band := range b.bands[:len(b.bands)-1] {
		if !(x > from) {
			break
		}
		to := min(x, band.UpToKm*1000)
		sum += (to - from) * (band.Circuity*3.6/band.SpeedKmh - b.slope)
		from = to
	}
	return max(0, sum)
}

// bandedDrivingBound is a lower bound on the driving of all the trips
// together, of which there are at least trips, on req.Travel with speed
// bands; 0 without (bandedDriving nil). It counts the legs between two
// stores, which the radial bound (tripRadials) leaves out, at what their
// slow first kilometres cost.
//
// A leg of great-circle length x takes ⌈f(x)⌉ ≥ f(x) seconds of driving
// (at free flow; a travel profile only slows it), f the
// model's time (see dcRoundTrips: 0 at 0, nondecreasing, concave, its
// slope that of the band x ends in). Write f(x) = m·x + h(x), m the last
// band's slope, the least: h is 0 at 0 and nondecreasing, since f's slope
// is at least m everywhere. A trip DC → v₁ → … → vₖ → DC (vᵢ the stores
// of its stops in order) drives at least
//
//	Σ f(legs) = m·P + Σ h(legs),
//
// P its legs' great-circle lengths, at least 2·g(DC, s) for any store s
// of the trip (the triangle inequality of the great-circle metric g).
// For the h part, let nn'(s) be the least distance from s to another
// store of the day (one the plan delivers to) or to the DC. The first
// time a trip reaches a store s it comes from the DC or from another
// store, both at least nn'(s) away: these legs, one for each distinct
// store of the trip, are distinct, and the one into v₁ comes from the DC,
// at g(DC, v₁); the leg back from vₖ is another, at g(vₖ, DC). With
// h'(s) = h(nn'(s)) and e(s) = h(g(DC, s)) ≥ h'(s), the trip drives at
// least
//
//	m·2·g(DC, s) + Σ_{distinct s of the trip, not v₁} h'(s) + e(v₁) + e(vₖ).
//
// Summed over the T trips: take for s the trip's store of the largest
// R'(s) := 2m·g(DC, s); tripRadials's argument, on R' for R, bounds the
// sum of those by Σⱼ r'ⱼ (padded with the least R' up to T items). The last part is at least T·e_min, e_min the least e. In the
// middle, let store s be one of cₛ ≥ 1 trips (it receives a pallet) and
// the first stop of fₛ ≤ cₛ of them, Σ fₛ = T: it adds h'(s)·(cₛ − fₛ) +
// fₛ·e(s), at least h'(s) when fₛ = 0 and h'(s) + (e(s) − h'(s)) + (fₛ −
// 1)·e(s) else. So the middle is at least Σₛ h'(s) + the least, over a
// set S of 1 to min(T, n) first stores, of Σ_S (e(s) − h'(s)) + (T −
// |S|)·e_min: the |S| smallest e − h' (call it firstStops(T)). The bound
// is
//
//	Σⱼ r'ⱼ + Σₛ h'(s) + firstStops(T) + T·e_min,
//
// and each of its terms is nondecreasing in T (a trip more adds an item
// of at least 0, e_min ≥ 0, or a smallest e − h' ≥ 0 in place of
// nothing), so it holds for every T at least trips and the per-dimension
// trip counts ⌈C⌉ of tripRadials, which is where it is taken.
//
// The legs between stores also join them: a trip's legs from v₁ to vₖ
// connect its stores, so with the legs between stores the stores fall
// into at most T groups, each holding some trips' stores whole, and those
// legs hold a spanning forest of the stores of at most min(T, n) trees.
// Its weight in h, at most what the legs weigh, is at least F(T), the
// least weight of a spanning forest of min(T, n) trees under h(g) (or
// under the lower h(min(g, ρ)) of spanningTree): a minimum spanning tree
// less its T − 1 heaviest edges (Kruskal's algorithm stops there), less
// as the trees are more. Each first and
// last leg adds at least e_min. So the driving is also at least
//
//	Σⱼ r'ⱼ + F(T) + 2T·e_min,
//
// which F makes fall as T grows: it is taken at its least over T from
// the T above to n (beyond n, F is 0 and the rest grows), the radial
// sum of T′ trips being that of T plus the least R' for each trip more.
// The larger of the two holds.
//
// Legs are timed by geo in floating point: f and g in it are within a
// relative 1e-12 of the exact ones, and nn' is found with a margin
// (nearestNeighbours), so the sum, computed in float64, is shrunk by
// 1e-9 relative and a second a trip and rounded down.
func (d *dayDemand) bandedDrivingBound(trips int) time.Duration {
	b := d.banded
	if b == nil {
		return 0
	}
	T := max(trips, d.tripsByShares(), 1) // a store receives: a trip at least
	n := len(d.stores)
	var hs float64               // Σₛ h'(s)
	eMin := math.Inf(1)          // e_min
	firsts := make([]float64, n) // e(s) − h'(s)
	for k := range n {
		h, e := b.h(b.near[k]), b.h(b.fromDC[k])
		hs += h
		eMin = min(eMin, e)
		firsts[k] = max(0, e-h)
	}
	slices.Sort(firsts)
	best, sum := math.Inf(1), 0.0
	for j := 1; j <= min(T, n); j++ {
		sum += firsts[j-1]
		best = min(best, sum+float64(T-j)*eMin)
	}
	radius := func(k int) time.Duration {
		return time.Duration(2 * b.slope * b.fromDC[k] * float64(time.Second))
	}
	radials := sumDurations(d.tripItems(T, radius)).Seconds()
	total := radials + hs + best + float64(T)*eMin
	if b.forest != nil {
		// F(T′) for T′ from T to n, T′ − 1 heaviest edges off.
		least := math.Inf(1)
		for k := range n {
			least = min(least, radius(k).Seconds())
		}
		var forest float64
		for _, w := range b.forest[min(T-1, len(b.forest)):] {
			forest += w
		}
		byForest := math.Inf(1)
		for t := T; ; t++ {
			byForest = min(byForest, radials+float64(t-T)*least+forest+float64(2*t)*eMin)
			if t-1 >= len(b.forest) {
				break
			}
			forest -= b.forest[t-1]
		}
		total = max(total, byForest)
	}
	seconds := math.Floor(total*(1-1e-9)) - float64(T)
	if !(seconds > 0) {
		return 0
	}
	return time.Duration(seconds) * time.Second
}
