package routeplan

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// genFastProblem draws an instance the constant-time checks apply to: one
// window per site (or none), no break, duty, driving limit or time cost.
func genFastProblem(t *rapid.T) *Problem {
	p := genProblem(t)
	for k := range p.VehicleTypes {
		vt := &p.VehicleTypes[k]
		vt.BreakAfter, vt.BreakDuration, vt.MaxDuty, vt.MaxDriving, vt.TimeCost = 0, 0, 0, 0, 0
		vt.Count = max(vt.Count, 1)
	}
	if rapid.Bool().Draw(t, "asymmetric") {
		// Lengthen some legs one way only, so both matrix layouts are tested.
		for k := rapid.IntRange(1, 10).Draw(t, "skews"); k > 0; k-- {
			e := rapid.IntRange(0, len(p.Distance)-1).Draw(t, "entry")
			p.Distance[e]++
			p.Duration[e] += 2
		}
	}
	for i := range p.Sites {
		if len(p.Sites[i].Windows) > 1 {
			p.Sites[i].Windows = p.Sites[i].Windows[:1]
		}
		p.Sites[i].VehicleTypes = nil
	}
	return p
}

// randomRoute draws a sequence of distinct sites; it need not be feasible.
func randomRoute(t *rapid.T, n int, label string) []int {
	perm := rapid.Permutation(seqN(n)).Draw(t, label)
	return perm[:rapid.IntRange(0, n).Draw(t, label+"len")]
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
		if !in.fast {
			t.Fatal("generator drew a problem outside the fast case")
		}
		n := len(p.Sites)
		typ := rapid.IntRange(0, len(p.VehicleTypes)-1).Draw(t, "type")
		var sch schedule
		mk := func(seq []int) *route {
			r := &route{typ: typ, seq: seq}
			if in.evaluate(typ, seq, &sch, false) != feasible {
				return nil
			}
			in.refresh(r)
			return r
		}
		check := func(what string, seq []int, dist float64, ok bool) {
			f := in.evaluate(typ, seq, &sch, false)
			if (f == feasible) != ok {
				t.Fatalf("%s %v: constant-time says %v, simulation says %v", what, seq, ok, f)
			}
			// An empty route is an unused vehicle: no distance to compare.
			if ok && len(seq) > 0 && math.Abs(sch.dist-dist) > 1e-9 {
				t.Fatalf("%s %v: distance %g, simulated %g", what, seq, dist, sch.dist)
			}
		}
		a := mk(randomRoute(t, n, "a"))
		if a == nil {
			return
		}
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
		// Join a prefix of a with a suffix of b (sites not in a).
		var rest []int
		for u := 0; u < n; u++ {
			if !inA[u] {
				rest = append(rest, u)
			}
		}
		bseq := rapid.Permutation(rest).Draw(t, "b")
		b := mk(bseq)
		if b == nil {
			return
		}
		for i := 0; i <= len(a.seq); i++ {
			for j := 1; j <= len(b.seq)+1; j++ {
				d, ok := in.fastJoin(a, i, b, j)
				seq := append(append([]int(nil), a.seq[:i]...), b.seq[j-1:]...)
				check("join", seq, d, ok)
			}
		}
	})
}
