package engine

// Every dock window counts: loading starts inside one of the DC's dock
// windows and inside the driver's shift, on any day of the horizon. These
// cases were found with shifts that start after the first dock window of
// the day has closed.

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// freshSample decodes the bundled sample anew, with an iteration budget so
// that the plan is quick and the same on any machine.
func freshSample(t *testing.T) Request {
	t.Helper()
	b, err := os.ReadFile("../examples/quickstart/sample.json")
	if err != nil {
		t.Fatal(err)
	}
	req, err := DecodeRequest(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Options.Iterations = 300
	req.Options.TimeLimit = 5 * time.Minute
	req.Options.Workers = 1
	req.Options.Seed = 1
	return req
}

// everyDay is weekly hours with the same openings every day.
func everyDay(zone string, openings ...constraints.Opening) *constraints.WeeklyHours {
	h := &constraints.WeeklyHours{TimeZone: zone, Days: map[string][]constraints.Opening{}}
	for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
		h.Days[d] = append([]constraints.Opening(nil), openings...)
	}
	return h
}

// TestDockHoursLaterWindowCounts: the sample with the dock open 00:00–05:00
// and 07:00–22:00 (or 00:00–00:30 and 04:30–22:00) every day, and every
// second shift (D02, D04, …, D26) moved to 05:30–18:30 local on its day.
// Those shifts start after a dock window closed and before the next one
// opens, so their loading waits for 07:00 (or starts at once). The sample
// is fully deliverable, and still is: all 400 pallets. A planner that
// counted only the first dock window of the horizon would move loading back
// to the end of an earlier window, before the shift started, and leave 172
// pallets behind.
func TestDockHoursLaterWindowCounts(t *testing.T) {
	for _, tc := range []struct {
		name string
		dock []constraints.Opening
	}{
		{"00:00-05:00+07:00-22:00", []constraints.Opening{{Open: "00:00", Close: "05:00"}, {Open: "07:00", Close: "22:00"}}},
		{"00:00-00:30+04:30-22:00", []constraints.Opening{{Open: "00:00", Close: "00:30"}, {Open: "04:30", Close: "22:00"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := freshSample(t)
			zone := req.DC.DockHours.TimeZone
			req.DC.DockHours = everyDay(zone, tc.dock...)
			loc, err := time.LoadLocation(zone)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(req.Shifts); i += 2 {
				s := &req.Shifts[i]
				y, m, d := s.Start.In(loc).Date()
				s.Start = time.Date(y, m, d, 5, 30, 0, 0, loc)
				s.End = time.Date(y, m, d, 18, 30, 0, 0, loc)
			}
			plan := planOK(t, req)
			if plan.Metrics.Pallets != 400 || len(plan.Unassigned) != 0 {
				t.Fatalf("%d of 400 pallets delivered, unassigned by reason %v; want all 400", plan.Metrics.Pallets, unassignedReasons(plan))
			}
			// Validate checks this too; said here because it is the point.
			for _, r := range plan.Routes {
				local := r.LoadingStart.In(loc)
				hm := local.Hour()*60 + local.Minute()
				inDock := false
				for _, o := range tc.dock {
					open, _ := parseHM(o.Open)
					closeAt, _ := parseHM(o.Close)
					if hm >= open && (hm < closeAt || hm == closeAt && local.Second() == 0) {
						inDock = true
					}
				}
				if !inDock {
					t.Fatalf("route %s starts loading at %s, outside the dock hours", r.ID, local.Format(time.Kitchen))
				}
			}
		})
	}
}

// parseHM reads "HH:MM" as minutes after midnight.
func parseHM(s string) (int, bool) {
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, false
	}
	return t.Hour()*60 + t.Minute(), true
}
