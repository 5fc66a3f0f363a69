package engine

import (
	"cmp"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// doorLoading is a route's loading on a dock door.
type doorLoading struct {
	path      string
	from, til time.Time
}

// checkDockDoors checks each route's dock door: at least 1, at most the
// DC's dock doors when it states them, and never loading two trailers at
// once. A loading holds its door from its start to its end; one that
// takes no time holds none.
func (c *planCheck) checkDockDoors(routes []Route) constraints.Violations {
	var vs constraints.Violations
	doors := c.req.DC.DockDoors
	onDoor := map[int][]doorLoading{}
	for ri := range routes {
		r := &routes[ri]
		path := constraints.Index("routes", ri) + ".dockDoor"
		switch {
		case r.DockDoor < 1:
			vs.Add(CodeDockDoor, path, "dockDoor %d: doors are numbered from 1", r.DockDoor)
			continue
		case doors > 0 && r.DockDoor > doors:
			vs.Add(CodeDockDoor, path, "dockDoor %d: the DC has %d dock doors", r.DockDoor, doors)
			continue
		}
		if r.LoadingEnd.After(r.LoadingStart) {
			onDoor[r.DockDoor] = append(onDoor[r.DockDoor], doorLoading{path, r.LoadingStart, r.LoadingEnd})
		}
	}
	numbers := make([]int, 0, len(onDoor))
	for d := range onDoor {
		numbers = append(numbers, d)
	}
	slices.Sort(numbers)
	for _, d := range numbers {
		ls := onDoor[d]
		slices.SortStableFunc(ls, func(a, b doorLoading) int { return a.from.Compare(b.from) })
		latest := ls[0] // the loading that holds the door the longest so far
		for _, l := range ls[1:] {
			if l.from.Before(latest.til) {
				vs.Add(CodeDockDoorBusy, l.path, "door %d starts loading this trailer at %s, while it loads the trailer of %s until %s",
					d, c.at(l.from), latest.path[:len(latest.path)-len(".dockDoor")], c.at(latest.til))
			}
			if l.til.After(latest.til) {
				latest = l
			}
		}
	}
	return vs
}

// peakLoadings is the most routes loading at one instant, each from its
// LoadingStart to its LoadingEnd, a loading that ends as another starts
// not overlapping it.
func peakLoadings(routes []Route) int {
	type event struct {
		at   time.Time
		step int // +1 a loading starts, -1 one ends
	}
	var events []event
	for _, r := range routes {
		if r.LoadingEnd.After(r.LoadingStart) {
			events = append(events, event{r.LoadingStart, 1}, event{r.LoadingEnd, -1})
		}
	}
	slices.SortFunc(events, func(a, b event) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.step, b.step) // ends first
	})
	at, peak := 0, 0
	for _, e := range events {
		at += e.step
		peak = max(peak, at)
	}
	return peak
}
