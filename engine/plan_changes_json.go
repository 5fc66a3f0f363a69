package engine

import (
	"encoding/json"
	"fmt"

	"github.com/haulplan/haulplan/internal/jsonwire"
)

// The JSON form of PlanChanges: written by json.Marshal through the
// struct tags and the MarshalJSON methods below (the tolerance as a
// duration string, kinds by name, an arrival the plan does not have left
// out), read by UnmarshalJSON as strictly as DecodePlan reads a plan.

var planChangesObject = &object[PlanChanges]{What: "plan changes", Members: []member[PlanChanges]{
	{Name: "tolerance", Read: func(d dec, c *PlanChanges) { d.ReadDuration(&c.Tolerance) }},
	{Name: "stores", Read: func(d dec, c *PlanChanges) {
		arrayOf(storeChangeObject, "an array of store changes")(d, &c.Stores)
	}},
	{Name: "metrics", Read: func(d dec, c *PlanChanges) { changeMetricsObject.Read(d, d, &c.Metrics) }},
}}

var storeChangeObject = &object[StoreChange]{What: "a store change", Members: []member[StoreChange]{
	{Name: "store", Read: func(d dec, c *StoreChange) { d.ReadString(&c.Store) }},
	{Name: "kinds", Read: func(d dec, c *StoreChange) {
		if d.Peek() == jsonwire.KindNull {
			d.Null()
			c.Kinds = nil
			return
		}
		jsonwire.ReadArray(d, d, &c.Kinds, "an array of change kinds", func(d dec, k *ChangeKind) {
			var i int
			if j, ok := d.Enum(changeKindNames[1:]); ok {
				i = j + 1
			}
			*k = ChangeKind(i)
		})
	}},
	{Name: "from", Read: func(d dec, c *StoreChange) { arrayOf(routeRefObject, "an array of routes")(d, &c.From) }},
	{Name: "to", Read: func(d dec, c *StoreChange) { arrayOf(routeRefObject, "an array of routes")(d, &c.To) }},
	{Name: "oldArrival", Read: func(d dec, c *StoreChange) { d.ReadTime(&c.OldArrival) }},
	{Name: "newArrival", Read: func(d dec, c *StoreChange) { d.ReadTime(&c.NewArrival) }},
	{Name: "oldLastArrival", Read: func(d dec, c *StoreChange) { d.ReadTime(&c.OldLastArrival) }},
	{Name: "newLastArrival", Read: func(d dec, c *StoreChange) { d.ReadTime(&c.NewLastArrival) }},
	{Name: "oldPallets", Read: func(d dec, c *StoreChange) { d.ReadInt(&c.OldPallets, wantCount) }},
	{Name: "newPallets", Read: func(d dec, c *StoreChange) { d.ReadInt(&c.NewPallets, wantCount) }},
}}

var routeRefObject = &object[RouteRef]{What: "a route", Members: []member[RouteRef]{
	{Name: "id", Read: func(d dec, r *RouteRef) { d.ReadString(&r.ID) }},
	{Name: "trailerUnit", Read: func(d dec, r *RouteRef) { d.ReadString(&r.TrailerUnit) }},
	{Name: "shift", Read: func(d dec, r *RouteRef) { d.ReadString(&r.Shift) }},
	{Name: "trip", Read: func(d dec, r *RouteRef) { d.ReadInt(&r.Trip, "a trip number (1, 2, …)") }},
	{Name: "previousTrip", Read: func(d dec, r *RouteRef) { d.ReadInt(&r.PreviousTrip, "a trip number (1, 2, …)") }},
	{Name: "nextTrip", Read: func(d dec, r *RouteRef) { d.ReadInt(&r.NextTrip, "a trip number (1, 2, …)") }},
}}

var changeMetricsObject = &object[ChangeMetrics]{What: "change metrics", Members: []member[ChangeMetrics]{
	{Name: "storesCompared", Read: func(d dec, m *ChangeMetrics) { d.ReadInt(&m.StoresCompared, wantCount) }},
	{Name: "storesAdded", Read: func(d dec, m *ChangeMetrics) { d.ReadInt(&m.StoresAdded, wantCount) }},
	{Name: "storesRemoved", Read: func(d dec, m *ChangeMetrics) { d.ReadInt(&m.StoresRemoved, wantCount) }},
	{Name: "storesMoved", Read: func(d dec, m *ChangeMetrics) { d.ReadInt(&m.StoresMoved, wantCount) }},
	{Name: "storesRetimed", Read: func(d dec, m *ChangeMetrics) { d.ReadInt(&m.StoresRetimed, wantCount) }},
	{Name: "storesMovedOrRetimed", Read: func(d dec, m *ChangeMetrics) { d.ReadInt(&m.StoresMovedOrRetimed, wantCount) }},
	{Name: "storesPalletsChanged", Read: func(d dec, m *ChangeMetrics) { d.ReadInt(&m.StoresPalletsChanged, wantCount) }},
	{Name: "routesChanged", Read: func(d dec, m *ChangeMetrics) { d.ReadInt(&m.RoutesChanged, wantCount) }},
}}

// MarshalJSON writes the changes with the tolerance as a duration string.
func (c PlanChanges) MarshalJSON() ([]byte, error) {
	type plain PlanChanges
	return json.Marshal(struct {
		plain
		Tolerance string `json:"tolerance"`
	}{plain(c), c.Tolerance.String()})
}

// MarshalJSON writes the kind's name, "MOVED".
func (k ChangeKind) MarshalJSON() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("engine: cannot marshal %v", k)
	}
	return json.Marshal(k.String())
}

// UnmarshalJSON reads plan changes from their JSON form, strictly: an
// unknown or repeated member, a value of the wrong type and an unknown
// kind are errors, listed as constraints.Violations with their paths
// ("stores[2].kinds[0]"). It does not check that the changes are those of
// any two plans.
func (c *PlanChanges) UnmarshalJSON(b []byte) error {
	var pc PlanChanges
	decoded, syntax := decode(b, func(d dec) { planChangesObject.Read(d, d, &pc) })
	if syntax != nil {
		return syntax
	}
	if vs := listed(decoded, nil); len(vs) > 0 {
		return vs
	}
	*c = pc
	return nil
}
