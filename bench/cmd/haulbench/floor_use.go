package main

import (
	"fmt"
	"io"

	"github.com/haulplan/haulplan/engine"
)

// floorUse is how a plan's trailers use their floors: the numbers that
// say where a plan's routes stand against trailersLowerBound, which counts
// every stackable pallet on another of its class and every half beside
// another.
type floorUse struct {
	positions, capacity int // floor positions taken, and offered, by the routes
	full                int // routes whose floor is full
	tops, crossTops     int // stacked pallets, and those on a pallet of another stop
	stackable           int // pallets that may be stacked, delivered
	halves, pairedHalf  int // half pallets delivered, and those sharing a position with another half
}

// measureFloorUse reads the floor use of plan's routes from their
// placements.
func measureFloorUse(req engine.Request, plan engine.Result) floorUse {
	pallets := make(map[string]engine.Pallet, len(req.Pallets))
	for _, p := range req.Pallets {
		pallets[p.ID] = p
	}
	positions := map[string]int{}
	for _, t := range req.Fleet {
		positions[t.ID] = t.PalletPositions
	}
	var u floorUse
	for _, r := range plan.Routes {
		u.positions += r.Metrics.Positions
		u.capacity += positions[r.Trailer]
		if r.Metrics.Positions >= positions[r.Trailer] {
			u.full++
		}
		stop := map[string]int{}
		for si, s := range r.Stops {
			for _, id := range s.Pallets {
				stop[id] = si
			}
		}
		type place struct {
			row  int
			side string
			x    int
		}
		type position struct {
			row  int
			side string
		}
		bottoms := map[place][]string{}
		onFloor := map[position][]string{}
		for _, pl := range r.Load.Placements {
			if pl.Level == 0 {
				bottoms[place{pl.Row, pl.Side, pl.XMM}] = append(bottoms[place{pl.Row, pl.Side, pl.XMM}], pl.Pallet)
				onFloor[position{pl.Row, pl.Side}] = append(onFloor[position{pl.Row, pl.Side}], pl.Pallet)
			}
		}
		for _, pl := range r.Load.Placements {
			p := pallets[pl.Pallet]
			if p.MayBeStacked {
				u.stackable++
			}
			if isHalf(p) {
				u.halves++
			}
			if pl.Level == 0 {
				continue
			}
			u.tops++
			for _, b := range bottoms[place{pl.Row, pl.Side, pl.XMM}] {
				if stop[b] != stop[pl.Pallet] {
					u.crossTops++
					break
				}
			}
		}
		for _, ids := range onFloor {
			halves := 0
			for _, id := range ids {
				if isHalf(pallets[id]) {
					halves++
				}
			}
			if halves > 1 {
				u.pairedHalf += halves
			}
		}
	}
	return u
}

// writeFloorUse prints u as one line of the dcday summary.
func writeFloorUse(w io.Writer, name string, u floorUse) {
	fmt.Fprintf(w, "%s: floors: %d of %d positions taken, %d routes full; %d of %d pallets that may be stacked stand on another (%d on another stop's); %d of %d half pallets share a position with another half\n",
		name, u.positions, u.capacity, u.full, u.tops, u.stackable, u.crossTops, u.pairedHalf, u.halves)
}

// isHalf reports whether p is a half pallet: up to 48×20 in, longer than
// a quarter (engine's sharing rules).
func isHalf(p engine.Pallet) bool {
	l, w := p.Footprint.Dims()
	return w <= 508 && l <= 1220 && l > 610
}
