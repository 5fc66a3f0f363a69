package routeplan

// The schedule of a prefix or suffix under R moved to another departure,
// arrival or deadline: in constant time while the cached slacks say no
// window is skipped, node by node otherwise (see segment.go).

// departPrefix bounds from below the departure under R from node i of
// route a when it leaves its start depot at d0 instead of at its own
// earliest departure: by the waits a later start uses up, by the shifts
// an earlier start makes while no window is skipped, and otherwise by
// playing the prefix through.
func (in *instance) departPrefix(a *route, i int, d0 float64) float64 {
	g := &a.seg
	if i == 0 {
		return d0
	}
	switch early := g.dep[0] - d0; {
	case early <= 0 && -early < g.times[i].risePre:
		return g.dep[i] + max(0, -early-g.times[i].waitPre)
	case early > 0 && early < g.times[i].jumpPre:
		return g.dep[i] - min(early, g.times[i].shiftPre)
	}
	t := d0
	for k := 1; k <= i; k++ {
		st, _, ok := earliestIn(in.sites[a.seq[k-1]].Windows, t+g.nodes[k-1].leg)
		if !ok {
			return inf
		}
		t = st + g.nodes[k].work
	}
	return t
}

// returnFrom bounds from below the return under R of the suffix of route
// b from node j (a site) when it arrives there at t and works w there:
// node by node until its schedule is one the cache describes (a later
// arrival delays the return by what the waits do not absorb, an earlier
// one advances it by the shifts while no window is skipped). It returns
// inf when a window closes on the way.
func (in *instance) returnFrom(b *route, j int, t, w float64) float64 {
	g := &b.seg
	L := len(b.seq)
	for k := j; k <= L; k++ {
		if k > j || w == g.nodes[k].work {
			switch early := g.times[k].arr - t; {
			case early <= 0 && -early < g.times[k].riseSuf:
				return g.times[L+1].arr + max(0, -early-g.times[k].waitSuf)
			case early > 0 && early < g.times[k].jumpSuf:
				return g.times[L+1].arr - min(early, g.times[k].shiftSuf)
			}
		}
		st, _, ok := earliestIn(in.sites[b.seq[k-1]].Windows, t)
		if !ok {
			return inf
		}
		if k > j {
			w = g.nodes[k].work
		}
		t = st + w + g.nodes[k].leg
	}
	return t
}

// latestDeparture bounds from above the latest departure under R of route
// a's prefix up to node i when it must leave node i by y: by the cuts a
// sooner deadline uses up, by the lifts a later one makes while no window
// is skipped, and otherwise node by node until one of those holds. It
// returns -inf when no departure can make it.
func (in *instance) latestDeparture(a *route, i int, y float64) float64 {
	g := &a.seg
	for k := i; k >= 1; k-- {
		switch later := y - g.times[k].latFrom; {
		case later <= 0 && -later < g.times[k].dropPre:
			return g.times[0].latFrom - max(0, -later-g.times[k].cutPre)
		case later > 0 && later < g.times[k].jumpLiftPre:
			return g.times[0].latFrom + min(later, g.times[k].liftPre)
		}
		x := y - g.nodes[k].work
		s, ok := latestIn(in.sites[a.seq[k-1]].Windows, x+timeTol(x))
		if !ok {
			return -inf
		}
		y = s - g.nodes[k-1].leg
	}
	return y
}

// earliestWindow is earliestIn by index: the first window of ws (sorted)
// that has not closed at t, -1 when ws is empty, and false when every
// window has closed.
func earliestWindow(ws []Window, t float64) (int, bool) {
	for k, w := range ws {
		if t <= w.End {
			return k, true
		}
	}
	return -1, len(ws) == 0
}

// latestWindow is latestIn by index: the last window of ws (sorted) that
// has opened by t, -1 when ws is empty, and false when none has.
func latestWindow(ws []Window, t float64) (int, bool) {
	for k := len(ws) - 1; k >= 0; k-- {
		if ws[k].Start <= t {
			return k, true
		}
	}
	return -1, len(ws) == 0
}
