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

// leverRule shares the trailer's weight between its two supports, the
// kingpin and the axle group: the trailer is a beam resting on both, so
// taking moments about the kingpin the axle group carries
// Σ w·(x − kingpin) / (axle group − kingpin) and the kingpin the rest. The
// load on board is given as its weight and its moment about the kingpin; the
// tare is added here. A load behind the axle group lifts the kingpin, whose
// share can then fall below zero.
func leverRule(g constraints.AxleGeometry, loadKg, loadMoment float64) (kingpinKg, axleGroupKg float64) {
	total := g.TareKg + loadKg
	moment := g.TareKg*(g.TareCentreMM-g.KingpinMM) + loadMoment
	axleGroupKg = moment / (g.AxleGroupMM - g.KingpinMM)
	return total - axleGroupKg, axleGroupKg
}

// axleStates returns the kingpin and axle group loads in every state: at
// departure (index 0) and after each stop i (index i+1). A pallet weighs at
// the centre of its footprint until its stop. The weights and moments are
// summed per stop, then the states built from the last stop backwards,
// each holding the pallets of the stops after it, so that the work grows
// with stops plus pallets.
func (f *floorCheck) axleStates() (kingpinKg, axleGroupKg []float64) {
	g := f.t.Axles
	weight := make([]float64, f.stops)
	moment := make([]float64, f.stops)
	for _, s := range f.st {
		if !s.stands {
			continue
		}
		rp := f.pallets[s.pallet]
		weight[rp.stop] += rp.p.WeightKg
		moment[rp.stop] += rp.p.WeightKg * ((s.box.x0+s.box.x1)/2 - g.KingpinMM)
	}
	kingpinKg = make([]float64, f.stops+1)
	axleGroupKg = make([]float64, f.stops+1)
	var w, m float64 // on board after stop `after`
	for after := f.stops - 1; after >= -1; after-- {
		if next := after + 1; next < f.stops {
			w += weight[next]
			m += moment[next]
		}
		kingpinKg[after+1], axleGroupKg[after+1] = leverRule(g, w, m)
	}
	return kingpinKg, axleGroupKg
}

// when names an axle state: at departure (-1), or after stop i.
func when(afterStop int) string {
	if afterStop == -1 {
		return "at departure"
	}
	return fmt.Sprintf("after stop %d", afterStop)
}

// axles checks the axle loads at departure and after each stop: against the
// trailer's limits (the kingpin neither above its limit nor lifted), and
// against the states the load plan reports, one per state in order.
func (f *floorCheck) axles() {
	g := f.t.Axles
	reported := f.lp.Axles
	path := f.path + ".axles"
	if len(reported) != f.stops+1 {
		f.vs.Add(codeAxleReport, path, "%d axle states reported; a route of %d stops has %d: at departure and after each stop", len(reported), f.stops, f.stops+1)
	}
	kingpin, axleGroup := f.axleStates()
	for after := -1; after < f.stops; after++ {
		kp, ax := kingpin[after+1], axleGroup[after+1]
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
