package constraints

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

func TestDailyAndWeekly(t *testing.T) {
	morning := []Opening{{Open: "05:00", Close: "12:00"}}
	all := map[string][]Opening{}
	for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
		all[d] = morning
	}
	sat := []Opening{{Open: "06:00", Close: "10:00"}, {Open: "14:00", Close: "16:00"}}
	tests := []struct {
		name string
		got  WeeklyHours
		want WeeklyHours
	}{
		{"daily", Daily("America/Chicago", "05:00", "12:00"), WeeklyHours{TimeZone: "America/Chicago", Days: all}},
		{"daily in UTC", Daily("", "05:00", "12:00"), WeeklyHours{Days: all}},
		{"weekly", Weekly("America/Chicago", map[time.Weekday][]Opening{time.Monday: morning, time.Saturday: sat, time.Sunday: nil}),
			WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]Opening{"mon": morning, "sat": sat}}},
		{"weekly ignores days that are no weekday", Weekly("", map[time.Weekday][]Opening{7: morning, -1: morning, time.Friday: morning}),
			WeeklyHours{Days: map[string][]Opening{"fri": morning}}},
		{"on replaces a day", Daily("", "05:00", "12:00").On(time.Saturday, sat...), WeeklyHours{Days: with(all, "sat", sat)}},
		{"on without openings closes a day", Daily("", "05:00", "12:00").On(time.Sunday), WeeklyHours{Days: with(all, "sun", nil)}},
		{"closed on closes the days named", Daily("", "05:00", "12:00").ClosedOn(time.Saturday, time.Sunday), WeeklyHours{Days: with(with(all, "sat", nil), "sun", nil)}},
		{"on opens a day of empty hours", WeeklyHours{}.On(time.Tuesday, morning...), WeeklyHours{Days: map[string][]Opening{"tue": morning}}},
		{"closing adds dates", Daily("", "05:00", "12:00").Closing("2026-12-25").Closing("2027-01-01"),
			WeeklyHours{Days: all, ClosedDates: []string{"2026-12-25", "2027-01-01"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !reflect.DeepEqual(tc.got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", tc.got, tc.want)
			}
			if vs := tc.got.Check("hours"); vs != nil {
				t.Fatalf("Check: %v", vs)
			}
		})
	}
}

// with returns a copy of days with key set to os (deleted when os is nil).
func with(days map[string][]Opening, key string, os []Opening) map[string][]Opening {
	out := map[string][]Opening{}
	for k, v := range days {
		out[k] = v
	}
	if os == nil {
		delete(out, key)
	} else {
		out[key] = os
	}
	return out
}

// TestOnAndClosingCopy: the helpers return new hours and never change the
// ones they start from, even through shared slices.
func TestOnAndClosingCopy(t *testing.T) {
	base := Daily("America/Chicago", "05:00", "12:00").Closing("2026-12-25")
	keep := Daily("America/Chicago", "05:00", "12:00").Closing("2026-12-25")
	changed := base.On(time.Monday, Opening{Open: "06:00", Close: "07:00"}).On(time.Sunday).Closing("2027-01-01")
	changed.Days["tue"][0].Open = "00:00"
	changed.ClosedDates[0] = "2026-12-24"
	if !reflect.DeepEqual(base, keep) {
		t.Fatalf("the hours a helper started from changed: %+v", base)
	}
}

// TestDailyReportsBadInput: the helpers check nothing; Check reports every
// bad field with its path, as for hours decoded from JSON.
func TestDailyReportsBadInput(t *testing.T) {
	vs := Daily("Mars/Olympus", "5:00", "12:00").On(time.Sunday).Check("stores[0].hours")
	if len(vs) != 7 || vs[0].Path != "stores[0].hours.timeZone" || vs[1].Path != "stores[0].hours.days.mon[0].open" ||
		vs[0].Code != CodeInvalidTimeZone || vs[1].Code != CodeInvalidTime {
		t.Fatalf("got %v", vs)
	}
}

func ExampleDaily() {
	// Receiving from 05:00 to 12:00, Saturdays 06:00 to 10:00, closed on
	// Sundays and on Christmas Day.
	hours := Daily("America/Chicago", "05:00", "12:00").
		On(time.Saturday, Opening{Open: "06:00", Close: "10:00"}).
		On(time.Sunday).
		Closing("2026-12-25")
	ws, err := hours.Resolve(time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 29, 0, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	chicago, _ := time.LoadLocation("America/Chicago")
	for _, w := range ws {
		fmt.Println(w.Start.In(chicago).Format("Mon Jan 2 15:04"), "to", w.End.In(chicago).Format("15:04 MST"))
	}
	// Output:
	// Thu Dec 24 05:00 to 12:00 CST
	// Sat Dec 26 06:00 to 10:00 CST
	// Mon Dec 28 05:00 to 12:00 CST
}
