package routeplan

import "math"

var inf = math.Inf(1)

// failure says which rule made a route infeasible; it feeds the Reason of
// sites that end up unassigned.
type failure int

const (
	feasible failure = iota
	failCapacity
	failWindow
	failShift
	failDuty // only the duty limit is broken: a later departure may fix it
)

// schedule is the timing of one route, computed by simulate.
type schedule struct {
	depart, ret     float64
	dist, drive     float64
	arr, start, dep []float64
	cost            float64
	// Scratch space of delayDeparture, kept to avoid allocating.
	cands []float64
	tmp   *schedule
}

func (s *schedule) duty() float64 { return s.ret - s.depart }

// simulate plays route seq of type t forward from departure time depart,
// serving each site as early as possible and resting only when the break
// rule demands it before the next leg. It fills s and reports the first rule
// broken. The result never gets earlier when depart gets later, which
// evaluate relies on.
func (in *instance) simulate(t int, seq []int, depart float64, s *schedule) failure {
	vt := &in.types[t]
	s.arr = s.arr[:0]
	s.start = s.start[:0]
	s.dep = s.dep[:0]
	s.depart = depart
	s.dist, s.drive = 0, 0
	prev := vt.StartLocation
	now := depart
	since := 0.0 // driving since the last qualifying break
	arrived := depart
	for k := 0; k <= len(seq); k++ {
		next := vt.EndLocation
		if k < len(seq) {
			next = in.sites[seq[k]].Location
		}
		leg := in.legDur(prev, next)
		if vt.BreakAfter > 0 {
			if leg > vt.BreakAfter {
				return failShift
			}
			if since+leg > vt.BreakAfter {
				if k == 0 {
					return failShift // cannot happen: since is 0 at the start
				}
				// Rest at the current site, as late as possible in the route:
				// resting earlier would only delay more visits.
				if now-arrived < vt.BreakDuration {
					now = arrived + vt.BreakDuration
					s.dep[k-1] = now
				}
				since = 0
			}
			since += leg
		}
		s.dist += in.legDist(prev, next)
		s.drive += leg
		now += leg
		if k == len(seq) {
			break
		}
		site := &in.sites[seq[k]]
		st, _, ok := earliestIn(site.Windows, now)
		if !ok {
			return failWindow
		}
		arrived = now
		s.arr = append(s.arr, now)
		s.start = append(s.start, st)
		now = st + site.Service
		s.dep = append(s.dep, now)
		if vt.BreakAfter > 0 && now-arrived >= vt.BreakDuration {
			since = 0
		}
		prev = next
	}
	s.ret = now
	if now > vt.ShiftEnd || (vt.MaxDriving > 0 && s.drive > vt.MaxDriving) {
		return failShift
	}
	if vt.MaxDuty > 0 && now-depart > vt.MaxDuty {
		return failDuty
	}
	return feasible
}

// evaluate decides whether seq is a feasible route for type t and fills s
// with its schedule and cost. With tight set, or when the duty matters (a
// duty limit, a time cost), it departs as late as it can without returning
// later, so that the vehicle does not wait at its first sites.
func (in *instance) evaluate(t int, seq []int, s *schedule, tight bool) failure {
	if len(seq) == 0 {
		// An empty route is an unused vehicle: nothing to check, no cost.
		*s = schedule{arr: s.arr[:0], start: s.start[:0], dep: s.dep[:0]}
		return feasible
	}
	vt := &in.types[t]
	for _, i := range seq {
		if !in.allowed[i][t] {
			return failCapacity
		}
	}
	if in.dims > 0 {
		for d := 0; d < in.dims; d++ {
			load := 0.0
			for _, i := range seq {
				load += in.sites[i].Demand[d]
			}
			if load > vt.Capacity[d] {
				return failCapacity
			}
		}
	}
	f := in.simulate(t, seq, vt.ShiftStart, s)
	if f != feasible && f != failDuty {
		return f
	}
	if len(seq) > 0 && (tight || f == failDuty || vt.TimeCost > 0) {
		if !in.delayDeparture(t, seq, s) {
			return failShift
		}
	}
	s.cost = vt.FixedCost + vt.DistanceCost*s.dist + vt.TimeCost*s.duty()
	return feasible
}

// delayDeparture tries later departures for a route already simulated in s
// and keeps the feasible one with the shortest duty. Candidate delays are
// the waiting accumulated up to each visit, capped by the slack of the
// windows, so that with integral inputs every time stays integral.
func (in *instance) delayDeparture(t int, seq []int, s *schedule) bool {
	vt := &in.types[t]
	base, baseRet := s.depart, s.ret
	maxDelay := inf
	waited := 0.0
	cands := s.cands[:0]
	for k, i := range seq {
		waited += s.start[k] - s.arr[k]
		_, end, _ := earliestIn(in.sites[i].Windows, s.start[k])
		if d := waited + end - s.start[k]; d < maxDelay {
			maxDelay = d
		}
		cands = append(cands, waited)
	}
	s.cands = cands
	if waited < maxDelay {
		maxDelay = waited
	}
	bestDelay, bestDuty := -1.0, inf
	if vt.MaxDuty == 0 || s.duty() <= vt.MaxDuty {
		bestDelay, bestDuty = 0, s.duty()
	}
	if s.tmp == nil {
		s.tmp = &schedule{}
	}
	tmp := s.tmp
	// Try the largest delay first, then the waits accumulated up to each
	// visit, largest first (they never decrease along the route). A delay d
	// that keeps the return time beats every smaller one, since the return
	// never gets earlier when the departure gets later: stop there.
	last := 0.0
	for k := len(cands); k >= 0; k-- {
		d := maxDelay
		if k < len(cands) {
			d = cands[k]
			if d >= maxDelay {
				continue
			}
		}
		if d <= 0 || d == last {
			continue
		}
		last = d
		if in.simulate(t, seq, base+d, tmp) != feasible {
			continue
		}
		if tmp.duty() < bestDuty {
			bestDelay, bestDuty = d, tmp.duty()
		}
		if tmp.ret == baseRet {
			break
		}
	}
	if bestDelay < 0 {
		return false
	}
	if bestDelay > 0 {
		in.simulate(t, seq, base+bestDelay, s)
	}
	return true
}
