package engine

import "github.com/haulplan/haulplan/constraints"

// The fleet is two resources that routing shares out: driver shifts and
// trailer units. A route takes one shift and, for each of its trips, one
// trailer unit of some type. Routing sees each (group of alike shifts,
// trailer type, zone count) as a vehicle type that takes one unit of the
// shift group's resource and one of the trailer type's a trip, so that
// which trailer a shift pulls is decided by the search, with the stores'
// length limits, windows and geography in view. A site's group is its
// order's temperature class, so that a single-temperature reefer's trip
// carries one class (the type's MaxGroups is 1, counted per trip: its set
// point may change between trips), and a multi-temperature reefer's trip
// no more classes than its zones.

// vehicleKind is one way to drive a route: a shift of a group pulling a
// trailer of a type.
type vehicleKind struct {
	group   int
	trailer int
	// zones is, for a multi-temperature reefer, how many zones each of its
	// trips may use: each extra zone holds a position back (see
	// kindCapacity).
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

// compatible reports whether a route of kind k may carry order o.
func (m *model) compatible(o *order, k vehicleKind) bool {
	return o.trailers[k.trailer] && (o.prefer == nil || o.prefer[k.trailer])
}
