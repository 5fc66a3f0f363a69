package geo

import (
	"slices"
	"sort"
	"time"
)

// SlowInterval is one period of a RushHours profile resolved to instants:
// from Start (included) to End (excluded) travel runs at Factor times
// free-flow speed.
type SlowInterval struct {
	Start, End time.Time
	Factor     float64
}

// SlowIntervals are the slow intervals of a profile over a horizon, sorted
// and disjoint, as RushHours.Intervals returns them. Travel outside them
// is free flow.
type SlowIntervals []SlowInterval

// Intervals resolves h to the instants it slows travel between from and
// to, with the clock times read in loc (nil means UTC): one interval per
// period and local date whose days it applies on, clipped to [from, to),
// sorted, with intervals that touch and share a factor merged and periods
// of factor 1 left out. The instants are whole seconds in UTC (the
// horizon is widened to whole seconds).
//
// A period starts at the first instant the local clock shows From or
// later and ends at the first instant it shows To or later, so that
// daylight saving time moves the periods with the clock: on the day the
// clocks go forward, a clock time they skip starts or ends its period at
// the jump; on the day they go back, a period over the repeated hour runs
// through both. A period therefore never starts before the previous one
// ends. Results are meaningful only for a profile that passes Check; the
// horizon to resolve is the planning horizon plus the longest leg beyond
// it, since a leg that runs past the last interval runs at free flow.
func (h RushHours) Intervals(loc *time.Location, from, to time.Time) SlowIntervals {
	if loc == nil {
		loc = time.UTC
	}
	if !to.After(from) || len(h) == 0 {
		return nil
	}
	// The horizon widens to whole seconds, so that every interval starts
	// and ends on a whole second, as the agreement of the two forms of
	// Arrive needs.
	from, to = from.Round(0).UTC(), to.Round(0).UTC()
	from = from.Truncate(time.Second)
	if t := to.Truncate(time.Second); !t.Equal(to) {
		to = t.Add(time.Second)
	}
	// A period lies within its local date, which starts at most 14 hours
	// from its UTC date, so the local dates from the day before from's to
	// the day after to's cover every period that overlaps the horizon.
	fy, fm, fd := from.In(loc).Date()
	ty, tm, td := to.In(loc).Date()
	last := time.Date(ty, tm, td+1, 0, 0, 0, 0, time.UTC)
	var out SlowIntervals
	for day := time.Date(fy, fm, fd-1, 0, 0, 0, 0, time.UTC); !day.After(last); day = day.AddDate(0, 0, 1) {
		for _, p := range h {
			if !(p.Factor < 1) || !p.appliesOn(day.Weekday()) {
				continue
			}
			iv := SlowInterval{
				Start:  firstShowing(loc, day.Add(p.From).Unix()),
				End:    firstShowing(loc, day.Add(p.To).Unix()),
				Factor: p.Factor,
			}
			if iv.Start.Before(from) {
				iv.Start = from
			}
			if iv.End.After(to) {
				iv.End = to
			}
			if iv.End.After(iv.Start) {
				out = append(out, iv)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b SlowInterval) int { return a.Start.Compare(b.Start) })
	merged := out[:0]
	for _, iv := range out {
		if n := len(merged); n > 0 && merged[n-1].End.Equal(iv.Start) && merged[n-1].Factor == iv.Factor {
			merged[n-1].End = iv.End
			continue
		}
		merged = append(merged, iv)
	}
	return merged
}

// firstShowing returns the first instant at which the clock of loc shows
// the wall time u or later, u being the wall time's seconds since
// 1970-01-01 00:00 as if it were UTC. Within a zone period of offset o the
// clock shows t + o at instant t, so the first instant there is
// max(start, u − o) when that is before the period ends; periods are
// visited in order from two days before u, which is before the answer
// since offsets stay within a day.
func firstShowing(loc *time.Location, u int64) time.Time {
	t := time.Unix(u-2*86400, 0).In(loc)
	for range 64 {
		start, end := t.ZoneBounds()
		_, off := t.Zone()
		c := u - int64(off)
		if !start.IsZero() {
			c = max(c, start.Unix())
		}
		if end.IsZero() || c < end.Unix() {
			return time.Unix(c, 0).UTC()
		}
		t = end
	}
	// Unreachable with real zone data: 64 offset changes in four days.
	_, off := time.Unix(u, 0).In(loc).Zone()
	return time.Unix(u-int64(off), 0).UTC()
}

// Arrive returns when a leg of free-flow duration free that departs at
// depart arrives, driving through the slow intervals of s: the first
// instant t' at which ∫ factor(τ) dτ from depart to t' reaches free, with
// factor 1 outside the intervals (Ichoua, Gendreau and Potvin 2003). The
// slowdown (the time beyond free) is rounded up to whole seconds, a
// microsecond of floating-point noise aside, so that a plan never assumes
// a faster truck than the profile: a leg that meets no interval arrives at
// depart + free exactly, and one of whole seconds departing on a whole
// second arrives on a whole second.
//
// Leaving later never arrives earlier between departures a whole number
// of seconds apart (FIFO). SlowTimeline.Arrive gives the same answer, to
// the second, for the same intervals, departure and duration in whole
// seconds, given the intervals Intervals returns: both are one
// computation on the same numbers (see legProgress). A free of 0 or less
// arrives at depart + free.
func (s SlowIntervals) Arrive(depart time.Time, free time.Duration) time.Time {
	arrive := depart.Add(free)
	if free <= 0 {
		return arrive
	}
	i := sort.Search(len(s), func(k int) bool { return s[k].End.After(depart) })
	p := legProgress{left: free.Seconds()}
	for ; i < len(s); i++ {
		iv := &s[i]
		if p.cross(iv.Start.Sub(depart).Seconds(), iv.End.Sub(depart).Seconds(), iv.Factor) {
			break
		}
	}
	slow := p.slowdown()
	if slow == 0 {
		return arrive
	}
	return arrive.Add(time.Duration(min(slow, float64(maxSeconds))) * time.Second)
}

// Timeline returns s as a SlowTimeline on seconds since epoch, for a
// solver's hot loop. Its Arrive agrees with s.Arrive to the second when
// the epoch, the departures, the legs and the ends of the intervals are
// whole seconds (Intervals makes them so) and lie within 2^53 seconds of
// the epoch.
func (s SlowIntervals) Timeline(epoch time.Time) SlowTimeline {
	spans := make([]slowSpan, len(s))
	for i, iv := range s {
		spans[i] = slowSpan{start: iv.Start.Sub(epoch).Seconds(), end: iv.End.Sub(epoch).Seconds(), factor: iv.Factor}
	}
	return SlowTimeline{spans: spans}
}
