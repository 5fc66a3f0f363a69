package geo

import (
	"fmt"
	"math"
)

// SlowTimeline is SlowIntervals on float64 seconds since an epoch, the
// form a solver's simulation calls for every leg: Arrive allocates
// nothing, finds the first interval a leg meets by binary search and then
// walks the intervals the leg crosses; Depart inverts it for backward
// passes. The zero SlowTimeline has no slow intervals. Build one with
// SlowIntervals.Timeline.
type SlowTimeline struct {
	spans []slowSpan
}

// slowSpan is a SlowInterval in seconds since the timeline's epoch.
type slowSpan struct {
	start, end, factor float64
}

// Len returns the number of slow intervals; a timeline of none leaves
// every leg at free flow.
func (tl SlowTimeline) Len() int { return len(tl.spans) }

// Arrive returns the arrival, in seconds since the timeline's epoch, of a
// leg of free-flow duration free seconds that departs at depart: the
// answer of SlowIntervals.Arrive, with the same rounding (the slowdown
// rounded up to whole seconds; a leg that meets no interval arrives at
// depart + free exactly). It agrees with SlowIntervals.Arrive to the
// second when the epoch, depart and free are whole seconds, and leaving
// later never arrives earlier between departures a whole number of
// seconds apart. A free of 0 or less, or NaN, arrives at depart + free.
func (tl SlowTimeline) Arrive(depart, free float64) float64 {
	if !(free > 0) {
		return depart + free
	}
	sp := tl.spans
	lo, hi := 0, len(sp)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sp[m].end > depart {
			hi = m
		} else {
			lo = m + 1
		}
	}
	p := legProgress{left: free}
	for i := lo; i < len(sp); i++ {
		if p.cross(sp[i].start-depart, sp[i].end-depart, sp[i].factor) {
			break
		}
	}
	slow := p.slowdown()
	if slow == 0 {
		return depart + free
	}
	return depart + free + slow
}

// Slows reports whether a slow interval overlaps the open span (from,
// to): when none does, every leg that departs and arrives within it takes
// its free-flow time, and Depart of such a leg is arrive − free.
func (tl SlowTimeline) Slows(from, to float64) bool {
	sp := tl.spans
	lo, hi := 0, len(sp)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sp[m].end > from {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo < len(sp) && sp[lo].start < to && from < to
}

// Depart returns the latest departure, in seconds since the timeline's
// epoch, of a leg of free-flow duration free seconds that arrives by
// arrive: arrive − free exactly when the leg that ends there meets no slow
// interval, else the latest whole second d with Arrive(d, free) ≤ arrive.
// It inverts Arrive for a solver's backward passes (the latest start that
// still meets a window): since Arrive is FIFO, every departure up to it
// arrives by arrive. A free of 0 or less, or NaN, gives arrive − free.
func (tl SlowTimeline) Depart(arrive, free float64) float64 {
	if !(free > 0) {
		return arrive - free
	}
	// Integrate backwards from arrive to the departure d* at which the
	// leg ends exactly at arrive, then settle on the whole second that
	// Arrive's rounding makes the latest.
	sp := tl.spans
	lo, hi := 0, len(sp)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sp[m].start < arrive {
			lo = m + 1
		} else {
			hi = m
		}
	}
	pos, left, slowed := 0.0, free, false
	for i := lo - 1; i >= 0; i-- {
		a, b, f := sp[i].start-arrive, sp[i].end-arrive, sp[i].factor
		if b <= pos-left {
			break
		}
		if b < pos {
			left -= pos - b
			pos = b
		}
		span := pos - a
		reach := float64(span * f)
		slowed = slowed || f < 1
		if left <= reach {
			pos -= left / f
			left = 0
			break
		}
		left -= reach
		pos = a
	}
	if !slowed {
		return arrive - free
	}
	d := math.Floor(arrive + (pos - left))
	if math.IsInf(d, 0) || math.IsNaN(d) {
		return d
	}
	// d* is exact but for floating-point noise: step to the answer, a
	// second or two away at most.
	for range 4 {
		if tl.Arrive(d, free) <= arrive {
			break
		}
		d--
	}
	for range 4 {
		if !(tl.Arrive(d+1, free) <= arrive) {
			break
		}
		d++
	}
	return d
}

// slowdownSlack is the floating-point noise the rounding of a slowdown
// ignores: a slowdown that exceeds a whole number of seconds by less than
// a microsecond is that number, so that 600 s of free flow at factor 0.6
// take 1000 s and not 1001.
const slowdownSlack = 1e-6

// legProgress integrates a leg through slow intervals, one interval at a
// time, in seconds after its departure: pos is where it has got to, left
// the free-flow seconds still to drive and extra the time it has lost to
// the intervals so far. Both forms of Arrive run this one computation on
// the same relative numbers, so that they agree exactly; each product is
// converted explicitly so that no platform fuses it with a sum into a
// multiply-add of a different rounding.
type legProgress struct {
	pos, left, extra float64
}

// cross drives the leg through the slow interval [a, b) of factor f, in
// seconds after the departure, with b after pos, and reports whether the
// leg ends before b (or before a, in which case the interval does not
// slow it). During the interval a second of driving covers f seconds of
// free flow, so it absorbs (b − pos)·f free-flow seconds at most and the
// part of the leg in it takes left/f seconds.
func (p *legProgress) cross(a, b, f float64) bool {
	if a >= p.pos+p.left {
		return true
	}
	if a > p.pos {
		p.left -= a - p.pos
		p.pos = a
	}
	span := b - p.pos
	reach := float64(span * f)
	if p.left <= reach {
		slow := p.left / f
		p.extra += slow - p.left
		p.pos += slow
		p.left = 0
		return true
	}
	p.extra += span - reach
	p.left -= reach
	p.pos = b
	return false
}

// slowdown returns the time the leg lost to the intervals, rounded up to
// whole seconds (slowdownSlack aside): 0 when it met none.
func (p *legProgress) slowdown() float64 {
	if !(p.extra > slowdownSlack) {
		return 0
	}
	return math.Ceil(p.extra - slowdownSlack)
}

// Problems lists what keeps tl from the guarantees of Arrive and Depart,
// one line per bad interval, which it names by index: an end or factor
// that is not finite, an interval that ends no later than it starts or
// starts before the previous one ends, a factor outside [MinRushFactor,
// 1]. A timeline built by Timeline from the intervals of a profile that
// passes Check has none; one built from SlowIntervals made by hand may.
func (tl SlowTimeline) Problems() []string {
	var out []string
	for i, sp := range tl.spans {
		switch {
		case math.IsNaN(sp.start) || math.IsInf(sp.start, 0) || math.IsNaN(sp.end) || math.IsInf(sp.end, 0):
			out = append(out, fmt.Sprintf("interval %d: [%g, %g) is not finite", i, sp.start, sp.end))
		case !(sp.end > sp.start):
			out = append(out, fmt.Sprintf("interval %d: ends (%g) no later than it starts (%g)", i, sp.end, sp.start))
		case i > 0 && sp.start < tl.spans[i-1].end:
			out = append(out, fmt.Sprintf("interval %d: starts (%g) before the previous one ends (%g): intervals must be sorted and disjoint", i, sp.start, tl.spans[i-1].end))
		}
		if !(sp.factor >= MinRushFactor && sp.factor <= 1) {
			out = append(out, fmt.Sprintf("interval %d: factor %g is outside [%g, 1]", i, sp.factor, MinRushFactor))
		}
	}
	return out
}
