package geo

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// RushHours is a rush-hour profile: the periods of the day, in the DC's
// time zone, during which trucks drive slower than free flow. Free flow is
// what the TravelModel or the road matrix gives for a leg; during a period
// every second of driving covers only Factor seconds of free-flow travel,
// so that a leg's duration depends on when it starts (see SlowIntervals
// and SlowTimeline for how it is integrated). Outside the periods travel
// is free flow. The empty profile changes nothing.
type RushHours []RushPeriod

// RushPeriod is one slow period of a RushHours profile.
type RushPeriod struct {
	// From and To are clock times, as the time since local midnight: the
	// period runs while the clock shows From or later and earlier than To.
	// From is in [0, 24h) and To in (From, 24h], both whole seconds (the
	// wire form is whole minutes, "06:30"; see ParseClock). A period never
	// runs past midnight: one that does is two periods, the second on the
	// next days (To = 24h ends a period at midnight, and a period from 0
	// on the next day touches it without a gap). This keeps Days
	// unambiguous and a day's periods comparable for overlaps.
	From, To time.Duration
	// Factor is the share of free-flow speed trucks keep during the
	// period: 0.6 makes a leg wholly inside the period take 1/0.6 of its
	// free-flow time. It is in [MinRushFactor, 1]: a profile only slows
	// travel, so free-flow durations stay lower bounds of every leg, which
	// the planner's bounds rely on.
	Factor float64
	// Days are the days of the week on which the period applies, by the
	// local date; none means every day.
	Days []time.Weekday
}

// Limits of a RushHours profile.
const (
	// MaxRushPeriods is the most periods a profile may have: several a
	// day for each day of the week.
	MaxRushPeriods = 64
	// MinRushFactor is the slowest a period may make travel: a tenth of
	// free-flow speed. Slower than that is a closure, not traffic, and it
	// would make the free-flow bounds of planning uselessly weak.
	MinRushFactor = 0.1
)

// ErrInvalidRushHours is matched by every RushHoursError with errors.Is.
var ErrInvalidRushHours = errors.New("geo: invalid rush hours")

// RushHoursError reports one bad field of a RushHours profile: Field is
// its JSON path within the travel member ("profile", "profile[1].factor",
// "profile[0].days[2]", or "profile[2]" for a period that overlaps
// another) and Reason says what is wrong, with the value given.
type RushHoursError struct {
	Field  string
	Reason string
}

// Error formats the problem, for example
// "geo: profile[1].factor: 1.5: must be at most 1".
func (e *RushHoursError) Error() string { return "geo: " + e.Field + ": " + e.Reason }

// Is makes errors.Is(err, ErrInvalidRushHours) true.
func (e *RushHoursError) Is(target error) bool { return target == ErrInvalidRushHours }

// Problems lists every bad field of h: too many periods; a period whose
// From, To or Factor breaks RushPeriod's rules; a day that is not a
// weekday or is listed twice; and every pair of periods that overlap on a
// day both apply to, reported once at the later period with the days.
func (h RushHours) Problems() []RushHoursError {
	var out []RushHoursError
	if len(h) > MaxRushPeriods {
		out = append(out, RushHoursError{Field: "profile", Reason: fmt.Sprintf("%d periods: at most %d", len(h), MaxRushPeriods)})
	}
	clocksOK := make([]bool, len(h))
	for i, p := range h {
		at := func(name string) string { return fmt.Sprintf("profile[%d].%s", i, name) }
		fromOK := p.From >= 0 && p.From < 24*time.Hour && p.From%time.Second == 0
		toOK := p.To > 0 && p.To <= 24*time.Hour && p.To%time.Second == 0
		if !fromOK {
			out = append(out, RushHoursError{Field: at("from"), Reason: FormatClock(p.From) + ": must be a whole second from 00:00 to before 24:00"})
		}
		if !toOK {
			out = append(out, RushHoursError{Field: at("to"), Reason: FormatClock(p.To) + ": must be a whole second after 00:00 up to 24:00"})
		}
		if fromOK && toOK && p.To <= p.From {
			out = append(out, RushHoursError{Field: at("to"), Reason: fmt.Sprintf("%s: must be after from %s; a period past midnight is two periods, one to 24:00 and one from 00:00 on the next days",
				FormatClock(p.To), FormatClock(p.From))})
		}
		clocksOK[i] = fromOK && toOK && p.To > p.From
		switch f := p.Factor; {
		case math.IsNaN(f) || math.IsInf(f, 0):
			out = append(out, RushHoursError{Field: at("factor"), Reason: fmt.Sprintf("%v: must be a finite number", f)})
		case f > 1:
			out = append(out, RushHoursError{Field: at("factor"), Reason: fmt.Sprintf("%v: must be at most 1: a profile only slows travel below free flow", f)})
		case f < MinRushFactor:
			out = append(out, RushHoursError{Field: at("factor"), Reason: fmt.Sprintf("%v: must be at least %v (a tenth of free-flow speed)", f, MinRushFactor)})
		}
		var seen [7]bool
		for k, d := range p.Days {
			switch {
			case d < time.Sunday || d > time.Saturday:
				out = append(out, RushHoursError{Field: fmt.Sprintf("profile[%d].days[%d]", i, k), Reason: fmt.Sprintf("%d: not a day of the week", int(d))})
			case seen[d]:
				out = append(out, RushHoursError{Field: fmt.Sprintf("profile[%d].days[%d]", i, k), Reason: d.String() + " is listed twice"})
			default:
				seen[d] = true
			}
		}
	}
	for j := range h {
		for i := range j {
			if !clocksOK[i] || !clocksOK[j] || h[i].From >= h[j].To || h[j].From >= h[i].To {
				continue
			}
			var days []string
			for d := time.Sunday; d <= time.Saturday; d++ {
				if h[i].appliesOn(d) && h[j].appliesOn(d) {
					days = append(days, d.String())
				}
			}
			if len(days) == 0 {
				continue
			}
			on := "on " + strings.Join(days, ", ")
			if len(days) == 7 {
				on = "every day"
			}
			out = append(out, RushHoursError{Field: fmt.Sprintf("profile[%d]", j), Reason: fmt.Sprintf("%s to %s overlaps profile[%d], %s to %s, %s",
				FormatClock(h[j].From), FormatClock(h[j].To), i, FormatClock(h[i].From), FormatClock(h[i].To), on)})
		}
	}
	return out
}

// Check returns nil when h is usable, or a *RushHoursError for its first
// bad field. Use Problems to get every bad field.
func (h RushHours) Check() error {
	if ps := h.Problems(); len(ps) > 0 {
		return &ps[0]
	}
	return nil
}

// appliesOn reports whether p applies on local dates that are d.
func (p RushPeriod) appliesOn(d time.Weekday) bool {
	if len(p.Days) == 0 {
		return true
	}
	for _, x := range p.Days {
		if x == d {
			return true
		}
	}
	return false
}

// ParseClock reads a clock time "HH:MM", from "00:00" to "24:00", as the
// time since midnight: the wire form of RushPeriod.From and To.
func ParseClock(s string) (time.Duration, error) {
	bad := fmt.Errorf("geo: clock %q: want HH:MM from 00:00 to 24:00", s)
	if len(s) != 5 || s[2] != ':' {
		return 0, bad
	}
	for _, i := range [...]int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return 0, bad
		}
	}
	h := time.Duration(s[0]-'0')*10 + time.Duration(s[1]-'0')
	m := time.Duration(s[3]-'0')*10 + time.Duration(s[4]-'0')
	if m > 59 || h > 24 || (h == 24 && m != 0) {
		return 0, bad
	}
	return h*time.Hour + m*time.Minute, nil
}

// FormatClock writes a time since midnight as ParseClock reads it,
// "06:30"; seconds, when there are any, follow as ":SS", and a value
// outside [0, 24h] is written as a duration.
func FormatClock(d time.Duration) string {
	if d < 0 || d > 24*time.Hour || d%time.Second != 0 {
		return d.String()
	}
	s := int64(d / time.Second)
	if s%60 != 0 {
		return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/3600, s/60%60)
}
