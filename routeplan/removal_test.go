package routeplan

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestRemovalJoinFollowsTheRoute: the join of a route without one of its
// sites that relocate keeps between neighbours is the one a fresh join
// gives, stage by stage, and it is built afresh once the route changes
// (a new stamp) or another site is removed.
func TestRemovalJoinFollowsTheRoute(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, r, _, _ := segmentRoutes(t, true)
		if len(r.seq) == 0 {
			return
		}
		r.stamp = 1
		var rj removalJoin
		var fresh join
		for try := 0; try < 6; try++ {
			if rapid.Bool().Draw(t, "change") {
				// The route changes, as setRoute changes it, with a
				// stamp of its own: reversed, or one site taken to the
				// other route.
				seq := append([]int(nil), r.seq...)
				if len(seq) > 1 && rapid.Bool().Draw(t, "drop") {
					k := rapid.IntRange(0, len(seq)-1).Draw(t, "dropped")
					seq = append(seq[:k], seq[k+1:]...)
				} else {
					slices.Reverse(seq)
				}
				r.seq, r.stamp = seq, r.stamp+10
				in.refresh(r)
			}
			// Most often the site removed last, where it is now.
			pos := rapid.IntRange(0, len(r.seq)-1).Draw(t, "pos")
			if k := slices.Index(r.seq, rj.u); rj.route != nil && k >= 0 && rapid.Bool().Draw(t, "same") {
				pos = k
			}
			jn := rj.of(in, r, pos, r.seq[pos])
			fresh.set(r, pos, nil, r, pos+2).fits = true
			in.distancesNone(&fresh)
			// A kept join may have gone further before: the fresh one
			// is taken as far (to the end when the kept one failed).
			to := int8(rapid.IntRange(boundDistances, boundTimed).Draw(t, "stage"))
			okKept := in.advance(jn, to)
			far := max(to, jn.stage)
			if !okKept {
				far = boundTimed
			}
			okFresh := in.advance(&fresh, far)
			if okKept != okFresh || jn.stage != fresh.stage || jn.cheap != fresh.cheap {
				t.Fatalf("%v without node %d, stage %d: kept %v %d %+v, fresh %v %d %+v", r.seq, pos+1, to, okKept, jn.stage, jn.cheap, okFresh, fresh.stage, fresh.cheap)
			}
		}
	})
}
