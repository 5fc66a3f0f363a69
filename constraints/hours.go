package constraints

import (
	"sort"
	"sync"
	"time"

	// Stores name zones like "America/Chicago"; the embedded database lets
	// that work on machines without /usr/share/zoneinfo (containers).
	_ "time/tzdata"
)

// Codes of the violations reported by WeeklyHours.Check.
const (
	CodeInvalidTimeZone = "INVALID_TIMEZONE"
	CodeInvalidDay      = "INVALID_DAY"
	CodeInvalidTime     = "INVALID_TIME"
	CodeInvalidOpening  = "INVALID_OPENING"
	CodeInvalidDate     = "INVALID_DATE"
)

// Opening is one daily opening: Open and Close are "HH:MM" local wall-clock
// times; Close may be "24:00"; Close <= Open (e.g. 22:00-06:00) means the
// opening crosses midnight into the next day. Open == Close is invalid.
type Opening struct {
	Open  string `json:"open"`
	Close string `json:"close"`
}

// WeeklyHours is a store's weekly opening hours in a named time zone.
//
// Days keys are "mon", "tue", "wed", "thu", "fri", "sat", "sun"; a missing
// or empty day is closed, though an opening that started the previous
// evening and crosses midnight still applies. ClosedDates are local dates
// ("2006-01-02"): openings that start on such a date are dropped, and an
// opening that started the evening before still runs into it.
//
// Resolve turns the hours into instants. Each end of an opening is resolved
// on its own local date and wall-clock time, so an opening lasts its
// wall-clock length except across a daylight-saving change (22:00-06:00
// over a spring-forward night lasts 7 h). The rules for wall-clock times
// that a change makes nonexistent or ambiguous are fixed, not left to
// time.Date:
//
//   - a time in a spring-forward gap moves forward by the length of the gap
//     (02:30 on the spring-forward day in America/Chicago is 03:30 CDT);
//   - a time that occurs twice at a fall-back takes the earlier instant
//     (01:30 on the fall-back day in America/Chicago is 01:30 CDT);
//   - an opening that these rules leave with no real time (02:00-03:00 on a
//     spring-forward day in Chicago) is dropped.
type WeeklyHours struct {
	// TimeZone is the IANA name of the zone the hours are local to; ""
	// reads as UTC. A planning request (engine.Request.Check) requires it
	// of hours that hold an opening or a closed date: local hours read in
	// the wrong zone would put every delivery hours off.
	TimeZone    string               `json:"timeZone,omitempty"`
	Days        map[string][]Opening `json:"days"`
	ClosedDates []string             `json:"closedDates,omitempty"` // "2006-01-02" local dates
}

// AlwaysOpen returns hours open around the clock every day, in UTC (named,
// so that a request takes them as they are).
func AlwaysOpen() WeeklyHours {
	days := make(map[string][]Opening, 7)
	for _, d := range dayKeys {
		days[d] = []Opening{{Open: "00:00", Close: "24:00"}}
	}
	return WeeklyHours{TimeZone: "UTC", Days: days}
}

// dayKeys are the Days keys indexed by time.Weekday.
var dayKeys = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// checkOrder lists the keys in the order Check reports them.
var checkOrder = [7]string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

// minutesPerDay is the wall-clock length of a day; "24:00" parses to it.
const minutesPerDay = 24 * 60

// span is an Opening in minutes after its start day's midnight; close
// exceeds minutesPerDay when the opening crosses midnight.
type span struct{ open, close int }

// compiledHours is WeeklyHours after checking: what Resolve works from.
type compiledHours struct {
	loc    *time.Location
	days   [7][]span      // indexed by time.Weekday
	closed map[int64]bool // Unix seconds of the closed dates' midnights, read as UTC
}

// Check reports every problem of h, with paths under path (for example
// path+".days.mon[1].close"); it is nil when h is valid.
func (h WeeklyHours) Check(path string) Violations {
	_, vs := h.compile(path)
	return vs
}

// zones holds the time zones loadZone has loaded, by name. A
// *time.Location never changes once loaded, so sharing one changes no
// result; it spares a plan of a thousand stores reading and parsing the
// zone's rules each time a store's hours are resolved (several times a
// store in one planning call).
var zones sync.Map // string → *time.Location

// loadZone is time.LoadLocation(name), loaded once per name.
func loadZone(name string) (*time.Location, error) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	if name != "Local" {
		zones.Store(name, loc)
	}
	return loc, nil
}

// compile checks h and, when it is valid, converts it for Resolve.
func (h WeeklyHours) compile(path string) (*compiledHours, Violations) {
	var vs Violations
	c := &compiledHours{loc: time.UTC}
	if h.TimeZone != "" {
		// "Local" is whatever the machine says, so a plan would depend on
		// where it was computed.
		loc, err := loadZone(h.TimeZone)
		if err != nil || h.TimeZone == "Local" {
			vs.Add(CodeInvalidTimeZone, Field(path, "timeZone"), "timeZone %q: not an IANA time zone name such as \"America/Chicago\"", h.TimeZone)
		} else {
			c.loc = loc
		}
	}

	daysPath := Field(path, "days")
	for _, key := range checkOrder {
		wd := weekdayOf(key)
		for i, o := range h.Days[key] {
			p := Index(Field(daysPath, key), i)
			open, okOpen := parseClock(o.Open, false)
			switch {
			case o.Open == "":
				vs.Add(CodeRequired, Field(p, "open"), "open: required, a local time \"HH:MM\" from 00:00 to 23:59")
			case !okOpen:
				vs.Add(CodeInvalidTime, Field(p, "open"), "open %q: must be a local time \"HH:MM\" from 00:00 to 23:59", o.Open)
			}
			closeAt, okClose := parseClock(o.Close, true)
			switch {
			case o.Close == "":
				vs.Add(CodeRequired, Field(p, "close"), "close: required, a local time \"HH:MM\" from 00:00 to 24:00")
			case !okClose:
				vs.Add(CodeInvalidTime, Field(p, "close"), "close %q: must be a local time \"HH:MM\" from 00:00 to 24:00", o.Close)
			}
			if !okOpen || !okClose {
				continue
			}
			if open == closeAt {
				vs.Add(CodeInvalidOpening, p, "open %s and close %s: an opening must last; 00:00 to 24:00 is a whole day", o.Open, o.Close)
				continue
			}
			if closeAt <= open {
				closeAt += minutesPerDay
			}
			c.days[wd] = append(c.days[wd], span{open, closeAt})
		}
	}
	var unknown []string
	for key := range h.Days {
		if weekdayOf(key) < 0 {
			unknown = append(unknown, key)
		}
	}
	sort.Strings(unknown)
	for _, key := range unknown {
		vs.Add(CodeInvalidDay, Field(daysPath, key), "day %q: must be one of mon, tue, wed, thu, fri, sat, sun", key)
	}

	for i, s := range h.ClosedDates {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			vs.Add(CodeInvalidDate, Index(Field(path, "closedDates"), i), "closed date %q: must be a date \"YYYY-MM-DD\"", s)
			continue
		}
		if c.closed == nil {
			c.closed = make(map[int64]bool, len(h.ClosedDates))
		}
		c.closed[d.Unix()] = true
	}
	if len(vs) > 0 {
		return nil, vs
	}
	return c, nil
}

// weekdayOf returns the time.Weekday of a Days key, or -1.
func weekdayOf(key string) time.Weekday {
	for wd, k := range dayKeys {
		if k == key {
			return time.Weekday(wd)
		}
	}
	return -1
}

// parseClock parses exactly "HH:MM" into minutes after midnight; "24:00"
// is accepted only when allow24 is set.
func parseClock(s string, allow24 bool) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	for _, i := range []int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[3]-'0')*10 + int(s[4]-'0')
	switch {
	case h == 24 && m == 0 && allow24:
		return minutesPerDay, true
	case h > 23 || m > 59:
		return 0, false
	}
	return h*60 + m, true
}

// Resolve returns the instants, in UTC, at which the store is open between
// from and to: the windows of every opening that overlaps [from, to],
// clipped to it, sorted, with overlapping or touching windows merged. It
// returns nil when to is before from, and the Check violations (as a
// Violations error, paths relative to h, e.g. "days.mon[0].open") when h is
// invalid; call Check with the request path for reporting. Its cost grows
// with the number of days between from and to.
func (h WeeklyHours) Resolve(from, to time.Time) ([]Window, error) {
	c, vs := h.compile("")
	if vs != nil {
		return nil, vs
	}
	from, to = from.Round(0).UTC(), to.Round(0).UTC()
	if to.Before(from) {
		return nil, nil
	}

	// An opening runs at most from its start day's 00:00 to the next day's
	// 24:00, so days from two before from's local date (a margin for
	// offset changes) to one after to's cover every overlap.
	fy, fm, fd := from.In(c.loc).Date()
	first := time.Date(fy, fm, fd-2, 0, 0, 0, 0, time.UTC)
	ty, tm, td := to.In(c.loc).Date()
	last := time.Date(ty, tm, td+1, 0, 0, 0, 0, time.UTC)

	var ws []Window
	for day := first; !day.After(last); day = day.AddDate(0, 0, 1) {
		if c.closed[day.Unix()] {
			continue
		}
		y, m, d := day.Date()
		for _, s := range c.days[day.Weekday()] {
			w := Window{Start: wallInstant(y, m, d, s.open, c.loc), End: wallInstant(y, m, d, s.close, c.loc)}
			if !w.End.After(w.Start) || w.End.Before(from) || w.Start.After(to) {
				continue
			}
			if w.Start.Before(from) {
				w.Start = from
			}
			if w.End.After(to) {
				w.End = to
			}
			ws = append(ws, w)
		}
	}
	return mergeWindows(ws), nil
}

// mergeWindows sorts ws by start and merges windows that overlap or touch.
func mergeWindows(ws []Window) []Window {
	if len(ws) == 0 {
		return nil
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].Start.Before(ws[j].Start) })
	out := ws[:1]
	for _, w := range ws[1:] {
		cur := &out[len(out)-1]
		if !w.Start.After(cur.End) {
			if w.End.After(cur.End) {
				cur.End = w.End
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// wallInstant returns the instant, in UTC, at which clocks in loc show
// minutes after midnight of the date y-m-d (minutes may exceed a day). It
// implements the rules documented on WeeklyHours: the earlier instant of an
// ambiguous time, and a nonexistent time moved forward by its gap. time.Date
// does not promise either.
func wallInstant(y int, m time.Month, d, minutes int, loc *time.Location) time.Time {
	// u is the wall-clock time written as seconds as if it were UTC; an
	// instant t shows it when t + offset(t) == u.
	u := time.Date(y, m, d, 0, minutes, 0, 0, time.UTC).Unix()
	ps := zonePeriods(loc, u-maxZoneReach, u+maxZoneReach)

	found, best := false, int64(0)
	for _, p := range ps {
		if t := u - p.offset; p.contains(t) && (!found || t < best) {
			found, best = true, t
		}
	}
	if !found {
		// A gap: the clock jumped from p.offset to q.offset at p.end,
		// skipping u. Reading u with the offset before the jump lands the
		// same distance after the jump as u lies after its start.
		for i := 0; i+1 < len(ps); i++ {
			p, q := ps[i], ps[i+1]
			if t := u - p.offset; p.bounded && t >= p.end && u-q.offset < p.end {
				found, best = true, t
				break
			}
		}
	}
	if !found {
		// Unreachable with consistent zone data; time.Date still gives a
		// sensible instant.
		return time.Date(y, m, d, 0, minutes, 0, 0, loc).UTC()
	}
	return time.Unix(best, 0).UTC()
}

// maxZoneReach bounds how far (in seconds) a wall-clock time can be from
// the instant that shows it: UTC offsets, including historical local mean
// times, stay within ±16 h; a day of margin covers the gap search.
const maxZoneReach = 40 * 3600

// zonePeriod is a stretch of instants [start, end) with one UTC offset.
type zonePeriod struct {
	start, end int64 // Unix seconds
	open       bool  // start is -∞
	bounded    bool  // end is finite
	offset     int64 // seconds east of UTC
}

func (p zonePeriod) contains(t int64) bool {
	return (p.open || t >= p.start) && (!p.bounded || t < p.end)
}

// zonePeriods lists the periods of loc that cover the instants [lo, hi].
func zonePeriods(loc *time.Location, lo, hi int64) []zonePeriod {
	var ps []zonePeriod
	// The bound on iterations guards against zone data that never
	// advances; real zones change a few times a year at most.
	for t := lo; len(ps) < 64; {
		at := time.Unix(t, 0).In(loc)
		_, off := at.Zone()
		start, end := at.ZoneBounds()
		p := zonePeriod{offset: int64(off), open: start.IsZero(), bounded: !end.IsZero()}
		if !p.open {
			p.start = start.Unix()
		}
		if p.bounded {
			p.end = end.Unix()
		}
		ps = append(ps, p)
		if !p.bounded || p.end > hi || p.end <= t {
			break
		}
		t = p.end
	}
	return ps
}
