package routeplan

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// fourSites is a depot and four sites 10 apart from each other and from
// it, each taking 5 of demand and 5 of service.
func fourSites() *Problem {
	p := &Problem{N: 5, Distance: make([]float64, 25), Duration: make([]float64, 25)}
	for i := 0; i < 5; i++ {
		for j := 0; j < 5; j++ {
			if i != j {
				p.Distance[i*5+j], p.Duration[i*5+j] = 10, 10
			}
		}
	}
	for i := 1; i < 5; i++ {
		p.Sites = append(p.Sites, Site{Location: i, Service: 5, Demand: []float64{5}})
	}
	return p
}

// TestTripsServeMoreThanOneLoad: one vehicle whose capacity holds half the
// demand serves every site in two trips when its type allows two, and
// only half of them when it allows one.
func TestTripsServeMoreThanOneLoad(t *testing.T) {
	p := fourSites()
	vt := VehicleType{Count: 1, Capacity: []float64{10}, ShiftEnd: 1000, StartService: 15, DistanceCost: 1}
	for _, trips := range []int{1, 2} {
		vt.MaxTrips = trips
		p.VehicleTypes = []VehicleType{vt}
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 200, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		served := 4 - len(sol.Unassigned)
		if want := 2 * trips; served != want {
			t.Fatalf("MaxTrips %d: %d sites served, want %d", trips, served, want)
		}
		if trips == 2 {
			r := sol.Routes[0]
			if len(r.Reloads) != 1 || r.Reloads[0].After != 2 {
				t.Fatalf("reloads %+v, want one after 2 visits", r.Reloads)
			}
			// Out and back twice, three legs each, and the reload takes
			// the start service again.
			rl := r.Reloads[0]
			if rl.Arrival != r.Visits[1].Departure+10 || rl.Departure != rl.Start+15 || r.Visits[2].Arrival != rl.Departure+10 {
				t.Fatalf("reload %+v between visits %+v and %+v", rl, r.Visits[1], r.Visits[2])
			}
		}
	}
}

// plantedTrips is an instance built around shifts of several trips known
// to be feasible, and how many shifts there are.
type plantedTrips struct {
	p      *Problem
	shifts int
}

// genPlantedTrips draws 1-3 shifts of 1-3 trips of 1-4 sites, feasible by
// construction: each trip loads (the start service, inside start windows),
// visits its sites, which open around the planted arrivals, and returns;
// the next waits a little at the depot. The capacity is the heaviest trip
// plus a little, so that trips rarely merge; the fleet is the planted
// shifts and one more, each driving as many trips as the busiest planted
// shift, within a duty limit and a break rule the planted shifts keep.
func genPlantedTrips(t *rapid.T) plantedTrips {
	nShifts := rapid.IntRange(1, 3).Draw(t, "shifts")
	var shape [][]int // sites per trip per shift
	nSites := 0
	for s := 0; s < nShifts; s++ {
		var trips []int
		for n := rapid.IntRange(1, 3).Draw(t, "trips"); n > 0; n-- {
			k := rapid.IntRange(1, 4).Draw(t, "size")
			trips = append(trips, k)
			nSites += k
		}
		shape = append(shape, trips)
	}
	m := nSites + 1
	xs, ys := make([]float64, m), make([]float64, m)
	for i := range xs {
		xs[i] = float64(rapid.IntRange(0, 60).Draw(t, "x"))
		ys[i] = float64(rapid.IntRange(0, 60).Draw(t, "y"))
	}
	p := &Problem{N: m, Distance: make([]float64, m*m), Duration: make([]float64, m*m)}
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			d := math.Round(math.Hypot(xs[i]-xs[j], ys[i]-ys[j]))
			p.Distance[i*m+j], p.Duration[i*m+j] = d, d
		}
	}
	hook := float64(rapid.IntRange(0, 20).Draw(t, "hook"))
	// Two start windows with a gap: reloads wait for the second when the
	// first has closed.
	w0 := float64(rapid.IntRange(100, 400).Draw(t, "w0"))
	windows := []Window{{0, w0}, {w0 + float64(rapid.IntRange(1, 60).Draw(t, "gap")), 5000}}
	breakAfter := float64(rapid.IntRange(150, 400).Draw(t, "breakAfter"))
	const breakDuration = 30
	var sites []Site
	heaviest, maxTrips, maxDuty := 0.0, 0, 0.0
	loc := 1
	for _, trips := range shape {
		maxTrips = max(maxTrips, len(trips))
		begin := float64(rapid.IntRange(0, 50).Draw(t, "begin"))
		now := begin
		since := 0.0
		for _, size := range trips {
			// The reload (or the start): into a window, the start service,
			// then perhaps a wait, which counts as a break when long.
			st, _, _ := earliestIn(windows, now)
			arrived := now
			now = st + hook + float64(rapid.IntRange(0, 40).Draw(t, "waitAtDepot"))
			if now-arrived >= breakDuration {
				since = 0
			}
			prev := 0
			load := 0.0
			for j := 0; j <= size; j++ {
				next := 0
				if j < size {
					next = loc
				}
				leg := p.Duration[prev*m+next]
				if since+leg > breakAfter {
					now += breakDuration // a rest where the truck is
					since = 0
				}
				since += leg
				now += leg
				if j == size {
					break
				}
				s := Site{Location: loc, Demand: []float64{float64(rapid.IntRange(1, 9).Draw(t, "demand"))},
					Service: float64(rapid.IntRange(0, 20).Draw(t, "service"))}
				s.Windows = []Window{{now - float64(rapid.IntRange(0, 30).Draw(t, "early")), now + float64(rapid.IntRange(0, 60).Draw(t, "late"))}}
				load += s.Demand[0]
				now += s.Service
				sites = append(sites, s)
				prev = loc
				loc++
			}
			heaviest = max(heaviest, load)
		}
		maxDuty = max(maxDuty, now-begin)
	}
	p.VehicleTypes = []VehicleType{{
		Count: nShifts + 1, Capacity: []float64{heaviest + float64(rapid.IntRange(0, 3).Draw(t, "capSlack"))},
		ShiftEnd: 5000, StartService: hook, StartWindows: windows,
		MaxDuty: maxDuty + float64(rapid.IntRange(0, 30).Draw(t, "dutySlack")), BreakAfter: breakAfter, BreakDuration: breakDuration,
		MaxTrips: maxTrips, FixedCost: 1000, DistanceCost: 1, TimeCost: float64(rapid.IntRange(0, 1).Draw(t, "timeCost")),
	}}
	perm := rapid.Permutation(seqN(nSites)).Draw(t, "hide")
	for _, i := range perm {
		p.Sites = append(p.Sites, sites[i])
	}
	p.Objective = Objective(rapid.IntRange(0, 2).Draw(t, "objective"))
	return plantedTrips{p, nShifts}
}

// TestPlantedTrips: Solve serves every site of an instance planted with
// shifts of several trips, with at most one route more than the planted
// shifts (the spare), and the checker accepts its solution.
func TestPlantedTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pl := genPlantedTrips(t)
		sol, err := Solve(context.Background(), pl.p, Options{MaxIterations: 300, Seed: rapid.Int64().Draw(t, "seed")})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(pl.p, sol); err != nil {
			t.Fatal(err)
		}
		if len(sol.Unassigned) > 0 {
			t.Fatalf("%d sites unassigned, first %+v", len(sol.Unassigned), sol.Unassigned[0])
		}
		if len(sol.Routes) > pl.shifts+1 {
			t.Fatalf("%d routes, %d planted shifts", len(sol.Routes), pl.shifts)
		}
	})
}

// TestCheckTrips: a type of several trips must reload where it starts, so
// it ends there, and its start service has no part per unit of load; a
// negative MaxTrips is reported too, each at its path.
func TestCheckTrips(t *testing.T) {
	p := &Problem{N: 2, Distance: []float64{0, 1, 1, 0}, Duration: []float64{0, 1, 1, 0},
		Sites: []Site{{Location: 1, Demand: []float64{1}}},
		VehicleTypes: []VehicleType{
			{Count: 1, Capacity: []float64{1}, ShiftEnd: 10, MaxTrips: 2, EndLocation: 1, StartServicePerUnit: []float64{2}},
			{Count: 1, Capacity: []float64{1}, ShiftEnd: 10, MaxTrips: -1},
			{Count: 1, Capacity: []float64{1}, ShiftEnd: 10, MaxTrips: 3, StartServicePerUnit: []float64{0}},
		}}
	err := Check(p)
	want := map[string]string{
		"vehicleTypes[0].endLocation":            CodeTripsMismatch,
		"vehicleTypes[0].startServicePerUnit[0]": CodeTripsMismatch,
		"vehicleTypes[1].maxTrips":               CodeNegative,
	}
	got := map[string]string{}
	for _, v := range constraints.AsViolations(err) {
		got[v.Path] = v.Code
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("violations %v, want %v", got, want)
	}
}

// TestPerTripResourceCountsTrips: a resource taken per trip caps the trips
// of all routes together: with one unit, the vehicle that could serve
// every site in two trips serves one trip's sites.
func TestPerTripResourceCountsTrips(t *testing.T) {
	p := fourSites()
	for _, units := range []int{1, 2} {
		p.Resources = []Resource{{ID: "trailers", Count: units, PerTrip: true}}
		p.VehicleTypes = []VehicleType{{Count: 1, Capacity: []float64{10}, ShiftEnd: 1000, StartService: 15, DistanceCost: 1, MaxTrips: 2, Resources: []int{0}}}
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 200, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if served, want := 4-len(sol.Unassigned), 2*units; served != want || sol.Trips != units {
			t.Fatalf("%d units: %d sites served in %d trips, want %d in %d", units, served, sol.Trips, want, units)
		}
	}
}

// TestGroupsCountPerTrip: a type of one group a trip (a reefer's set
// point) serves two sites of group 0 and two of group 1 in two trips, one
// group each; allowed one trip, it serves one group's two sites only.
func TestGroupsCountPerTrip(t *testing.T) {
	p := fourSites()
	for i := range p.Sites {
		p.Sites[i].Group = i / 2
	}
	for _, trips := range []int{1, 2} {
		p.VehicleTypes = []VehicleType{{Count: 1, Capacity: []float64{10}, ShiftEnd: 1000, StartService: 15, DistanceCost: 1, MaxGroups: 1, MaxTrips: trips}}
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 200, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if served := 4 - len(sol.Unassigned); served != 2*trips {
			t.Fatalf("%d trips: %d sites served, want %d", trips, served, 2*trips)
		}
	}
}
