package engine

import "time"

// Lock says which parts of Request.Previous a re-plan keeps as they are.
// A locked route keeps its trailer unit, dock door, loading, floor
// layout, stops and their times to the second; a locked store keeps its
// route (trailer unit, shift and trip). The zero Lock fixes nothing: the
// previous plan is then only preferred, under Options.Stability.
type Lock struct {
	// Before, when set, fixes every route of the previous plan whose
	// loading has started by then (LoadingStart ≤ Before): its loaders
	// are at work or done. Such a route that has not departed by Before
	// may still take more pallets where its floor has room for them
	// without moving a placed pallet.
	Before time.Time `json:"before,omitzero"`
	// Routes fixes the previous plan's routes with these ids, whatever
	// the time.
	Routes []string `json:"routes,omitempty"`
	// Stores keeps each of these stores on the route and trip of the
	// previous plan that delivers it.
	Stores []string `json:"stores,omitempty"`
}

// IsZero reports whether the lock fixes nothing.
func (l Lock) IsZero() bool { return l.Before.IsZero() && len(l.Routes) == 0 && len(l.Stores) == 0 }
