package routeplan

import "slices"

// When a type's trips are loaded ahead (VehicleType.Loading), a trip of
// load q, whose loading takes L(q) and may wait loaded up to S, may begin
// its start service at h only when a loading can have begun inside a start
// window [a, b] and ended by h, no more than S before it: h in
// [a + L(q), b + L(q) + S]. Those are the trip's windows, for the route's
// start (its first trip) and for each reload (the trip after it). The
// simulation times every trip start in the windows of its own load
// (tripWindows); what a bound reads, the segments and the reloads' own
// Windows, takes the windows of every load the type may carry together,
// [a + L(0), b + L(capacity) + S] (startWindows), a relaxation.

// tripWindows are the windows of the trip starts of one route: start for
// its first trip, reload[j] for the trip after its j-th reload.
type tripWindows struct {
	start  []Window
	reload [][]Window
	load   []float64 // scratch: one trip's load
}

// startWindows are the windows a bound reads for the start service of a
// trip of type t: the type's StartWindows, or under Loading those of every
// load the type may carry.
func (in *instance) startWindows(t int) []Window {
	return in.relaxedStart[t]
}

// relaxStartWindows fills relaxedStart, per type.
func (in *instance) relaxStartWindows() {
	in.relaxedStart = make([][]Window, len(in.types))
	for t := range in.types {
		vt := &in.types[t]
		in.relaxedStart[t] = vt.StartWindows
		if vt.Loading == nil || len(vt.StartWindows) == 0 {
			continue
		}
		lo, hi := vt.Loading.Fixed, vt.Loading.duration(vt.Capacity)+vt.Loading.Staging
		in.relaxedStart[t] = shiftWindows(nil, vt.StartWindows, lo, hi)
	}
}

// shiftWindows appends to dst the windows ws moved lo later at their
// start and hi later at their end, those that then overlap joined.
func shiftWindows(dst, ws []Window, lo, hi float64) []Window {
	for _, w := range ws {
		a, b := w.Start+lo, w.End+hi
		if n := len(dst); n > 0 && a <= dst[n-1].End {
			dst[n-1].End = max(dst[n-1].End, b)
			continue
		}
		dst = append(dst, Window{a, b})
	}
	return dst
}

// fillTripWindows sets tw to the windows of each trip start of route seq
// of type t, whose type has a Loading and start windows.
func (in *instance) fillTripWindows(t int, seq []int, tw *tripWindows) {
	vt := &in.types[t]
	tl := vt.Loading
	tw.load = grow(tw.load, in.dims)
	j := -1 // the trip: -1 the first, else after reload j
	windows := func() []Window {
		l := tl.duration(tw.load)
		if j < 0 {
			tw.start = shiftWindows(tw.start[:0], vt.StartWindows, l, l+tl.Staging)
			return tw.start
		}
		tw.reload[j] = shiftWindows(tw.reload[j][:0], vt.StartWindows, l, l+tl.Staging)
		return tw.reload[j]
	}
	tw.reload = tw.reload[:0]
	clear(tw.load)
	for _, i := range seq {
		if !in.isReload(i) {
			for d, q := range in.sites[i].Demand {
				tw.load[d] += q
			}
			continue
		}
		windows()
		j++
		if j < cap(tw.reload) {
			tw.reload = tw.reload[:j+1]
		} else {
			tw.reload = append(tw.reload, nil)
		}
		clear(tw.load)
	}
	windows()
}

// siteWindows are the windows of the k-th site of seq, a route timed with
// tw (nil: no Loading), where r counts the reloads before it; it returns
// r counting this one too.
func (in *instance) siteWindows(seq []int, k, r int, tw *tripWindows) ([]Window, int) {
	i := seq[k]
	if tw != nil && in.isReload(i) {
		return tw.reload[r], r + 1
	}
	return in.sites[i].Windows, r
}

// routeStartWindows are the windows of route's first trip start, timed
// with tw (nil: the type's StartWindows).
func (in *instance) routeStartWindows(t int, tw *tripWindows) []Window {
	if tw != nil {
		return tw.start
	}
	return in.types[t].StartWindows
}

// sameLoading reports whether two types load their trips alike.
func sameLoading(a, b *TripLoading) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Fixed == b.Fixed && a.Staging == b.Staging && slices.Equal(a.PerUnit, b.PerUnit)
}
