package routeplan

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// genFastProblem draws an instance the constant-time checks apply to: one
// window per site (or none), no break, duty, driving limit or time cost, and
// loose enough limits that feasible routes are long.
func genFastProblem(t *rapid.T) *Problem {
	n := rapid.IntRange(8, 16).Draw(t, "sites")
	m := n + 2
	p := &Problem{N: m, Distance: make([]float64, m*m), Duration: make([]float64, m*m)}
	xs, ys := make([]float64, m), make([]float64, m)
	for i := range xs {
		xs[i] = float64(rapid.IntRange(0, 60).Draw(t, "x"))
		ys[i] = float64(rapid.IntRange(0, 60).Draw(t, "y"))
	}
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			d := math.Floor(math.Hypot(xs[i]-xs[j], ys[i]-ys[j]))
			p.Distance[i*m+j], p.Duration[i*m+j] = d, d
		}
	}
	if rapid.Bool().Draw(t, "asymmetric") {
		// Lengthen some legs one way only, so both matrix layouts are tested.
		for k := rapid.IntRange(1, 10).Draw(t, "skews"); k > 0; k-- {
			e := rapid.IntRange(0, m*m-1).Draw(t, "entry")
			p.Distance[e]++
			p.Duration[e] += 2
		}
	}
	p.VehicleTypes = []VehicleType{{
		Count: 3, Capacity: []float64{float64(rapid.IntRange(10, 100).Draw(t, "cap"))},
		StartLocation: 0, EndLocation: rapid.IntRange(0, 1).Draw(t, "end"),
		ShiftStart: 0, ShiftEnd: float64(rapid.IntRange(300, 1500).Draw(t, "shiftEnd")), DistanceCost: 1,
	}}
	for i := 0; i < n; i++ {
		s := Site{Location: i + 2, Service: float64(rapid.IntRange(0, 20).Draw(t, "service")),
			Demand: []float64{float64(rapid.IntRange(0, 10).Draw(t, "demand"))}}
		if rapid.IntRange(0, 4).Draw(t, "open") > 0 {
			start := float64(rapid.IntRange(0, 800).Draw(t, "start"))
			s.Windows = []Window{{start, start + float64(rapid.IntRange(0, 500).Draw(t, "width"))}}
		}
		p.Sites = append(p.Sites, s)
	}
	return p
}

func seqN(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestSolomonCaseMatchesSimulation: on feasible routes, the joins that
// make an insertion, a removal, a replacement and a join of two routes
// (2-opt*) answer exactly in the Solomon case: their bound says feasible
// exactly when the simulation does, with the simulated distance (recreate
// takes insertions on that answer alone).
func TestSolomonCaseMatchesSimulation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genFastProblem(t)
		in := newInstance(p)
		if !in.exact {
			t.Fatal("generator drew a problem outside the Solomon case")
		}
		n := len(p.Sites)
		typ := 0
		var sch schedule
		// mk keeps, in order, the sites of seq that leave the route
		// feasible, so that most draws give long feasible routes.
		mk := func(seq []int) *route {
			var kept []int
			for _, s := range seq {
				if in.evaluate(typ, append(kept, s), &sch, false) == feasible {
					kept = append(kept, s)
				}
			}
			r := &route{typ: typ, seq: kept}
			in.refresh(r)
			return r
		}
		check := func(what string, seq []int, dist float64, ok bool) {
			f := in.evaluate(typ, seq, &sch, false)
			if (f == feasible) != ok {
				t.Fatalf("%s %v: the Solomon case says %v, simulation says %v", what, seq, ok, f)
			}
			// An empty route is an unused vehicle: no distance to compare.
			if ok && len(seq) > 0 && math.Abs(sch.dist-dist) > 1e-9 {
				t.Fatalf("%s %v: distance %g, simulated %g", what, seq, dist, sch.dist)
			}
		}
		var jn join
		checkJoin := func(what string, a *route, i int, mid []int, b *route, j int) {
			jn.set(a, i, mid, b, j)
			ok := in.advance(&jn, boundTimed)
			check(what, jn.build(nil), jn.dist, ok)
		}
		a := mk(rapid.Permutation(seqN(n)).Draw(t, "a"))
		inA := map[int]bool{}
		for _, s := range a.seq {
			inA[s] = true
		}
		for u := 0; u < n; u++ {
			if inA[u] {
				continue
			}
			for pos := 0; pos <= len(a.seq); pos++ {
				checkJoin("insert", a, pos, []int{u}, a, pos+1)
			}
			for i := 1; i <= len(a.seq); i++ {
				checkJoin("replace", a, i-1, []int{u}, a, i+1)
			}
		}
		for i := 1; i <= len(a.seq); i++ {
			checkJoin("remove", a, i-1, nil, a, i+1)
		}
		// Join a prefix of a with a suffix of b (sites not in a); b keeps
		// only the sites a feasible route of its own can take.
		var rest []int
		for u := 0; u < n; u++ {
			if !inA[u] {
				rest = append(rest, u)
			}
		}
		b := mk(rapid.Permutation(rest).Draw(t, "b"))
		for i := 0; i <= len(a.seq); i++ {
			for j := 1; j <= len(b.seq)+1; j++ {
				checkJoin("join", a, i, nil, b, j)
			}
		}
	})
}

// TestSolomonCaseScope: resources and site values leave routes'
// feasibility alone and keep the Solomon case; a start service, start
// windows and group limits leave it.
func TestSolomonCaseScope(t *testing.T) {
	base := func() *Problem {
		p := benchProblem(10, false)
		p.Resources = []Resource{{Count: 3}}
		p.VehicleTypes[0].Resources = []int{0}
		p.Sites[0].Value = 5
		return p
	}
	if !newInstance(base()).exact {
		t.Fatal("resources or values left the Solomon case")
	}
	for name, set := range map[string]func(*VehicleType){
		"StartService":        func(vt *VehicleType) { vt.StartService = 1 },
		"StartServicePerUnit": func(vt *VehicleType) { vt.StartServicePerUnit = []float64{1} },
		"StartWindows":        func(vt *VehicleType) { vt.StartWindows = []Window{{0, 1000}} },
		"MaxGroups":           func(vt *VehicleType) { vt.MaxGroups = 2 },
	} {
		p := base()
		set(&p.VehicleTypes[0])
		if newInstance(p).exact {
			t.Errorf("%s set, still the Solomon case", name)
		}
	}
}
