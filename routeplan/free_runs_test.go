package routeplan

import (
	"testing"

	"pgregory.net/rapid"
)

// doorTimeline is a state of fourSites' problem with one Timed resource
// of count units, held over the drawn intervals (Busy), and a change's
// adjustment of it: some of those holds given up (-1), new ones taken
// (+1). The instants are whole minutes of a day, so that holds meet and
// overlap often.
func doorTimeline(t *rapid.T) (*state, []signedHold) {
	count := rapid.IntRange(1, 4).Draw(t, "count")
	p := fourSites()
	var busy []Window
	for range rapid.IntRange(0, 30).Draw(t, "holds") {
		from := float64(rapid.IntRange(0, 240).Draw(t, "from"))
		busy = append(busy, Window{from, from + float64(rapid.IntRange(0, 60).Draw(t, "length"))})
	}
	p.Resources = []Resource{{ID: "doors", Count: count, Timed: true, Holds: HoldLoading, Busy: busy}}
	p.VehicleTypes = []VehicleType{{Count: 1, Capacity: []float64{10}, ShiftEnd: 1000, StartService: 15, Resources: []int{0}}}
	st := newState(newInstance(p))
	var adj []signedHold
	for _, w := range busy {
		if rapid.IntRange(0, 3).Draw(t, "givenUp") == 0 {
			adj = append(adj, signedHold{w.Start, w.End, -1})
		}
	}
	for range rapid.IntRange(0, 3).Draw(t, "taken") {
		from := float64(rapid.IntRange(0, 240).Draw(t, "takenFrom"))
		adj = append(adj, signedHold{from, from + float64(rapid.IntRange(1, 60).Draw(t, "takenLength")), 1})
	}
	return st, adj
}

// TestFreeRunsAreTheFreeInstants: an instant lies in a free run exactly
// when the timeline holds fewer units than the count there.
func TestFreeRunsAreTheFreeInstants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st, _ := doorTimeline(t)
		tl := &st.timelines[0]
		count := st.in.p.Resources[0].Count
		runs := tl.freeRuns(count)
		for k := range 2 * 310 {
			at := float64(k)/2 - 5
			in := false
			for _, r := range runs {
				in = in || (r.from <= at && at < r.til)
			}
			if free := tl.heldAt(at) < count; in != free {
				t.Fatalf("at %g: in a free run %v, %d of %d units held; runs %v", at, in, tl.heldAt(at), count, runs)
			}
		}
	})
}

// TestLatestFreeWalksOnlyTheRoom: latestFree, which walks the instants
// inside the runs that may have room only, finds the start the walk over
// every instant finds, and holdRoomFor never says there is no room where
// that walk finds a start inside a window.
func TestLatestFreeWalksOnlyTheRoom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st, adj := doorTimeline(t)
		lo := float64(rapid.IntRange(-10, 250).Draw(t, "lo"))
		cur := lo + float64(rapid.IntRange(0, 120).Draw(t, "window"))
		dur := float64(rapid.IntRange(0, 90).Draw(t, "dur"))
		var ev []countStep
		var runs []run
		want, wantOK := st.latestFreeIn(0, cur, dur, lo, adj, &ev)
		got, gotOK := st.latestFree(0, cur, dur, lo, adj, &ev, &runs)
		if gotOK != wantOK || (wantOK && got != want) {
			t.Fatalf("latestFree in [%g, %g] for %g: %g %v, the whole walk %g %v", lo, cur, dur, got, gotOK, want, wantOK)
		}
		ws := []Window{{lo, cur}}
		if room := st.holdRoomFor(0, dur, ws, adj); wantOK && !room {
			t.Fatalf("holdRoomFor in [%g, %g] for %g: no room, but a hold fits from %g", lo, cur, dur, want)
		}
		// Asked again after the timeline changed (a hold taken off, which
		// frees instants), it answers for the timeline as it is now.
		busy := st.in.p.Resources[0].Busy
		if len(busy) == 0 {
			return
		}
		w := busy[rapid.IntRange(0, len(busy)-1).Draw(t, "takenOff")]
		st.timelines[0].remove(w.Start, w.End)
		if at, ok := st.latestFreeIn(0, cur, dur, lo, adj, &ev); ok && !st.holdRoomFor(0, dur, ws, adj) {
			t.Fatalf("holdRoomFor in [%g, %g] for %g after a change: no room, but a hold fits from %g", lo, cur, dur, at)
		}
	})
}
