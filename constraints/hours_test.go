package constraints

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
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
			want:  nil,
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
			{CodeInvalidTime, "h.days.tue[2].open"}, {CodeInvalidTime, "h.days.tue[2].close"},
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
