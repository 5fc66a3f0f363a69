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
		Count:      rapid.IntRange(1, 3).Draw(t, "doors"),
		Turnaround: float64(rapid.IntRange(0, 30).Draw(t, "doorTurnaround"))}
	for b := rapid.IntRange(0, 6).Draw(t, "doorBusy"); b > 0; b-- {
		from := float64(rapid.IntRange(-200, 1500).Draw(t, "doorBusyFrom"))
		doors.Busy = append(doors.Busy, Window{from, from + float64(rapid.IntRange(0, 900).Draw(t, "doorBusyLen"))})
	}
	x := len(p.Resources)
	p.Resources = append(p.Resources, doors)
	for k := range p.VehicleTypes {
		p.VehicleTypes[k].Resources = append(p.VehicleTypes[k].Resources, x)
	}
	return p
}

// TestLoadingReachRefusesOnlyWhatHoldsFitRefuses: on states built by
// insertion on days with busy dock doors, every insertion and every new
// route that the exact check accepts (simulated feasible, then holdsFit)
// passes the reach tests: they never rule out a place the search would
// have taken.
func TestLoadingReachRefusesOnlyWhatHoldsFitRefuses(t *testing.T) {
	ruledOut := 0
	rapid.Check(t, func(t *rapid.T) {
		p := withDockDoors(t)
		in := newInstance(p)
		sc := &scratch{}
		servable, _, _, _ := in.rankNewRoutes(sc, func() bool { return false })
		nb := newNeighbours(in, neighbourCount, func() bool { return false })
		st := newState(in)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		order := append([]int(nil), servable...)
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		// Build routes with part of the sites, and try the others (and
		// the routed ones elsewhere) against them.
		placed := rapid.IntRange(0, len(order)).Draw(t, "placed")
		for _, u := range order[:placed] {
			st.recreate([]int{u}, nb, 0, rng, sc)
		}
		for _, u := range servable {
			for k, r := range st.routes {
				if st.where[u] == k || !st.mayTake(u, k) {
					continue
				}
				for pos := 0; pos <= len(r.seq); pos++ {
					seq := withInsert(nil, r.seq, u, pos)
					reach := st.insertionReachesRoom(u, k, pos, seq, sc)
					if !reach {
						ruledOut++
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
					ruledOut++
				}
				if st.holdsFitOne(-1, ty, []int{u}, sc) && !reach {
					t.Fatalf("site %d on a new route of type %d: holdsFit takes it, the reach test rules it out", u, ty)
				}
			}
		}
	})
	// The property is empty if the tests never rule anything out.
	if ruledOut == 0 {
		t.Fatalf("the reach tests ruled nothing out: the days do not test them")
	}
}

// TestLoadingReachKeepsTheSolution: with dock doors busy, Solve finds the
// same solution with the reach tests and without them, at a fixed
// iteration budget: they only spare the search timings whose answer is
// no.
func TestLoadingReachKeepsTheSolution(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := withDockDoors(t)
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
