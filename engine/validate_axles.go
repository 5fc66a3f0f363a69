package engine

import (
	"fmt"
	"math"

	"github.com/haulplan/haulplan/constraints"
)

// axleLimitSlack absorbs rounding when a load equals an axle limit; the
// reported loads may differ from the recomputed ones by axleReportSlack,
// half a kilogram, as a plan may round them for people.
const (
	axleLimitSlack  = 1e-6
	axleReportSlack = 0.5
)

// weightAt is a weight standing at a distance from the nose (mm).
type weightAt struct{ xMM, kg float64 }

// leverRule shares the trailer's weight, tare and loads, between its two
// supports, the kingpin and the axle group: the trailer is a beam resting
// on both, so taking moments about the kingpin the axle group carries
// Σ w·(x − kingpin) / (axle group − kingpin) and the kingpin the rest. A
// load behind the axle group lifts the kingpin, whose share can then fall
// below zero.
func leverRule(g constraints.AxleGeometry, on []weightAt) (kingpinKg, axleGroupKg float64) {
	lever := g.AxleGroupMM - g.KingpinMM
	total := g.TareKg
	moment := g.TareKg * (g.TareCentreMM - g.KingpinMM)
	for _, w := range on {
		total += w.kg
		moment += w.kg * (w.xMM - g.KingpinMM)
	}
	axleGroupKg = moment / lever
	return total - axleGroupKg, axleGroupKg
}

// when names an axle state: at departure (-1), or after stop i.
func when(afterStop int) string {
	if afterStop == -1 {
		return "at departure"
	}
	return fmt.Sprintf("after stop %d", afterStop)
}

// axles checks the axle loads at departure and after each stop, each pallet
// weighing at the centre of its footprint until its stop: against the
// trailer's limits (the kingpin neither above its limit nor lifted), and
// against the states the load plan reports, one per state in order.
func (f *floorCheck) axles() {
	g := f.t.Axles
	reported := f.lp.Axles
	path := f.path + ".axles"
	if len(reported) != f.stops+1 {
		f.vs.Add(codeAxleReport, path, "%d axle states reported; a route of %d stops has %d: at departure and after each stop", len(reported), f.stops, f.stops+1)
	}
	on := make([]weightAt, 0, len(f.st))
	for after := -1; after < f.stops; after++ {
		on = on[:0]
		for _, s := range f.st {
			if s.stands && f.pallets[s.pallet].stop > after {
				on = append(on, weightAt{(s.box.x0 + s.box.x1) / 2, f.pallets[s.pallet].p.WeightKg})
			}
		}
		kp, ax := leverRule(g, on)
		spath := constraints.Index(path, after+1)
		if kp > g.KingpinLimitKg+axleLimitSlack {
			f.vs.Add(codeKingpin, spath, "the kingpin carries %.1f kg %s; its limit is %g kg", kp, when(after), g.KingpinLimitKg)
		}
		if kp < -axleLimitSlack {
			f.vs.Add(codeKingpin, spath, "the kingpin carries %.1f kg %s: the load lifts the trailer's nose", kp, when(after))
		}
		if ax > g.AxleGroupLimitKg+axleLimitSlack {
			f.vs.Add(codeAxleGroup, spath, "the axle group carries %.1f kg %s; its limit is %g kg", ax, when(after), g.AxleGroupLimitKg)
		}
		if j := after + 1; j < len(reported) {
			r := reported[j]
			if r.AfterStop != after || math.Abs(r.KingpinKg-kp) > axleReportSlack || math.Abs(r.AxleGroupKg-ax) > axleReportSlack {
				f.vs.Add(codeAxleReport, spath, "reports kingpin %.1f kg and axle group %.1f kg %s; recomputed %.1f kg and %.1f kg %s",
					r.KingpinKg, r.AxleGroupKg, when(r.AfterStop), kp, ax, when(after))
			}
		}
	}
}
