package routeplan

import "slices"

// The duty of a route as a function of its departure d is piecewise
// linear: every time of the simulation moves with d (slope 1) or stays
// (slope 0), and jumps later where a site misses a window and takes the
// next one, or where the waiting at a site gets too short to count as a
// break. The beginning of the start service moves with d inside a start
// window, stays at its end after it, and jumps to the next one. Inside a
// piece the return first stays, then moves with d, so the shortest duty
// (then the earliest return, then the latest departure) is found at one
// of these departures:
//
//   - the earliest one;
//   - one where the loading reaches a start window's start or end;
//   - one where a site's arrival, moving with the departure (nothing
//     before it waits, or a rest covers the wait), reaches the start of
//     one of its windows (the return starts to move), its end (beyond, the
//     site takes a later window), or its start plus the site's work less
//     the break (beyond, the waiting there no longer counts as a break, or
//     a rest taken there starts to move).
//
// While nothing before site k waits, the break rule rests at the same
// sites whatever the departure, so the arrival at k is the departure plus
// a fixed offset, the arrival when no site has a window: each target of
// the last kind gives one departure, target − offset, and is a candidate
// when the arrival there is indeed the target (else it is not one, but
// simulating it is harmless). No departure later than the latest one that
// fits the windows without rests is feasible. Candidates are simulated
// latest first, unless a lower bound rules them out: the return is at
// least the earliest departure's (when the earliest departure waits
// nowhere long enough for the wait to count as a break; else the return
// of the earliest departure played without the break rule, since rests
// only delay) and the departure plus the driving, work and forced breaks,
// and the beginning at most the departure less the loading. The bound
// grows as the departure gets earlier, so the search ends at the first
// candidate it rules out on the duty, and at the first whose return meets
// it: no earlier departure beats that one. The earliest departure, the
// last candidate, is played in full only when the search gets to it.
// When every time is whole, the search settles on its first simulation
// when that reaches its bounds: before the candidates are listed, the
// latest departure that fits the windows, when it returns as early as
// any (latestDepartureSettles); then the candidate that reaches both
// bounds (the least time, the earliest return), if there is one
// (slackFreeDeparture).

// departureSearch keeps the best departure found so far: the shortest
// duty, then the earliest return, then the latest departure.
type departureSearch struct {
	found             bool
	depart, duty, ret float64
}

// offer makes departure d, whose simulation gave duty and ret, the best
// if it beats the best so far.
func (b *departureSearch) offer(d, duty, ret float64) {
	if !b.found || duty < b.duty || (duty == b.duty && (ret < b.ret || (ret == b.ret && d > b.depart))) {
		b.found, b.depart, b.duty, b.ret = true, d, duty, ret
	}
}

// delayDeparture tries later departures for a route already simulated in s
// at its earliest departure after a start service of l, and keeps the
// feasible one with the shortest duty, then the earliest return, then the
// latest departure (see above). It reports false when no departure is
// feasible. played says whether s holds the earliest departure's
// simulation in full (else it stopped at a wait that counts as a break,
// and monotone is false); baseOK, whether that simulation keeps every rule
// but perhaps the duty limit; monotone, that no later departure returns
// earlier than s (see evaluateAllowed), which lets the search stop early.
// Candidates are sums and differences of inputs, so that with integral
// inputs every time stays integral.
func (in *instance) delayDeparture(t int, seq []int, l float64, s *schedule, played, baseOK, monotone bool) bool {
	vt := &in.types[t]
	base := s.depart
	hi := in.latestStart(t, seq, s.tw)
	if hi > base && in.latestDepartureSettles(t, seq, l, s, hi, monotone) {
		return true
	}
	if hi > base {
		hi += timeTol(hi)
	}
	if s.notBefore != nil {
		hi = min(hi, s.departBy) // see holdback.go
	}
	cands, least, unrested := in.departures(t, seq, l, s.cands[:0], base, hi, s.tw, &s.back)
	s.cands = cands
	baseRet := s.ret
	if !monotone {
		// A later departure may return sooner than s, but never sooner
		// than the route played from s's departure without the break rule:
		// rests only delay, and without them every time moves with the
		// departure or stays.
		if baseRet = unrested; baseRet == inf {
			return false // not even without rests does a departure fit the windows
		}
	}
	best := departureSearch{duty: inf, ret: inf}
	if played && baseOK && (vt.MaxDuty == 0 || s.duty() <= vt.MaxDuty) {
		best.offer(base, s.duty(), s.ret)
	}
	if s.tmp == nil {
		s.tmp = &schedule{}
	}
	tmp := s.tmp
	tmp.tw = s.tw
	if best.duty >= least+l && in.slackFreeDeparture(t, seq, l, s, cands, least, baseRet) {
		return true
	}
	last := base
	// decided says that the search stopped on a bound that holds for the
	// earliest departure too: it cannot beat the best.
	decided := false
	// ruledOut says that departing at d cannot beat the best: no
	// departure returns sooner than the earliest one, nor sooner after it
	// than least, and the beginning is at most the departure less the
	// loading. The bound only grows for earlier departures, and the
	// earliest one's duty is at least the bound too, so it rules out
	// every earlier candidate.
	ruledOut := func(d float64) bool {
		duty := max(baseRet-d, least) + l
		return (vt.MaxDuty > 0 && duty > vt.MaxDuty) || duty > best.duty
	}
	// Under rush hours, the targets still to carry back (see
	// departures), keyed by their departure without rush hours, which
	// bounds theirs from above: one is carried back only when it may be
	// the latest candidate left, since the search seldom gets far.
	var pend []float64
	if in.rush.Len() > 0 {
		pend = s.back[3*len(seq):]
	}
	for len(cands)+len(pend) > 0 {
		// Latest first. Picking the latest left costs less than sorting
		// them all: few are simulated.
		m := latestCandidate(cands)
		if p := latestTarget(pend); p >= 0 && (m < 0 || pend[p] >= cands[m]) {
			// The bounds below hold for the target's key, a departure
			// no earlier than its own.
			if ruledOut(pend[p]) {
				decided = true
				break
			}
			d := in.rushDeparture(s.back, int(pend[p+1]), pend[p+2], base)
			pend = removeTarget(pend, p)
			cands = addDeparture(cands, d, base, hi)
			continue
		}
		d := cands[m]
		cands[m] = cands[len(cands)-1]
		cands = cands[:len(cands)-1]
		if d == last {
			continue
		}
		last = d
		if ruledOut(d) {
			decided = true
			break // and for every earlier candidate
		}
		duty, ret := max(baseRet-d, least)+l, max(baseRet, d+least)
		if duty == best.duty && (ret > best.ret || (ret == best.ret && d < best.depart)) {
			continue
		}
		if in.simulate(t, seq, d, l, tmp) != feasible {
			continue
		}
		best.offer(d, tmp.duty(), tmp.ret)
		if tmp.ret == baseRet {
			// The return cannot get earlier and the beginning never gets
			// later when the departure gets earlier: d beats every
			// earlier candidate.
			decided = true
			break
		}
	}
	if !played && !decided {
		// The earliest departure may still be the best: play it in full.
		if in.simulate(t, seq, base, l, s) == feasible {
			best.offer(base, s.duty(), s.ret)
		}
	}
	if !best.found {
		return false
	}
	if best.depart != base {
		if tmp.depart == best.depart && tmp.ret == best.ret {
			s.swapTimes(tmp) // the last departure simulated is the best: no need to play it again
		} else {
			in.simulate(t, seq, best.depart, l, s)
		}
	}
	return true
}

// slackFreeDeparture settles the search of delayDeparture at once, with s
// simulated at the departure the search would choose, when that departure
// neither waits beyond what it must nor returns later than it must: d =
// baseRet − least, when it is a candidate and its simulation is feasible
// with return baseRet and duty least + l. It reports whether it did.
//
// Why d is the search's choice. No departure from base on returns before
// baseRet, nor takes less than least from its departure to its return,
// and the start service begins no later than the departure less l: every
// departure's duty is at least least + l, and its return at least
// baseRet (the search's own bounds, see ruledOut). d reaches both, so
// no departure beats it; one that ties has return baseRet and duty
// least + l, so departs at baseRet − least, which is d. The search, taking
// the candidates latest first, meets d before it stops: no later
// candidate is ruled out (its duty bound is least + l, which no duty
// beats), none returns at baseRet (it takes least at least from a later
// departure), and the earliest departure, played in full, is earlier.
// It then simulates d, keeps it as the best and stops there, with its
// times: the same as simulating d here. That holds in exact arithmetic,
// and so for the simulation's sums when every time is whole (wholeTimes);
// under rush hours the shortcut is not tried. The caller tries it only
// when the earliest departure, already offered, takes no less than
// least + l, as the search's bounds say it does: so that the shortcut
// rests on no more than the check it makes.
func (in *instance) slackFreeDeparture(t int, seq []int, l float64, s *schedule, cands []float64, least, baseRet float64) bool {
	if !in.wholeTimes || baseRet == inf {
		return false
	}
	d := baseRet - least
	if !slices.Contains(cands, d) {
		return false
	}
	tmp := s.tmp
	if in.simulate(t, seq, d, l, tmp) != feasible || tmp.ret != baseRet || tmp.duty() != least+l {
		return false
	}
	s.swapTimes(tmp)
	return true
}

// latestDepartureSettles settles the search of delayDeparture before any
// candidate is listed, with s simulated at the departure the search would
// choose, when that is hi, the latest departure that fits the windows
// (latestStart): when departing at hi is feasible, returns at the bound
// no departure from s's on beats (s's return when monotone, else the
// return of s's departure played without the break rule, as delayDeparture
// takes it) and begins the start service at hi less the loading. It
// reports whether it did. Two times in three on a day of 200 stores
// under every rule, the search ends there, and listing its candidates
// costs more than the simulation.
//
// Why hi is the search's choice. No departure from s's on returns before
// that bound, and none begins later than its departure less the loading
// l: a departure d no later than hi takes at least bound − d + l, which
// is more than hi takes unless d is hi. No departure later than hi is
// feasible. So hi has the shortest duty of all, and no other ties it.
// The search finds the shortest duty (TestDepartureIsBest checks it
// against every departure on a grid), so it chooses hi, and ends with s
// holding hi's simulation, as here. That holds in exact arithmetic, and
// so for the simulation's sums when every time is whole (wholeTimes).
// Under rush hours, or with trips held back (whose latest departure,
// departBy, is no target of the search), it is not tried. When it fails,
// the search runs as before: hi is then often its first candidate,
// simulated again (keeping this simulation for it saves less than 0.2 %
// of the instructions, not worth the code).
func (in *instance) latestDepartureSettles(t int, seq []int, l float64, s *schedule, hi float64, monotone bool) bool {
	if !in.wholeTimes || in.rush.Len() > 0 || s.notBefore != nil {
		return false
	}
	bound := s.ret
	if !monotone {
		bound = in.unrestedReturn(t, seq, s.depart, s.tw)
	}
	if s.tmp == nil {
		s.tmp = &schedule{}
	}
	tmp := s.tmp
	tmp.tw = s.tw
	if in.simulate(t, seq, hi, l, tmp) != feasible || tmp.ret != bound || tmp.begin != hi-l {
		return false
	}
	s.swapTimes(tmp)
	return true
}

// unrestedReturn is the return of route seq of type t departing at lo
// without the break rule, inf when a site's windows are all over by the
// time it arrives: freeDepartures' third result, with the same sums in
// the same order, so that the two agree to the last bit
// (TestUnrestedReturnAgrees).
func (in *instance) unrestedReturn(t int, seq []int, lo float64, tw *tripWindows) float64 {
	vt := &in.types[t]
	unrested := lo
	prev := vt.StartLocation
	reloads := 0
	var ws []Window
	for k, i := range seq {
		site := &in.sites[i]
		ws, reloads = in.siteWindows(seq, k, reloads, tw)
		leg := in.legDur(prev, site.Location)
		prev = site.Location
		if unrested == inf {
			continue
		}
		unrested += leg
		st, _, ok := earliestIn(ws, unrested)
		if !ok {
			unrested = inf
			continue
		}
		unrested = st + site.Service
		if in.stop != nil && (k == 0 || in.sites[seq[k-1]].Location != site.Location) {
			unrested += in.stop[i]
		}
	}
	return unrested + in.legDur(prev, vt.EndLocation)
}

// departures appends to cands the candidate departures in (lo, hi] of
// route seq of type t after a start service of l (see above), and returns
// them with the least time any departure takes to return: the driving,
// the work, and the breaks the rule forces; and with the return when
// departing at lo and ignoring the break rule (inf when a site's windows
// are all over by the time it arrives), which no departure from lo on
// beats: rests only delay. That return adds in simulate's order, so that
// the bound holds to the last bit.
//
// Under rush hours (instance.rush) the arrival is no longer the departure
// plus a fixed offset, so each target also gives the departure that
// reaches it when carried back leg by leg, each leg leaving as late as it
// can and still arrive by the target (SlowTimeline.Depart), with the same
// time at each site before as when nothing waits (rushDeparture). Those
// are left in back for delayDeparture to carry back when it needs them:
// per site, the free-flow leg to it, the offset at which that leg leaves
// and the one at which it arrives; then per target, its departure without
// rush hours, its site and the arrival. Without rush hours back is scratch
// space.
func (in *instance) departures(t int, seq []int, l float64, cands []float64, lo, hi float64, tw *tripWindows, back *[]float64) ([]float64, float64, float64) {
	if in.rush.Len() > 0 {
		return in.rushDepartures(t, seq, l, cands, lo, hi, tw, back)
	}
	return in.freeDepartures(t, seq, l, cands, lo, hi, tw, back)
}

// freeDepartures is departures without rush hours. It reads the legs
// into legs (scratch space) first, so that its main loop looks up no
// travel (it calls only siteWindows and earliestIn), and it writes every
// target and keeps those in (lo, hi] without a branch: whether one is
// kept is as good as random to the processor. Its rests and short follow
// the break rule as rushDepartures does; a change to the rule changes
// both (TestFreeDeparturesAgreeWithRush holds them together).
func (in *instance) freeDepartures(t int, seq []int, l float64, cands []float64, lo, hi float64, tw *tripWindows, legs *[]float64) ([]float64, float64, float64) {
	vt := &in.types[t]
	starts := in.routeStartWindows(t, tw)
	room, reloads := 2*len(starts), 0
	lg := grow(*legs, len(seq)+1)
	*legs = lg
	prev := vt.StartLocation
	for k, i := range seq {
		var ws []Window
		ws, reloads = in.siteWindows(seq, k, reloads, tw)
		room += 3 * len(ws)
		loc := in.sites[i].Location
		lg[k], prev = in.legDur(prev, loc), loc
	}
	lg[len(seq)] = in.legDur(prev, vt.EndLocation)
	n := len(cands)
	cands = slices.Grow(cands, room)[:n+room]
	for _, w := range starts {
		cands[n] = w.Start + l
		n += inside(cands[n], lo, hi)
		cands[n] = w.End + l
		n += inside(cands[n], lo, hi)
	}
	// The arrival at each site after departing at 0 when no site waits,
	// played as simulate plays it; rests and short as in rushDepartures.
	least := 0.0
	now, since, arrived := 0.0, 0.0, 0.0
	rests, short := 0, inf
	unrested := lo
	breakAfter, breakDuration := vt.BreakAfter, vt.BreakDuration
	reloads = 0
	var ws []Window
	for k, i := range seq {
		site := &in.sites[i]
		ws, reloads = in.siteWindows(seq, k, reloads, tw)
		leg := lg[k]
		opens := in.stop != nil && (k == 0 || in.sites[seq[k-1]].Location != site.Location)
		if unrested < inf {
			unrested += leg
			if st, _, ok := earliestIn(ws, unrested); !ok {
				unrested = inf
			} else {
				unrested = st + site.Service
				if opens {
					unrested += in.stop[i]
				}
			}
		}
		if breakAfter > 0 {
			if since+leg > breakAfter {
				if k > 0 && now-arrived < breakDuration {
					now = arrived + breakDuration
					rests++
				}
				since = 0
			}
			since += leg
		}
		now += leg
		arrived = now
		for _, w := range ws {
			cands[n] = w.Start - now
			n += inside(cands[n], lo, hi)
			cands[n] = w.End - now
			n += inside(cands[n], lo, hi)
		}
		work := site.Service
		now += site.Service
		if opens {
			now += in.stop[i]
			work += in.stop[i]
		}
		if breakAfter > 0 {
			// short = min(short, max(0, breakDuration-work)), without
			// the tests of NaN and signed zeros min and max make.
			if c := breakDuration - work; c <= 0 {
				short = min(short, 0)
			} else if c < short {
				short = c
			}
			if now-arrived >= breakDuration {
				since = 0
			} else if breakDuration > work {
				for _, w := range ws {
					cands[n] = w.Start + work - breakDuration - arrived
					n += inside(cands[n], lo, hi)
				}
			}
		}
		least += leg + work
	}
	leg := lg[len(seq)]
	if breakAfter > 0 && len(seq) > 0 && since+leg > breakAfter && now-arrived < breakDuration {
		rests++
	}
	least += leg
	if rests > 0 {
		least += float64(rests) * short
	}
	return cands[:n], least, unrested + leg
}

// inside is 1 when d is in (lo, hi], else 0, computed without a branch.
func inside(d, lo, hi float64) int { return b2i(lo < d) & b2i(d <= hi) }

// b2i is 1 for true and 0 for false; the compiler makes it a flag set.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rushDepartures is departures under rush hours.
func (in *instance) rushDepartures(t int, seq []int, l float64, cands []float64, lo, hi float64, tw *tripWindows, back *[]float64) ([]float64, float64, float64) {
	vt := &in.types[t]
	// late is the arrival at the current site when departing at hi, each
	// site taking the time it takes when nothing waits (inf when hi is
	// not finite).
	late, lateKnown := inf, hi > -inf && hi < inf
	bk := grow(*back, 3*len(seq))
	for _, w := range in.routeStartWindows(t, tw) {
		cands = addDeparture(cands, w.Start+l, lo, hi)
		cands = addDeparture(cands, w.End+l, lo, hi)
	}
	// The arrival at each site after departing at 0 when no site waits,
	// played as simulate plays it.
	least := 0.0
	now, since, arrived := 0.0, 0.0, 0.0
	// rests counts the breaks the rule forces at sites whose work is
	// shorter than a break, fewest when they are taken as late as
	// possible; each costs at least the least such shortfall, waiting or
	// resting.
	rests, short := 0, inf
	unrested := lo
	prev := vt.StartLocation
	reloads := 0
	var ws []Window
	for k, i := range seq {
		site := &in.sites[i]
		ws, reloads = in.siteWindows(seq, k, reloads, tw)
		leg := in.legDur(prev, site.Location)
		if unrested < inf {
			unrested = in.rush.Arrive(unrested, leg)
			if st, _, ok := earliestIn(ws, unrested); !ok {
				unrested = inf
			} else {
				unrested = st + site.Service
				if in.stop != nil && (k == 0 || in.sites[seq[k-1]].Location != site.Location) {
					unrested += in.stop[i]
				}
			}
		}
		if vt.BreakAfter > 0 {
			if since+leg > vt.BreakAfter {
				if k > 0 && now-arrived < vt.BreakDuration {
					now = arrived + vt.BreakDuration
					rests++
				}
				since = 0
			}
			since += leg
		}
		bk[3*k], bk[3*k+1] = leg, now
		if lateKnown {
			if k == 0 {
				late = hi
			} else {
				late += now - arrived
			}
			late = in.rush.Arrive(late, leg)
		}
		now += leg
		arrived = now
		for _, w := range ws {
			cands, bk = in.rushTarget(cands, bk, k, w.Start, now, lo, hi, late)
			cands, bk = in.rushTarget(cands, bk, k, w.End, now, lo, hi, late)
		}
		work := site.Service
		now += site.Service
		if in.stop != nil && (k == 0 || in.sites[seq[k-1]].Location != site.Location) {
			now += in.stop[i]
			work += in.stop[i]
		}
		if vt.BreakAfter > 0 {
			short = min(short, max(0, vt.BreakDuration-work))
			if now-arrived >= vt.BreakDuration {
				since = 0
			} else if vt.BreakDuration > work {
				for _, w := range ws {
					cands, bk = in.rushTarget(cands, bk, k, w.Start+work-vt.BreakDuration, arrived, lo, hi, late)
				}
			}
		}
		least += leg + work
		prev = site.Location
		bk[3*k+2] = arrived
	}
	*back = bk
	leg := in.legDur(prev, vt.EndLocation)
	if vt.BreakAfter > 0 && len(seq) > 0 && since+leg > vt.BreakAfter && now-arrived < vt.BreakDuration {
		rests++
	}
	least += leg
	if rests > 0 {
		least += float64(rests) * short
	}
	if unrested < inf {
		return cands, least, in.rush.Arrive(unrested, leg)
	}
	return cands, least, unrested + leg
}

// rushTarget adds the candidate of site k's target arrival at under rush
// hours, which the arrival offset off reaches departing at at − off when
// no slow interval lies between: then that departure joins cands, as
// without rush hours. Else it is the departure carried back through the
// rush hours (rushDeparture), left in bk to be carried back when needed,
// keyed by at − off, which bounds it from above: every leg takes at least
// its free-flow time. No candidate is lo or earlier, nor one that a
// departure at hi reaches by the target (late, the arrival there): its
// departure is hi or later.
func (in *instance) rushTarget(cands, bk []float64, k int, at, off, lo, hi, late float64) ([]float64, []float64) {
	d := at - off
	if d <= lo || at >= late {
		return cands, bk
	}
	if !in.rush.Slows(d, at) {
		return addDeparture(cands, d, lo, hi), bk
	}
	return cands, append(bk, d, float64(k), at)
}

// latestCandidate returns the index in cands of the latest departure,
// the first of equals, and -1 when there is none. Which candidate is the
// latest so far is as good as random to the processor: the index is
// kept without a branch.
func latestCandidate(cands []float64) int {
	if len(cands) == 0 {
		return -1
	}
	m := 0
	for j := 1; j < len(cands); j++ {
		m += b2i(cands[j] > cands[m]) * (j - m)
	}
	return m
}

// latestTarget returns the index in pend (see departures) of the target
// of the latest key, -1 when there is none. Picking it costs less than
// sorting them all: the search seldom gets far.
func latestTarget(pend []float64) int {
	p := -1
	for x := 0; x+2 < len(pend); x += 3 {
		if p < 0 || pend[x] > pend[p] {
			p = x
		}
	}
	return p
}

// removeTarget removes the target at index p of pend, moving the last
// one there.
func removeTarget(pend []float64, p int) []float64 {
	n := len(pend) - 3
	copy(pend[p:p+3], pend[n:])
	return pend[:n]
}

// rushDeparture returns the latest departure whose arrival at site k is
// by at under rush hours, when every site before takes the time it takes
// when nothing waits (bk, see departures): each leg back from the target
// leaves as late as it can and still arrive in time. Once no slow
// interval lies between a leg's leaving and the departure without rush
// hours that reaches it, the rest is that route; a result of lo or
// earlier is no candidate.
func (in *instance) rushDeparture(bk []float64, k int, at, lo float64) float64 {
	for j := k; ; j-- {
		at = in.rush.Depart(at, bk[3*j])
		if j == 0 || !in.rush.Slows(at-bk[3*j+1], at) {
			return at - bk[3*j+1]
		}
		// The time at site j−1: from its arrival to the leg's leaving.
		at -= bk[3*j+1] - bk[3*(j-1)+2]
		if at <= lo {
			return lo
		}
	}
}

// addDeparture appends d to cands when it is in (lo, hi].
func addDeparture(cands []float64, d, lo, hi float64) []float64 {
	if lo < d && d <= hi {
		cands = append(cands, d)
	}
	return cands
}

// latestStart is the latest departure of route seq of type t that serves
// every site inside a window and returns by the shift end when nothing
// rests (-inf when there is none): no later departure is feasible, since
// rests only delay. Under rush hours each leg leaves as late as it can
// and still arrive in time (SlowTimeline.Depart): legs are FIFO, so that
// this stays exact.
func (in *instance) latestStart(t int, seq []int, tw *tripWindows) float64 {
	vt := &in.types[t]
	lat := vt.ShiftEnd
	next := vt.EndLocation
	reloads := 0
	if tw != nil {
		reloads = len(tw.reload)
	}
	rush := in.rush.Len() > 0
	for k := len(seq) - 1; k >= 0; k-- {
		site := &in.sites[seq[k]]
		leg := in.legDur(site.Location, next)
		if rush {
			// Under rush hours, the latest leaving that arrives by lat.
			leg = lat - in.rush.Depart(lat, leg)
		}
		x := lat - leg - in.workAt(seq, k)
		ws := site.Windows
		if tw != nil && in.isReload(seq[k]) {
			reloads--
			ws = tw.reload[reloads]
		}
		s, ok := latestIn(ws, x)
		if !ok {
			return -inf
		}
		lat, next = s, site.Location
	}
	if rush {
		return in.rush.Depart(lat, in.legDur(vt.StartLocation, next))
	}
	return lat - in.legDur(vt.StartLocation, next)
}

// workAt is the time spent at the k-th site of seq: its service and, when
// it opens a stop, the stop service.
func (in *instance) workAt(seq []int, k int) float64 {
	w := in.sites[seq[k]].Service
	if in.stop != nil && (k == 0 || in.sites[seq[k-1]].Location != in.sites[seq[k]].Location) {
		w += in.stop[seq[k]]
	}
	return w
}
