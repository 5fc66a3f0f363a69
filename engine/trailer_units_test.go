package engine

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestPlanUsesAsManyUnitsAsTripsOverlap: in every plan, each trailer type
// runs on as many units as the most of its trips that hold one at one
// instant, from loading start to return plus the turnaround: no
// assignment of units to trips so timed uses fewer, so Plan's uses no
// more than the trips' times ask.
func TestPlanUsesAsManyUnitsAsTripsOverlap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest(t)
		plan := planOK(t, req)
		turn := req.Turnaround()
		units := map[string]map[string]bool{}
		type event struct {
			at    time.Time
			delta int
		}
		events := map[string][]event{}
		for _, r := range plan.Routes {
			if units[r.Trailer] == nil {
				units[r.Trailer] = map[string]bool{}
			}
			units[r.Trailer][r.TrailerUnit] = true
			if til := r.Return.Add(turn); til.After(r.LoadingStart) {
				events[r.Trailer] = append(events[r.Trailer], event{r.LoadingStart, 1}, event{til, -1})
			}
		}
		for tt, ev := range events {
			slices.SortFunc(ev, func(a, b event) int { return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.delta, b.delta)) })
			held, most := 0, 0
			for _, e := range ev {
				held += e.delta
				most = max(most, held)
			}
			if len(units[tt]) != most {
				t.Fatalf("trailer type %s runs on %d units; its trips hold at most %d at one instant", tt, len(units[tt]), most)
			}
		}
	})
}
