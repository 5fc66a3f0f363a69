package routeplan

import (
	"context"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// planted is an instance built around routes known to be feasible, and how
// many there are.
type planted struct {
	p      *Problem
	routes int
}

// genPlanted draws 1-4 routes of 1-5 sites, feasible by construction, and
// hides them in a Problem: one shift group of one shift more than routes,
// two trailer types (two vehicle types) whose unit counts are one more
// than the planted routes that use each, a start service with per-pallet loading inside
// start windows with gaps, site windows around the planted arrivals, group
// limits the planted routes meet, and site values. The sites are shuffled.
func genPlanted(t *rapid.T) planted {
	nRoutes := rapid.IntRange(1, 4).Draw(t, "routes")
	sizes := make([]int, nRoutes)
	nSites := 0
	for k := range sizes {
		sizes[k] = rapid.IntRange(1, 5).Draw(t, "size")
		nSites += sizes[k]
	}
	m := nSites + 1
	xs, ys := make([]float64, m), make([]float64, m)
	for i := range xs {
		xs[i] = float64(rapid.IntRange(0, 100).Draw(t, "x"))
		ys[i] = float64(rapid.IntRange(0, 100).Draw(t, "y"))
	}
	p := &Problem{N: m, Distance: make([]float64, m*m), Duration: make([]float64, m*m)}
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			d := math.Round(math.Hypot(xs[i]-xs[j], ys[i]-ys[j]))
			p.Distance[i*m+j], p.Duration[i*m+j] = d, d
		}
	}
	shiftStart := float64(rapid.IntRange(0, 100).Draw(t, "shiftStart"))
	var startWindows []Window
	at := shiftStart - float64(rapid.IntRange(0, 50).Draw(t, "sw0"))
	for w := rapid.IntRange(1, 3).Draw(t, "startWindows"); w > 0; w-- {
		length := float64(rapid.IntRange(0, 100).Draw(t, "swlen"))
		startWindows = append(startWindows, Window{at, at + length})
		at += length + float64(rapid.IntRange(1, 150).Draw(t, "swgap"))
	}
	startService := float64(rapid.IntRange(0, 30).Draw(t, "startService"))
	perUnit := float64(rapid.IntRange(0, 2).Draw(t, "startPerUnit"))
	maxGroups := rapid.IntRange(0, 2).Draw(t, "maxGroups")

	sites := make([]Site, 0, nSites)
	trailerOf := make([]int, nRoutes)
	load := make([]float64, 2) // the largest planted load per trailer type
	units := make([]int, 2)
	shiftEnd, maxDuty := 0.0, 0.0
	loc := 1
	for k, size := range sizes {
		trailerOf[k] = rapid.IntRange(0, 1).Draw(t, "trailer")
		units[trailerOf[k]]++
		demands := make([]float64, size)
		total := 0.0
		for j := range demands {
			demands[j] = float64(rapid.IntRange(0, 8).Draw(t, "demand"))
			total += demands[j]
		}
		load[trailerOf[k]] = max(load[trailerOf[k]], total)
		// Loading begins inside a start window, at or after the shift start.
		var open []Window
		for _, w := range startWindows {
			if w.End >= shiftStart {
				open = append(open, Window{max(w.Start, shiftStart), w.End})
			}
		}
		if len(open) == 0 {
			// Every window closed before the shift: move the shift start.
			open = []Window{startWindows[0]}
		}
		w := open[rapid.IntRange(0, len(open)-1).Draw(t, "startWindow")]
		begin := w.Start + float64(rapid.IntRange(0, int(w.End-w.Start)).Draw(t, "begin"))
		shiftStart = min(shiftStart, begin)
		now := begin + startService + perUnit*total + float64(rapid.IntRange(0, 20).Draw(t, "waitAtDepot"))
		prev := 0
		group0 := rapid.IntRange(0, 3).Draw(t, "group0")
		for j := 0; j < size; j++ {
			now += p.Duration[prev*m+loc]
			s := Site{Location: loc, Demand: []float64{demands[j]}, Service: float64(rapid.IntRange(0, 20).Draw(t, "service")),
				Value: float64(rapid.IntRange(0, 5).Draw(t, "value"))}
			s.Windows = []Window{{now - float64(rapid.IntRange(0, 30).Draw(t, "early")), now + float64(rapid.IntRange(0, 60).Draw(t, "late"))}}
			if maxGroups > 0 {
				s.Group = group0 + rapid.IntRange(0, maxGroups-1).Draw(t, "group")
			}
			now += s.Service
			sites = append(sites, s)
			prev = loc
			loc++
		}
		now += p.Duration[prev*m]
		shiftEnd = max(shiftEnd, now)
		maxDuty = max(maxDuty, now-begin)
	}
	vt := VehicleType{ShiftStart: shiftStart, ShiftEnd: shiftEnd + float64(rapid.IntRange(0, 50).Draw(t, "shiftSlack")),
		StartService: startService, StartServicePerUnit: []float64{perUnit}, StartWindows: startWindows,
		MaxGroups: maxGroups, FixedCost: 100, DistanceCost: 1, TimeCost: float64(rapid.IntRange(0, 1).Draw(t, "timeCost"))}
	if rapid.Bool().Draw(t, "duty") {
		vt.MaxDuty = maxDuty + float64(rapid.IntRange(0, 50).Draw(t, "dutySlack"))
	}
	// One spare shift and one spare unit of each trailer: the slack that
	// lets a heuristic search of a few hundred iterations serve every
	// site (with none, about one instance in a thousand needs more).
	p.Resources = []Resource{{ID: "shifts", Count: nRoutes + 1}, {ID: "trailer-0", Count: units[0] + 1}, {ID: "trailer-1", Count: units[1] + 1}}
	for tr := 0; tr < 2; tr++ {
		v := vt
		v.Count = nRoutes
		v.Capacity = []float64{load[tr] + float64(rapid.IntRange(0, 5).Draw(t, "capSlack"))}
		v.Resources = []int{0, 1 + tr}
		p.VehicleTypes = append(p.VehicleTypes, v)
	}
	perm := rapid.Permutation(seqN(nSites)).Draw(t, "hide")
	for _, i := range perm {
		p.Sites = append(p.Sites, sites[i])
	}
	if rapid.Bool().Draw(t, "hierarchical") {
		p.Objective = Hierarchical
	}
	return planted{p, nRoutes}
}

// TestPlanted: Solve serves every site of a planted instance, with at most
// one route more than planted (the spare shift), and the checker accepts
// its solution.
func TestPlanted(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pl := genPlanted(t)
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
		if len(sol.Routes) > pl.routes+1 {
			t.Fatalf("%d routes, %d planted", len(sol.Routes), pl.routes)
		}
	})
}
