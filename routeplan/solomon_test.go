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

// TestFastMatchesSimulation: on feasible routes, every constant-time check
// (insert, remove, replace, join) agrees with a full simulation of the route
// it describes, in feasibility and in distance.
func TestFastMatchesSimulation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genFastProblem(t)
		in := newInstance(p)
		if !in.exact {
			t.Fatal("generator drew a problem outside the fast case")
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
		checked := 0
		check := func(what string, seq []int, dist float64, ok bool) {
			checked++
			f := in.evaluate(typ, seq, &sch, false)
			if (f == feasible) != ok {
				t.Fatalf("%s %v: constant-time says %v, simulation says %v", what, seq, ok, f)
			}
			// An empty route is an unused vehicle: no distance to compare.
			if ok && len(seq) > 0 && math.Abs(sch.dist-dist) > 1e-9 {
				t.Fatalf("%s %v: distance %g, simulated %g", what, seq, dist, sch.dist)
			}
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
				d, ok := in.fastInsert(a, pos, u)
				check("insert", withInsert(nil, a.seq, u, pos), a.baseDist()+d, ok)
			}
			for i := 1; i <= len(a.seq); i++ {
				d, ok := in.fastReplace(a, i, u)
				seq := append([]int(nil), a.seq...)
				seq[i-1] = u
				check("replace", seq, a.baseDist()+d, ok)
			}
		}
		for i := 1; i <= len(a.seq); i++ {
			d, ok := in.fastRemove(a, i)
			seq := append(append([]int(nil), a.seq[:i-1]...), a.seq[i:]...)
			check("remove", seq, a.baseDist()+d, ok)
		}
		// Join a prefix of a with a suffix of b (sites not in a); b keeps
		// only the sites a feasible route of its own can take.
		var rest []int
		for u := 0; u < n; u++ {
			if !inA[u] {
				rest = append(rest, u)
			}
		}
		bseq := rapid.Permutation(rest).Draw(t, "b")
		b := mk(bseq)
		for i := 0; i <= len(a.seq); i++ {
			for j := 1; j <= len(b.seq)+1; j++ {
				d, ok := in.fastJoin(a, i, b, j)
				seq := append(append([]int(nil), a.seq[:i]...), b.seq[j-1:]...)
				check("join", seq, d, ok)
			}
		}
	})
}

// TestFastPathScope: resources and site values leave routes' feasibility
// alone and keep the constant-time path; a start service, start windows and
// group limits turn it off.
func TestFastPathScope(t *testing.T) {
	base := func() *Problem {
		p := benchProblem(10, false)
		p.Resources = []Resource{{Count: 3}}
		p.VehicleTypes[0].Resources = []int{0}
		p.Sites[0].Value = 5
		return p
	}
	if !newInstance(base()).exact {
		t.Fatal("resources or values turned the fast path off")
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
			t.Errorf("%s set, fast path on", name)
		}
	}
}

// The checks below combine the two halves the search calls separately
// (the distance, then the feasibility); only the tests need them whole.

// fastInsert checks inserting u between nodes i and i+1 of r and returns the
// added distance. The search calls the two halves separately, so that the
// distance, which rules out most moves, comes first.
func (in *instance) fastInsert(r *route, i, u int) (float64, bool) {
	return in.insertDist(r, i, u), in.canInsert(r, i, u)
}

// fastRemove checks removing node i (1..L) of r and returns the distance
// change (negative when shorter).
func (in *instance) fastRemove(r *route, i int) (float64, bool) {
	return in.removeDist(r, i), in.canRemove(r, i)
}

// fastReplace checks putting site v in place of node i (1..L) of r and
// returns the distance change.
func (in *instance) fastReplace(r *route, i, v int) (float64, bool) {
	return in.replaceDist(r, i, v), in.canReplace(r, i, v)
}

// fastJoin checks the route made of nodes 0..i of a followed by nodes j..L+1
// of b (both of the same vehicle type) and returns its distance.
func (in *instance) fastJoin(a *route, i int, b *route, j int) (float64, bool) {
	return in.joinDist(a, i, b, j), in.canJoin(a, i, b, j)
}
