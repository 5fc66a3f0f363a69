package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/haulplan/haulplan/engine"
)

// drivers prints a line per shift that drives, in the order its driver
// comes on duty: its trips, its time on duty from the first hook-up to
// the last return, and its routes in trip order with their trailer units.
func (p *printer) drivers(w io.Writer, plan engine.Result) {
	shifts := tripsByShift(plan.Routes)
	if len(shifts) == 0 {
		return
	}
	verb := "drive"
	if len(shifts) == 1 {
		verb = "drives"
	}
	fmt.Fprintf(w, "\nDrivers: %s %s %s\n", plural(len(shifts), "shift"), verb, plural(len(plan.Routes), "trip"))
	width := len("shift")
	for _, rs := range shifts {
		width = max(width, len(rs[0].Shift))
	}
	fmt.Fprintf(w, "  %-*s  %5s  %-11s  %5s  %s\n", width, "shift", "trips", "on duty", "duty", "routes (trailer units)")
	for _, rs := range shifts {
		first, last := rs[0], rs[len(rs)-1]
		var routes []string
		for _, r := range rs {
			routes = append(routes, fmt.Sprintf("%s (%s)", r.ID, r.TrailerUnit))
		}
		fmt.Fprintf(w, "  %-*s  %5d  %-11s  %5s  %s\n", width, first.Shift, len(rs),
			p.near(first.Start, p.from)+"-"+p.near(last.Return, first.Start), hhmm(last.Return.Sub(first.Start)), strings.Join(routes, ", "))
	}
}

// tripsByShift groups routes by shift, each shift's in trip order, the
// shifts by their first trip's start.
func tripsByShift(routes []engine.Route) [][]engine.Route {
	at := map[string]int{}
	var out [][]engine.Route
	for _, r := range routes {
		k, ok := at[r.Shift]
		if !ok {
			k = len(out)
			at[r.Shift] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], r)
	}
	for _, rs := range out {
		slices.SortStableFunc(rs, func(a, b engine.Route) int { return a.Trip - b.Trip })
	}
	slices.SortStableFunc(out, func(a, b []engine.Route) int { return a[0].Start.Compare(b[0].Start) })
	return out
}

// dock prints the loadings by door and start: the loading window, the
// route and trip it loads, the trailer unit, how long the loaded trailer
// is staged in the yard, and when the driver comes on duty to hook it up.
func (p *printer) dock(w io.Writer, plan engine.Result) {
	if len(plan.Routes) == 0 {
		return
	}
	loads := slices.Clone(plan.Routes)
	slices.SortStableFunc(loads, func(a, b engine.Route) int {
		if a.DockDoor != b.DockDoor {
			return a.DockDoor - b.DockDoor
		}
		return a.LoadingStart.Compare(b.LoadingStart)
	})
	doors := "doors not limited"
	if n := p.req.DC.DockDoors; n > 0 {
		doors = plural(n, "door")
	}
	fmt.Fprintf(w, "\nDock: %s, at most %d loading at once\n", doors, plan.Metrics.PeakDockDoors)
	width := len("route")
	for _, r := range loads {
		width = max(width, len(r.ID))
	}
	fmt.Fprintf(w, "  %4s  %-11s  %-*s  %4s  %-12s  %6s  %s\n", "door", "loading", width, "route", "trip", "trailer unit", "staged", "on duty")
	for _, r := range loads {
		fmt.Fprintf(w, "  %4d  %-11s  %-*s  %4d  %-12s  %6s  %s\n", r.DockDoor,
			p.near(r.LoadingStart, p.from)+"-"+p.near(r.LoadingEnd, r.LoadingStart), width, r.ID, r.Trip, r.TrailerUnit,
			hhmm(r.Start.Sub(r.LoadingEnd)), p.near(r.Start, r.LoadingEnd))
	}
}
