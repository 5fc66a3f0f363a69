package routeplan

import "math"

// objective orders solutions: fewer unassigned sites first, then (for the
// hierarchical objective) fewer routes, then the value (weighted cost or
// distance), then distance as a tie-break so that free fleets still get
// short routes.
type objective struct {
	unassigned int
	vehicles   int
	value      float64
	tie        float64
}

func (a objective) add(b objective) objective {
	return objective{a.unassigned + b.unassigned, a.vehicles + b.vehicles, a.value + b.value, a.tie + b.tie}
}

func (a objective) sub(b objective) objective {
	return objective{a.unassigned - b.unassigned, a.vehicles - b.vehicles, a.value - b.value, a.tie - b.tie}
}

// eps absorbs the rounding of sums of deltas, so that moves that change
// nothing in exact arithmetic are not taken for improvements.
const eps = 1e-7

// less reports whether a is better than b.
func (a objective) less(b objective) bool {
	if a.unassigned != b.unassigned {
		return a.unassigned < b.unassigned
	}
	if a.vehicles != b.vehicles {
		return a.vehicles < b.vehicles
	}
	tol := eps * math.Max(1, math.Abs(b.value))
	if a.value < b.value-tol {
		return true
	}
	if a.value > b.value+tol {
		return false
	}
	return a.tie < b.tie-eps*math.Max(1, math.Abs(b.tie))
}

// route is one vehicle's sequence of sites with its evaluated schedule.
type route struct {
	typ int
	seq []int
	sch schedule
	obj objective
	fc  fastCache
}

// routeObjective is the contribution of a feasible route evaluated in s.
func (in *instance) routeObjective(t int, n int, s *schedule) objective {
	if n == 0 {
		return objective{}
	}
	if in.p.Objective == Hierarchical {
		return objective{vehicles: 1, value: s.dist}
	}
	return objective{value: s.cost, tie: s.dist}
}

// state is a complete assignment: routes plus the sites left out.
type state struct {
	in         *instance
	routes     []*route
	used       []int // routes per vehicle type
	unassigned []int // servable sites not in any route
	dropped    []int // sites no route can serve, with reasons in reasons
	where      []int // where[site] = route index, -1 when not routed
	obj        objective
}

func newState(in *instance) *state {
	st := &state{in: in, used: make([]int, len(in.types)), where: make([]int, len(in.sites))}
	for i := range st.where {
		st.where[i] = -1
	}
	return st
}

func (st *state) clone() *state {
	c := &state{in: st.in, obj: st.obj}
	c.routes = make([]*route, len(st.routes))
	for k, r := range st.routes {
		nr := &route{typ: r.typ, seq: append([]int(nil), r.seq...), obj: r.obj}
		nr.sch = r.sch.clone()
		st.in.refresh(nr)
		c.routes[k] = nr
	}
	c.used = append([]int(nil), st.used...)
	c.unassigned = append([]int(nil), st.unassigned...)
	c.dropped = st.dropped
	c.where = append([]int(nil), st.where...)
	return c
}

func (s schedule) clone() schedule {
	s.arr = append([]float64(nil), s.arr...)
	s.start = append([]float64(nil), s.start...)
	s.dep = append([]float64(nil), s.dep...)
	return s
}

// recount recomputes the objective and the site index from the routes.
func (st *state) recount() {
	st.obj = objective{unassigned: len(st.unassigned)}
	for i := range st.where {
		st.where[i] = -1
	}
	for k, r := range st.routes {
		st.obj = st.obj.add(r.obj)
		for _, s := range r.seq {
			st.where[s] = k
		}
	}
}

// setRoute replaces route k's sequence with seq, already evaluated into sch.
func (st *state) setRoute(k int, seq []int, sch *schedule) {
	r := st.routes[k]
	st.obj = st.obj.sub(r.obj)
	r.seq = append(r.seq[:0], seq...)
	r.sch = sch.clone()
	r.obj = st.in.routeObjective(r.typ, len(r.seq), &r.sch)
	st.in.refresh(r)
	st.obj = st.obj.add(r.obj)
	for _, s := range r.seq {
		st.where[s] = k
	}
}

// dropEmpty removes routes that serve no site, freeing their vehicles.
func (st *state) dropEmpty() {
	out := st.routes[:0]
	for _, r := range st.routes {
		if len(r.seq) == 0 {
			st.used[r.typ]--
			continue
		}
		out = append(out, r)
	}
	for k := len(out); k < len(st.routes); k++ {
		st.routes[k] = nil
	}
	st.routes = out
	st.recount()
}
