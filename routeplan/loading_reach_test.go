package routeplan

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// withDockDoors is genProblem's instance with one more Timed resource
// held over loadings that every type takes: a few doors, busy over long
// stretches of the day, so that many loadings find none free in time
// and the reach tests have something to rule out.
func withDockDoors(t *rapid.T) *Problem {
	p := genProblem(t)
	doors := Resource{ID: "doors", Timed: true, Holds: HoldLoading,
		Count:      rapid.IntRange(1, 2).Draw(t, "doors"),
		Turnaround: float64(rapid.IntRange(0, 30).Draw(t, "doorTurnaround"))}
	// Every door loads other trailers until late, then some more.
	for range doors.Count {
		doors.Busy = append(doors.Busy, Window{-1000, float64(rapid.IntRange(0, 1500).Draw(t, "doorFullUntil"))})
	}
	for b := rapid.IntRange(0, 4).Draw(t, "doorBusy"); b > 0; b-- {
		from := float64(rapid.IntRange(-200, 1500).Draw(t, "doorBusyFrom"))
		doors.Busy = append(doors.Busy, Window{from, from + float64(rapid.IntRange(0, 1500).Draw(t, "doorBusyLen"))})
	}
	// And a few drivers that some types need, so that a type is often
	// short of drivers alone while a type without them could take over a
	// route (bestFreedNewRoute's move).
	drivers := Resource{ID: "drivers", Count: 1}
	x := len(p.Resources)
	p.Resources = append(p.Resources, doors, drivers)
	for k := range p.VehicleTypes {
		vt := &p.VehicleTypes[k]
		vt.Resources = append(vt.Resources, x)
		vt.Count = max(vt.Count, 1)
		if vt.StartService == 0 && vt.Loading == nil {
			// Every loading takes the door a while.
			vt.StartService = float64(rapid.IntRange(10, 60).Draw(t, "doorLoading"))
		}
		if rapid.Bool().Draw(t, "driven") {
			vt.Resources = append(vt.Resources, x+1)
		}
	}
	return p
}

// TestLoadingReachRefusesOnlyWhatHoldsFitRefuses: on states built by
// insertion on days with busy dock doors, every insertion and every new
// route that the exact check accepts (simulated feasible, then holdsFit)
// passes the reach tests: they never rule out a place the search would
// have taken.
func TestLoadingReachRefusesOnlyWhatHoldsFitRefuses(t *testing.T) {
	ruledOut, freedChecked := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		p := withDockDoors(t)
		in := newInstance(p)
		sc := &scratch{}
		servable, _, _, _ := in.rankNewRoutes(sc, func() bool { return false })
		nb := newNeighbours(in, neighbourCount, func() bool { return false })
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		// Build routes with part of the sites, in several orders, and try
		// every site against each state (the routed ones elsewhere).
		for range 8 {
			st := newState(in)
			order := append([]int(nil), servable...)
			rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
			for _, u := range order[:rng.IntN(len(order)+1)] {
				st.recreate([]int{u}, nb, 0, rng, sc)
			}
			checkReach(t, st, servable, sc, &ruledOut, &freedChecked)
		}
	})
	// The property is empty if the tests never rule anything out (a
	// short run's few small days may not).
	if ruledOut == 0 && !testing.Short() {
		t.Fatalf("the reach tests ruled nothing out: the days do not test them")
	}
}

// freedDay is a day for bestFreedNewRoute's move: one driver, whom a
// type of trailer needs and the other does not, one or two dock doors
// taken until late, sites whose windows close at random, so that a new
// route of the first type is often short of the driver alone, the route
// holding him could change type, and the new route's loading (longer
// with more pallets) often reaches no door, or one only once that
// route's loadings are given up.
func freedDay(t *rapid.T) *Problem {
	p := fourSites()
	for i := range p.Sites {
		at := float64(rapid.IntRange(0, 600).Draw(t, "open"))
		p.Sites[i].Windows = []Window{{at, at + float64(rapid.IntRange(0, 300).Draw(t, "window"))}}
		p.Sites[i].Demand = []float64{float64(rapid.IntRange(1, 10).Draw(t, "demand"))}
	}
	doors := Resource{ID: "doors", Timed: true, Holds: HoldLoading,
		Count:      rapid.IntRange(1, 2).Draw(t, "doors"),
		Turnaround: float64(rapid.IntRange(0, 20).Draw(t, "doorTurnaround"))}
	for range doors.Count {
		doors.Busy = append(doors.Busy, Window{-1000, float64(rapid.IntRange(0, 700).Draw(t, "doorFullUntil"))})
	}
	p.Resources = []Resource{doors, {ID: "driver", Count: 1}}
	for _, driven := range []bool{true, false} {
		vt := VehicleType{Count: 2, Capacity: []float64{10}, ShiftEnd: 1000, Resources: []int{0},
			StartService: 5, DistanceCost: 1, StartWindows: []Window{{0, 800}},
			Loading: &TripLoading{Fixed: float64(rapid.IntRange(5, 60).Draw(t, "loading")),
				PerUnit: []float64{float64(rapid.IntRange(0, 10).Draw(t, "loadingPerUnit"))},
				Staging: float64(rapid.IntRange(0, 120).Draw(t, "staging"))}}
		if driven {
			vt.Resources = append(vt.Resources, 1)
		}
		p.VehicleTypes = append(p.VehicleTypes, vt)
	}
	return p
}

// TestFreedNewRouteReach: on freedDay's days, every new route that frees
// a resource (bestFreedNewRoute's move) that holdsFit accepts passes
// freedNewRoutesReach, as every insertion and new route passes the other
// reach tests (see TestLoadingReachRefusesOnlyWhatHoldsFitRefuses).
func TestFreedNewRouteReach(t *testing.T) {
	ruledOut, freedChecked := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		p := freedDay(t)
		in := newInstance(p)
		sc := &scratch{}
		servable, _, _, _ := in.rankNewRoutes(sc, func() bool { return false })
		nb := newNeighbours(in, neighbourCount, func() bool { return false })
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		for range 8 {
			st := newState(in)
			order := append([]int(nil), servable...)
			rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
			for _, u := range order[:rng.IntN(len(order)+1)] {
				st.recreate([]int{u}, nb, 0, rng, sc)
			}
			checkReach(t, st, servable, sc, &ruledOut, &freedChecked)
		}
	})
	if freedChecked == 0 && !testing.Short() {
		t.Fatalf("no new route that frees a resource was ruled out: the days do not test it")
	}
}

// checkReach checks every insertion of every site of servable in st, every
// new route and every new route that frees a resource, against holdsFit
// (see TestLoadingReachRefusesOnlyWhatHoldsFitRefuses), counting the
// places the reach tests rule out.
func checkReach(t *rapid.T, st *state, servable []int, sc *scratch, ruledOut, freedChecked *int) {
	in := st.in
	for _, u := range servable {
		{
			for k, r := range st.routes {
				if st.where[u] == k || !st.mayTake(u, k) {
					continue
				}
				for pos := 0; pos <= len(r.seq); pos++ {
					seq := withInsert(nil, r.seq, u, pos)
					reach := st.insertionReachesRoom(u, k, pos, seq, sc)
					if !reach {
						*ruledOut++
					}
					if in.evaluateCandidate(r.typ, seq, &sc.sch, &sc.simulated) != feasible {
						continue
					}
					if st.holdsFitOne(k, r.typ, seq, sc) && !reach {
						t.Fatalf("site %d at %d of route %d %v (type %d): holdsFit takes it, the reach test rules it out", u, pos, k, r.seq, r.typ)
					}
				}
			}
			for _, t32 := range in.newRouteTypes[u] {
				ty := int(t32)
				if !st.canOpen(ty) {
					continue
				}
				reach := st.newRouteReachesRoom(u, ty, sc)
				if !reach {
					*ruledOut++
				}
				if st.holdsFitOne(-1, ty, []int{u}, sc) && !reach {
					t.Fatalf("site %d on a new route of type %d: holdsFit takes it, the reach test rules it out", u, ty)
				}
			}
			// Every new route bestFreedNewRoute may propose: a type
			// short of one resource, a holder of it changing type.
			if st.freedNewRoutesReach(u, sc) {
				continue
			}
			var tried []int
			for _, t32 := range in.newRouteTypes[u] {
				ty := int(t32)
				if len(tried) == retypeTypes {
					break
				}
				blocked := st.freedBlock(ty, tried)
				if blocked < 0 {
					continue
				}
				tried = append(tried, blocked)
				for k, r := range st.routes {
					if !usesResource(in.types[r.typ].Resources, blocked) {
						continue
					}
					for t2 := range in.types {
						if t2 == r.typ || usesResource(in.types[t2].Resources, blocked) || !st.canRetype(r, t2) {
							continue
						}
						ins := insertion{k: -ty - 1, ok: true, retype: true, rk: k, typ: t2}
						if st.insertionHoldsFit(u, ins, sc) {
							t.Fatalf("site %d on a new route of type %d, route %d changing to type %d: holdsFit takes it, the reach test rules it out", u, ty, k, t2)
						}
						*freedChecked++
					}
				}
			}
		}
	}
}

// TestLoadingReachKeepsTheSolution: with dock doors busy, Solve finds the
// same solution with the reach tests and without them, at a fixed
// iteration budget: they only spare the search timings whose answer is
// no.
func TestLoadingReachKeepsTheSolution(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := withDockDoors(t)
		if rapid.Bool().Draw(t, "freedDay") {
			p = freedDay(t)
		}
		opts := Options{MaxIterations: 30, Seed: rapid.Int64().Draw(t, "seed")}
		with, err := solve(context.Background(), p, opts, hooks{})
		if err != nil {
			t.Fatal(err)
		}
		without, err := solve(context.Background(), p, opts, hooks{noReach: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(with, without) {
			t.Fatalf("the reach tests changed the solution:\nwith    %+v\nwithout %+v", with, without)
		}
	})
}

// TestHoldRoomByFindsEveryHoldThatFits: whenever a hold fits, starting
// in a window by a limit (latestFreeIn walks every instant), holdRoomBy
// finds room for it; without a limit it answers as holdRoomFor does.
func TestHoldRoomByFindsEveryHoldThatFits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st, adj := doorTimeline(t)
		lo := float64(rapid.IntRange(-10, 250).Draw(t, "lo"))
		limit := lo + float64(rapid.IntRange(0, 120).Draw(t, "window"))
		ws := []Window{{lo, limit + float64(rapid.IntRange(0, 60).Draw(t, "windowPastLimit"))}}
		dur := float64(rapid.IntRange(0, 90).Draw(t, "dur"))
		var ev []countStep
		var buf []run
		if at, ok := st.latestFreeIn(0, limit, dur, lo, adj, &ev); ok && !st.holdRoomBy(0, dur, ws, limit, adj, &buf) {
			t.Fatalf("holdRoomBy in [%g, %g] for %g: no room, but a hold fits from %g", lo, limit, dur, at)
		}
		if got, want := st.holdRoomBy(0, dur, ws, inf, adj, &buf), st.holdRoomFor(0, dur, ws, adj); got != want {
			t.Fatalf("holdRoomBy in %v for %g without a limit: %v, holdRoomFor %v", ws, dur, got, want)
		}
	})
}
