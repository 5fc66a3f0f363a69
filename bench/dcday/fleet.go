package dcday

import (
	"fmt"
	"math"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// trailerTypes are the generated fleet's types: engine's presets of the
// common US trailers with costs that make a trailer's fixed cost worth
// about 120 km of driving, refrigeration dearer than a dry box.
func trailerTypes() (dry53, dry48, reefer53, multi48 engine.TrailerType) {
	dry53, dry48, reefer53, multi48 = engine.DryVan53(), engine.DryVan48(), engine.Reefer53(), engine.MultiTempReefer48()
	dry53.Costs = engine.Costs{Fixed: 150, PerKm: 1.2, PerHour: 38}
	dry48.Costs = engine.Costs{Fixed: 140, PerKm: 1.15, PerHour: 38}
	reefer53.Costs = engine.Costs{Fixed: 220, PerKm: 1.45, PerHour: 38}
	multi48.Costs = engine.Costs{Fixed: 240, PerKm: 1.5, PerHour: 38}
	return
}

// Slack is how many trailers of each kind the fleet holds for every one the
// day's freight fills by positions alone; the shifts get the same. A DC
// keeps about a quarter more than a full-truckload count: enough that the
// plan is not starved, few enough that a wasteful plan runs out.
const Slack = 1.25

// fleet sizes the four trailer types to the day's freight: dry vans by the
// ambient positions, reefers by the chilled and frozen ones, the 48 ft
// types by the freight of the short-yard stores (which only they serve),
// and multi-temperature reefers also for a share of the mixed loads of the
// other stores.
func fleet(req engine.Request) []engine.TrailerType { return fleetScaled(req, Slack) }

// fleetScaled is fleet with factor trailers of each kind, plus one, for
// every one the freight fills by positions.
func fleetScaled(req engine.Request, factor float64) []engine.TrailerType {
	var ambient, cold [2]float64 // [0] any yard, [1] short yard
	short := map[string]bool{}
	for _, s := range req.Stores {
		short[s.ID] = s.MaxTrailerLengthMM > 0
	}
	for _, p := range req.Pallets {
		pos := 1.0
		if p.Footprint == engine.HalfFootprint {
			pos = 0.5
		}
		y := 0
		if short[p.Store] {
			y = 1
		}
		if p.Temperature == constraints.Ambient {
			ambient[y] += pos
		} else {
			cold[y] += pos
		}
	}
	count := func(pos float64, t engine.TrailerType) int {
		return int(math.Ceil(factor*pos/float64(t.PalletPositions))) + 1
	}
	dry53, dry48, reefer53, multi48 := trailerTypes()
	ts := []engine.TrailerType{dry53, dry48, reefer53, multi48}
	ts[0].Count = count(ambient[0], dry53)
	ts[1].Count = count(ambient[1], dry48)
	ts[2].Count = count(0.7*cold[0], reefer53)
	ts[3].Count = count(cold[1]+0.3*cold[0], multi48)
	return ts
}

// shiftCount is the number of drivers on the day: Slack times the
// trailers the freight fills by positions.
func shiftCount(req engine.Request) int {
	return min(engine.MaxShifts, int(math.Ceil(Slack*floorPositions(req)/30))+2)
}

// floorPositions is the floor the day's freight takes by the generator's
// reckoning: a position a pallet, half a position a half pallet.
func floorPositions(req engine.Request) float64 {
	pos := 0.0
	for _, p := range req.Pallets {
		if p.Footprint == engine.HalfFootprint {
			pos += 0.5
		} else {
			pos++
		}
	}
	return pos
}

// shifts are n 14 h driver shifts whose starts are staggered every 15
// minutes from 21:00 on the evening before the delivery day to 08:45,
// round after round.
func shifts(n int) []constraints.Shift {
	return staggeredShifts(n, DeliveryDate.Add(-3*time.Hour), 48)
}

// staggeredShifts are n 14 h driver shifts starting every 15 minutes from
// first, slots starts in a round, round after round.
func staggeredShifts(n int, first time.Time, slots int) []constraints.Shift {
	ss := make([]constraints.Shift, n)
	for i := range ss {
		start := first.Add(time.Duration(i%slots) * 15 * time.Minute)
		ss[i] = constraints.Shift{ID: fmt.Sprintf("D%04d", i+1), Start: start, End: start.Add(14 * time.Hour)}
	}
	return ss
}
