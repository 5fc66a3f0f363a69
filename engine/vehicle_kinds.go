package engine

import "github.com/haulplan/haulplan/constraints"

// The fleet is two resources that routing shares out: driver shifts and
// trailer units. A route takes one shift and one trailer of some type, and
// for a single-temperature reefer the set point is chosen with the route.
// Routing sees each (group of alike shifts, trailer type, set point) as a
// vehicle type that takes one unit of the shift group's resource and one of
// the trailer type's, so that which trailer a shift pulls is decided by the
// search, with the stores' length limits, windows and geography in view.

// vehicleKind is one way to drive a route: a shift of a group pulling a
// trailer of a type, a single-temperature reefer set to setPoint.
type vehicleKind struct {
	group    int
	trailer  int
	setPoint constraints.Temperature // AMBIENT for dry vans; unused for multi-temperature reefers
	// zones is, for a multi-temperature reefer, how many zones its route
	// may use: each extra zone holds a position back (see kindCapacity).
	zones int
}

// zoneCounts are the zone counts worth offering a multi-temperature reefer
// for the orders in pool: 1 up to its zones or the classes its orders
// have, whichever is fewer. Any other type has one kind, with no count.
func (m *model) zoneCounts(ti int, pool []*order) []int {
	t := m.req.Fleet[ti]
	if t.Equipment.Kind != constraints.MultiTempReefer {
		return []int{0}
	}
	var seen [3]bool
	classes := 0
	for _, o := range pool {
		if o.trailers[ti] && !seen[o.class] {
			seen[o.class] = true
			classes++
		}
	}
	var zs []int
	for z := 1; z <= min(t.Equipment.Zones(), max(classes, 1)); z++ {
		zs = append(zs, z)
	}
	return zs
}

// kindCapacity is what routing may load on a route of kind k: a
// multi-temperature reefer whose route uses z zones holds z-1 positions
// back, since a zone with an odd count leaves half a row empty (with one
// position fewer per extra zone the rows always suffice: the zones' rows,
// each count rounded up to even, fit the floor). A kind with no zone count
// holds back for every zone its trailer has (routingCapacity).
func (m *model) kindCapacity(k vehicleKind) constraints.Load {
	t := m.req.Fleet[k.trailer]
	if k.zones == 0 {
		return routingCapacity(t)
	}
	c := t.capacity()
	c.Positions -= k.zones - 1
	return c
}

// setPoints are the set points worth offering a trailer type for the orders
// in pool: a single-temperature reefer's, one per class of an order it may
// carry; any other type has one kind.
func (m *model) setPoints(ti int, pool []*order) []constraints.Temperature {
	t := m.req.Fleet[ti]
	if t.Equipment.Kind != constraints.Reefer {
		return []constraints.Temperature{constraints.Ambient}
	}
	var seen [3]bool
	for _, o := range pool {
		if o.trailers[ti] {
			seen[o.class] = true
		}
	}
	var sps []constraints.Temperature
	for c, ok := range seen {
		if ok {
			sps = append(sps, constraints.Temperature(c))
		}
	}
	return sps
}

// compatible reports whether a route of kind k may carry order o.
func (m *model) compatible(o *order, k vehicleKind) bool {
	if !o.trailers[k.trailer] || o.prefer != nil && !o.prefer[k.trailer] {
		return false
	}
	if m.req.Fleet[k.trailer].Equipment.Kind == constraints.Reefer {
		return o.class == k.setPoint
	}
	return true
}
