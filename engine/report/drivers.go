package report

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// driverDay is one driver shift's day in the plan: the trips it drives, in
// order, as indices into the plan's routes.
type driverDay struct {
	shift string
	trips []int
}

// driverDays groups the plan's routes by their shift, each shift's trips
// in trip order (then by start), the shifts by their first trip's start.
func (d *day) driverDays() []driverDay {
	at := map[string]int{}
	var days []driverDay
	for i, r := range d.plan.Routes {
		k, ok := at[r.Shift]
		if !ok {
			k = len(days)
			at[r.Shift] = k
			days = append(days, driverDay{shift: r.Shift})
		}
		days[k].trips = append(days[k].trips, i)
	}
	routes := d.plan.Routes
	for _, dd := range days {
		sort.SliceStable(dd.trips, func(a, b int) bool {
			ra, rb := &routes[dd.trips[a]], &routes[dd.trips[b]]
			if ra.Trip != rb.Trip {
				return ra.Trip < rb.Trip
			}
			return ra.Start.Before(rb.Start)
		})
	}
	sort.SliceStable(days, func(a, b int) bool { return d.dutyStart(days[a]).Before(d.dutyStart(days[b])) })
	return days
}

// dutyStart is when the shift's driver comes on duty: its first trip's
// hook-up.
func (d *day) dutyStart(dd driverDay) time.Time { return d.plan.Routes[dd.trips[0]].Start }

// dutyEnd is when the shift's last trip is back.
func (d *day) dutyEnd(dd driverDay) time.Time {
	return d.plan.Routes[dd.trips[len(dd.trips)-1]].Return
}

// duty is the shift's time on duty: from its first trip's hook-up to its
// last trip's return, the time at the DC between trips included.
func (d *day) duty(dd driverDay) time.Duration { return d.dutyEnd(dd).Sub(d.dutyStart(dd)) }

// driverTotals are the sums over a shift's trips.
type driverTotals struct {
	driving, atDC   time.Duration // atDC: between trips
	distanceM       float64
	cost, shiftCost float64 // cost: the trips' and the shift's own
	pallets         int
	routesWithUnits string // "R1 (DRY53-01), R3 (DRY53-01)"
}

func (d *day) driverTotals(dd driverDay) driverTotals {
	var t driverTotals
	var parts []string
	for k, i := range dd.trips {
		r := &d.plan.Routes[i]
		t.driving += r.Metrics.Driving
		t.distanceM += r.Metrics.DistanceM
		t.cost += r.Metrics.Cost
		t.pallets += r.Metrics.Pallets
		parts = append(parts, r.ID+" ("+r.TrailerUnit+")")
		if k > 0 {
			t.atDC += r.Start.Sub(d.plan.Routes[dd.trips[k-1]].Return)
		}
	}
	t.routesWithUnits = strings.Join(parts, ", ")
	if sh, ok := d.shift[dd.shift]; ok {
		t.shiftCost = sh.Cost
	}
	t.cost += t.shiftCost
	return t
}

// tripLabel names a trip as the pictures show it: "R3 · trip 2 · DRY53-01".
func tripLabel(r *engine.Route) string {
	return r.ID + " · trip " + strconv.Itoa(r.Trip) + " · " + r.TrailerUnit
}
