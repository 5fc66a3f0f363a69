package engine

import (
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// loadingWave is the trips whose loading starts in (from, til], or with
// open set in (−∞, til]: its checkpoint is til.
type loadingWave struct {
	from, til time.Time
	open      bool
}

// loadingWavesBound is a lower bound on the trailer units from the times
// at which loading may start: a day that loads at night and again late in
// the morning runs each unit at most once in each wave, save trips short
// enough to be back within the wave's window. Let, over the stores that a
// trip can reach (unloadingReach),
//
//   - lastLoad be the latest of last(s) − out(s) − hook −
//     DC.LoadingTime(1). A trip that stops at s at u loads from
//     LoadingStart ≤ LoadingEnd − LoadingTime(1) ≤ Start − LoadingTime(1)
//     ≤ u − out(s) − hook − LoadingTime(1), and u ≤ last(s): every trip
//     starts loading by lastLoad;
//   - free be the earliest of first(s) + Unloading_s.Time(1) + back(s) +
//     turnaround: a trip's unit is busy until its Return + turnaround,
//     which is at least that for any store s it stops at.
//
// Cut the trips into waves by their LoadingStart: the first wave those
// loaded by c₁ = free − 1 ns, then one wave for each dock window in
// (c₁, lastLoad] (the dock hours resolved there, clipped; all of it
// without dock hours), with the window's end as its checkpoint. A trip
// of wave g that is still busy at its checkpoint cg is long, the others
// short. Every trip of the first wave is long: it loads by c₁ and is
// busy until free > c₁. The long trips of a wave are all busy at its
// checkpoint, so a unit runs at most one of them.
//
// A short trip of a later wave [ag, cg] is busy over [LoadingStart,
// Return + turnaround) ⊆ [ag, cg], and that lasts at least
// LoadingFixed + n × LoadingPerPallet + hook + R(s) + Fixed_s + n ×
// PerPallet_s + turnaround for its n ≥ 1 pallets and any of its stores
// s, which can only be a store free by cg (first(s) + Unloading_s.Time(1)
// + back(s) + turnaround ≤ cg). With base and per the least of
// LoadingFixed + hook + R + Fixed + turnaround and of LoadingPerPallet +
// PerPallet over those stores, the short trips of one unit in the wave
// (they do not overlap) are at most k = ⌊(cg − ag) / (base + per)⌋ and
// carry at most n = ⌊(cg − ag − base) / per⌋ pallets when there are any,
// whose shares add up to at most n × the largest share of one pallet of
// those stores. So one unit carries at most σg = min(k trailers, that)
// in the short trips of a wave (0 in the first), and one trailer in its
// long trip.
//
// All the trips carry all the shares C (palletShares, in one dimension),
// so the units used are at least ⌈C / Σg (1 + σg)⌉; and they are at least
// trips, a lower bound on the trips, over Σg (1 + kg). Where a wave's
// short trips are bounded in neither way, it gives nothing (0).
func (d *dayDemand) loadingWavesBound(trips int) int {
	waves, ok := d.unitWaves()
	if !ok {
		return 0
	}
	var total [3]int64
	for _, s := range d.stores {
		for dim := range 3 {
			total[dim] += s.shares[dim]
		}
	}
	var perUnit [3]int64 // Σg (1 + σg), in shares
	tripsPerUnit := int64(0)
	tripsBounded := true
	for _, w := range waves {
		tripsPerUnit++
		for dim := range 3 {
			perUnit[dim] += shareScale
		}
		if w.k < 0 {
			tripsBounded = false
		} else {
			tripsPerUnit += w.k
		}
		for dim := range 3 {
			sigma := total[dim] // σ never needs to pass all the shares
			if w.k >= 0 && w.k <= sigma/shareScale {
				sigma = w.k * shareScale // k·shareScale ≤ σ, so no overflow
			}
			if w.n >= 0 {
				sigma = min(sigma, w.n*w.most[dim])
			}
			perUnit[dim] += sigma
		}
	}
	best := 0
	for dim := range 3 {
		best = max(best, int((total[dim]+perUnit[dim]-1)/perUnit[dim]))
	}
	if tripsBounded {
		best = max(best, int((int64(trips)+tripsPerUnit-1)/tripsPerUnit))
	}
	return best
}

// waveShortTrips is what one trailer unit can run in a loading wave
// besides its one long trip: at most k short trips carrying at most n
// pallets, each of a share at most most (shortTrips); k or n is −1
// where it is unbounded. The first, open wave has none.
type waveShortTrips struct {
	k, n int64
	most [3]int64
}

// unitWaves is the day's loading waves (loadingWaves) with the short
// trips of each; ok is false when no store is reached or some wave's
// short trips are bounded in neither way, so that the waves bound
// nothing.
func (d *dayDemand) unitWaves() ([]waveShortTrips, bool) {
	reach := d.reach()
	waves, reached := d.loadingWaves(reach)
	if !reached {
		return nil, false
	}
	out := make([]waveShortTrips, len(waves))
	for i, w := range waves {
		if w.open {
			continue
		}
		k, n, most, ok := d.shortTrips(w, reach)
		if !ok {
			return nil, false
		}
		out[i] = waveShortTrips{k: k, n: n, most: most}
	}
	return out, true
}

// tripsPerUnit is the most trips one trailer unit runs in the day, Σg
// (1 + kg) over the loading waves (see loadingWavesBound); ok is false
// when the waves do not bound it: no store is reached, or some wave's
// short trips are not bounded in number (or not known, as
// loadingWavesBound gives up on them), so that a caller claims nothing
// from it.
func (d *dayDemand) tripsPerUnit() (most int64, ok bool) {
	waves, ok := d.unitWaves()
	if !ok {
		return 0, false
	}
	for _, w := range waves {
		if w.k < 0 {
			return 0, false
		}
		most += 1 + w.k
	}
	return most, true
}

// loadingWaves cuts the day into the waves of loadingWavesBound: the
// first, open, up to c₁, then one for each dock window in (c₁,
// lastLoad]. reached is false when no store is reached.
func (d *dayDemand) loadingWaves(reach []unloadingReach) (waves []loadingWave, reached bool) {
	req := d.req
	hook, turn := req.HookTime(), req.Turnaround()
	var lastLoad, free time.Time
	for k, r := range reach {
		if !r.ok {
			continue
		}
		s := d.stores[k]
		load := r.last.Add(-s.out - hook - req.DC.LoadingTime(1))
		back := r.first.Add(req.Stores[s.store].Unloading.Time(1) + s.back + turn)
		if !reached || load.After(lastLoad) {
			lastLoad = load
		}
		if !reached || back.Before(free) {
			free = back
		}
		reached = true
	}
	if !reached {
		return nil, false
	}
	first := free.Add(-time.Nanosecond)
	waves = []loadingWave{{til: first, open: true}}
	if lastLoad.After(first) {
		ws := []constraints.Window{{Start: first, End: lastLoad}}
		if req.DC.DockHours != nil {
			// Request.Check has checked the hours, so Resolve cannot fail.
			ws, _ = req.DC.DockHours.Resolve(first, lastLoad)
		}
		for _, w := range ws {
			waves = append(waves, loadingWave{from: w.Start, til: w.End})
		}
	}
	return waves, true
}

// shortTrips bounds the short trips one unit runs in wave w (see
// loadingWavesBound): at most k of them, carrying at most n pallets, each
// of a share at most most; k or n is −1 where it is unbounded, and ok is
// false when both are.
func (d *dayDemand) shortTrips(w loadingWave, reach []unloadingReach) (k, n int64, most [3]int64, ok bool) {
	req := d.req
	hook, turn := req.HookTime(), req.Turnaround()
	var base, per time.Duration
	any := false
	for i, r := range reach {
		s := d.stores[i]
		un := req.Stores[s.store].Unloading
		if !r.ok || r.first.Add(un.Time(1)+s.back+turn).After(w.til) {
			continue
		}
		b := req.DC.LoadingFixed + hook + s.out + s.back + un.Fixed + turn
		p := req.DC.LoadingPerPallet + un.PerPallet
		if !any || b < base {
			base = b
		}
		if !any || p < per {
			per = p
		}
		for dim := range 3 {
			most[dim] = max(most[dim], s.most[dim])
		}
		any = true
	}
	if !any {
		return 0, 0, most, true
	}
	span := w.til.Sub(w.from)
	k, n = -1, -1
	if base+per > 0 {
		k = int64(span / (base + per))
	}
	if per > 0 {
		n = min(int64(d.pallets), max(0, int64((span-base)/per)))
	}
	return k, n, most, k >= 0 || n >= 0
}
