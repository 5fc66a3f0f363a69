package routeplan

import (
	"math"
	"math/rand/v2"
)

// ruinRecreate is the perturbation of the search: remove strings of
// consecutive sites from routes near a random seed site (Christiaens and
// Vanden Berghe's SISR), reinsert them by cheapest insertion with blinks,
// polish with local search, and accept by simulated annealing.
type ruinRecreate struct {
	in       *instance
	nb       *neighbours
	t0, tf   float64
	avgMoved int // mean number of sites removed per ruin
	maxLen   int // longest string removed from one route
	// ruins all run, in this order, at every step (see ruin.go);
	// recreates are drawn from, one per step.
	ruins     []ruinMethod
	recreates []recreateMethod
}

func newRuinRecreate(in *instance, nb *neighbours, init objective) *ruinRecreate {
	rr := &ruinRecreate{in: in, nb: nb, avgMoved: 10, maxLen: 10,
		ruins: ruinMethods[:], recreates: recreateMethods[:]}
	// Start at about three average legs and cool to a hundredth of that
	// (tuned on eight Solomon instances: 1 and 10 legs both did worse).
	rr.t0 = 3 * init.value / float64(len(in.sites)+1)
	if !(rr.t0 > 0) {
		rr.t0 = 1
	}
	rr.tf = rr.t0 / 100
	return rr
}

// accept decides whether the search moves from cur to cand, at progress in
// [0, 1] of its budget. More value left unassigned or more routes are never
// accepted; fewer always are.
func (rr *ruinRecreate) accept(cand, cur, best objective, progress float64, rng *rand.Rand) bool {
	if lessBy(cand.lost, cur.lost) || lessBy(cur.lost, cand.lost) {
		return cand.lost < cur.lost
	}
	if cand.vehicles != cur.vehicles {
		return cand.vehicles < cur.vehicles
	}
	temp := rr.t0 * math.Pow(rr.tf/rr.t0, progress)
	return cand.value < cur.value-temp*math.Log(rng.Float64())
}

// step makes c a perturbed and repaired copy of st.
func (rr *ruinRecreate) step(c, st *state, rng *rand.Rand, sc *scratch, stop func() bool) {
	c.copyFrom(st)
	removed := c.ruin(rr, rng, sc)
	// Sites the current solution could not place get another chance.
	short := len(c.unassigned) > 0
	removed = append(removed, c.unassigned...)
	for _, u := range c.unassigned {
		c.obj.lost -= c.in.value[u]
	}
	c.unassigned = c.unassigned[:0]
	sortForRecreate(c.in, removed, short, rng)
	rc := rr.recreates[0]
	if len(rr.recreates) > 1 {
		rc = rr.recreates[rng.IntN(len(rr.recreates))]
	}
	rc.recreate(c, removed, rr.nb, rng, sc)
	// Polishing every candidate costs about five ruins but pays: on the
	// Solomon set at equal CPU time the gap falls from about 1.1 % to 0.6 %.
	c.localSearch(rr.nb, rng, sc, stop, removed)
	c.refill(rr.nb, rng, sc, stop)
}

// ruinMethods and recreateMethods are what a ruin-and-recreate search
// runs (see ruinRecreate.ruins and recreates).
var (
	ruinMethods     = [...]ruinMethod{emptyShortRoute{}, removeStrings{}}
	recreateMethods = [...]recreateMethod{greedyInsertion{blink: 0.01}}
)

// recreateMethod puts removed sites back into a state, or among its
// unassigned sites when they find no place.
type recreateMethod interface {
	recreate(st *state, sites []int, nb *neighbours, rng *rand.Rand, sc *scratch)
}

// greedyInsertion inserts the sites one by one at their cheapest places,
// skipping each candidate place with probability blink (SISR's blinks).
type greedyInsertion struct{ blink float64 }

func (g greedyInsertion) recreate(st *state, sites []int, nb *neighbours, rng *rand.Rand, sc *scratch) {
	st.recreate(sites, nb, g.blink, rng, sc)
}

// sortForRecreate orders removed sites as SISR does: at random, by demand,
// or by distance from the depot, far or near first. When the fleet is
// short and sites differ in value, half the time the most valuable come
// first (in that order among equals), so that they take the room left: on
// short-fleet instances (150 sites of values 1-20, 8 vehicles, 6 seeds,
// 1000 iterations) the value left out fell by 12 %; with a fleet that
// serves every site nothing changes. Always putting them first did as
// well there but locks the search in: one site of value 5 holding the
// vehicle that two of value 3 could share was never undone.
func sortForRecreate(in *instance, sites []int, short bool, rng *rand.Rand) {
	sisrOrder(in, sites, rng)
	if short && !in.uniform && rng.IntN(2) == 0 {
		insertionSort(sites, func(u int) float64 { return -in.value[u] })
	}
}

func sisrOrder(in *instance, sites []int, rng *rand.Rand) {
	depot := 0
	if len(in.types) > 0 {
		depot = in.types[0].StartLocation
	}
	key := func(u int) float64 { return 0 }
	switch rng.IntN(10) {
	case 0, 1, 2, 3:
		rng.Shuffle(len(sites), func(a, b int) { sites[a], sites[b] = sites[b], sites[a] })
		return
	case 4, 5, 6, 7:
		key = func(u int) float64 {
			s := 0.0
			for _, d := range in.sites[u].Demand {
				s += d
			}
			return -s
		}
	case 8:
		key = func(u int) float64 { return -in.legDist(depot, in.sites[u].Location) }
	case 9:
		key = func(u int) float64 { return in.legDist(depot, in.sites[u].Location) }
	}
	insertionSort(sites, key)
}

// insertionSort is stable and allocation-free for the short lists a ruin
// produces.
func insertionSort(a []int, key func(int) float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && key(a[j]) < key(a[j-1]); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
