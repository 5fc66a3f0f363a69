package engine

import "github.com/haulplan/haulplan/loadplan"

// The request's trailers and pallets as package loadplan sees them: the
// planner lays out its routes with them, and the trailer bounds a plan
// reports count with them.

// layoutTrailer is the loadplan view of a trailer type.
func layoutTrailer(t TrailerType) loadplan.Trailer {
	c := t.capacity()
	return loadplan.Trailer{
		ID: t.ID, LengthMM: t.Inside.LengthMM, WidthMM: t.Inside.WidthMM, HeightMM: t.Inside.HeightMM,
		Positions: t.PalletPositions, PayloadKg: t.PayloadKg, VolumeM3: c.VolumeM3,
		Equipment: t.Equipment, Axles: t.Axles, Doors: t.Doors,
	}
}

// layoutFleet is the loadplan view of the request's fleet.
func layoutFleet(req *Request) []loadplan.FleetTrailer {
	fleet := make([]loadplan.FleetTrailer, len(req.Fleet))
	for i, t := range req.Fleet {
		fleet[i] = loadplan.FleetTrailer{Trailer: layoutTrailer(t), Count: t.Count}
	}
	return fleet
}

// layoutPallet is the loadplan view of a pallet delivered at stop index stop.
func layoutPallet(p Pallet, stop int) loadplan.Pallet {
	l, w := p.Footprint.Dims()
	return loadplan.Pallet{ID: p.ID, Store: p.Store, Stop: stop, LengthMM: l, WidthMM: w, HeightMM: p.HeightMM,
		WeightKg: p.WeightKg, VolumeM3: p.volume(), Temperature: p.Temperature,
		MayBeStacked: p.MayBeStacked, MayCarry: p.MayCarry}
}

// layoutPallets is the loadplan view of the pallets idx (indices into
// req.Pallets), all for one stop.
func layoutPallets(req *Request, idx []int) []loadplan.Pallet {
	ps := make([]loadplan.Pallet, len(idx))
	for j, pi := range idx {
		ps[j] = layoutPallet(req.Pallets[pi], 0)
	}
	return ps
}
