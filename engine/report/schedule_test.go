package report

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// pictureAxis reads a picture's time axis back from its hour labels: the
// x position of any instant, by the first and last labelled hour.
func pictureAxis(t *testing.T, els []*svgElement) func(time.Time) float64 {
	t.Helper()
	type tick struct {
		at time.Time
		x  float64
	}
	var ticks []tick
	for _, e := range els {
		if hasClass(e, "hour") {
			at, err := time.Parse(time.RFC3339, e.attrs["data-time"])
			if err != nil {
				t.Fatal(err)
			}
			ticks = append(ticks, tick{at, e.f(t, "x")})
		}
	}
	if len(ticks) < 2 {
		t.Fatalf("%d hour labels on the axis", len(ticks))
	}
	a, b := ticks[0], ticks[len(ticks)-1]
	perSecond := (b.x - a.x) / b.at.Sub(a.at).Seconds()
	return func(at time.Time) float64 { return a.x + perSecond*at.Sub(a.at).Seconds() }
}

func schedulePicture(t *testing.T, req engine.Request, plan engine.Result) []*svgElement {
	t.Helper()
	var buf bytes.Buffer
	if err := Schedule(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	return parseSVG(t, buf.Bytes())
}

// routesByShift are the plan's routes of each shift in trip order.
func routesByShift(plan engine.Result) map[string][]engine.Route {
	m := map[string][]engine.Route{}
	for _, r := range plan.Routes {
		m[r.Shift] = append(m[r.Shift], r)
	}
	for _, rs := range m {
		slices.SortFunc(rs, func(a, b engine.Route) int { return a.Trip - b.Trip })
	}
	return m
}

// The schedule has one lane per driver shift, and in it each of the
// shift's trips in order, drawn from the driver's hook-up to the return
// without a gap, at the x positions of its times; between two trips the
// driver's time at the DC; nothing before the first hook-up (the loading
// is not the driver's), and every stated break drawn.
func TestScheduleLanePerShift(t *testing.T) {
	for name, get := range map[string]func(testing.TB) (engine.Request, engine.Result){
		"multi-trip day": multiTripDay, "sample": samplePlan, "sample with breaks": breaksPlan} {
		t.Run(name, func(t *testing.T) {
			req, plan := get(t)
			els := schedulePicture(t, req, plan)
			x := pictureAxis(t, els)
			shifts := routesByShift(plan)
			lanes := map[string]bool{}
			acts := map[string][]*svgElement{}    // by route
			between := map[string][]*svgElement{} // by shift
			var trips []string                    // routes in drawing order
			for _, e := range els {
				switch {
				case hasClass(e, "shift-lane"):
					sh := e.attrs["data-shift"]
					if lanes[sh] {
						t.Errorf("two lanes for shift %s", sh)
					}
					lanes[sh] = true
					if n := e.attrs["data-trips"]; n != strconv.Itoa(len(shifts[sh])) {
						t.Errorf("shift %s: lane says %s trips, the plan has %d", sh, n, len(shifts[sh]))
					}
				case hasClass(e, "trip"):
					trips = append(trips, e.attrs["data-route"])
				case hasClass(e, actAtDC):
					between[e.within("shift-lane").attrs["data-shift"]] = append(between[e.within("shift-lane").attrs["data-shift"]], e)
				case hasClass(e, "act"):
					acts[e.within("trip").attrs["data-route"]] = append(acts[e.within("trip").attrs["data-route"]], e)
				}
			}
			if len(lanes) != len(shifts) {
				t.Fatalf("%d lanes for %d shifts that drive", len(lanes), len(shifts))
			}
			for sh, rs := range shifts {
				for k, r := range rs {
					checkTripDrawn(t, r, acts[r.ID], x)
					if k > 0 {
						checkAtDC(t, sh, k, rs[k-1], r, between[sh], x)
					}
				}
				if got := len(between[sh]); got != len(rs)-1 {
					t.Errorf("shift %s: %d stretches at the DC for %d trips", sh, got, len(rs))
				}
			}
			order := slices.Clone(trips)
			slices.SortStableFunc(order, func(a, b string) int {
				ra, rb := routeByID(plan, a), routeByID(plan, b)
				if ra.Shift != rb.Shift {
					return 0
				}
				return ra.Trip - rb.Trip
			})
			if !slices.Equal(order, trips) || len(trips) != len(plan.Routes) {
				t.Errorf("trips drawn in the order %v", trips)
			}
		})
	}
}

func routeByID(plan engine.Result, id string) engine.Route {
	return plan.Routes[slices.IndexFunc(plan.Routes, func(r engine.Route) bool { return r.ID == id })]
}

// checkTripDrawn: the trip's blocks start with the hook-up at its Start,
// follow one another without a gap, end at its Return, and hold one break
// per break the plan states.
func checkTripDrawn(t *testing.T, r engine.Route, as []*svgElement, x func(time.Time) float64) {
	t.Helper()
	if len(as) < 2+2*len(r.Stops) {
		t.Fatalf("%s: %d blocks for %d stops", r.ID, len(as), len(r.Stops))
	}
	if !hasClass(as[0], actHookUp) || !hasClass(as[len(as)-1], actDriving) {
		t.Errorf("%s: starts with %q, ends with %q", r.ID, as[0].attrs["class"], as[len(as)-1].attrs["class"])
	}
	if got := as[0].f(t, "x") + as[0].f(t, "width"); math.Abs(got-x(r.Depart)) > 0.05 {
		t.Errorf("%s: the hook-up ends at x=%.2f, the departure is at %.2f", r.ID, got, x(r.Depart))
	}
	end, breaks := x(r.Start), 0
	for _, a := range as {
		if got := a.f(t, "x"); math.Abs(got-end) > 0.05 {
			t.Fatalf("%s: %q at x=%.2f, the block before ends at %.2f", r.ID, a.attrs["class"], got, end)
		}
		end = a.f(t, "x") + a.f(t, "width")
		if hasClass(a, actBreak) {
			breaks++
		}
	}
	if math.Abs(end-x(r.Return)) > 0.05 {
		t.Errorf("%s: drawn to x=%.2f, its return is at %.2f", r.ID, end, x(r.Return))
	}
	want := 0
	for _, s := range r.Stops {
		if s.Break != nil {
			want++
		}
	}
	if breaks != want {
		t.Errorf("%s: %d breaks drawn, the plan states %d", r.ID, breaks, want)
	}
}

// checkAtDC: the k-th stretch at the DC of shift sh runs from prev's
// return to r's hook-up.
func checkAtDC(t *testing.T, sh string, k int, prev, r engine.Route, between []*svgElement, x func(time.Time) float64) {
	t.Helper()
	if len(between) < k {
		t.Fatalf("shift %s: no time at the DC drawn before trip %d", sh, r.Trip)
	}
	e := between[k-1]
	x0, x1 := e.f(t, "x"), e.f(t, "x")+e.f(t, "width")
	if math.Abs(x0-x(prev.Return)) > 0.05 || math.Abs(x1-x(r.Start)) > 0.05 {
		t.Errorf("shift %s: at the DC drawn %.2f–%.2f, want %.2f–%.2f (%s back, %s on duty)", sh, x0, x1, x(prev.Return), x(r.Start), prev.ID, r.ID)
	}
}

// The schedule reads without hover text: each lane says its shift, its
// trips, its duty from the first hook-up to the last return and its
// driving; each trip its route, trip number and trailer unit; each stop
// its store's id, a break its length; and the labels of one line do not
// write over each other.
func TestScheduleLabels(t *testing.T) {
	for name, get := range map[string]func(testing.TB) (engine.Request, engine.Result){"multi-trip day": multiTripDay, "sample with breaks": breaksPlan} {
		t.Run(name, func(t *testing.T) {
			req, plan := get(t)
			els := schedulePicture(t, req, plan)
			var page strings.Builder
			for _, e := range els {
				if e.name == "text" {
					page.WriteString(e.text + "\n")
				}
			}
			for sh, rs := range routesByShift(plan) {
				var driving time.Duration
				for _, r := range rs {
					driving += r.Metrics.Driving
				}
				duty := rs[len(rs)-1].Return.Sub(rs[0].Start)
				for _, want := range []string{sh + "\n" + plural(len(rs), "trip") + "\n", fmt.Sprintf("duty %s · driving %s\n", hhmm(duty), hhmm(driving))} {
					if !strings.Contains(page.String(), want) {
						t.Errorf("shift %s: no label %q", sh, want)
					}
				}
			}
			checkTripLabels(t, plan, els)
			checkStopLabels(t, plan, els)
		})
	}
	// The multi-trip day's figures, by hand: D1 on duty 03:00–10:35:02
	// and driving 2 × (40:05 + 30:04 + 34:31); D2 04:00–09:30:04, driving
	// 2 × (50:06 + 44:32).
	req, plan := multiTripDay(t)
	var lanes []string
	for _, e := range schedulePicture(t, req, plan) {
		if hasClass(e, "shift-label") {
			lanes = append(lanes, e.text)
		}
	}
	if want := []string{"duty 7:35 · driving 3:29", "duty 5:30 · driving 3:09"}; !slices.Equal(lanes, want) {
		t.Errorf("the multi-trip day's lanes read %q, want %q", lanes, want)
	}
}

// checkTripLabels: each trip's label names its route, trip number and
// trailer unit.
func checkTripLabels(t *testing.T, plan engine.Result, els []*svgElement) {
	t.Helper()
	got := map[string]string{}
	for _, e := range els {
		if hasClass(e, "trip-label") {
			got[e.within("trip").attrs["data-route"]] = e.text
		}
	}
	for _, r := range plan.Routes {
		l := got[r.ID]
		if !strings.HasPrefix(l, r.ID+" · ") || !strings.Contains(l, strconv.Itoa(r.Trip)) || !strings.HasSuffix(l, r.TrailerUnit) {
			t.Errorf("%s: trip label %q, want its route, trip %d and unit %s", r.ID, l, r.Trip, r.TrailerUnit)
		}
	}
}

// checkStopLabels: under each trip, a label per stop in order, reading its
// store (and a break's length), none overlapping another of its lane.
func checkStopLabels(t *testing.T, plan engine.Result, els []*svgElement) {
	t.Helper()
	labels := map[string][]*svgElement{} // by route
	lanes := map[string][]*svgElement{}  // by shift
	for _, e := range els {
		if hasClass(e, "stop-label") {
			labels[e.attrs["data-route"]] = append(labels[e.attrs["data-route"]], e)
			sh := e.within("shift-lane").attrs["data-shift"]
			lanes[sh] = append(lanes[sh], e)
		}
	}
	for _, r := range plan.Routes {
		ls := labels[r.ID]
		if len(ls) != len(r.Stops) {
			t.Fatalf("%s: %d store labels for %d stops", r.ID, len(ls), len(r.Stops))
		}
		for k, s := range r.Stops {
			want := s.Store
			if s.Break != nil {
				want = fmt.Sprintf("%s · break %s", s.Store, hhmm(s.Break.Duration))
			}
			if ls[k].text != want || ls[k].attrs["data-stop"] != strconv.Itoa(k+1) {
				t.Errorf("%s stop %d: labelled %q (stop %s), want %q", r.ID, k+1, ls[k].text, ls[k].attrs["data-stop"], want)
			}
		}
	}
	for sh, ls := range lanes {
		for i, a := range ls {
			for _, b := range ls[:i] {
				ax, bx := a.f(t, "x"), b.f(t, "x")
				if a.attrs["y"] == b.attrs["y"] && ax < bx+b.f(t, "data-width") && bx < ax+a.f(t, "data-width") {
					t.Errorf("shift %s: the labels %q and %q overlap", sh, a.text, b.text)
				}
			}
		}
	}
}
