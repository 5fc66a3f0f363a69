package routeplan

import (
	"context"
	"testing"
)

const hour = 3600.0

// startProblem is a depot and one site an hour away, open all day, served
// by one vehicle whose loading takes loading.
func startProblem(vt VehicleType) *Problem {
	p := &Problem{N: 2, Distance: []float64{0, 50, 50, 0}, Duration: []float64{0, hour, hour, 0}}
	p.Sites = []Site{{Location: 1, Service: 600, Demand: []float64{10}}}
	vt.Count, vt.Capacity, vt.DistanceCost = 1, []float64{26}, 1
	p.VehicleTypes = []VehicleType{vt}
	return p
}

func TestStartWindows(t *testing.T) {
	for _, c := range []struct {
		name                string
		vt                  VehicleType
		site                []Window
		start, depart, duty float64
	}{
		{
			// The dock is closed 05:00-07:00: loading starts at 07:00,
			// not at the shift start.
			name: "dock reopens after the shift starts",
			vt: VehicleType{ShiftStart: 5.5 * hour, ShiftEnd: 18.5 * hour, StartService: 1800,
				StartWindows: []Window{{0, 5 * hour}, {7 * hour, 22 * hour}}},
			start: 7 * hour, depart: 7.5 * hour, duty: 0.5*hour + 2*hour + 600,
		},
		{
			// Open overnight from 22:00 (the day before) to 06:00: loading
			// of 2 h starts with the shift at 05:30, departure at 07:30.
			name: "overnight dock",
			vt: VehicleType{ShiftStart: 5.5 * hour, ShiftEnd: 18.5 * hour, StartService: 2 * hour,
				StartWindows: []Window{{-2 * hour, 6 * hour}}},
			start: 5.5 * hour, depart: 7.5 * hour, duty: 2*hour + 2*hour + 600,
		},
		{
			// Loading per pallet: 10 pallets of 3 min each after 10 min.
			name:  "per unit",
			vt:    VehicleType{ShiftStart: hour, ShiftEnd: 20 * hour, StartService: 600, StartServicePerUnit: []float64{180}},
			start: hour, depart: hour + 600 + 1800, duty: 2400 + 2*hour + 600,
		},
		{
			// The site opens at 03:00: loading starts as late as its
			// window allows, at 01:00, and the vehicle waits, on duty,
			// until the departure that arrives as the site opens.
			name: "wait after loading",
			vt: VehicleType{ShiftStart: 0, ShiftEnd: 20 * hour, StartService: 1800, TimeCost: 1,
				StartWindows: []Window{{0, hour}}},
			site:  []Window{{3 * hour, 10 * hour}},
			start: hour, depart: 2 * hour, duty: 3*hour + 600,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := startProblem(c.vt)
			p.Sites[0].Windows = c.site
			if newInstance(p).exact {
				t.Fatal("Solomon case with a start service")
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
			if r.Start != c.start || r.Depart != c.depart || r.Duration != c.duty {
				t.Fatalf("start %g depart %g duty %g, want %g %g %g", r.Start, r.Depart, r.Duration, c.start, c.depart, c.duty)
			}
		})
	}
}

// TestStartWindowsDuty: a route that must depart late loads in the latest
// window that still lets it depart on time, so that its duty is short
// enough; loading in the first window would break MaxDuty.
func TestStartWindowsDuty(t *testing.T) {
	p := startProblem(VehicleType{ShiftStart: 0, ShiftEnd: 20 * hour, StartService: 1800, MaxDuty: 4 * hour,
		StartWindows: []Window{{0, hour}, {6 * hour, 7 * hour}, {12 * hour, 13 * hour}}})
	p.Sites[0].Windows = []Window{{8 * hour, 9 * hour}}
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
	if r.Start != 6.5*hour || r.Depart != 7*hour {
		t.Fatalf("start %g depart %g, want loading from %g, departure at %g", r.Start, r.Depart, 6.5*hour, 7*hour)
	}
}
