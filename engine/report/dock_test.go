package report

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

func dockPicture(t *testing.T, req engine.Request, plan engine.Result) []*svgElement {
	t.Helper()
	var buf bytes.Buffer
	if err := DockSchedule(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	return parseSVG(t, buf.Bytes())
}

// The dock picture has one lane per door and in it one bar per loading at
// that door, from the x of its loading start to that of its end, labelled
// with its route, trip and trailer unit; the staging from the loading's
// end to the driver's hook-up under it; labels of one lane clear of each
// other.
func TestDockScheduleLoadings(t *testing.T) {
	for name, get := range map[string]func(testing.TB) (engine.Request, engine.Result){"multi-trip day": multiTripDay, "sample": samplePlan} {
		t.Run(name, func(t *testing.T) {
			req, plan := get(t)
			els := dockPicture(t, req, plan)
			x := pictureAxis(t, els)
			var doors []int
			bars, staging := map[string][]*svgElement{}, map[string][]*svgElement{}
			labels := map[string]*svgElement{}
			byDoor := map[int][]*svgElement{} // labels
			for _, e := range els {
				switch {
				case hasClass(e, "door-lane"):
					n, _ := strconv.Atoi(e.attrs["data-door"])
					doors = append(doors, n)
				case hasClass(e, "loading"), hasClass(e, "staging"), hasClass(e, "loading-label"):
					door, _ := strconv.Atoi(e.within("door-lane").attrs["data-door"])
					route := e.within("loading-trip").attrs["data-route"]
					if r := routeByID(plan, route); r.DockDoor != door {
						t.Errorf("%s drawn at door %d, the plan loads it at door %d", route, door, r.DockDoor)
					}
					switch {
					case hasClass(e, "loading"):
						bars[route] = append(bars[route], e)
					case hasClass(e, "staging"):
						staging[route] = append(staging[route], e)
					default:
						labels[route] = e
						byDoor[door] = append(byDoor[door], e)
					}
				}
			}
			want := max(req.DC.DockDoors, plan.Metrics.PeakDockDoors)
			if len(doors) != want || !slices.IsSorted(doors) || doors[0] != 1 || doors[len(doors)-1] != want {
				t.Errorf("door lanes %v, want 1 to %d", doors, want)
			}
			for _, r := range plan.Routes {
				checkLoadingDrawn(t, r, bars[r.ID], staging[r.ID], labels[r.ID], x)
			}
			for door, ls := range byDoor {
				for i, a := range ls {
					for _, b := range ls[:i] {
						if a.attrs["y"] == b.attrs["y"] && overlap(t, a, b) {
							t.Errorf("door %d: the labels %q and %q overlap", door, a.text, b.text)
						}
					}
				}
			}
		})
	}
}

func checkLoadingDrawn(t *testing.T, r engine.Route, bars, staging []*svgElement, label *svgElement, x func(time.Time) float64) {
	t.Helper()
	if len(bars) != 1 {
		t.Fatalf("%s: %d loading bars", r.ID, len(bars))
	}
	b := bars[0]
	if x0, x1 := b.f(t, "x"), b.f(t, "x")+b.f(t, "width"); math.Abs(x0-x(r.LoadingStart)) > 0.05 || math.Abs(x1-x(r.LoadingEnd)) > 0.05 {
		t.Errorf("%s: loading drawn %.2f–%.2f, its times are at %.2f–%.2f", r.ID, x0, x1, x(r.LoadingStart), x(r.LoadingEnd))
	}
	if label == nil || label.text != r.ID+" · trip "+strconv.Itoa(r.Trip)+" · "+r.TrailerUnit {
		t.Errorf("%s: loading labelled %v", r.ID, label)
	}
	if !r.Start.After(r.LoadingEnd) {
		if len(staging) > 0 {
			t.Errorf("%s: staging drawn, the driver hooks up as loading ends", r.ID)
		}
		return
	}
	if len(staging) != 1 {
		t.Fatalf("%s: %d staging bars for a staged trailer", r.ID, len(staging))
	}
	s := staging[0]
	if x0, x1 := s.f(t, "x"), s.f(t, "x")+s.f(t, "width"); math.Abs(x0-x(r.LoadingEnd)) > 0.05 || math.Abs(x1-x(r.Start)) > 0.05 {
		t.Errorf("%s: staging drawn %.2f–%.2f, want %.2f–%.2f", r.ID, x0, x1, x(r.LoadingEnd), x(r.Start))
	}
	if s.f(t, "y") <= b.f(t, "y") {
		t.Errorf("%s: staging drawn at y=%v, not under its loading at %v", r.ID, s.attrs["y"], b.attrs["y"])
	}
}

// overlap says whether two labels of the dock picture share any x.
func overlap(t *testing.T, a, b *svgElement) bool {
	wa, wb := textWidth(a.text, dockLabelPx), textWidth(b.text, dockLabelPx)
	ax, bx := a.f(t, "x"), b.f(t, "x")
	return ax < bx+wb && bx < ax+wa
}

// The multi-trip day loads R1, R3 and R5 at door 1 and R2 and R4 at door
// 2; a DC of four doors shows the two it does not use, empty.
func TestDockScheduleDoors(t *testing.T) {
	req, plan := multiTripDay(t)
	req.DC.DockDoors = 4
	got := map[string][]string{}
	for _, e := range dockPicture(t, req, plan) {
		if hasClass(e, "loading") {
			door := e.within("door-lane").attrs["data-door"]
			got[door] = append(got[door], e.attrs["data-route"])
		}
		if hasClass(e, "door-lane") {
			got[e.attrs["data-door"]] = append(got[e.attrs["data-door"]], "lane")
		}
	}
	want := map[string][]string{"1": {"lane", "R1", "R3", "R5"}, "2": {"lane", "R2", "R4"}, "3": {"lane"}, "4": {"lane"}}
	for door, w := range want {
		if !slices.Equal(got[door], w) {
			t.Errorf("door %s: %v, want %v", door, got[door], w)
		}
	}
}

// The dock hours are shaded where the axis shows them, and only when the
// request has them.
func TestDockScheduleHours(t *testing.T) {
	req, plan := multiTripDay(t)
	days := map[string][]constraints.Opening{}
	for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
		days[d] = []constraints.Opening{{Open: "01:30", Close: "05:40"}, {Open: "06:50", Close: "22:00"}}
	}
	req.DC.DockHours = &constraints.WeeklyHours{TimeZone: "America/Chicago", Days: days}
	if err := engine.Validate(req, plan); err != nil {
		t.Fatalf("setup: %v", err)
	}
	els := dockPicture(t, req, plan)
	x := pictureAxis(t, els)
	var shaded [][2]float64
	for _, e := range els {
		if hasClass(e, "dock-open") {
			shaded = append(shaded, [2]float64{e.f(t, "x"), e.f(t, "x") + e.f(t, "width")})
		}
	}
	// The axis runs 02:00 (the first loading) to 09:00 (the last hook-up, 08:45).
	want := [][2]float64{{x(at(2, 0)), x(at(5, 40))}, {x(at(6, 50)), x(at(9, 0))}}
	if len(shaded) != 2 || math.Abs(shaded[0][0]-want[0][0]) > 0.05 || math.Abs(shaded[0][1]-want[0][1]) > 0.05 ||
		math.Abs(shaded[1][0]-want[1][0]) > 0.05 || math.Abs(shaded[1][1]-want[1][1]) > 0.05 {
		t.Errorf("dock hours shaded %v, want %v", shaded, want)
	}
	req.DC.DockHours = nil
	for _, e := range dockPicture(t, req, plan) {
		if hasClass(e, "dock-open") {
			t.Fatal("dock hours shaded for a DC open around the clock")
		}
	}
}

// A plan of no routes still gives every picture and the workbook: no lane
// to draw is no reason to fail.
func TestNoRoutesDrawn(t *testing.T) {
	req, plan := multiTripDay(t)
	plan.Routes = nil
	plan.Metrics = engine.Metrics{}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"schedule": func(b *bytes.Buffer) error { return Schedule(b, req, plan) },
		"dock":     func(b *bytes.Buffer) error { return DockSchedule(b, req, plan) },
		"workbook": func(b *bytes.Buffer) error { return DispatchSummary(b, req, plan) },
		"page":     func(b *bytes.Buffer) error { return HTML(b, req, plan) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil || buf.Len() == 0 {
			t.Errorf("%s of no routes: %v", name, err)
		}
	}
	// The DC's two doors stand empty on the dock picture.
	lanes := 0
	for _, e := range dockPicture(t, req, plan) {
		if hasClass(e, "door-lane") {
			lanes++
		}
	}
	if lanes != 2 {
		t.Errorf("%d door lanes for a DC of 2 doors", lanes)
	}
}
