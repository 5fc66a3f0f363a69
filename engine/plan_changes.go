package engine

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// PlanChanges is what changed from one plan to the next, store by store,
// as the loaders and drivers who hold the first plan's paperwork need to
// know it (Changes makes it).
//
// Routes are told apart by what a dispatcher sees, not by their ids: a
// route is a trip of a driver shift on a trailer unit. Plan numbers its
// routes R1, R2, … by loading start, so the same trip may be R7 in one
// plan and R9 in the next; the ids are carried along for the reader,
// never compared. Nor is a route its trip number alone: when a shift's
// earlier trip is gone (all its pallets removed), the trips after it are
// numbered one less and are still the trips the driver has on paper.
// Changes pairs the trips of each shift of the two plans in the order
// they are driven (sameRoutes): a route of the next plan is the same
// route as the previous plan's trip of the same shift and trailer unit
// that it is paired with.
type PlanChanges struct {
	// Tolerance is how far a store's arrival may move before the store is
	// RETIMED.
	Tolerance time.Duration `json:"tolerance"`
	// Stores holds one entry for each store that differs, by store id.
	Stores  []StoreChange `json:"stores"`
	Metrics ChangeMetrics `json:"metrics"`
}

// StoreChange is how one store's delivery differs between two plans. A
// store is delivered by a plan when at least one of its pallets rides one
// of the plan's routes; a store whose pallets are all left unassigned is
// not delivered (the plan's Unassigned says why).
type StoreChange struct {
	Store string `json:"store"`
	// Kinds says how the delivery differs: ADDED or REMOVED alone, else
	// one or more of MOVED, RETIMED and PALLETS_CHANGED, in that order.
	Kinds []ChangeKind `json:"kinds"`
	// From and To are the routes that carry the store's pallets in the
	// previous and the next plan, in the order of their first stop at the
	// store; From is empty for an ADDED store, To for a REMOVED one.
	From []RouteRef `json:"from"`
	To   []RouteRef `json:"to"`
	// OldArrival and NewArrival are the store's first arrival in each
	// plan; zero (left out of the JSON form) where the plan does not
	// deliver the store.
	OldArrival time.Time `json:"oldArrival,omitzero"`
	NewArrival time.Time `json:"newArrival,omitzero"`
	// OldLastArrival and NewLastArrival are the store's last arrival in
	// each plan, the first where one stop delivers it: RETIMED looks at
	// both ends, so that a split store's later truck is not lost.
	OldLastArrival time.Time `json:"oldLastArrival,omitzero"`
	NewLastArrival time.Time `json:"newLastArrival,omitzero"`
	// OldPallets and NewPallets count the store's pallets each plan
	// delivers.
	OldPallets int `json:"oldPallets"`
	NewPallets int `json:"newPallets"`
}

// Has reports whether the change is of kind k.
func (c StoreChange) Has(k ChangeKind) bool { return slices.Contains(c.Kinds, k) }

// RouteRef names a route as a dispatcher does: its trailer unit, its
// driver shift and the shift's trip, and the plan's id for it.
type RouteRef struct {
	ID          string `json:"id"`
	TrailerUnit string `json:"trailerUnit"`
	Shift       string `json:"shift"`
	Trip        int    `json:"trip"`
	// PreviousTrip is set on the routes of the next plan (To): the trip
	// of the same shift and trailer unit in the previous plan that this
	// route is (see PlanChanges), which differs from Trip where a trip
	// before it is gone; 0 (left out of the JSON form) for a route the
	// previous plan did not have, and on the routes of From.
	PreviousTrip int `json:"previousTrip,omitempty"`
	// NextTrip is its counterpart on the routes of the previous plan
	// (From): the trip of the same shift and trailer unit in the next
	// plan that this route is; 0 (left out of the JSON form) for a route
	// the next plan no longer runs, and on the routes of To. A store that
	// comes off a trip that still runs under another number is found on
	// that trip's paperwork by it.
	NextTrip int `json:"nextTrip,omitempty"`
}

// String names the route as a dispatcher does: "R3 (DRY53-04, D01 trip
// 2)", with "was trip 3" on a route of the next plan that was another
// trip number and "now trip 2" on one of the previous plan that runs
// under another number.
func (r RouteRef) String() string {
	s := fmt.Sprintf("%s (%s, %s trip %d", r.ID, r.TrailerUnit, r.Shift, r.Trip)
	switch {
	case r.PreviousTrip != 0 && r.PreviousTrip != r.Trip:
		s += fmt.Sprintf(", was trip %d", r.PreviousTrip)
	case r.NextTrip != 0 && r.NextTrip != r.Trip:
		s += fmt.Sprintf(", now trip %d", r.NextTrip)
	}
	return s + ")"
}

// ChangeMetrics count the changes.
type ChangeMetrics struct {
	// StoresCompared counts the stores both plans deliver: those that can
	// move or be retimed, the denominator of the share of stores moved or
	// retimed. Stores, not stops: a store split over two routes counts
	// once, as it does among the moved.
	StoresCompared int `json:"storesCompared"`
	StoresAdded    int `json:"storesAdded"`
	StoresRemoved  int `json:"storesRemoved"`
	StoresMoved    int `json:"storesMoved"`
	StoresRetimed  int `json:"storesRetimed"`
	// StoresMovedOrRetimed counts the stores MOVED, RETIMED or both.
	StoresMovedOrRetimed int `json:"storesMovedOrRetimed"`
	// StoresPalletsChanged counts the stores whose pallet count changed
	// (ADDED and REMOVED stores are not counted).
	StoresPalletsChanged int `json:"storesPalletsChanged"`
	// RoutesChanged counts the routes whose paperwork changed: a route of
	// either plan that the other plan does not have (see PlanChanges for
	// what makes two routes the same), or one both have whose trailer
	// type, trip number, stops, their order or their pallets differ. Times alone do not count: RETIMED
	// says who they matter to.
	RoutesChanged int `json:"routesChanged"`
}

// ChangeKind is how a store's delivery differs between two plans.
type ChangeKind int

// The kinds of change. The zero value is none of them.
const (
	// Added: the next plan delivers the store, the previous one did not.
	Added ChangeKind = iota + 1
	// Removed: the previous plan delivered the store, the next does not.
	Removed
	// Moved: the store's pallets ride another set of routes (a route is
	// a trip of a shift on a trailer unit, see PlanChanges).
	Moved
	// Retimed: the store's first or last arrival moved by more than the
	// tolerance, on the same routes or on others: the store's receiving
	// crew waits at another time either way.
	Retimed
	// PalletsChanged: the plans deliver different numbers of the store's
	// pallets.
	PalletsChanged
)

// changeKindNames are the JSON names, by ChangeKind.
var changeKindNames = []string{"", "ADDED", "REMOVED", "MOVED", "RETIMED", "PALLETS_CHANGED"}

// Valid reports whether k is one of the defined kinds.
func (k ChangeKind) Valid() bool { return k >= Added && int(k) < len(changeKindNames) }

// String returns the kind's JSON name, "MOVED".
func (k ChangeKind) String() string {
	if k.Valid() {
		return changeKindNames[k]
	}
	return fmt.Sprintf("ChangeKind(%d)", int(k))
}

// DefaultChangeTolerance is how far an arrival may move before Changes
// calls a store RETIMED when ChangeOptions leave it zero: 15 minutes, the
// target of re-planning (fewer than 10 % of the stops move or change
// arrival by more than 15 minutes), and about what a store's receiving
// crew absorbs without being told.
const DefaultChangeTolerance = 15 * time.Minute

// ChangeOptions tune Changes; the zero value means the defaults.
type ChangeOptions struct {
	// Tolerance is how far a store's arrival may move, either way,
	// without the store being RETIMED; 0 means DefaultChangeTolerance.
	// To count every moved arrival, set a second.
	Tolerance time.Duration
}

// Changes compares two plans for one DC-day, store by store: one entry
// for each store whose delivery differs (see StoreChange and ChangeKind),
// and the counts. Routes are matched by shift and trailer unit, trip
// with trip in the order driven, never by id (see PlanChanges and
// sameRoutes). Changes(p, p) has no entries.
//
// A plan in which two routes share a trailer unit, shift and trip cannot
// be compared (Validate rejects such a plan: a shift drives one trip k);
// the error is a constraints.Violations with the path of each duplicate
// ("next.routes[4]").
func Changes(previous, next Result, opts ChangeOptions) (PlanChanges, error) {
	tol := opts.Tolerance
	if tol == 0 {
		tol = DefaultChangeTolerance
	}
	var vs constraints.Violations
	if opts.Tolerance < 0 {
		vs = append(vs, constraints.Violation{Code: CodeInvalidValue, Path: "tolerance",
			Message: fmt.Sprintf("must not be negative, got %v", opts.Tolerance)})
	}
	old, oldRoutes := deliveries("previous", previous, &vs)
	now, newRoutes := deliveries("next", next, &vs)
	if len(vs) > 0 {
		return PlanChanges{}, vs
	}
	was := sameRoutes(oldRoutes, newRoutes)
	isNow := map[routeKey]routeKey{} // by previous route, the next one that is it
	for k, p := range was {
		isNow[p] = k
	}
	pc := PlanChanges{Tolerance: tol, Stores: []StoreChange{}}
	stores := make([]string, 0, len(old)+len(now))
	for s := range old {
		stores = append(stores, s)
	}
	for s := range now {
		if old[s] == nil {
			stores = append(stores, s)
		}
	}
	slices.Sort(stores)
	m := &pc.Metrics
	for _, s := range stores {
		a, b := old[s], now[s]
		c := StoreChange{Store: s, From: a.refs(nil, isNow), To: b.refs(was, nil), OldArrival: a.first(), NewArrival: b.first(),
			OldLastArrival: a.last(), NewLastArrival: b.last(), OldPallets: a.count(), NewPallets: b.count()}
		switch {
		case a == nil:
			c.Kinds = []ChangeKind{Added}
			m.StoresAdded++
		case b == nil:
			c.Kinds = []ChangeKind{Removed}
			m.StoresRemoved++
		default:
			m.StoresCompared++
			if !slices.Equal(a.keys(nil), b.keys(was)) {
				c.Kinds = append(c.Kinds, Moved)
				m.StoresMoved++
			}
			if moved(a.first(), b.first()) > tol || moved(a.last(), b.last()) > tol {
				c.Kinds = append(c.Kinds, Retimed)
				m.StoresRetimed++
			}
			if len(c.Kinds) > 0 {
				m.StoresMovedOrRetimed++
			}
			if a.count() != b.count() {
				c.Kinds = append(c.Kinds, PalletsChanged)
				m.StoresPalletsChanged++
			}
		}
		if len(c.Kinds) > 0 {
			pc.Stores = append(pc.Stores, c)
		}
	}
	for k, r := range oldRoutes {
		if q, ok := isNow[k]; !ok || !samePaperwork(r, newRoutes[q]) {
			m.RoutesChanged++
		}
	}
	for k := range newRoutes {
		if _, ok := was[k]; !ok {
			m.RoutesChanged++
		}
	}
	return pc, nil
}

// sameRoutes pairs the routes of the next plan with those of the previous
// plan they are (by the next route's key, the previous route's key): for
// each shift, its trips in the two plans, each list in trip order, are
// paired in that order (a pairing never crosses: the k-th trip paired
// stays the k-th) so that the pallets a pair shares are the most, then
// the pairs with the same trip number; only trips on the same trailer
// unit pair, and only those that share a pallet or their trip number.
// A trip of the previous plan whose pallets are all gone is then left
// out, and the trips after it pair with themselves renumbered; a trip of
// the next plan that nothing pairs with is a new route. Where pairings tie,
// the one taken does not depend on which plan is the previous one, so that
// comparing the other way round pairs the same routes.
func sameRoutes(previous, next map[routeKey]*Route) map[routeKey]routeKey {
	byShift := func(routes map[routeKey]*Route) map[string][]routeKey {
		out := map[string][]routeKey{}
		for k := range routes {
			out[k.shift] = append(out[k.shift], k)
		}
		for _, ks := range out {
			slices.SortFunc(ks, routeKey.compare)
		}
		return out
	}
	was, now := byShift(previous), byShift(next)
	out := map[routeKey]routeKey{}
	for shift, a := range was {
		b := now[shift]
		if len(b) == 0 {
			continue
		}
		if fingerprint(a, previous) > fingerprint(b, next) {
			for k, p := range pairTrips(b, a, next, previous) {
				out[p] = k
			}
			continue
		}
		maps.Copy(out, pairTrips(a, b, previous, next))
	}
	return out
}

// fingerprint writes a shift's trips (keys, in trip order, of routes) and
// their pallets as one string, to order two plans' trips of a shift
// whichever plan is the previous one.
func fingerprint(keys []routeKey, routes map[routeKey]*Route) string {
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s|%d|", k.unit, k.trip)
		var ids []string
		for _, st := range routes[k].Stops {
			ids = append(ids, st.Pallets...)
		}
		slices.Sort(ids)
		b.WriteString(strings.Join(ids, ","))
		b.WriteByte(';')
	}
	return b.String()
}

// pairTrips pairs the trips a of one shift (keys in trip order, of routes
// ra) with its trips b (of rb), as sameRoutes says: by b's key, a's.
func pairTrips(a, b []routeKey, ra, rb map[routeKey]*Route) map[routeKey]routeKey {
	out := map[routeKey]routeKey{}
	// One shared pallet outweighs every pair of equal trip numbers.
	big := len(a) + len(b) + 1
	weight := func(i, j int) int {
		if a[i].unit != b[j].unit {
			return 0
		}
		w := big * sharedPallets(ra[a[i]], rb[b[j]])
		if a[i].trip == b[j].trip {
			w++
		}
		return w
	}
	// best[i][j]: the most weight pairing a[i:] with b[j:]; on a tie,
	// the pairing taken is the first in the order tried below.
	best := make([][]int, len(a)+1)
	for i := range best {
		best[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			best[i][j] = max(best[i+1][j], best[i][j+1])
			if w := weight(i, j); w > 0 {
				best[i][j] = max(best[i][j], w+best[i+1][j+1])
			}
		}
	}
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch w := weight(i, j); {
		case w > 0 && best[i][j] == w+best[i+1][j+1]:
			out[b[j]] = a[i]
			i, j = i+1, j+1
		case best[i][j] == best[i+1][j]:
			i++
		default:
			j++
		}
	}
	return out
}

// sharedPallets counts the pallets both routes carry.
func sharedPallets(a, b *Route) int {
	on := map[string]bool{}
	for _, st := range a.Stops {
		for _, id := range st.Pallets {
			on[id] = true
		}
	}
	n := 0
	for _, st := range b.Stops {
		for _, id := range st.Pallets {
			if on[id] {
				n++
			}
		}
	}
	return n
}

// routeKey is a route as a dispatcher tells it apart.
type routeKey struct {
	unit, shift string
	trip        int
}

func (k routeKey) compare(o routeKey) int {
	return cmp.Or(strings.Compare(k.shift, o.shift), cmp.Compare(k.trip, o.trip), strings.Compare(k.unit, o.unit))
}

// storeVisit is one stop of a route at a store.
type storeVisit struct {
	route   *Route
	arrival time.Time
	pallets int
}

// delivery is how a plan delivers one store: its stops, by arrival.
type delivery []storeVisit

// deliveries returns the plan's deliveries by store and its routes by
// key, and adds a violation under the plan's name for each route whose
// key an earlier route has.
func deliveries(name string, p Result, vs *constraints.Violations) (map[string]delivery, map[routeKey]*Route) {
	byStore := map[string]delivery{}
	routes := make(map[routeKey]*Route, len(p.Routes))
	first := make(map[routeKey]int, len(p.Routes))
	for i := range p.Routes {
		r := &p.Routes[i]
		k := keyOf(r)
		if j, dup := first[k]; dup {
			*vs = append(*vs, constraints.Violation{Code: CodeDuplicateID, Path: fmt.Sprintf("%s.routes[%d]", name, i),
				Message: fmt.Sprintf("trailer unit %q, shift %q, trip %d is also %s.routes[%d]: routes are compared by trailer unit, shift and trip", k.unit, k.shift, k.trip, name, j)})
			continue
		}
		first[k], routes[k] = i, r
		for _, st := range r.Stops {
			if len(st.Pallets) == 0 {
				continue // a stop that delivers nothing delivers the store nothing
			}
			byStore[st.Store] = append(byStore[st.Store], storeVisit{route: r, arrival: st.Arrival, pallets: len(st.Pallets)})
		}
	}
	for _, d := range byStore {
		slices.SortStableFunc(d, func(a, b storeVisit) int {
			return cmp.Or(a.arrival.Compare(b.arrival), keyOf(a.route).compare(keyOf(b.route)))
		})
	}
	return byStore, routes
}

func keyOf(r *Route) routeKey { return routeKey{r.TrailerUnit, r.Shift, r.Trip} }

// keys returns the distinct routes of the delivery, sorted, each as the
// previous plan's route it is where was (see sameRoutes) pairs it with
// one, and a key no previous route has where was is given and does not
// (a negative trip).
func (d delivery) keys(was map[routeKey]routeKey) []routeKey {
	var ks []routeKey
	for _, v := range d {
		ks = append(ks, identity(keyOf(v.route), was))
	}
	slices.SortFunc(ks, routeKey.compare)
	return slices.Compact(ks)
}

// identity is route k of the next plan as the previous plan's route it is
// (was, see sameRoutes), or, not paired, k with its trip negated: a key
// no route of the previous plan has. Without was, k is a previous plan's
// route and is itself.
func identity(k routeKey, was map[routeKey]routeKey) routeKey {
	if was == nil {
		return k
	}
	if p, ok := was[k]; ok {
		return p
	}
	k.trip = -k.trip
	return k
}

// refs names the delivery's routes, each once, by first stop; with was
// (the next plan's delivery, see sameRoutes) each says the previous trip
// it is, with isNow (the previous plan's, was turned around) the next
// trip it is.
func (d delivery) refs(was, isNow map[routeKey]routeKey) []RouteRef {
	refs := []RouteRef{}
	seen := map[routeKey]bool{}
	for _, v := range d {
		if k := keyOf(v.route); !seen[k] {
			seen[k] = true
			ref := RouteRef{ID: v.route.ID, TrailerUnit: k.unit, Shift: k.shift, Trip: k.trip}
			if p, ok := was[k]; ok {
				ref.PreviousTrip = p.trip
			}
			if q, ok := isNow[k]; ok {
				ref.NextTrip = q.trip
			}
			refs = append(refs, ref)
		}
	}
	return refs
}

func (d delivery) first() time.Time {
	if len(d) == 0 {
		return time.Time{}
	}
	return d[0].arrival
}

func (d delivery) last() time.Time {
	if len(d) == 0 {
		return time.Time{}
	}
	return d[len(d)-1].arrival
}

func (d delivery) count() int {
	n := 0
	for _, v := range d {
		n += v.pallets
	}
	return n
}

// moved is how far apart two instants are.
func moved(a, b time.Time) time.Duration {
	if d := a.Sub(b); d >= 0 {
		return d
	}
	return b.Sub(a)
}

// samePaperwork reports whether two routes that are the same route (see
// sameRoutes) carry the same papers: trailer type, trip number, stops in
// order,
// and each stop's pallets (as a set: the order a stop lists them in is
// not the order they come off, which the load plan gives).
func samePaperwork(a, b *Route) bool {
	if a.Trailer != b.Trailer || a.Trip != b.Trip || len(a.Stops) != len(b.Stops) {
		return false
	}
	for i := range a.Stops {
		x, y := a.Stops[i], b.Stops[i]
		if x.Store != y.Store || len(x.Pallets) != len(y.Pallets) {
			return false
		}
		if !slices.Equal(slices.Sorted(slices.Values(x.Pallets)), slices.Sorted(slices.Values(y.Pallets))) {
			return false
		}
	}
	return true
}
