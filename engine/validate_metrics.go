package engine

import (
	"math"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// routeFigures are a route's metrics as Validate recomputes them.
type routeFigures struct {
	m     RouteMetrics
	perKm float64 // the trailer type's price per km; 0 when it is unknown
	// legs are the route's drives in order, legPaths the plan member each
	// arrives at, for the hours of service of the route's shift.
	legs     []constraints.Leg
	legPaths []string
}

// withTrailer derives what depends on the trailer type: the utilisation
// of its positions, payload and volume, and the route's cost, Fixed +
// PerKm × km + PerHour × hours from the route's start (the driver on
// duty) to its return.
func (f *routeFigures) withTrailer(t *TrailerType) {
	m := &f.m
	c := t.capacity()
	m.PosUtil = fraction(float64(m.Positions), float64(c.Positions))
	m.WeightUtil = fraction(m.WeightKg, c.WeightKg)
	m.VolumeUtil = fraction(m.VolumeM3, c.VolumeM3)
	m.Cost = t.Costs.Route(m.DistanceM, m.Duration)
	f.perKm = t.Costs.PerKm
}

func fraction(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}

// Tolerances. Counts and durations must match exactly. Sums of decimal
// inputs (weights, volumes, costs, utilisations) may differ in the last
// bits when summed in another order or passed through JSON: a relative
// 1e-9 and an absolute 1e-6. A planner's travel matrix may hold metres as
// float32 (geo.Matrix), which rounds each leg by up to 2^-24 of its
// length: distances may differ by 1e-7 of their length and a millimetre,
// and costs by that distance at the trailer's price per km.
func closeTo(got, want float64) bool {
	if math.IsNaN(got) || math.IsNaN(want) {
		return false
	}
	return math.Abs(got-want) <= 1e-6+1e-9*math.Max(math.Abs(got), math.Abs(want))
}

func distanceSlack(metres float64) float64 { return 1e-3 + 1e-7*math.Abs(metres) }

func within(got, want, slack float64) bool {
	return !math.IsNaN(got) && math.Abs(got-want) <= slack
}

// metricCheck collects the comparisons of reported metrics with
// recomputed ones under one path.
type metricCheck struct {
	path string
	vs   constraints.Violations
}

func (c *metricCheck) count(name string, got, want int) {
	if got != want {
		c.vs.Add(CodeMetric, c.path+"."+name, "reports %d, recomputed %d", got, want)
	}
}

func (c *metricCheck) duration(name string, got, want time.Duration) {
	if got != want {
		c.vs.Add(CodeMetric, c.path+"."+name, "reports %v, recomputed %v", got, want)
	}
}

func (c *metricCheck) number(name string, got, want float64) {
	if !closeTo(got, want) {
		c.vs.Add(CodeMetric, c.path+"."+name, "reports %g, recomputed %g", got, want)
	}
}

func (c *metricCheck) numberWithin(name string, got, want, slack float64) {
	if !within(got, want, slack) {
		c.vs.Add(CodeMetric, c.path+"."+name, "reports %g, recomputed %g", got, want)
	}
}

// share compares a utilisation, which must also lie in [0, 1] whatever
// was recomputed: a load beyond the trailer's capacity is reported by the
// floor check, not hidden in a utilisation above 1.
func (c *metricCheck) share(name string, got, want float64) {
	if !(got >= 0 && got <= 1) {
		c.vs.Add(CodeMetric, c.path+"."+name, "reports %g; a utilisation lies in [0, 1]", got)
		return
	}
	c.number(name, got, want)
}

// compare checks the metrics a route reports against the recomputed ones.
func (f *routeFigures) compare(path string, got RouteMetrics) constraints.Violations {
	want := f.m
	c := metricCheck{path: path}
	c.count("stops", got.Stops, want.Stops)
	c.count("pallets", got.Pallets, want.Pallets)
	c.count("positions", got.Positions, want.Positions)
	c.duration("duration", got.Duration, want.Duration)
	c.duration("driving", got.Driving, want.Driving)
	c.duration("wait", got.Wait, want.Wait)
	c.numberWithin("distanceM", got.DistanceM, want.DistanceM, distanceSlack(want.DistanceM))
	c.number("weightKg", got.WeightKg, want.WeightKg)
	c.number("volumeM3", got.VolumeM3, want.VolumeM3)
	c.numberWithin("cost", got.Cost, want.Cost, f.costSlack())
	c.share("positionsUtilisation", got.PosUtil, want.PosUtil)
	c.share("weightUtilisation", got.WeightUtil, want.WeightUtil)
	c.share("volumeUtilisation", got.VolumeUtil, want.VolumeUtil)
	return c.vs
}

func (f *routeFigures) costSlack() float64 {
	return 1e-6 + 1e-9*math.Abs(f.m.Cost) + f.perKm*distanceSlack(f.m.DistanceM)/1000
}

// planSums are the plan's totals as Validate recomputes them.
type planSums struct {
	m          Metrics
	utilSum    float64
	costSlack  float64
	unassigned int
	bound      int
	fleet      fleetBounds
}

// resources counts the shifts and trailer units the routes use and the
// most loadings at once, and adds the cost of each shift used (shift
// holds the index of each known shift id) to the plan's cost.
func (s *planSums) resources(req *Request, shift map[string]int, routes []Route) {
	shifts, units := map[string]bool{}, map[string]bool{}
	for _, r := range routes {
		if !shifts[r.Shift] {
			shifts[r.Shift] = true
			if si, ok := shift[r.Shift]; ok {
				s.m.Cost += req.Shifts[si].Cost
			}
		}
		units[r.TrailerUnit] = true
	}
	s.m.ShiftsUsed, s.m.TrailerUnitsUsed = len(shifts), len(units)
	s.m.PeakDockDoors = peakLoadings(routes)
}

func (s *planSums) add(f routeFigures) {
	s.m.Routes++
	s.m.Stops += f.m.Stops
	s.m.Pallets += f.m.Pallets
	s.m.DistanceM += f.m.DistanceM
	s.m.Duration += f.m.Duration
	s.m.Driving += f.m.Driving
	s.m.Wait += f.m.Wait
	s.m.Cost += f.m.Cost
	s.utilSum += f.m.PosUtil
	s.costSlack += f.costSlack()
}

// compare checks the plan's totals: sums over the routes, the mean of
// their position utilisations, the unassigned count and the bound.
func (s *planSums) compare(path string, got Metrics) constraints.Violations {
	c := metricCheck{path: path}
	c.count("routes", got.Routes, s.m.Routes)
	c.count("stops", got.Stops, s.m.Stops)
	c.count("pallets", got.Pallets, s.m.Pallets)
	c.count("unassigned", got.Unassigned, s.unassigned)
	c.count("trailersLowerBound", got.TrailersLowerBound, s.bound)
	c.count("shiftsLowerBound", got.ShiftsLowerBound, s.fleet.shifts)
	c.count("trailerUnitsLowerBound", got.TrailerUnitsLowerBound, s.fleet.trailerUnits)
	c.count("shiftsUsed", got.ShiftsUsed, s.m.ShiftsUsed)
	c.count("trailerUnitsUsed", got.TrailerUnitsUsed, s.m.TrailerUnitsUsed)
	c.count("peakDockDoors", got.PeakDockDoors, s.m.PeakDockDoors)
	c.duration("duration", got.Duration, s.m.Duration)
	c.duration("driving", got.Driving, s.m.Driving)
	c.duration("wait", got.Wait, s.m.Wait)
	c.numberWithin("distanceM", got.DistanceM, s.m.DistanceM, distanceSlack(s.m.DistanceM))
	c.numberWithin("cost", got.Cost, s.m.Cost, s.costSlack+1e-9*math.Abs(s.m.Cost))
	mean := 0.0
	if s.m.Routes > 0 {
		mean = s.utilSum / float64(s.m.Routes)
	}
	c.share("positionsUtilisation", got.PosUtil, mean)
	return c.vs
}
