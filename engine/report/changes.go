package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// The changes are shown trailer trip by trailer trip, because that is how
// the paperwork is handed out: a loader holds the load sheet of a trailer
// unit's trip, a driver the trip sheets of a shift. A store that moves
// from one trip to another therefore shows twice: it comes off the one
// trip and comes on the other, and both sheets must be reprinted.

// What a change does to one trailer trip's paperwork.
const (
	tripComesOn  = "comes on"  // the store rides this trip now, not before
	tripComesOff = "comes off" // the store rode this trip before, not now
	tripStays    = "stays"     // the store rides this trip in both plans, retimed or with other pallets
)

// What happened to a trailer trip that a change touches.
const (
	tripChanged  = "changed"        // both plans run it
	tripNew      = "new trip"       // only the new plan runs it: everything on it comes on
	tripNoLonger = "no longer runs" // only the previous plan ran it
)

// tripChange is one trailer trip (trailer unit, shift and trip, as
// engine.Changes tells routes apart) whose paperwork the changes touch,
// with the store changes that touch it.
type tripChange struct {
	unit, shift string
	trip        int
	route       *engine.Route // the new plan's route for it; nil when it no longer runs
	index       int           // route's index in the plan, for its colour; -1 without one
	before      string        // the previous plan's id for it; "" when it did not run
	tripBefore  int           // the previous plan's trip number for it; 0 when it did not run
	status      string        // tripChanged, tripNew or tripNoLonger
	stores      []tripStore
}

// tripStore is one store change on one trailer trip.
type tripStore struct {
	effect string // tripComesOn, tripComesOff or tripStays
	change *engine.StoreChange
}

// locked reports whether the new plan keeps the trip locked.
func (t *tripChange) locked() bool { return t.route != nil && t.route.Locked }

// heading names the trip for its paperwork: "DRY53-04 · shift D01 trip
// 2 · R5, was R7", "trip 2 (was trip 3)" where an earlier trip of the
// shift is gone; a trip that no longer runs by its previous id alone.
func (t *tripChange) heading() string {
	h := fmt.Sprintf("%s · shift %s trip %d · ", t.unit, t.shift, t.trip)
	if t.route != nil && t.tripBefore != 0 && t.tripBefore != t.trip {
		h = fmt.Sprintf("%s · shift %s trip %d (was trip %d) · ", t.unit, t.shift, t.trip, t.tripBefore)
	}
	switch {
	case t.route == nil:
		return h + "was " + t.before
	case t.before == "" || t.before == t.route.ID:
		return h + t.route.ID
	}
	return h + t.route.ID + ", was " + t.before
}

// tripChanges groups the plan's changes by trailer trip: the new plan's
// trips in the plan's order (by loading start), then the trips that no
// longer run, by shift, trip and trailer unit. A store that comes off a
// trip that still runs under another number (engine.RouteRef.NextTrip)
// is on that trip's paperwork. Within a trip, the stores
// that ride it come in its stop order, then the stores that come off it,
// by their previous arrival. It is nil when the plan carries no changes.
func (d *day) tripChanges() []*tripChange {
	pc := d.plan.Changes
	if pc == nil {
		return nil
	}
	type key struct {
		unit, shift string
		trip        int
	}
	byKey := map[key]*tripChange{}
	var gone []*tripChange
	trips := make([]*tripChange, len(d.plan.Routes))
	for i := range d.plan.Routes {
		r := &d.plan.Routes[i]
		trips[i] = &tripChange{unit: r.TrailerUnit, shift: r.Shift, trip: r.Trip, route: r, index: i, status: tripChanged}
		byKey[key{r.TrailerUnit, r.Shift, r.Trip}] = trips[i]
	}
	for i := range pc.Stores {
		c := &pc.Stores[i]
		effects := map[key]string{}
		var order []key
		note := func(refs []engine.RouteRef, effect string) {
			for _, ref := range refs {
				// A trip of the previous plan is the next plan's trip
				// NextTrip, or, gone, a key no trip of the next plan has.
				k := key{ref.TrailerUnit, ref.Shift, ref.Trip}
				before := ref.PreviousTrip
				if effect == tripComesOff {
					k.trip, before = -ref.Trip, ref.Trip
					if ref.NextTrip != 0 {
						k.trip = ref.NextTrip
					}
				}
				t := byKey[k]
				if t == nil {
					t = &tripChange{unit: ref.TrailerUnit, shift: ref.Shift, trip: ref.Trip, index: -1, status: tripNoLonger}
					byKey[k] = t
					gone = append(gone, t)
				}
				if effect == tripComesOff && t.before == "" {
					t.before = ref.ID
				}
				if before != 0 {
					t.tripBefore = before
				}
				if e, seen := effects[k]; seen {
					if e != effect {
						effects[k] = tripStays
					}
					continue
				}
				effects[k] = effect
				order = append(order, k)
			}
		}
		note(c.From, tripComesOff)
		note(c.To, tripComesOn)
		for _, k := range order {
			t := byKey[k]
			t.stores = append(t.stores, tripStore{effect: effects[k], change: c})
		}
	}
	slices.SortFunc(gone, func(a, b *tripChange) int {
		return cmp.Or(strings.Compare(a.shift, b.shift), cmp.Compare(a.trip, b.trip), strings.Compare(a.unit, b.unit))
	})
	var out []*tripChange
	for _, t := range append(trips, gone...) {
		if len(t.stores) == 0 {
			continue
		}
		t.sortStores()
		if t.route != nil && t.isNew() {
			t.status = tripNew
		}
		out = append(out, t)
	}
	return out
}

// sortStores puts the stores that ride the trip in its stop order, then
// those that come off it by their previous arrival.
func (t *tripChange) sortStores() {
	stop := map[string]int{}
	if t.route != nil {
		for k, s := range t.route.Stops {
			if _, seen := stop[s.Store]; !seen {
				stop[s.Store] = k
			}
		}
	}
	rank := func(s tripStore) (int, int, time.Time) {
		if s.effect == tripComesOff {
			return 1, 0, s.change.OldArrival
		}
		return 0, stop[s.change.Store], time.Time{}
	}
	slices.SortStableFunc(t.stores, func(a, b tripStore) int {
		ga, ka, ta := rank(a)
		gb, kb, tb := rank(b)
		return cmp.Or(cmp.Compare(ga, gb), cmp.Compare(ka, kb), ta.Compare(tb), strings.Compare(a.change.Store, b.change.Store))
	})
}

// isNew reports whether the new plan's trip is new: every store it
// delivers comes on, and none stays or comes off (the previous plan did
// not run it, or ran it with nothing on it).
func (t *tripChange) isNew() bool {
	on := map[string]bool{}
	for _, s := range t.stores {
		if s.effect != tripComesOn {
			return false
		}
		on[s.change.Store] = true
	}
	for _, s := range t.route.Stops {
		if len(s.Pallets) > 0 && !on[s.Store] {
			return false
		}
	}
	return true
}

// kindsText writes a change's kinds, "MOVED, RETIMED".
func kindsText(c *engine.StoreChange) string {
	var ks []string
	for _, k := range c.Kinds {
		ks = append(ks, k.String())
	}
	return join(ks)
}

// refsText names routes as a dispatcher does: "R3 (DRY53-04, D01 trip
// 2)", several joined by " + ", none as "—".
func refsText(rs []engine.RouteRef) string {
	if len(rs) == 0 {
		return "—"
	}
	var out []string
	for _, r := range rs {
		out = append(out, r.String())
	}
	return strings.Join(out, " + ")
}

// lockedRoutes counts the plan's locked routes.
func (d *day) lockedRoutes() int {
	n := 0
	for _, r := range d.plan.Routes {
		if r.Locked {
			n++
		}
	}
	return n
}

// changesNote sums the changes up in a sentence: "3 of 48 stores both
// plans deliver moved or retimed (6.3 %): 2 moved, 1 retimed; 2 added, 1
// removed, 4 with another pallet count; 5 routes whose paperwork changed;
// arrivals retimed past 0:15".
func changesNote(pc *engine.PlanChanges) string {
	m := pc.Metrics
	share := ""
	if m.StoresCompared > 0 {
		share = fmt.Sprintf(" (%.1f %%)", 100*float64(m.StoresMovedOrRetimed)/float64(m.StoresCompared))
	}
	return fmt.Sprintf("%d of %s both plans deliver moved or retimed%s: %d moved, %d retimed; %d added, %d removed, %d with another pallet count; %s whose paperwork changed; an arrival is retimed when it moves by more than %s",
		m.StoresMovedOrRetimed, plural(m.StoresCompared, "store"), share, m.StoresMoved, m.StoresRetimed, m.StoresAdded, m.StoresRemoved,
		m.StoresPalletsChanged, plural(m.RoutesChanged, "route"), hhmm(pc.Tolerance))
}
