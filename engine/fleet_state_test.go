package engine

import (
	"slices"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestDroppedShiftIsFreeOnce: when every trip of a shift goes, and its
// trips were of two kinds of one group (a later round gave the shift a
// trailer of another type), the shift is free once in its group, so that
// no round gives it to two routes.
func TestDroppedShiftIsFreeOnce(t *testing.T) {
	m := &model{req: &Request{Shifts: []constraints.Shift{{ID: "A"}, {ID: "B"}}}}
	fleet := &fleetState{
		groups: []shiftGroup{{free: []int{1}}},
		routes: []Route{{Shift: "A"}, {Shift: "A"}},
		placed: []placedRoute{{kind: vehicleKind{group: 0, trailer: 0}}, {kind: vehicleKind{group: 0, trailer: 1}}},
	}
	fleet.dropRoutes(m, []int{0, 1})
	if got := fleet.groups[0].free; !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("free shifts %v after dropping both trips of shift A, want [0 1]", got)
	}
}
