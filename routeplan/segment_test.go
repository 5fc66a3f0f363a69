package routeplan

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// segmentRoutes draws an instance under every rule (genProblem), or with
// solomon set possibly one of the Solomon case (genFastProblem), and two
// feasible routes of one vehicle type, each keeping, in a random order,
// the sites that leave it feasible; the rest stay out for the moves.
func segmentRoutes(t *rapid.T, solomon bool) (*instance, *route, *route, []int) {
	var p *Problem
	if solomon && rapid.Bool().Draw(t, "solomon") {
		p = genFastProblem(t)
	} else {
		p = genProblem(t)
	}
	if rapid.Bool().Draw(t, "rush") {
		// Under rush hours bounds keep free-flow legs: they must still
		// rule out no feasible move.
		p.Rush = genRush(t, 3000)
	}
	in := newInstance(p)
	if in.exact && !solomon {
		t.Skip("Solomon case: no schedule under R is cached")
	}
	typ := rapid.IntRange(0, len(p.VehicleTypes)-1).Draw(t, "type")
	var sch schedule
	order := rapid.Permutation(seqN(len(p.Sites))).Draw(t, "order")
	var seqs [2][]int
	var out []int
	var reloads []int // the type's reloads not on a route yet
	if c := in.reloadClass[typ]; c >= 0 {
		reloads = in.reloads[c]
	}
	for k, s := range order {
		r := k % 3 // two thirds routed, one third left out
		if r == 2 {
			out = append(out, s)
			continue
		}
		if len(reloads) > 0 && len(seqs[r]) > 0 && rapid.Bool().Draw(t, "newTrip") {
			// A trip of its own for s, when the route may take one more.
			seq := append(append([]int(nil), seqs[r]...), reloads[0], s)
			if in.evaluate(typ, seq, &sch, false) == feasible {
				seqs[r], reloads = seq, reloads[1:]
				continue
			}
		}
		if in.evaluate(typ, append(append([]int(nil), seqs[r]...), s), &sch, false) == feasible {
			seqs[r] = append(seqs[r], s)
		} else {
			out = append(out, s)
		}
	}
	mk := func(seq []int) *route {
		r := &route{typ: typ, seq: seq}
		in.refresh(r)
		if in.evaluate(typ, seq, &sch, false) != feasible {
			t.Fatalf("route %v infeasible", seq)
		}
		r.obj = in.seqObjective(seq, sch.dist, sch.cost)
		return r
	}
	// The reloads left may join a candidate's middle.
	return in, mk(seqs[0]), mk(seqs[1]), append(out, reloads...)
}

// TestSegmentBoundsHold: for every candidate made of a prefix of one
// route, a few sites, and a suffix of that route or the other, no stage of
// the bound calls a feasible route infeasible or bounds its objective
// above the simulated one; in the Solomon case the bound is exact.
func TestSegmentBoundsHold(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, ra, rb, out := segmentRoutes(t, true)
		var sch schedule
		var jn join
		for try := 0; try < 40; try++ {
			a, b := ra, rb
			if rapid.Bool().Draw(t, "swapRoutes") {
				a, b = rb, ra
			}
			if rapid.Bool().Draw(t, "sameRoute") {
				b = a
			}
			i := rapid.IntRange(0, len(a.seq)).Draw(t, "i")
			lo := 1
			if b == a {
				lo = i + 1
			}
			j := rapid.IntRange(lo, len(b.seq)+1).Draw(t, "j")
			var mid []int
			own := false // mid is the sites between, in some order
			if b == a && j > i+1 && rapid.Bool().Draw(t, "stretch") {
				own = true
				// Some of the sites between the prefix and the suffix,
				// in order or reversed: legs the route keeps.
				mid = append(mid, a.seq[i:j-1]...)
				if rapid.Bool().Draw(t, "reversed") {
					for x, y := 0, len(mid)-1; x < y; x, y = x+1, y-1 {
						mid[x], mid[y] = mid[y], mid[x]
					}
				}
				if len(mid) > 1 && rapid.Bool().Draw(t, "dropOne") {
					k := rapid.IntRange(0, len(mid)-1).Draw(t, "drop")
					mid = append(mid[:k], mid[k+1:]...)
					own = false
				}
			} else if len(out) > 0 {
				for n := rapid.IntRange(0, 3).Draw(t, "mid"); n > 0; n-- {
					s := out[rapid.IntRange(0, len(out)-1).Draw(t, "site")]
					dup := false
					for _, m := range mid {
						dup = dup || m == s
					}
					if !dup {
						mid = append(mid, s)
					}
				}
			}
			jn.set(a, i, mid, b, j)
			seq := jn.build(nil)
			f := in.evaluate(a.typ, seq, &sch, false)
			if f != feasible {
				if in.exact && in.joinAllowed(&jn) && in.advance(&jn, boundTimed) {
					t.Fatalf("%v (prefix %d of %v, %v, suffix %d of %v): infeasible (%v), the Solomon case's bound says feasible",
						seq, i, a.seq, mid, j, b.seq, f)
				}
				continue
			}
			if !in.joinAllowed(&jn) {
				t.Fatalf("%v: feasible, but a site is said not to allow the type", seq)
			}
			// What the operators tell the bound: the load fits (as it
			// does, the route being feasible), or the sites are the
			// route's own on one trip.
			jn.fits = rapid.Bool().Draw(t, "fits")
			jn.own = own && len(in.reloads) == 0 && rapid.Bool().Draw(t, "own")
			truth := in.seqObjective(seq, sch.dist, sch.cost)
			var before objective
			for to := int8(boundDistances); to <= boundTimed; to++ {
				if !in.advance(&jn, to) {
					t.Fatalf("%v (prefix %d of %v, %v, suffix %d of %v): feasible (cost %g), stage %d says infeasible",
						seq, i, a.seq, mid, j, b.seq, sch.cost, to)
				}
				if truth.less(jn.cheap) {
					t.Fatalf("%v: stage %d bounds the objective at %+v, simulated %+v", seq, to, jn.cheap, truth)
				}
				// boundPair rules a pair out on one join's new stage and
				// the other's stage before: a stage never lowers the bound.
				if to > boundDistances && (jn.cheap.value < before.value || jn.cheap.tie != before.tie || jn.cheap.vehicles != before.vehicles || jn.cheap.lost != before.lost) {
					t.Fatalf("%v: stage %d bounds the objective at %+v, below stage %d's %+v", seq, to, jn.cheap, to-1, before)
				}
				before = jn.cheap
			}
		}
	})
}

// simulateR plays a route's nodes from..L under R (no break rule) from an
// arrival at node from at time t with work w there, and returns its
// return, or inf when a window closes.
func simulateR(in *instance, r *route, from int, t, w float64) float64 {
	g := &r.seg
	L := len(r.seq)
	for k := from; k <= L; k++ {
		st, _, ok := earliestIn(in.sites[r.seq[k-1]].Windows, t)
		if !ok {
			return inf
		}
		if k > from {
			w = g.nodes[k].work
		}
		t = st + w + g.nodes[k].leg
	}
	return t
}

// latestR is the latest departure from the start depot under R that
// leaves node i of route r by y, by the backward pass; -inf when none.
func latestR(in *instance, r *route, i int, y float64) float64 {
	g := &r.seg
	for k := i; k >= 1; k-- {
		s, ok := latestIn(in.sites[r.seq[k-1]].Windows, y-g.nodes[k].work)
		if !ok {
			return -inf
		}
		y = s - g.nodes[k-1].leg
	}
	return y
}

// departR is the departure from node i of route r under R when it leaves
// its start depot at d0; inf when a window closes.
func departR(in *instance, r *route, i int, d0 float64) float64 {
	g := &r.seg
	t := d0
	for k := 1; k <= i; k++ {
		st, _, ok := earliestIn(in.sites[r.seq[k-1]].Windows, t+g.nodes[k-1].leg)
		if !ok {
			return inf
		}
		t = st + g.nodes[k].work
	}
	return t
}

// TestSegmentShiftsAreExact: the constant-time shifts of a cached schedule
// (a later or earlier arrival at a suffix, a later or sooner deadline for a
// prefix, a later or earlier departure) give what playing the route
// through under R gives, windows skipped or not.
func TestSegmentShiftsAreExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, r, _, _ := segmentRoutes(t, false)
		L := len(r.seq)
		if L == 0 {
			return
		}
		g := &r.seg
		// The bounds relax each latest start by timeTol, about 1e-9 of
		// the times involved, node by node.
		scale := 1 + math.Abs(g.nodes[L+1].busyPre) + math.Abs(in.types[r.typ].ShiftEnd) + math.Abs(g.dep[0])
		near := func(got, want float64) bool {
			if math.IsInf(want, 0) || math.IsInf(got, 0) {
				return got == want
			}
			return math.Abs(got-want) <= 1e-8*float64(L+1)*(scale+math.Abs(want))
		}
		for try := 0; try < 20; try++ {
			k := rapid.IntRange(1, L).Draw(t, "node")
			shift := float64(rapid.IntRange(-400, 400).Draw(t, "shift"))
			// returnFrom is a lower bound; exact while the schedule
			// stays feasible.
			arrive := g.times[k].arr + shift
			if want, got := simulateR(in, r, k, arrive, g.nodes[k].work), in.returnFrom(r, k, arrive, g.nodes[k].work); !near(got, want) && !(math.IsInf(want, 1) && got <= want) {
				t.Fatalf("return from node %d of %v arriving %g: %g, played %g", k, r.seq, arrive, got, want)
			}
			y := g.times[k].latFrom + shift
			if want, got := latestR(in, r, k, y), in.latestDeparture(r, k, y); got < want-1e-9*(1+math.Abs(want)) || (!math.IsInf(want, -1) && !near(got, want)) {
				t.Fatalf("latest departure of %v leaving node %d by %g: %g, played %g", r.seq, k, y, got, want)
			}
			d0 := g.dep[0] + shift
			if want, got := departR(in, r, k, d0), in.departPrefix(r, k, d0); !near(got, want) && !(math.IsInf(want, 1) && got <= want) {
				t.Fatalf("departure from node %d of %v leaving at %g: %g, played %g", k, r.seq, d0, got, want)
			}
		}
	})
}

// TestReorderBoundHolds: the bounds of moves inside a route from the
// distances of their new legs (relocate, swap of sites apart or next to
// each other, 2-opt) never exceed the simulated objective.
func TestReorderBoundHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, r, _, _ := segmentRoutes(t, true)
		L := len(r.seq)
		if L < 2 {
			return
		}
		var sch schedule
		nu := rapid.IntRange(1, L).Draw(t, "u")
		nv := rapid.IntRange(1, L).Draw(t, "v")
		if nu == nv {
			return
		}
		apart := nu-nv > 1 || nv-nu > 1
		u, v := r.seq[nu-1], r.seq[nv-1]
		var seq []int
		var lb objective
		switch move := rapid.IntRange(0, 3).Draw(t, "move"); {
		case move <= 1 && apart: // relocate u after (0) or before (1) v
			after := move == 0
			for _, s := range r.seq {
				if s == u {
					continue
				}
				if s == v && !after {
					seq = append(seq, u)
				}
				seq = append(seq, s)
				if s == v && after {
					seq = append(seq, u)
				}
			}
			lb = in.relocateBound(r, nu, nv, after)
		case move == 2: // swap
			seq = append(seq, r.seq...)
			seq[nu-1], seq[nv-1] = v, u
			if apart {
				lb = in.swapBound(r, nu, nv)
			} else {
				lb = in.swapNextBound(r, min(nu, nv))
			}
		case move == 3 && in.symmetric: // reverse the nodes after the first up to the second
			a, b := min(nu, nv), max(nu, nv)
			seq = append(seq, r.seq...)
			for x, y := a, b-1; x < y; x, y = x+1, y-1 {
				seq[x], seq[y] = seq[y], seq[x]
			}
			lb, _ = in.reverseBound(r, a, b, nil)
		default:
			return
		}
		if in.evaluate(r.typ, seq, &sch, false) != feasible {
			return
		}
		if truth := in.seqObjective(seq, sch.dist, sch.cost); truth.less(lb) {
			t.Fatalf("%v from %v: bound %+v, simulated %+v", seq, r.seq, lb, truth)
		}
	})
}

// TestDistancesOfOneSiteAgree: the distance stage written out for a join
// of one middle site (distancesOne, which the moves between routes and
// the insertions call) gives to the bit what the general one gives.
func TestDistancesOfOneSiteAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, ra, rb, out := segmentRoutes(t, true)
		if len(out) == 0 {
			t.Skip("no site left out")
		}
		for try := 0; try < 20; try++ {
			a, b := ra, rb
			if rapid.Bool().Draw(t, "swapRoutes") {
				a, b = rb, ra
			}
			if rapid.Bool().Draw(t, "sameRoute") {
				b = a
			}
			i := rapid.IntRange(0, len(a.seq)).Draw(t, "i")
			lo := 1
			if b == a {
				lo = i + 1
			}
			j := rapid.IntRange(lo, len(b.seq)+1).Draw(t, "j")
			m := out[rapid.IntRange(0, len(out)-1).Draw(t, "site")]
			var general, one join
			general.set(a, i, []int{m}, b, j)
			one.set(a, i, []int{m}, b, j)
			if !general.known() {
				continue
			}
			in.distances(&general)
			in.distancesOne(&one, m)
			if one.stage != boundDistances || one.n != general.n || one.cheap != general.cheap ||
				math.Float64bits(one.dist) != math.Float64bits(general.dist) || math.Float64bits(one.ends) != math.Float64bits(general.ends) {
				t.Fatalf("prefix %d of %v, site %d, suffix %d of %v: distancesOne gives n %d, distance %v, ends %v, bound %+v; distances %d, %v, %v, %+v",
					i, a.seq, m, j, b.seq, one.n, one.dist, one.ends, one.cheap, general.n, general.dist, general.ends, general.cheap)
			}
		}
	})
}

// TestTailsFitOneAgrees: the load check 2-opt* makes with one load
// dimension and routes of one trip (tailsFitOne) says what joinFits of
// both its routes says, for every pair of positions of two routes; the
// routes drawn overload some exchanges and not others.
func TestTailsFitOneAgrees(t *testing.T) {
	var fit, over int
	rapid.Check(t, func(t *rapid.T) {
		// Several instances a case: an overloading exchange comes up in
		// about one instance in ten, and a run of -short has 20 cases.
		for range 10 {
			in, ru, rv, _ := segmentRoutes(t, true)
			if !in.oneLoad {
				continue
			}
			for pu := range ru.seq {
				for pv := range rv.seq {
					want := in.joinFits(ru, pu+1, rv, pv+1) && in.joinFits(rv, pv, ru, pu+2)
					if got := tailsFitOne(ru, pu, rv, pv, in.capLimit); got != want {
						t.Fatalf("tails after %d of %v and from %d of %v: fit %v, joinFits says %v", pu, ru.seq, pv, rv.seq, got, want)
					}
					if want {
						fit++
					} else {
						over++
					}
				}
			}
		}
	})
	if fit == 0 || over == 0 {
		t.Fatalf("%d exchanges fit, %d overload: the check is not tested both ways", fit, over)
	}
}

// TestHeadTakesTheLatestDeparture: refreshEnds takes the first step of
// latestDeparture(r, k, inf) itself for each node's head; the head must
// be what the whole walk gives, to the bit.
func TestHeadTakesTheLatestDeparture(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Several instances a case: a head off by the leg before it
		// shows only where that node's last window binds, about one
		// instance in a thousand.
		for range 20 {
			in, r, _, _ := segmentRoutes(t, false)
			if !r.seg.ok || slices.ContainsFunc(in.types[r.typ].StartServicePerUnit, func(u float64) bool { return u != 0 }) {
				continue // the head is the work alone
			}
			g := &r.seg
			for k := 1; k <= len(r.seq); k++ {
				want := g.nodes[k].busyPre
				if b := in.latestDeparture(r, k, inf); b > -inf {
					want = max(want, g.dep[k]-b)
				}
				if g.nodes[k].head != want {
					t.Fatalf("node %d of %v: head %g, the latest departure gives %g", k, r.seq, g.nodes[k].head, want)
				}
			}
		}
	})
}
