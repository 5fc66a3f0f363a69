package report

import (
	"time"

	"github.com/haulplan/haulplan/engine"
)

// htmlChanges is the page's changes section: the counts, and the changes
// trailer trip by trailer trip (see tripChanges).
type htmlChanges struct {
	Note  string
	Trips []htmlTripChange
}

// htmlTripChange is one trailer trip whose paperwork changed.
type htmlTripChange struct {
	Unit, Shift, Heading, Status, Colour string
	Trip                                 int
	Route                                string // the new plan's route id; "" when the trip no longer runs
	Locked                               bool
	Stores                               []htmlStoreChange
}

// htmlStoreChange is one store change on one trip.
type htmlStoreChange struct {
	Effect, EffectClass              string
	Store, Name, Kinds               string
	From, To, ArrivalOld, ArrivalNew string
	PalletsOld, PalletsNew           int
	Retimed, PalletsDiff             bool // the arrival, the pallet count differ: the new one is shown in bold
}

// htmlChanges is the changes section, nil when the plan carries none.
func (d *day) htmlChanges() *htmlChanges {
	pc := d.plan.Changes
	if pc == nil {
		return nil
	}
	hc := &htmlChanges{Note: changesNote(pc)}
	for _, t := range d.tripChanges() {
		ht := htmlTripChange{Unit: t.unit, Shift: t.shift, Trip: t.trip, Heading: t.heading(), Status: t.status, Colour: "#bbbbbb", Locked: t.locked()}
		if t.route != nil {
			ht.Route, ht.Colour = t.route.ID, routeColour(t.index)
		}
		for _, s := range t.stores {
			c := s.change
			ht.Stores = append(ht.Stores, htmlStoreChange{
				Effect: s.effect, EffectClass: effectClass[s.effect], Store: c.Store, Name: d.storeName(c.Store), Kinds: kindsText(c),
				From: refsText(c.From), To: refsText(c.To),
				ArrivalOld: d.arrivals(c.OldArrival, c.OldLastArrival), ArrivalNew: d.arrivals(c.NewArrival, c.NewLastArrival),
				PalletsOld: c.OldPallets, PalletsNew: c.NewPallets,
				Retimed: c.Has(engine.Retimed), PalletsDiff: c.OldPallets != c.NewPallets,
			})
		}
		hc.Trips = append(hc.Trips, ht)
	}
	return hc
}

// effectClass is the CSS class of what a change does to a trip.
var effectClass = map[string]string{tripComesOn: "on", tripComesOff: "off", tripStays: "stays"}

// arrivals writes a store's first and last arrival, "05:10", "05:10–07:40"
// for a store several stops deliver, or "—" where a plan does not deliver
// it.
func (d *day) arrivals(first, last time.Time) string {
	switch {
	case first.IsZero():
		return "—"
	case last.IsZero() || last.Equal(first):
		return d.timeNear(first, d.firstStart())
	}
	return d.timeNear(first, d.firstStart()) + "–" + d.timeNear(last, first)
}
