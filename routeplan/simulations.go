package routeplan

import "slices"

// simulations keeps what the exact simulation said of the last candidate
// routes a search stream simulated, by type and sites: a search meets the
// same candidate again (about a fifth of the candidates simulated on a
// day of 200 stores under every rule are repeats), because a route
// without one of its sites, or a site between two others, is proposed by
// several moves and again after a ruin left the routes around it as they
// were. A slot per hash of the type and sites, overwritten by the next
// candidate of that hash; the sites are compared in full, so that a hit
// is the same route and gives what the simulation gives.
type simulations struct {
	slots []simulation // a power of two of them, simulationSlots once used
}

const simulationSlots = 256

// simulation is one candidate route simulated: its type, sites, what the
// simulation said, and the distance and cost of its schedule.
type simulation struct {
	used       bool
	typ        int
	seq        []int
	f          failure
	dist, cost float64
}

// slot is the slot of type t and sites seq: by FNV-1a of them.
func (sims *simulations) slot(t int, seq []int) *simulation {
	if sims.slots == nil {
		sims.slots = make([]simulation, simulationSlots)
	}
	h := (14695981039346656037 ^ uint64(t)) * 1099511628211
	for _, x := range seq {
		h = (h ^ uint64(x)) * 1099511628211
	}
	return &sims.slots[h&uint64(len(sims.slots)-1)]
}

// evaluateCandidate is evaluate (not tight) for a candidate route of a
// move, that reads of s nothing but the distance and cost when it is
// feasible: s's times are those of another route when the answer comes
// from sims. With Timed resources or held loadings, whose checks read
// the times, it simulates every time.
func (in *instance) evaluateCandidate(t int, seq []int, s *schedule, sims *simulations) failure {
	if in.anyTimed || in.loadingHeld {
		return in.evaluate(t, seq, s, false)
	}
	e := sims.slot(t, seq)
	if e.used && e.typ == t && slices.Equal(e.seq, seq) {
		s.dist, s.cost = e.dist, e.cost
		return e.f
	}
	f := in.evaluate(t, seq, s, false)
	e.used, e.typ, e.f = true, t, f
	e.seq = append(e.seq[:0], seq...)
	e.dist, e.cost = s.dist, s.cost
	return f
}
