package routeplan

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// genProblem draws a small instance that exercises every rule: several
// windows, several capacity dimensions, restricted vehicle types, duty,
// driving and break limits, and integral data so that times must come out
// integral.
func genProblem(t *rapid.T) *Problem {
	nSites := rapid.IntRange(1, 18).Draw(t, "sites")
	nLoc := nSites + 2
	xs := make([]float64, nLoc)
	ys := make([]float64, nLoc)
	for i := range xs {
		xs[i] = float64(rapid.IntRange(0, 100).Draw(t, "x"))
		ys[i] = float64(rapid.IntRange(0, 100).Draw(t, "y"))
	}
	p := &Problem{N: nLoc, Distance: make([]float64, nLoc*nLoc), Duration: make([]float64, nLoc*nLoc)}
	speed := float64(rapid.IntRange(1, 2).Draw(t, "speed"))
	for i := 0; i < nLoc; i++ {
		for j := 0; j < nLoc; j++ {
			d := math.Round(math.Hypot(xs[i]-xs[j], ys[i]-ys[j]))
			p.Distance[i*nLoc+j] = d
			p.Duration[i*nLoc+j] = math.Round(d * speed)
		}
	}
	dims := rapid.IntRange(0, 2).Draw(t, "dims")
	nTypes := rapid.IntRange(1, 4).Draw(t, "types")
	// Resources shared by several types, with small counts (0 included:
	// a type that needs it can never drive).
	for r := rapid.IntRange(0, 3).Draw(t, "resources"); r > 0; r-- {
		res := Resource{Count: rapid.IntRange(0, 3).Draw(t, "resourceCount"), PerTrip: rapid.Bool().Draw(t, "perTrip")}
		if rapid.IntRange(0, 2).Draw(t, "timed") == 0 {
			// Units that turn, some held already over the day.
			res.Timed = true
			res.Turnaround = float64(rapid.IntRange(0, 60).Draw(t, "turnaround"))
			if rapid.IntRange(0, 2).Draw(t, "holdLoading") == 0 {
				res.Holds = HoldLoading // a dock door
			}
			for b := rapid.IntRange(0, 2).Draw(t, "busy"); b > 0; b-- {
				from := float64(rapid.IntRange(0, 1500).Draw(t, "busyFrom"))
				res.Busy = append(res.Busy, Window{from, from + float64(rapid.IntRange(0, 600).Draw(t, "busyLen"))})
			}
		}
		p.Resources = append(p.Resources, res)
	}
	for k := 0; k < nTypes; k++ {
		vt := VehicleType{
			Count:         rapid.IntRange(0, 6).Draw(t, "count") % 6,
			StartLocation: rapid.IntRange(0, 1).Draw(t, "start"),
			EndLocation:   rapid.IntRange(0, 1).Draw(t, "end"),
			ShiftStart:    float64(rapid.IntRange(0, 100).Draw(t, "shiftStart")),
			FixedCost:     float64(rapid.IntRange(0, 100).Draw(t, "fixed")),
			TripCost:      float64(rapid.IntRange(0, 50).Draw(t, "tripCost")),
			DistanceCost:  float64(rapid.IntRange(0, 3).Draw(t, "dcost")),
			TimeCost:      float64(rapid.IntRange(0, 2).Draw(t, "tcost")),
		}
		vt.ShiftEnd = vt.ShiftStart + float64(rapid.IntRange(300, 2000).Draw(t, "shiftLen"))
		if rapid.Bool().Draw(t, "duty") {
			vt.MaxDuty = float64(rapid.IntRange(300, 1500).Draw(t, "maxDuty"))
		}
		if rapid.Bool().Draw(t, "driving") {
			vt.MaxDriving = float64(rapid.IntRange(300, 1000).Draw(t, "maxDriving"))
		}
		if rapid.Bool().Draw(t, "break") {
			vt.BreakAfter = float64(rapid.IntRange(200, 600).Draw(t, "breakAfter"))
			vt.BreakDuration = float64(rapid.IntRange(0, 60).Draw(t, "breakDuration"))
		}
		for d := 0; d < dims; d++ {
			vt.Capacity = append(vt.Capacity, float64(rapid.IntRange(5, 40).Draw(t, "cap")))
		}
		for r := range p.Resources {
			if rapid.Bool().Draw(t, "takes") {
				vt.Resources = append(vt.Resources, r)
			}
		}
		if rapid.Bool().Draw(t, "startService") {
			vt.StartService = float64(rapid.IntRange(0, 60).Draw(t, "startServiceLen"))
			if rapid.Bool().Draw(t, "startPerUnit") {
				for d := 0; d < dims; d++ {
					vt.StartServicePerUnit = append(vt.StartServicePerUnit, float64(rapid.IntRange(0, 5).Draw(t, "startPerUnitLen")))
				}
			}
			if rapid.Bool().Draw(t, "loading") {
				vt.Loading = &TripLoading{Fixed: float64(rapid.IntRange(0, 30).Draw(t, "loadingFixed")), Staging: float64(rapid.IntRange(0, 120).Draw(t, "staging"))}
				for d := 0; d < dims; d++ {
					vt.Loading.PerUnit = append(vt.Loading.PerUnit, float64(rapid.IntRange(0, 5).Draw(t, "loadingPerUnit")))
				}
			}
			// Windows with gaps, some of them before the shift starts.
			at := vt.ShiftStart + float64(rapid.IntRange(-150, 300).Draw(t, "sw0"))
			for w := rapid.IntRange(0, 3).Draw(t, "startWindows"); w > 0; w-- {
				length := float64(rapid.IntRange(0, 200).Draw(t, "swlen"))
				vt.StartWindows = append(vt.StartWindows, Window{at, at + length})
				at += length + float64(rapid.IntRange(1, 200).Draw(t, "swgap"))
			}
		}
		vt.MaxGroups = rapid.IntRange(0, 3).Draw(t, "maxGroups")
		if vt.StartLocation == vt.EndLocation && len(vt.StartServicePerUnit) == 0 && rapid.Bool().Draw(t, "trips") {
			vt.MaxTrips = rapid.IntRange(0, 4).Draw(t, "maxTrips")
		}
		p.VehicleTypes = append(p.VehicleTypes, vt)
	}
	for i := 0; i < nSites; i++ {
		s := Site{Location: i + 2, Service: float64(rapid.IntRange(0, 30).Draw(t, "service"))}
		if i > 0 && rapid.IntRange(0, 3).Draw(t, "sameLocation") == 0 {
			// A second order of the same store: it shares the stop.
			s.Location = p.Sites[i-1].Location
		}
		if rapid.Bool().Draw(t, "stopService") {
			s.StopService = float64(rapid.IntRange(0, 40).Draw(t, "stopServiceLen"))
		}
		perUnit := rapid.Bool().Draw(t, "perUnit")
		for d := 0; d < dims; d++ {
			s.Demand = append(s.Demand, float64(rapid.IntRange(0, 10).Draw(t, "demand")))
			if perUnit {
				s.ServicePerUnit = append(s.ServicePerUnit, float64(rapid.IntRange(0, 5).Draw(t, "servicePerUnit")))
			}
		}
		at := float64(rapid.IntRange(0, 800).Draw(t, "w0"))
		for w := rapid.IntRange(0, 3).Draw(t, "windows"); w > 0; w-- {
			length := float64(rapid.IntRange(0, 400).Draw(t, "wlen"))
			s.Windows = append(s.Windows, Window{at, at + length})
			at += length + float64(rapid.IntRange(0, 200).Draw(t, "wgap"))
		}
		if rapid.IntRange(0, 3).Draw(t, "restrict") == 0 {
			s.VehicleTypes = []int{}
			for k := 0; k < nTypes; k++ {
				if rapid.Bool().Draw(t, "allow") {
					s.VehicleTypes = append(s.VehicleTypes, k)
				}
			}
		}
		s.Group = rapid.IntRange(0, 3).Draw(t, "group")
		s.Value = float64(rapid.IntRange(0, 20).Draw(t, "value"))
		p.Sites = append(p.Sites, s)
	}
	p.Objective = Objective(rapid.IntRange(0, 2).Draw(t, "objective"))
	return p
}

func TestSolveFeasible(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		seed := rapid.Int64().Draw(t, "seed")
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 30, Seed: seed})
		if err != nil {
			t.Fatalf("Solve: %v", err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatalf("infeasible: %v", err)
		}
		for _, r := range sol.Routes {
			for _, v := range r.Visits {
				for _, x := range []float64{v.Arrival, v.Start, v.Departure, r.Depart, r.Return} {
					if x != math.Trunc(x) {
						t.Fatalf("time %g is not integral", x)
					}
				}
			}
		}
		again, _ := Solve(context.Background(), p, Options{MaxIterations: 30, Seed: seed})
		if !reflect.DeepEqual(sol, again) {
			t.Fatalf("same seed, different solutions")
		}
	})
}

// TestUnassignedReasons: a site left out for want of vehicles must be one
// that no spare vehicle can serve alone.
func TestUnassignedReasons(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 10})
		if err != nil {
			t.Fatal(err)
		}
		if err := checkFleetExhausted(p, sol); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSolveEmpty(t *testing.T) {
	sol, err := Solve(context.Background(), &Problem{}, Options{})
	if err != nil || len(sol.Routes) != 0 || len(sol.Unassigned) != 0 {
		t.Fatalf("got %+v, %v", sol, err)
	}
}

func TestCheck(t *testing.T) {
	p := &Problem{
		N:        2,
		Distance: []float64{0, 1, 1, 0},
		Duration: []float64{0, math.NaN(), 1},
		Sites: []Site{
			{Location: 1, Windows: []Window{{10, 5}}, Demand: []float64{-1}},
			{Location: 7, Demand: []float64{1, 2}, VehicleTypes: []int{3}},
		},
		VehicleTypes: []VehicleType{{Count: 1, Capacity: []float64{math.Inf(1)}, ShiftEnd: -1,
			Resources: []int{0, 3, 0}, StartService: -1, StartServicePerUnit: []float64{1, 2},
			StartWindows: []Window{{0, 10}, {5, 20}, {30, math.NaN()}}, MaxGroups: -1}},
		Resources: []Resource{{Count: -1}, {Count: 1, Timed: true, Turnaround: -5, Busy: []Window{{0, 10}, {20, 15}, {math.Inf(-1), 3}}}},
	}
	p.Sites[0].Value = -2
	err := Check(p)
	if !errors.Is(err, constraints.ErrInvalid) {
		t.Fatalf("want ErrInvalid, got %v", err)
	}
	for _, path := range []string{"duration", "sites[0].windows[0]", "sites[0].demand[0]", "sites[1].location", "sites[1].demand", "sites[1].vehicleTypes[0]", "vehicleTypes[0].capacity[0]", "vehicleTypes[0].shiftEnd",
		"resources[0].count", "vehicleTypes[0].resources[1]", "vehicleTypes[0].resources[2]", "vehicleTypes[0].startService",
		"vehicleTypes[0].startServicePerUnit", "vehicleTypes[0].startWindows[1]", "vehicleTypes[0].startWindows[2].end",
		"vehicleTypes[0].maxGroups", "sites[0].value", "resources[1].turnaround", "resources[1].busy[1]", "resources[1].busy[2].start"} {
		found := false
		for _, v := range constraints.AsViolations(err) {
			found = found || v.Path == path
		}
		if !found {
			t.Errorf("no violation at %s in\n%v", path, err)
		}
	}
	if _, err := Solve(context.Background(), p, Options{}); !errors.Is(err, constraints.ErrInvalid) {
		t.Errorf("Solve: want ErrInvalid, got %v", err)
	}
	if err := Check(nil); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Check(nil) = %v", err)
	}
}

// TestCancel: cancelling the context ends the search with its best
// solution. The cancel comes once the search reports its first solution
// (a cancel during construction, before any, is an error), not after a
// fixed time that a loaded machine may spend constructing; the time limit
// is an hour, so only the cancel ends the search within the test run.
func TestCancel(t *testing.T) {
	p := rapid.Custom(genProblem).Example(1)
	ctx, cancel := context.WithCancel(context.Background())
	found := make(chan struct{})
	var once sync.Once
	opts := Options{TimeLimit: time.Hour, Progress: func(Progress) { once.Do(func() { close(found) }) }}
	done := make(chan struct{})
	var sol *Solution
	var err error
	go func() {
		sol, err = Solve(ctx, p, opts)
		close(done)
	}()
	select {
	case <-found:
	case <-done:
		t.Fatalf("Solve returned before the cancel (err %v)", err)
	}
	cancel()
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if err := validateSolution(p, sol); err != nil {
		t.Fatal(err)
	}
}

// TestSolveAnyInput: whatever the problem, Solve returns an error or a
// solution that passes the checker; it never panics.
func TestSolveAnyInput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		f := rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), -1, 0, 1e18}).Draw(t, "bad")
		switch rapid.IntRange(0, 14).Draw(t, "corrupt") {
		case 0:
			p.Distance[rapid.IntRange(0, len(p.Distance)-1).Draw(t, "i")] = f
		case 1:
			p.Sites[0].Service = f
		case 2:
			p.Sites[0].Windows = append(p.Sites[0].Windows, Window{f, 0})
		case 3:
			p.VehicleTypes[0].ShiftEnd = f
		case 4:
			p.Sites[0].Location = rapid.IntRange(-3, p.N+3).Draw(t, "loc")
		case 5:
			p.N = rapid.IntRange(-1, p.N+1).Draw(t, "n")
		case 6:
			p.VehicleTypes[0].Capacity = append(p.VehicleTypes[0].Capacity, f)
		case 7:
			p.Objective = Objective(rapid.IntRange(-1, 3).Draw(t, "obj"))
		case 8:
			p.Sites[0].ServicePerUnit = []float64{f, f, f, f}[:rapid.IntRange(1, 4).Draw(t, "perUnitDims")]
		case 9:
			p.Resources = append(p.Resources, Resource{Count: rapid.IntRange(-2, 2).Draw(t, "resourceCount")})
			p.VehicleTypes[0].Resources = append(p.VehicleTypes[0].Resources, rapid.IntRange(-1, len(p.Resources)).Draw(t, "resource"))
		case 10:
			p.VehicleTypes[0].StartWindows = append(p.VehicleTypes[0].StartWindows, Window{f, f + 10}, Window{0, 5})
		case 11:
			p.VehicleTypes[0].StartServicePerUnit = []float64{f, f, f, f}[:rapid.IntRange(1, 4).Draw(t, "startPerUnitDims")]
		case 12:
			p.VehicleTypes[0].StartService = f
		case 13:
			p.Sites[0].Value = f
		case 14:
			p.VehicleTypes[0].MaxGroups = rapid.IntRange(-2, 2).Draw(t, "maxGroups")
		}
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 5})
		if err != nil {
			if !errors.Is(err, constraints.ErrInvalid) {
				t.Fatalf("error is not ErrInvalid: %v", err)
			}
			return
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
	})
}

func TestNoFleet(t *testing.T) {
	p := &Problem{N: 2, Distance: []float64{0, 1, 1, 0}, Duration: []float64{0, 1, 1, 0},
		Sites: []Site{{Location: 1}, {Location: 0}}}
	sol, err := Solve(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sol.Routes) != 0 || len(sol.Unassigned) != 2 || sol.Unassigned[0].Reason != NoCompatibleVehicle {
		t.Fatalf("got %+v", sol)
	}
}

// TestBreakRule pins the break semantics: a rest is taken at the last site
// before the leg that would exceed BreakAfter, and lengthens the departure
// to Arrival+BreakDuration.
func TestBreakRule(t *testing.T) {
	// Depot 0, sites at 1 and 2; every leg takes 60.
	p := &Problem{
		N:        3,
		Distance: []float64{0, 60, 60, 60, 0, 60, 60, 60, 0},
		Duration: []float64{0, 60, 60, 60, 0, 60, 60, 60, 0},
		Sites: []Site{
			{Location: 1, Service: 10, Windows: []Window{{0, 100}}},
			{Location: 2, Service: 10},
		},
		VehicleTypes: []VehicleType{{Count: 1, ShiftEnd: 1000, BreakAfter: 100, BreakDuration: 30, DistanceCost: 1}},
	}
	sol, err := Solve(context.Background(), p, Options{MaxIterations: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := validateSolution(p, sol); err != nil {
		t.Fatal(err)
	}
	if len(sol.Routes) != 1 {
		t.Fatalf("got %+v", sol)
	}
	r := sol.Routes[0]
	want := []Visit{{Site: 0, Arrival: 60, Start: 60, Departure: 90}, {Site: 1, Arrival: 150, Start: 150, Departure: 180}}
	if !reflect.DeepEqual(r.Visits, want) || r.Depart != 0 || r.Return != 240 || r.Driving != 180 {
		t.Fatalf("got depart %g return %g driving %g visits %+v, want visits %+v", r.Depart, r.Return, r.Driving, r.Visits, want)
	}
}

// TestStopServiceIsChargedOncePerStop: two orders of one store served one
// after the other share the stop, and its docking time is charged once.
func TestStopServiceIsChargedOncePerStop(t *testing.T) {
	p := &Problem{
		N:        2,
		Distance: []float64{0, 10, 10, 0},
		Duration: []float64{0, 100, 100, 0},
		Sites: []Site{
			{Location: 1, Service: 10, StopService: 30, Demand: []float64{1}},
			{Location: 1, Service: 20, StopService: 30, Demand: []float64{1}},
		},
		VehicleTypes: []VehicleType{{Count: 1, Capacity: []float64{2}, ShiftEnd: 1000}},
	}
	ev, err := NewEvaluator(p)
	if err != nil {
		t.Fatal(err)
	}
	r, reason, ok := ev.Route(0, []int{0, 1})
	if !ok {
		t.Fatalf("infeasible: %v", reason)
	}
	// Arrive at 100, docking and the first order until 140, the second
	// order until 160, back at 260.
	if got := r.Visits[0].Departure; got != 140 {
		t.Errorf("first order departs %g, want 140", got)
	}
	if got := r.Visits[1].Departure; got != 160 {
		t.Errorf("second order departs %g, want 160 (no second docking)", got)
	}
	if r.Return != 260 {
		t.Errorf("returns %g, want 260", r.Return)
	}
	// With the shift ending at 260 only a shared stop fits.
	p.VehicleTypes[0].ShiftEnd = 260
	sol, err := Solve(context.Background(), p, Options{MaxIterations: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(sol.Unassigned) != 0 || len(sol.Routes) != 1 {
		t.Fatalf("%d routes, %d unassigned; want both orders on one route", len(sol.Routes), len(sol.Unassigned))
	}
}

// TestRetypingFreesTheTrap: one driver, a cheap van that takes only the
// first order and a dearer trailer that takes both. Once the first order
// is on the van, the second fits nowhere and no driver is left to open a
// route: inserting it must move the route onto the trailer.
func TestRetypingFreesTheTrap(t *testing.T) {
	p := &Problem{
		N: 2, Distance: []float64{0, 10, 10, 0}, Duration: []float64{0, 100, 100, 0},
		Sites: []Site{
			{Location: 1, Service: 10, Demand: []float64{1}, VehicleTypes: []int{0, 1}},
			{Location: 1, Service: 10, Demand: []float64{1}, VehicleTypes: []int{1}},
		},
		Resources: []Resource{{ID: "driver", Count: 1}},
		VehicleTypes: []VehicleType{
			{ID: "van", Count: 1, Capacity: []float64{2}, ShiftEnd: 1000, FixedCost: 10, Resources: []int{0}},
			{ID: "trailer", Count: 1, Capacity: []float64{2}, ShiftEnd: 1000, FixedCost: 50, Resources: []int{0}},
		},
	}
	in := newInstance(p)
	sc := &scratch{}
	in.rankNewRoutes(sc, func() bool { return false })
	nb := newNeighbours(in, neighbourCount, func() bool { return false })
	st := newState(in)
	rng := rand.New(rand.NewPCG(1, 2))
	st.recreate([]int{0}, nb, 0, rng, sc)
	if len(st.routes) != 1 || st.routes[0].typ != 0 {
		t.Fatalf("the first order opened %d routes (type %d); want one van", len(st.routes), st.routes[0].typ)
	}
	st.recreate([]int{1}, nb, 0, rng, sc)
	if len(st.unassigned) != 0 || len(st.routes) != 1 || st.routes[0].typ != 1 || len(st.routes[0].seq) != 2 {
		t.Fatalf("%d routes, %d unassigned; want both orders on the trailer", len(st.routes), len(st.unassigned))
	}
	if st.used[0] != 0 || st.used[1] != 1 || st.resUsed[0] != 1 {
		t.Fatalf("vehicles used %v, resources used %v; want the trailer and the driver once", st.used, st.resUsed)
	}
}

// TestFreedOpening: two drivers, one short trailer and long ones. The
// first order takes the short trailer, which is cheaper; the second can
// only ride on the short trailer (its store takes no long ones). Opening
// its route must move the first order onto a long trailer.
func TestFreedOpening(t *testing.T) {
	p := &Problem{
		N: 3, Distance: []float64{0, 10, 10, 10, 0, 20, 10, 20, 0}, Duration: []float64{0, 100, 100, 100, 0, 200, 100, 200, 0},
		Sites: []Site{
			{Location: 1, Service: 10, Demand: []float64{1}, VehicleTypes: []int{0, 1}},
			{Location: 2, Service: 10, Demand: []float64{1}, VehicleTypes: []int{0}},
		},
		Resources: []Resource{{ID: "drivers", Count: 2}, {ID: "short", Count: 1}, {ID: "long", Count: 5}},
		VehicleTypes: []VehicleType{
			{ID: "short", Count: 2, Capacity: []float64{1}, ShiftEnd: 1000, FixedCost: 10, Resources: []int{0, 1}},
			{ID: "long", Count: 2, Capacity: []float64{1}, ShiftEnd: 1000, FixedCost: 20, Resources: []int{0, 2}},
		},
	}
	in := newInstance(p)
	sc := &scratch{}
	in.rankNewRoutes(sc, func() bool { return false })
	nb := newNeighbours(in, neighbourCount, func() bool { return false })
	st := newState(in)
	rng := rand.New(rand.NewPCG(1, 2))
	st.recreate([]int{0}, nb, 0, rng, sc)
	if len(st.routes) != 1 || st.routes[0].typ != 0 {
		t.Fatalf("the first order opened %d routes; want one on the short trailer", len(st.routes))
	}
	st.recreate([]int{1}, nb, 0, rng, sc)
	if len(st.unassigned) != 0 || len(st.routes) != 2 {
		t.Fatalf("%d routes, %d unassigned; want both orders served", len(st.routes), len(st.unassigned))
	}
	for _, r := range st.routes {
		want := 1
		if r.seq[0] == 1 {
			want = 0
		}
		if r.typ != want {
			t.Fatalf("order %d rides on type %d, want %d", r.seq[0], r.typ, want)
		}
		if r.cost != p.VehicleTypes[r.typ].FixedCost {
			t.Fatalf("route of order %d costs %g, want its type's %g", r.seq[0], r.cost, p.VehicleTypes[r.typ].FixedCost)
		}
	}
	if st.resUsed[1] != 1 || st.resUsed[2] != 1 || st.resUsed[0] != 2 {
		t.Fatalf("resources used %v; want 2 drivers, 1 short, 1 long", st.resUsed)
	}
}

// TestSolveEndsOnHugeNumbers: with one distance of 1e18, rounding made
// moves look like gains that the next move gave back, and the local search
// never ended (an iteration budget does not stop it: the budget counts
// ruins). Examples 12, 535, 752, 1071 and 1267 of this generator hung
// before the fix; every search must end by itself.
func TestSolveEndsOnHugeNumbers(t *testing.T) {
	gen := rapid.Custom(func(t *rapid.T) *Problem {
		p := genProblem(t)
		p.Distance[rapid.IntRange(0, len(p.Distance)-1).Draw(t, "huge")] = 1e18
		return p
	})
	for _, i := range []int{12, 535, 752, 1071, 1267, 0, 1, 2, 3} {
		p := gen.Example(i)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		sol, err := Solve(ctx, p, Options{MaxIterations: 5})
		if ctx.Err() != nil {
			t.Fatalf("example %d: Solve ran until its context ended", i)
		}
		cancel()
		if err != nil {
			t.Fatalf("example %d: %v", i, err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatalf("example %d: %v", i, err)
		}
	}
}
