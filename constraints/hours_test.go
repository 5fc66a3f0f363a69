package constraints

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// utc parses an RFC 3339 instant for expected values.
func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func win(start, end string) Window { return Window{Start: utc(start), End: utc(end)} }

func TestWeeklyHoursResolve(t *testing.T) {
	tests := []struct {
		name     string
		hours    WeeklyHours
		from, to string
		want     []Window
	}{
		{
			name:  "UTC day",
			hours: WeeklyHours{Days: map[string][]Opening{"mon": {{"08:00", "17:00"}}}},
			from:  "2026-03-02T00:00:00Z", to: "2026-03-02T23:59:00Z",
			want: []Window{win("2026-03-02T08:00:00Z", "2026-03-02T17:00:00Z")},
		},
		{
			name:  "closed days skipped over two weeks",
			hours: WeeklyHours{Days: map[string][]Opening{"mon": {{"08:00", "17:00"}}, "tue": nil, "wed": {}}},
			from:  "2026-03-01T00:00:00Z", to: "2026-03-15T00:00:00Z",
			want: []Window{
				win("2026-03-02T08:00:00Z", "2026-03-02T17:00:00Z"),
				win("2026-03-09T08:00:00Z", "2026-03-09T17:00:00Z"),
			},
		},
		{
			name:  "clipped to from and to",
			hours: WeeklyHours{Days: map[string][]Opening{"mon": {{"08:00", "17:00"}}}},
			from:  "2026-03-02T09:15:30Z", to: "2026-03-02T10:00:00Z",
			want: []Window{win("2026-03-02T09:15:30Z", "2026-03-02T10:00:00Z")},
		},
		{
			name:  "touching at to",
			hours: WeeklyHours{Days: map[string][]Opening{"mon": {{"08:00", "17:00"}}}},
			from:  "2026-03-02T07:00:00Z", to: "2026-03-02T08:00:00Z",
			want: []Window{win("2026-03-02T08:00:00Z", "2026-03-02T08:00:00Z")},
		},
		{
			name:  "empty range",
			hours: WeeklyHours{Days: map[string][]Opening{"mon": {{"08:00", "17:00"}}}},
			from:  "2026-03-02T12:00:00Z", to: "2026-03-02T11:00:00Z",
			want: nil,
		},
		{
			name: "overlapping and touching openings merge",
			hours: WeeklyHours{Days: map[string][]Opening{"mon": {
				{"13:00", "15:00"}, {"08:00", "12:00"}, {"11:00", "13:00"}, {"16:00", "17:00"},
			}}},
			from: "2026-03-02T00:00:00Z", to: "2026-03-03T00:00:00Z",
			want: []Window{
				win("2026-03-02T08:00:00Z", "2026-03-02T15:00:00Z"),
				win("2026-03-02T16:00:00Z", "2026-03-02T17:00:00Z"),
			},
		},
		{
			name: "sunday overnight runs into monday of the next week",
			hours: WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{
				"sun": {{"22:00", "06:00"}},
			}},
			// Monday 2026-02-16 in Chicago (CST, UTC-6), a week with no
			// opening that starts on Monday.
			from: "2026-02-16T06:00:00Z", to: "2026-02-17T05:59:00Z",
			want: []Window{win("2026-02-16T06:00:00Z", "2026-02-16T12:00:00Z")},
		},
		{
			name: "24:00 joins the next day's 00:00",
			hours: WeeklyHours{TimeZone: "Europe/Berlin", Days: map[string][]Opening{
				"mon": {{"18:00", "24:00"}}, "tue": {{"00:00", "06:00"}},
			}},
			from: "2026-02-16T00:00:00Z", to: "2026-02-18T00:00:00Z",
			want: []Window{win("2026-02-16T17:00:00Z", "2026-02-17T05:00:00Z")},
		},
		{
			name:  "always open is one window",
			hours: AlwaysOpen(),
			from:  "2026-02-16T03:00:00Z", to: "2026-02-26T04:00:00Z",
			want: []Window{win("2026-02-16T03:00:00Z", "2026-02-26T04:00:00Z")},
		},
		{
			name: "closed date drops the openings that start on it only",
			hours: WeeklyHours{
				Days: map[string][]Opening{
					"fri": {{"20:00", "02:00"}},
					"sat": {{"09:00", "17:00"}, {"20:00", "02:00"}},
				},
				ClosedDates: []string{"2026-03-07"},
			},
			from: "2026-03-06T00:00:00Z", to: "2026-03-09T00:00:00Z",
			want: []Window{win("2026-03-06T20:00:00Z", "2026-03-07T02:00:00Z")},
		},
		{
			name: "closed date is local",
			hours: WeeklyHours{
				TimeZone:    "Asia/Tokyo", // UTC+9: local Saturday 02:00 is Friday 17:00Z
				Days:        map[string][]Opening{"sat": {{"02:00", "04:00"}}, "fri": {{"02:00", "04:00"}}},
				ClosedDates: []string{"2026-03-07"},
			},
			from: "2026-03-05T00:00:00Z", to: "2026-03-08T00:00:00Z",
			want: []Window{win("2026-03-05T17:00:00Z", "2026-03-05T19:00:00Z")},
		},
		// America/Chicago 2026: CST (UTC-6) to CDT (UTC-5) at 02:00 on
		// Sunday 8 March; CDT back to CST at 02:00 on Sunday 1 November.
		{
			name: "Chicago spring forward",
			hours: WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{
				// Overnight: 8 wall-clock hours, 7 real ones.
				"sat": {{"22:00", "06:00"}},
				// 02:30 does not exist: it becomes 03:30 CDT.
				"sun": {{"02:30", "04:00"}, {"12:00", "13:00"}},
			}},
			from: "2026-03-07T00:00:00Z", to: "2026-03-09T00:00:00Z",
			want: []Window{
				win("2026-03-08T04:00:00Z", "2026-03-08T11:00:00Z"),
				win("2026-03-08T17:00:00Z", "2026-03-08T18:00:00Z"),
			},
		},
		{
			name: "Chicago spring forward gap opening",
			hours: WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{
				"sun": {{"02:30", "03:45"}},
			}},
			from: "2026-03-08T00:00:00Z", to: "2026-03-09T00:00:00Z",
			// 03:30 CDT to 03:45 CDT.
			want: []Window{win("2026-03-08T08:30:00Z", "2026-03-08T08:45:00Z")},
		},
		{
			name: "Chicago spring forward opening with no real time is dropped",
			hours: WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{
				"sun": {{"02:00", "03:00"}, {"02:30", "03:15"}},
			}},
			from: "2026-03-08T00:00:00Z", to: "2026-03-09T00:00:00Z",
			want: nil,
		},
		{
			name: "Chicago spring forward day lasts 23 hours",
			hours: WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{
				"sun": {{"00:00", "24:00"}},
			}},
			from: "2026-03-07T00:00:00Z", to: "2026-03-10T00:00:00Z",
			want: []Window{win("2026-03-08T06:00:00Z", "2026-03-09T05:00:00Z")},
		},
		{
			name: "Chicago fall back",
			hours: WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{
				// Overnight: 8 wall-clock hours, 9 real ones.
				"sat": {{"22:00", "06:00"}},
				// 01:30 happens twice: the earlier, 01:30 CDT, counts.
				"sun": {{"01:30", "03:00"}},
			}},
			from: "2026-10-31T00:00:00Z", to: "2026-11-02T00:00:00Z",
			want: []Window{win("2026-11-01T03:00:00Z", "2026-11-01T12:00:00Z")},
		},
		{
			name: "Chicago fall back ambiguous opening",
			hours: WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{
				"sun": {{"01:30", "03:00"}, {"00:15", "01:15"}},
			}},
			from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z",
			// 00:15 CDT-01:15 CDT and 01:30 CDT-03:00 CST.
			want: []Window{
				win("2026-11-01T05:15:00Z", "2026-11-01T06:15:00Z"),
				win("2026-11-01T06:30:00Z", "2026-11-01T09:00:00Z"),
			},
		},
		{
			name: "Chicago fall back day lasts 25 hours",
			hours: WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{
				"sun": {{"00:00", "24:00"}},
			}},
			from: "2026-10-31T00:00:00Z", to: "2026-11-03T00:00:00Z",
			want: []Window{win("2026-11-01T05:00:00Z", "2026-11-02T06:00:00Z")},
		},
		// Europe/Berlin 2026: CET (UTC+1) to CEST (UTC+2) at 02:00 on
		// Sunday 29 March; CEST back to CET at 03:00 on Sunday 25 October.
		{
			name: "Berlin spring forward",
			hours: WeeklyHours{TimeZone: "Europe/Berlin", Days: map[string][]Opening{
				"sat": {{"22:00", "06:00"}},
				"sun": {{"02:30", "05:00"}},
			}},
			from: "2026-03-28T00:00:00Z", to: "2026-03-30T00:00:00Z",
			// 22:00 CET to 06:00 CEST is 7 h; 02:30 becomes 03:30 CEST,
			// inside the overnight opening.
			want: []Window{win("2026-03-28T21:00:00Z", "2026-03-29T04:00:00Z")},
		},
		{
			name: "Berlin spring forward gap opening",
			hours: WeeklyHours{TimeZone: "Europe/Berlin", Days: map[string][]Opening{
				"sun": {{"02:30", "05:00"}},
			}},
			from: "2026-03-28T00:00:00Z", to: "2026-03-30T00:00:00Z",
			want: []Window{win("2026-03-29T01:30:00Z", "2026-03-29T03:00:00Z")},
		},
		{
			name: "Berlin fall back",
			hours: WeeklyHours{TimeZone: "Europe/Berlin", Days: map[string][]Opening{
				"sat": {{"22:00", "02:30"}},
				"sun": {{"02:30", "04:00"}},
			}},
			from: "2026-10-24T00:00:00Z", to: "2026-10-26T00:00:00Z",
			// 22:00 CEST to 02:30 CEST (the earlier 02:30), then 02:30
			// CEST to 04:00 CET: touching, so merged; 7 real hours.
			want: []Window{win("2026-10-24T20:00:00Z", "2026-10-25T03:00:00Z")},
		},
		{
			name: "Berlin fall back ambiguous opening",
			hours: WeeklyHours{TimeZone: "Europe/Berlin", Days: map[string][]Opening{
				"sun": {{"02:30", "04:00"}},
			}},
			from: "2026-10-24T00:00:00Z", to: "2026-10-26T00:00:00Z",
			// 02:30 CEST (not 02:30 CET, an hour later) to 04:00 CET.
			want: []Window{win("2026-10-25T00:30:00Z", "2026-10-25T03:00:00Z")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if vs := tc.hours.Check("hours"); vs != nil {
				t.Fatalf("Check: %v", vs)
			}
			got, err := tc.hours.Resolve(utc(tc.from), utc(tc.to))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Resolve:\n got %v\nwant %v", got, tc.want)
			}
			for _, w := range got {
				if w.Start.Location() != time.UTC || w.End.Location() != time.UTC {
					t.Errorf("window %v not in UTC", w)
				}
			}
		})
	}
}

func TestWeeklyHoursResolveInputZone(t *testing.T) {
	// from and to in another zone, with a monotonic reading, give the same
	// UTC windows.
	h := WeeklyHours{TimeZone: "Europe/Berlin", Days: map[string][]Opening{"mon": {{"08:00", "17:00"}}}}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 3, 1, 0, 0, 0, 0, ny)
	got, err := h.Resolve(from, from.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := []Window{win("2026-03-02T07:00:00Z", "2026-03-02T16:00:00Z")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	now := time.Now()
	if _, err := h.Resolve(now, now.Add(time.Hour)); err != nil {
		t.Error(err)
	}
}

func TestWeeklyHoursCheck(t *testing.T) {
	type v struct{ code, path string }
	tests := []struct {
		name  string
		hours WeeklyHours
		want  []v
	}{
		{"empty is valid (always closed)", WeeklyHours{}, nil},
		{"always open", AlwaysOpen(), nil},
		{"valid zone and dates", WeeklyHours{TimeZone: "America/Chicago", ClosedDates: []string{"2026-12-25"},
			Days: map[string][]Opening{"mon": {{"00:00", "24:00"}}, "sun": {{"23:59", "00:00"}}}}, nil},
		{"bad zone", WeeklyHours{TimeZone: "Mars/Olympus"}, []v{{CodeInvalidTimeZone, "h.timeZone"}}},
		{"Local zone", WeeklyHours{TimeZone: "Local"}, []v{{CodeInvalidTimeZone, "h.timeZone"}}},
		{"path-like zone", WeeklyHours{TimeZone: "../../etc/passwd"}, []v{{CodeInvalidTimeZone, "h.timeZone"}}},
		{"bad days", WeeklyHours{Days: map[string][]Opening{"Mon": nil, "monday": {{"08:00", "09:00"}}}},
			[]v{{CodeInvalidDay, "h.days.Mon"}, {CodeInvalidDay, "h.days.monday"}}},
		{"bad times", WeeklyHours{Days: map[string][]Opening{
			"mon": {{"08:00", "17:00"}, {"8:00", "24:01"}},
			"tue": {{"24:00", "25:00"}, {"12:60", "-1:00"}, {"", "ab:cd"}, {"08:00", "08:00 "}},
		}}, []v{
			{CodeInvalidTime, "h.days.mon[1].open"}, {CodeInvalidTime, "h.days.mon[1].close"},
			{CodeInvalidTime, "h.days.tue[0].open"}, {CodeInvalidTime, "h.days.tue[0].close"},
			{CodeInvalidTime, "h.days.tue[1].open"}, {CodeInvalidTime, "h.days.tue[1].close"},
			{CodeRequired, "h.days.tue[2].open"}, {CodeInvalidTime, "h.days.tue[2].close"},
			{CodeInvalidTime, "h.days.tue[3].close"},
		}},
		{"open equals close", WeeklyHours{Days: map[string][]Opening{"wed": {{"08:00", "08:00"}, {"00:00", "00:00"}}}},
			[]v{{CodeInvalidOpening, "h.days.wed[0]"}, {CodeInvalidOpening, "h.days.wed[1]"}}},
		{"bad dates", WeeklyHours{ClosedDates: []string{"2026-12-25", "2026-02-30", "25/12/2026", ""}},
			[]v{{CodeInvalidDate, "h.closedDates[1]"}, {CodeInvalidDate, "h.closedDates[2]"}, {CodeInvalidDate, "h.closedDates[3]"}}},
		{"everything at once", WeeklyHours{TimeZone: "Nowhere", Days: map[string][]Opening{"xyz": nil, "fri": {{"x", "09:00"}}},
			ClosedDates: []string{"tomorrow"}}, []v{
			{CodeInvalidTimeZone, "h.timeZone"}, {CodeInvalidTime, "h.days.fri[0].open"},
			{CodeInvalidDay, "h.days.xyz"}, {CodeInvalidDate, "h.closedDates[0]"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := tc.hours.Check("h")
			var got []v
			for _, x := range vs {
				got = append(got, v{x.Code, x.Path})
				if x.Message == "" {
					t.Errorf("%v: empty message", x)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Check:\n got %v\nwant %v", got, tc.want)
			}
			ws, err := tc.hours.Resolve(utc("2026-03-01T00:00:00Z"), utc("2026-03-08T00:00:00Z"))
			if (err != nil) != (len(tc.want) > 0) {
				t.Fatalf("Resolve error %v, want error %v", err, len(tc.want) > 0)
			}
			if err != nil {
				if ws != nil || !errors.Is(err, ErrInvalid) || len(AsViolations(err)) != len(tc.want) {
					t.Errorf("Resolve: %v, %v", ws, err)
				}
			}
		})
	}
	if vs := (WeeklyHours{TimeZone: "x"}).Check(""); len(vs) != 1 || vs[0].Path != "timeZone" {
		t.Errorf("empty path: %v", vs)
	}
}

func TestWeeklyHoursJSON(t *testing.T) {
	const src = `{"timeZone":"America/Chicago","days":{"mon":[{"open":"06:00","close":"22:00"}],"sat":[]},"closedDates":["2026-12-25"]}`
	var h WeeklyHours
	if err := json.Unmarshal([]byte(src), &h); err != nil {
		t.Fatal(err)
	}
	want := WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{"mon": {{"06:00", "22:00"}}, "sat": {}},
		ClosedDates: []string{"2026-12-25"}}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("decoded %+v, want %+v", h, want)
	}
}

// propZones mix zones without DST, with an hour of DST in either
// hemisphere, with half an hour of DST (Lord Howe), with a change at
// midnight (Santiago), and a zone that skipped a whole day (Apia, 2011).
var propZones = []string{"", "UTC", "America/Chicago", "Europe/Berlin", "Asia/Kolkata",
	"Australia/Lord_Howe", "America/Santiago", "Pacific/Apia", "America/St_Johns"}

// genTransition draws a zone and an instant at one of its offset changes
// (or any instant, for zones without changes), so that the generated
// cases concentrate where daylight saving makes wall-clock times
// nonexistent or ambiguous.
func genTransition(t *rapid.T) (string, *time.Location, time.Time) {
	name := rapid.SampledFrom(propZones).Draw(t, "zone")
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	// Apia skipped 30 December 2011; the other zones change every year.
	start := utc("2011-12-01T00:00:00Z")
	if !rapid.Bool().Draw(t, "apiaYear") {
		start = utc("2026-01-01T00:00:00Z").AddDate(0, 0, rapid.IntRange(0, 364).Draw(t, "dayOfYear"))
	}
	if _, end := start.In(loc).ZoneBounds(); !end.IsZero() && rapid.IntRange(0, 9).Draw(t, "nearChange") > 0 {
		return name, loc, end.UTC()
	}
	return name, loc, start
}

func genClock(t *rapid.T, label string, lo, hi int) string {
	m := rapid.IntRange(lo, hi).Draw(t, label)
	// Half of the draws land on the hour, where transitions happen.
	if rapid.Bool().Draw(t, label+"OnHour") {
		m -= m % 60
	}
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}

func genHours(t *rapid.T) WeeklyHours {
	h := WeeklyHours{Days: map[string][]Opening{}}
	for _, day := range checkOrder {
		n := rapid.IntRange(0, 3).Draw(t, day+"Openings")
		for i := 0; i < n; i++ {
			o := Opening{Open: genClock(t, day+"Open", 0, minutesPerDay-1), Close: genClock(t, day+"Close", 0, minutesPerDay)}
			if o.Close == "00:00" && rapid.Bool().Draw(t, day+"Close24") {
				o.Close = "24:00"
			}
			if o.Open != o.Close {
				h.Days[day] = append(h.Days[day], o)
			}
		}
	}
	return h
}

// genRange draws a zone for h, [from, to] near one of the zone's offset
// changes, and closed dates inside it.
func genRange(t *rapid.T, h *WeeklyHours) (from, to time.Time) {
	name, _, base := genTransition(t)
	h.TimeZone = name
	from = base.Add(time.Duration(rapid.Int64Range(-7*24*60, 2*24*60).Draw(t, "fromMinutes")) * time.Minute)
	if rapid.Bool().Draw(t, "fromSeconds") {
		from = from.Add(time.Duration(rapid.Int64Range(0, 59_999_999_999).Draw(t, "ns")))
	}
	to = from.Add(time.Duration(rapid.Int64Range(0, 15*24*60).Draw(t, "spanMinutes")) * time.Minute)
	for range rapid.IntRange(0, 3).Draw(t, "closedDates") {
		d := from.AddDate(0, 0, rapid.IntRange(-2, 16).Draw(t, "closedDay"))
		h.ClosedDates = append(h.ClosedDates, d.Format(time.DateOnly))
	}
	return from, to
}

// oracleInstant is a brute-force, independent version of wallInstant: it
// finds the zone's offsets and transitions by scanning instants around the
// wall time, then applies the documented rules.
func oracleInstant(y int, m time.Month, d, minutes int, loc *time.Location) time.Time {
	u := time.Date(y, m, d, 0, minutes, 0, 0, time.UTC).Unix()
	offset := func(t int64) int64 { _, o := time.Unix(t, 0).In(loc).Zone(); return int64(o) }
	const reach, step = 30 * 3600, 900
	// Transitions inside the scanned range, to the second.
	type change struct{ at, before, after int64 }
	var changes []change
	for t := u - reach; t < u+reach; t += step {
		if a, b := offset(t), offset(t+step); a != b {
			lo, hi := t, t+step // offset(lo) == a, offset(hi) != a
			for hi-lo > 1 {
				if mid := (lo + hi) / 2; offset(mid) == a {
					lo = mid
				} else {
					hi = mid
				}
			}
			changes = append(changes, change{hi, a, offset(hi)})
		}
	}
	// The earliest instant that shows u.
	found, best := false, int64(0)
	for t := u - reach; t <= u+reach; t += step {
		if c := u - offset(t); offset(c) == u-c && (!found || c < best) {
			found, best = true, c
		}
	}
	for _, ch := range changes {
		for _, o := range []int64{ch.before, ch.after} {
			if c := u - o; offset(c) == o && (!found || c < best) {
				found, best = true, c
			}
		}
	}
	if found {
		return time.Unix(best, 0).UTC()
	}
	for _, ch := range changes {
		if c := u - ch.before; ch.after > ch.before && c >= ch.at && c < ch.at+ch.after-ch.before {
			return time.Unix(c, 0).UTC()
		}
	}
	panic(fmt.Sprintf("oracle: no instant for %d-%02d-%02d +%dmin in %v", y, m, d, minutes, loc))
}

// oracleOpening is one opening resolved by the oracle.
type oracleOpening struct {
	Window
	closed bool // starts on a closed date
}

// oracleOpenings resolves every opening starting on a local date within
// three days of [from, to], without clipping or merging.
func oracleOpenings(h WeeklyHours, from, to time.Time) []oracleOpening {
	loc := time.UTC
	if h.TimeZone != "" {
		loc, _ = time.LoadLocation(h.TimeZone)
	}
	var out []oracleOpening
	y, m, d := from.In(loc).Date()
	for day := time.Date(y, m, d-3, 0, 0, 0, 0, time.UTC); day.Before(to.AddDate(0, 0, 3)); day = day.AddDate(0, 0, 1) {
		key := [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}[day.Weekday()]
		for _, o := range h.Days[key] {
			open, _ := parseClock(o.Open, false)
			cl, _ := parseClock(o.Close, true)
			if cl <= open {
				cl += minutesPerDay
			}
			dy, dm, dd := day.Date()
			out = append(out, oracleOpening{
				Window: Window{Start: oracleInstant(dy, dm, dd, open, loc), End: oracleInstant(dy, dm, dd, cl, loc)},
				closed: slices.Contains(h.ClosedDates, day.Format(time.DateOnly)),
			})
		}
	}
	return out
}

func TestWeeklyHoursResolveProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := genHours(t)
		from, to := genRange(t, &h)
		ws, err := h.Resolve(from, to)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range ws {
			if w.Start.Before(from) || w.End.After(to) || w.End.Before(w.Start) {
				t.Fatalf("window %d %v outside [%v, %v] or reversed", i, w, from, to)
			}
			if i > 0 && !ws[i-1].End.Before(w.Start) {
				t.Fatalf("windows %d and %d not sorted and disjoint: %v, %v", i-1, i, ws[i-1], w)
			}
		}

		// Every end of a window is from, to, or a wall-clock time of an
		// opening in the zone.
		ops := oracleOpenings(h, from, to)
		isEnd := func(x time.Time) bool {
			if x.Equal(from) || x.Equal(to) {
				return true
			}
			for _, o := range ops {
				if x.Equal(o.Start) || x.Equal(o.End) {
					return true
				}
			}
			return false
		}
		for i, w := range ws {
			if !isEnd(w.Start) || !isEnd(w.End) {
				t.Fatalf("window %d %v: an end is neither from/to nor an opening's time", i, w)
			}
		}

		// The store is open at an instant exactly when some opening that
		// does not start on a closed date and lasts real time covers it.
		probes := []time.Time{from, to}
		for _, w := range ws {
			probes = append(probes, w.Start, w.End, w.Start.Add(-time.Second), w.End.Add(time.Second))
		}
		for range 5 {
			span := to.Sub(from)
			probes = append(probes, from.Add(time.Duration(rapid.Int64Range(0, int64(span)).Draw(t, "probe"))))
		}
		for _, p := range probes {
			if p.Before(from) || p.After(to) {
				continue
			}
			want := false
			for _, o := range ops {
				if !o.closed && o.End.After(o.Start) && o.Contains(p) {
					want = true
				}
			}
			if got := AnyContains(ws, p); got != want {
				t.Fatalf("open at %v: Resolve says %v, oracle %v; windows %v", p, got, want, ws)
			}
		}

		// Splitting the range anywhere changes nothing.
		b := from.Add(time.Duration(rapid.Int64Range(0, int64(to.Sub(from))).Draw(t, "split")))
		left, err := h.Resolve(from, b)
		if err != nil {
			t.Fatal(err)
		}
		right, err := h.Resolve(b, to)
		if err != nil {
			t.Fatal(err)
		}
		if joined := unionWindows(left, right); !windowsEqual(joined, ws) {
			t.Fatalf("Resolve over [from, to] = %v, but joined at %v: %v", ws, b, joined)
		}
	})
}

// unionWindows merges two sorted, disjoint lists; written apart from
// mergeWindows so that the test does not check the code with itself.
func unionWindows(a, b []Window) []Window {
	all := append(append([]Window(nil), a...), b...)
	slices.SortFunc(all, func(x, y Window) int { return x.Start.Compare(y.Start) })
	var out []Window
	for _, w := range all {
		if n := len(out); n > 0 && !w.Start.After(out[n-1].End) {
			if w.End.After(out[n-1].End) {
				out[n-1].End = w.End
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

func windowsEqual(a, b []Window) bool {
	return slices.EqualFunc(a, b, func(x, y Window) bool { return x.Start.Equal(y.Start) && x.End.Equal(y.End) })
}

func TestWallInstantMatchesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name, loc, at := genTransition(t)
		// The wall-clock time just before the change, give or take a few
		// hours, as minutes after a midnight up to two days earlier.
		before := at.Add(-time.Second).In(loc)
		y, m, d := before.Date()
		back := rapid.IntRange(0, 2).Draw(t, "daysBack")
		minutes := back*minutesPerDay + before.Hour()*60 + before.Minute() + 1 + rapid.IntRange(-240, 240).Draw(t, "minutes")
		d -= back
		if minutes < 0 {
			minutes = 0
		}
		got, want := wallInstant(y, m, d, minutes, loc), oracleInstant(y, m, d, minutes, loc)
		if !got.Equal(want) {
			t.Fatalf("wallInstant(%d-%02d-%02d +%d min, %s) = %v, oracle %v", y, m, d, minutes, name, got, want)
		}
	})
}

func ExampleWeeklyHours_Resolve() {
	hours := WeeklyHours{
		TimeZone: "America/Chicago",
		Days: map[string][]Opening{
			"sat": {{Open: "22:00", Close: "06:00"}}, // overnight
			"sun": {{Open: "12:00", Close: "16:00"}},
		},
		ClosedDates: []string{"2026-03-15"},
	}
	// The week of the spring-forward change (Sunday 8 March 2026).
	ws, err := hours.Resolve(time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range ws {
		fmt.Println(w.Start.Format(time.RFC3339), w.End.Format(time.RFC3339), w.End.Sub(w.Start))
	}
	_, err = WeeklyHours{TimeZone: "Mars/Olympus", Days: map[string][]Opening{"mon": {{Open: "9:00", Close: "17:00"}}}}.Resolve(time.Time{}, time.Time{})
	fmt.Println(err)
	// Output:
	// 2026-03-08T04:00:00Z 2026-03-08T11:00:00Z 7h0m0s
	// 2026-03-08T17:00:00Z 2026-03-08T21:00:00Z 4h0m0s
	// 2026-03-15T03:00:00Z 2026-03-15T11:00:00Z 8h0m0s
	// 2 violations:
	//   timeZone: timeZone "Mars/Olympus": not an IANA time zone name such as "America/Chicago" [INVALID_TIMEZONE]
	//   days.mon[0].open: open "9:00": must be a local time "HH:MM" from 00:00 to 23:59 [INVALID_TIME]
}
