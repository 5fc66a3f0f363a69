package geo

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the zones of the tests on any machine
)

func clock(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := ParseClock(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParseClock(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"00:00", 0},
		{"06:30", 6*time.Hour + 30*time.Minute},
		{"23:59", 23*time.Hour + 59*time.Minute},
		{"24:00", 24 * time.Hour},
	} {
		got, err := ParseClock(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseClock(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if back := FormatClock(got); back != tc.in {
			t.Errorf("FormatClock(%v) = %q, want %q", got, back, tc.in)
		}
	}
	for _, in := range []string{"", "6:30", "06:3", "06-30", "24:01", "25:00", "12:60", "0a:00", "06:30:00", " 6:30", "+6:30", "06:30Z"} {
		if d, err := ParseClock(in); err == nil {
			t.Errorf("ParseClock(%q) = %v, want an error", in, d)
		}
	}
	if got := FormatClock(6*time.Hour + 30*time.Minute + 15*time.Second); got != "06:30:15" {
		t.Errorf("FormatClock with seconds = %q", got)
	}
	if got := FormatClock(-time.Minute); got != "-1m0s" {
		t.Errorf("FormatClock(-1m) = %q", got)
	}
}

func TestRushHoursProblems(t *testing.T) {
	h := func(s string) time.Duration { return clock(t, s) }
	weekdays := []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}
	valid := RushHours{
		{From: h("06:30"), To: h("09:00"), Factor: 0.6, Days: weekdays},
		{From: h("07:00"), To: h("10:00"), Factor: 0.8, Days: []time.Weekday{time.Saturday}},
		{From: h("16:00"), To: h("19:00"), Factor: 0.7},
		{From: h("22:00"), To: h("24:00"), Factor: 0.9},
		{From: 0, To: h("01:00"), Factor: 0.9},
		{From: h("09:00"), To: h("10:00"), Factor: 1, Days: weekdays}, // touches the first
	}
	if ps := valid.Problems(); len(ps) != 0 || valid.Check() != nil {
		t.Fatalf("valid profile: %v", ps)
	}
	if (RushHours{}).Check() != nil || RushHours(nil).Check() != nil {
		t.Fatal("the empty profile is invalid")
	}
	tests := []struct {
		name    string
		profile RushHours
		want    []string // the fields at fault, in order
		reason  string   // a part of the first problem's reason
	}{
		{"to before from", RushHours{{From: h("09:00"), To: h("06:30"), Factor: 0.6}}, []string{"profile[0].to"}, "two periods"},
		{"empty period", RushHours{{From: h("09:00"), To: h("09:00"), Factor: 0.6}}, []string{"profile[0].to"}, "after from 09:00"},
		{"from at 24:00", RushHours{{From: h("24:00"), To: h("24:00"), Factor: 0.6}}, []string{"profile[0].from"}, "before 24:00"},
		{"negative from, to past midnight", RushHours{{From: -time.Hour, To: 25 * time.Hour, Factor: 0.6}}, []string{"profile[0].from", "profile[0].to"}, "-1h0m0s"},
		{"a fraction of a second", RushHours{{From: time.Hour + time.Millisecond, To: 2 * time.Hour, Factor: 0.6}}, []string{"profile[0].from"}, "whole second"},
		{"factor above 1", RushHours{{From: 0, To: time.Hour, Factor: 1.5}}, []string{"profile[0].factor"}, "at most 1"},
		{"factor 0", RushHours{{From: 0, To: time.Hour}}, []string{"profile[0].factor"}, "at least 0.1"},
		{"negative factor", RushHours{{From: 0, To: time.Hour, Factor: -0.5}}, []string{"profile[0].factor"}, "at least 0.1"},
		{"NaN factor", RushHours{{From: 0, To: time.Hour, Factor: math.NaN()}}, []string{"profile[0].factor"}, "finite"},
		{"bad days", RushHours{{From: 0, To: time.Hour, Factor: 0.5, Days: []time.Weekday{time.Monday, 7, time.Monday, -1}}},
			[]string{"profile[0].days[1]", "profile[0].days[2]", "profile[0].days[3]"}, "7: not a day"},
		{"overlap every day", RushHours{{From: h("06:00"), To: h("09:00"), Factor: 0.6}, {From: h("08:59"), To: h("10:00"), Factor: 0.8}},
			[]string{"profile[1]"}, "08:59 to 10:00 overlaps profile[0], 06:00 to 09:00, every day"},
		{"overlap on common days", RushHours{
			{From: h("06:00"), To: h("09:00"), Factor: 0.6, Days: weekdays},
			{From: h("07:00"), To: h("08:00"), Factor: 0.8, Days: []time.Weekday{time.Sunday, time.Friday, time.Monday}},
			{From: h("07:30"), To: h("12:00"), Factor: 0.8, Days: []time.Weekday{time.Saturday, time.Sunday}},
		}, []string{"profile[1]", "profile[2]"}, "on Monday, Friday"},
		{"overlap on one day", RushHours{
			{From: h("07:00"), To: h("08:00"), Factor: 0.8, Days: []time.Weekday{time.Sunday, time.Friday}},
			{From: h("07:30"), To: h("12:00"), Factor: 0.8, Days: []time.Weekday{time.Saturday, time.Sunday}},
		}, []string{"profile[1]"}, "07:30 to 12:00 overlaps profile[0], 07:00 to 08:00, on Sunday"},
		{"inside another", RushHours{{From: h("06:00"), To: h("12:00"), Factor: 0.6}, {From: h("07:00"), To: h("08:00"), Factor: 0.8}, {From: h("09:00"), To: h("10:00"), Factor: 0.8}},
			[]string{"profile[1]", "profile[2]"}, "overlaps profile[0]"},
		{"too many", slices.Repeat(RushHours{{From: 0, To: time.Minute, Factor: 0.5, Days: []time.Weekday{time.Monday}}}, MaxRushPeriods+1)[:MaxRushPeriods+1],
			nil, "65 periods: at most 64"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := tc.profile.Problems()
			if len(ps) == 0 {
				t.Fatal("no problem reported")
			}
			var fields []string
			for _, p := range ps {
				fields = append(fields, p.Field)
			}
			if tc.want != nil && !slices.Equal(fields, tc.want) {
				t.Errorf("fields %q, want %q (%v)", fields, tc.want, ps)
			}
			if !strings.Contains(ps[0].Reason, tc.reason) {
				t.Errorf("reason %q, want it to contain %q", ps[0].Reason, tc.reason)
			}
			err := tc.profile.Check()
			var re *RushHoursError
			if !errors.Is(err, ErrInvalidRushHours) || !errors.As(err, &re) || *re != ps[0] {
				t.Errorf("Check() = %v, want the first problem %v", err, ps[0])
			}
			if !strings.HasPrefix(err.Error(), "geo: "+ps[0].Field+": ") {
				t.Errorf("Error() = %q", err)
			}
		})
	}
}

// utc parses an RFC 3339 instant.
func utc(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v.UTC()
}

func TestRushHoursIntervals(t *testing.T) {
	chicago, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	h := func(s string) time.Duration { return clock(t, s) }
	iv := func(start, end string, f float64) SlowInterval {
		return SlowInterval{Start: utc(t, start), End: utc(t, end), Factor: f}
	}
	weekdays := []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}
	tests := []struct {
		name     string
		profile  RushHours
		loc      *time.Location
		from, to string
		want     SlowIntervals
	}{
		{
			name:    "weekday mornings across the spring change, clipped to the horizon",
			profile: RushHours{{From: h("06:30"), To: h("09:00"), Factor: 0.6, Days: weekdays}},
			loc:     chicago,
			// Friday 6 March 2026 07:00 CST to Monday 9 March 08:00 CDT.
			from: "2026-03-06T13:00:00Z", to: "2026-03-09T13:00:00Z",
			want: SlowIntervals{
				iv("2026-03-06T13:00:00Z", "2026-03-06T15:00:00Z", 0.6), // 06:30–09:00 CST, from 07:00
				iv("2026-03-09T11:30:00Z", "2026-03-09T13:00:00Z", 0.6), // 06:30 CDT, to 08:00
			},
		},
		{
			name:    "a period over the skipped hour keeps its clock times",
			profile: RushHours{{From: h("01:30"), To: h("03:30"), Factor: 0.5}, {From: h("06:00"), To: h("06:10"), Factor: 0.5}},
			loc:     chicago,
			from:    "2026-03-08T06:00:00Z", to: "2026-03-08T12:00:00Z",
			// 01:30 CST is 07:30Z; 03:30 CDT is 08:30Z: one hour of
			// rush on the day the clocks skip 02:00 to 03:00.
			want: SlowIntervals{iv("2026-03-08T07:30:00Z", "2026-03-08T08:30:00Z", 0.5), iv("2026-03-08T11:00:00Z", "2026-03-08T11:10:00Z", 0.5)},
		},
		{
			name:    "a period inside the skipped hour is empty",
			profile: RushHours{{From: h("02:10"), To: h("02:50"), Factor: 0.5}},
			loc:     chicago,
			from:    "2026-03-08T00:00:00Z", to: "2026-03-08T12:00:00Z",
		},
		{
			name:    "a period over the repeated hour runs through both",
			profile: RushHours{{From: h("01:00"), To: h("02:00"), Factor: 0.5}},
			loc:     chicago,
			from:    "2026-11-01T00:00:00Z", to: "2026-11-01T12:00:00Z",
			// 01:00 CDT is 06:00Z; the clock first shows 02:00 at 02:00
			// CST, 08:00Z.
			want: SlowIntervals{iv("2026-11-01T06:00:00Z", "2026-11-01T08:00:00Z", 0.5)},
		},
		{
			name: "night periods of one factor merge across midnight; factor 1 adds nothing",
			profile: RushHours{
				{From: h("22:00"), To: h("24:00"), Factor: 0.8},
				{From: 0, To: h("05:00"), Factor: 0.8},
				{From: h("05:00"), To: h("06:00"), Factor: 0.9},
				{From: h("12:00"), To: h("13:00"), Factor: 1},
			},
			loc:  time.UTC,
			from: "2026-03-02T12:00:00Z", to: "2026-03-04T00:00:00Z",
			want: SlowIntervals{
				iv("2026-03-02T22:00:00Z", "2026-03-03T05:00:00Z", 0.8),
				iv("2026-03-03T05:00:00Z", "2026-03-03T06:00:00Z", 0.9),
				iv("2026-03-03T22:00:00Z", "2026-03-04T00:00:00Z", 0.8),
			},
		},
		{
			name:    "days by the local date",
			profile: RushHours{{From: h("20:00"), To: h("21:00"), Factor: 0.5, Days: []time.Weekday{time.Sunday}}},
			loc:     chicago,
			// Sunday 1 March 20:00 CST is Monday 02:00Z.
			from: "2026-02-28T00:00:00Z", to: "2026-03-08T00:00:00Z",
			want: SlowIntervals{iv("2026-03-02T02:00:00Z", "2026-03-02T03:00:00Z", 0.5)},
		},
		{
			name:    "nil location is UTC; the horizon widens to whole seconds",
			profile: RushHours{{From: h("08:00"), To: h("09:00"), Factor: 0.5}},
			from:    "2026-03-02T08:30:00.4Z", to: "2026-03-02T08:40:00.2Z",
			want: SlowIntervals{iv("2026-03-02T08:30:00Z", "2026-03-02T08:40:01Z", 0.5)},
		},
		{
			name:    "empty horizon",
			profile: RushHours{{From: h("08:00"), To: h("09:00"), Factor: 0.5}},
			from:    "2026-03-02T12:00:00Z", to: "2026-03-02T12:00:00Z",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			from, to := utc(t, tc.from), utc(t, tc.to)
			got := tc.profile.Intervals(tc.loc, from, to)
			if !slices.EqualFunc(got, tc.want, func(a, b SlowInterval) bool {
				return a.Start.Equal(b.Start) && a.End.Equal(b.End) && a.Factor == b.Factor
			}) {
				t.Errorf("got %v\nwant %v", got, tc.want)
			}
		})
	}
}

// TestIntervalsFollowTheClock: over a year of every zone the tests know,
// each resolved interval starts and ends when the local clock shows its
// period's times (or, on a day the clock skips one, at the jump), holds
// the period's factor, and the intervals are sorted and disjoint.
func TestIntervalsFollowTheClock(t *testing.T) {
	h := func(s string) time.Duration { return clock(t, s) }
	profile := RushHours{
		{From: h("02:00"), To: h("03:00"), Factor: 0.5, Days: []time.Weekday{time.Sunday}}, // where many zones change
		{From: h("06:30"), To: h("09:00"), Factor: 0.6},
		{From: h("16:00"), To: h("19:00"), Factor: 0.7, Days: []time.Weekday{time.Friday}},
	}
	for _, name := range []string{"UTC", "America/Chicago", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu", "America/Sao_Paulo", "Pacific/Apia"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		from, to := utc(t, "2011-01-01T00:00:00Z"), utc(t, "2012-01-01T00:00:00Z")
		ivs := profile.Intervals(loc, from, to)
		if len(ivs) < 365 {
			t.Fatalf("%s: %d intervals in a year", name, len(ivs))
		}
		for i, iv := range ivs {
			if !iv.End.After(iv.Start) || iv.Start.Before(from) || iv.End.After(to) || (i > 0 && iv.Start.Before(ivs[i-1].End)) {
				t.Fatalf("%s: interval %d %v–%v out of order", name, i, iv.Start, iv.End)
			}
			day := iv.Start.In(loc).Weekday()
			matched := iv.Start.Equal(from) || iv.End.Equal(to) // clipped
			for _, p := range profile {
				if p.Factor == iv.Factor && p.appliesOn(day) && startsShowing(loc, iv.Start, p.From) && startsShowing(loc, iv.End, p.To) {
					matched = true
				}
			}
			if !matched {
				t.Errorf("%s: interval %v–%v (local %v–%v) is no period's", name, iv.Start, iv.End, iv.Start.In(loc), iv.End.In(loc))
			}
		}
	}
}

// startsShowing reports whether at instant t the clock of loc shows c
// (the time since midnight), or jumps over it: it shows less a second
// before and more at t.
func startsShowing(loc *time.Location, t time.Time, c time.Duration) bool {
	reading := func(t time.Time) time.Duration {
		l := t.In(loc)
		return time.Duration(l.Hour())*time.Hour + time.Duration(l.Minute())*time.Minute + time.Duration(l.Second())*time.Second
	}
	now, before := reading(t), reading(t.Add(-time.Second))
	if c == 24*time.Hour {
		c = 0
	}
	return now == c || (before < c && c < now) || (c == 0 && before > now)
}
