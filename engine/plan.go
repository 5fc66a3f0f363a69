package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
	"github.com/haulplan/haulplan/routeplan"
)

// ErrInternal wraps the violations of a plan that the planner produced but
// Validate rejected: a bug in haulplan, never a problem with the request.
// Plan returns it instead of an invalid plan.
var ErrInternal = errors.New("engine: internal error: the planner produced an invalid plan")

// routingRounds bounds how often pallets that could not be laid out on
// their trailer go back to routing with the trailers and shifts still free.
const routingRounds = 3

// order is what routing moves: the pallets of one store in one temperature
// class, split further when they exceed the biggest compatible trailer.
type order struct {
	store    int
	class    constraints.Temperature
	pallets  []int // indices into Request.Pallets
	load     constraints.Load
	trailers []bool // compatible trailer types, by index
	reason   string // why it was last sent back, for the unassigned list
	message  string
}

// vehicle is one trailer unit paired with one driver shift, and the
// temperature its single-temperature reefer is set to for the trip.
type vehicle struct {
	trailer  int
	shift    int
	setPoint constraints.Temperature
}

// Plan plans the request: routes, trailer load plans, and unassigned
// pallets with reasons. It stops searching when Options.TimeLimit runs out
// or ctx ends, and returns the best plan found. It always completes a first
// plan unless ctx ends, so on thousands of pallets a time limit of a few
// hundred milliseconds may be overrun. Every plan it returns passes
// Validate; an invalid request gives a constraints.Violations.
func Plan(ctx context.Context, req Request) (Result, error) {
	if err := req.Check(); err != nil {
		return Result{}, err
	}
	m, err := prepare(ctx, &req)
	if err != nil {
		return Result{}, err
	}
	limit := req.Options.TimeLimit.D()
	if limit == 0 {
		limit = DefaultTimeLimit.D()
	}
	// The time limit goes to routing as a limit, not as a context deadline:
	// routing always builds a first solution, and only the caller's
	// cancellation stops it before that.
	deadline := time.Now().Add(limit)

	// Fleet packing (loadplan.PackFleet) runs on a budget of layouts, so
	// that it gives the same answer on any machine. The time limits are a
	// safety net: a tenth of the time for the whole fleet and groupPackLimit
	// per store, or with an iteration budget the whole time, so that only
	// the budgets end the packing and the plan is reproducible.
	pl := planner{m: m, packLimit: limit / 10, groupLimit: groupPackLimit, seed: uint64(req.Options.Seed)}
	if req.Options.Iterations > 0 {
		pl.packLimit, pl.groupLimit = limit, limit
	}
	if err := pl.makeOrders(ctx); err != nil {
		return Result{}, err
	}
	if err := pl.makeVehicles(ctx); err != nil {
		return Result{}, err
	}
	pool := pl.routable
	for round := 0; round < routingRounds && len(pool) > 0 && ctx.Err() == nil && (round == 0 || time.Now().Before(deadline)); round++ {
		// The first round gets nearly all the time: later rounds only
		// route the few orders a layout sent back, with the trailers left.
		share := time.Until(deadline)
		if round == 0 && routingRounds > 1 {
			share = share * 19 / 20
		}
		pool, err = pl.route(ctx, pool, share, round)
		if err != nil {
			return Result{}, err
		}
	}
	for _, o := range pool {
		reason, msg := o.reason, o.message
		if reason == "" {
			reason, msg = ReasonNotPlanned, "the search ended before this pallet was placed"
		}
		pl.unassign(o, reason, msg)
	}
	plan := pl.finish()
	if vs := m.validate(&plan); len(vs) > 0 {
		return Result{}, fmt.Errorf("%w: %w", ErrInternal, vs)
	}
	return plan, nil
}

type planner struct {
	m          *model
	packLimit  time.Duration // PackFleet's time limit for the whole fleet
	groupLimit time.Duration // and for one store's pallets of one class
	seed       uint64
	orders     []*order
	routable   []*order
	vehicles   []vehicle
	used       []bool // vehicles already driving an accepted route
	routes     []Route
	unassigned []Unassigned
}

// palletPositions is the floor positions a pallet takes on a trailer: 1 when
// two fit side by side, else 2 (it stands alone in the row).
func palletPositions(p Pallet, t TrailerType) int {
	_, w := p.Footprint.Dims()
	if 2*w <= t.Inside.WidthMM {
		return 1
	}
	return 2
}

// fits reports whether pallet p can ride on trailer type t to store s at
// all: temperature, the store's length limit, height and floor width.
func (m *model) fits(p Pallet, t TrailerType, s int) bool {
	_, w := p.Footprint.Dims()
	lim := m.req.Stores[s].MaxTrailerLengthMM
	return t.Equipment.Carries(p.Temperature) && routingCapacity(t).Positions > 0 &&
		(lim == 0 || t.nominalLength() <= lim) &&
		p.HeightMM <= t.Inside.HeightMM && w <= t.Inside.WidthMM &&
		p.WeightKg <= t.PayloadKg && p.volume() <= t.capacity().VolumeM3
}

// makeOrders groups pallets by store and class, drops the ones no trailer
// type can carry, and cuts each group into orders that one trailer of its
// biggest compatible type carries: see packGroup.
func (pl *planner) makeOrders(ctx context.Context) error {
	req := pl.m.req
	type key struct {
		store int
		class constraints.Temperature
	}
	groups := map[key][]int{}
	var keys []key
	for i, p := range req.Pallets {
		k := key{pl.m.store[p.Store], p.Temperature}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range keys {
		var ok []int
		compat := make([]bool, len(req.Fleet))
		best := -1
		for _, pi := range groups[k] {
			p := req.Pallets[pi]
			carried := false
			for _, t := range req.Fleet {
				if t.Count > 0 && pl.m.fits(p, t, k.store) {
					carried = true
				}
			}
			if !carried {
				pl.unassigned = append(pl.unassigned, Unassigned{Pallet: p.ID, Reason: ReasonNoCompatibleTrailer,
					Message: fmt.Sprintf("no trailer type can carry this %s pallet (%d mm tall, %.0f kg) to store %q", p.Temperature, p.HeightMM, p.WeightKg, p.Store)})
				continue
			}
			ok = append(ok, pi)
		}
		if len(ok) == 0 {
			continue
		}
		for ti, t := range req.Fleet {
			c := true
			for _, pi := range ok {
				if !pl.m.fits(req.Pallets[pi], t, k.store) {
					c = false
					break
				}
			}
			compat[ti] = c && t.Count > 0
			if compat[ti] && (best < 0 || routingCapacity(t).Positions > routingCapacity(req.Fleet[best]).Positions) {
				best = ti
			}
		}
		if best < 0 {
			// Pallets of the group fit different trailer types but no
			// single one: route each pallet on its own.
			for _, pi := range ok {
				o := &order{store: k.store, class: k.class, trailers: make([]bool, len(req.Fleet))}
				for ti, t := range req.Fleet {
					o.trailers[ti] = t.Count > 0 && pl.m.fits(req.Pallets[pi], t, k.store)
				}
				pl.addPallet(o, pi, req.Fleet[firstTrue(o.trailers)])
				pl.orders = append(pl.orders, o)
			}
			continue
		}
		if err := pl.packGroup(ctx, k.store, k.class, ok, compat, best); err != nil {
			return err
		}
	}
	pl.routable = pl.orders
	return nil
}

// groupPackLimit bounds loadplan.PackFleet on one store's pallets of one
// class; it returns sooner when it meets its lower bound, as it does for
// all but odd groups.
const groupPackLimit = 50 * time.Millisecond

// layoutsPerPallet sizes PackFleet's budget of layouts after its first
// packing: enough to meet the lower bound on the instances measured
// (bench/results/packfleet.md) and far below a second on hundreds of
// pallets.
const layoutsPerPallet = 20

// packOptions are PackFleet's options for n pallets within limit.
func (pl *planner) packOptions(n int, limit time.Duration) loadplan.FleetOptions {
	return loadplan.FleetOptions{TimeLimit: max(limit, time.Millisecond), MaxLayouts: max(1, layoutsPerPallet*n), Seed: pl.seed}
}

// packGroup cuts the pallets idx of one store and class into orders. The
// group is laid out on a trailer of type best (its routing capacity: a
// multi-temperature reefer keeps room for its other zones); when it does
// not fit whole, loadplan.PackFleet packs it into the fewest such
// trailers. Each order so is loadable alone, and its floor positions are
// those of its layout, stacking included, so routing counts what the floor
// really takes. Pallets that no layout takes alone are unassigned with
// loadplan's reason.
func (pl *planner) packGroup(ctx context.Context, store int, class constraints.Temperature, idx []int, compat []bool, best int) error {
	req := pl.m.req
	bt := req.Fleet[best]
	tr := layoutTrailer(bt)
	tr.Positions = routingCapacity(bt).Positions
	lp := make([]loadplan.Pallet, len(idx))
	byID := make(map[string]int, len(idx))
	for j, pi := range idx {
		lp[j] = layoutPallet(req.Pallets[pi], 0)
		byID[req.Pallets[pi].ID] = pi
	}
	add := func(pallets []int, positions int) {
		o := &order{store: store, class: class, trailers: compat, pallets: pallets}
		for _, pi := range pallets {
			p := req.Pallets[pi]
			o.load = o.load.Add(constraints.Load{WeightKg: p.WeightKg, VolumeM3: p.volume()})
		}
		o.load.Positions = positions
		pl.orders = append(pl.orders, o)
	}
	if lay, err := loadplan.PlanTrailer(tr, lp, 1); err == nil {
		add(idx, lay.Load.Positions)
		return nil
	}
	fp, err := loadplan.PackFleet(ctx, []loadplan.FleetTrailer{{Trailer: tr, Count: len(idx)}}, lp, pl.packOptions(len(lp), pl.groupLimit))
	if err != nil {
		return fmt.Errorf("%w: packing the pallets of store %q: %w", ErrInternal, req.Stores[store].ID, err)
	}
	for _, l := range fp.Loads {
		var pallets []int
		for _, p := range l.Pallets {
			pallets = append(pallets, byID[p.ID])
		}
		add(pallets, l.Layout.Load.Positions)
	}
	for _, u := range fp.Unplaced {
		pi := byID[u.Pallet]
		if u.Code == loadplan.CodeCancelled {
			pl.unassigned = append(pl.unassigned, Unassigned{Pallet: u.Pallet, Reason: ReasonNotPlanned, Message: "planning was cancelled before this pallet was packed"})
			continue
		}
		// Not on the biggest type: perhaps alone on another one.
		o := &order{store: store, class: class, trailers: make([]bool, len(req.Fleet))}
		found := false
		for ti, t := range req.Fleet {
			if !compat[ti] {
				continue
			}
			alone := layoutTrailer(t)
			alone.Positions = routingCapacity(t).Positions
			if _, err := loadplan.PlanTrailer(alone, []loadplan.Pallet{layoutPallet(req.Pallets[pi], 0)}, 1); err == nil {
				o.trailers[ti], found = true, true
			}
		}
		if !found {
			pl.unassigned = append(pl.unassigned, Unassigned{Pallet: u.Pallet, Reason: ReasonLoadLayout, Message: u.Reason})
			continue
		}
		pl.addPallet(o, pi, req.Fleet[firstTrue(o.trailers)])
		pl.orders = append(pl.orders, o)
	}
	return nil
}

func firstTrue(bs []bool) int {
	for i, b := range bs {
		if b {
			return i
		}
	}
	return 0
}

func (pl *planner) addPallet(o *order, pi int, t TrailerType) {
	p := pl.m.req.Pallets[pi]
	o.pallets = append(o.pallets, pi)
	o.load = o.load.Add(constraints.Load{Positions: palletPositions(p, t), WeightKg: p.WeightKg, VolumeM3: p.volume()})
}

// routingCapacity is the capacity routing may fill: the declared positions,
// less one position per extra zone a multi-temperature reefer may need
// (a zone with an odd count leaves half a row empty).
func routingCapacity(t TrailerType) constraints.Load {
	c := t.capacity()
	if z := t.Equipment.Zones(); z > 1 {
		c.Positions -= z - 1
	}
	return c
}

// makeVehicles pairs driver shifts with trailer units and sets the
// single-temperature reefers. loadplan.PackFleet packs all the pallets
// into the fewest trailers of the fleet, ignoring time and geography; the
// units it uses are paired first, each reefer set to the class its load
// holds, so that when there are more trailers than shifts the ones left
// standing are those the freight needs least. The rest follow. Within each
// part, shifts go in order of start and trailer units interleave across
// types, so that every type gets a share of early and late shifts. A
// reefer PackFleet did not use is set to the cold class with the most
// positions per reefer already set to it.
func (pl *planner) makeVehicles(ctx context.Context) error {
	req := pl.m.req
	shifts := make([]int, len(req.Shifts))
	for i := range shifts {
		shifts[i] = i
	}
	slices.SortStableFunc(shifts, func(a, b int) int { return req.Shifts[a].Start.Compare(req.Shifts[b].Start) })

	// The units the fleet packing uses, and their set points.
	fleet := pl.m.loadFleet()
	var pallets []loadplan.Pallet
	for _, o := range pl.routable {
		for _, pi := range o.pallets {
			pallets = append(pallets, layoutPallet(req.Pallets[pi], 0))
		}
	}
	chosen := make([][]constraints.Temperature, len(req.Fleet)) // set point of each chosen unit, by type
	if len(pallets) > 0 {
		// PackFleet's first packing ignores its time limit but not ctx: a
		// deadline keeps it short on thousands of pallets. What it leaves
		// unpacked only means fewer units chosen.
		pctx, cancel := context.WithTimeout(ctx, max(pl.packLimit, time.Millisecond))
		fp, err := loadplan.PackFleet(pctx, fleet, pallets, pl.packOptions(len(pallets), pl.packLimit))
		cancel()
		if err != nil {
			return fmt.Errorf("%w: packing the fleet: %w", ErrInternal, err)
		}
		for _, l := range fp.Loads {
			class := constraints.Ambient
			for _, p := range l.Pallets {
				class = max(class, p.Temperature)
			}
			chosen[l.Fleet] = append(chosen[l.Fleet], class)
		}
	}

	// Units in pairing order: chosen ones interleaved, then the rest.
	type unit struct {
		trailer  int
		setPoint constraints.Temperature
		chosen   bool
	}
	var units []unit
	taken := make([]int, len(req.Fleet)) // chosen units of each type paired so far
	interleave := func(left []int, isChosen bool) {
		// Only as many units as there are shifts can drive.
		for more := true; more && len(units) < len(shifts); {
			more = false
			for ti := range left {
				if left[ti] == 0 || len(units) == len(shifts) {
					continue
				}
				u := unit{trailer: ti, chosen: isChosen}
				if isChosen {
					u.setPoint = chosen[ti][taken[ti]]
					taken[ti]++
				}
				units = append(units, u)
				left[ti]--
				more = true
			}
		}
	}
	first, rest := make([]int, len(req.Fleet)), make([]int, len(req.Fleet))
	for ti, t := range req.Fleet {
		first[ti] = min(len(chosen[ti]), t.Count)
		rest[ti] = t.Count - first[ti]
	}
	interleave(first, true)
	interleave(rest, false)

	// Set points of the reefers PackFleet did not use.
	var need [3]int
	for _, o := range pl.routable {
		need[o.class] += o.load.Positions
	}
	var set [3]int
	for _, u := range units {
		if u.chosen && req.Fleet[u.trailer].Equipment.Kind == constraints.Reefer {
			set[u.setPoint]++
		}
	}
	for k := range units {
		u := &units[k]
		if u.chosen || req.Fleet[u.trailer].Equipment.Kind != constraints.Reefer {
			continue
		}
		u.setPoint = constraints.Ambient
		bestRatio := -1.0
		for _, c := range []constraints.Temperature{constraints.Chilled, constraints.Frozen} {
			if need[c] == 0 {
				continue
			}
			if r := float64(need[c]) / float64(1+set[c]); r > bestRatio {
				bestRatio, u.setPoint = r, c
			}
		}
		set[u.setPoint]++
	}
	for k, u := range units {
		sp := u.setPoint
		if req.Fleet[u.trailer].Equipment.Kind != constraints.Reefer {
			sp = constraints.Ambient
		}
		pl.vehicles = append(pl.vehicles, vehicle{trailer: u.trailer, shift: shifts[k], setPoint: sp})
	}
	pl.used = make([]bool, len(pl.vehicles))
	return nil
}

// compatible reports whether vehicle v may carry order o.
func (pl *planner) compatible(o *order, v vehicle) bool {
	if !o.trailers[v.trailer] {
		return false
	}
	if pl.m.req.Fleet[v.trailer].Equipment.Kind == constraints.Reefer {
		return o.class == v.setPoint
	}
	return true
}

// seconds converts an instant to routing time, whole seconds from the
// horizon's beginning, rounded down; secondsUp rounds up. Window and shift
// starts round up and ends round down, so that routing never uses an
// instant the request does not allow.
func (pl *planner) seconds(t time.Time) float64 {
	return math.Floor(t.Sub(pl.m.origin).Seconds())
}

func (pl *planner) secondsUp(t time.Time) float64 {
	return math.Ceil(t.Sub(pl.m.origin).Seconds())
}

func (pl *planner) instant(s float64) time.Time {
	return pl.m.origin.Add(time.Duration(s) * time.Second)
}

// route runs one round of routing on the orders in pool with the vehicles
// still free, lays every route out, keeps the routes that pass, and returns
// the orders sent back.
func (pl *planner) route(ctx context.Context, pool []*order, limit time.Duration, round int) ([]*order, error) {
	m, req := pl.m, pl.m.req
	n := 1 + len(req.Stores)
	p := &routeplan.Problem{N: n, Distance: make([]float64, n*n), Duration: make([]float64, n*n)}
	for i := range n {
		for j := range n {
			p.Distance[i*n+j] = m.matrix.Distance(i, j)
			p.Duration[i*n+j] = float64(m.matrix.Seconds(i, j))
		}
	}
	// Vehicle types: free vehicles grouped by trailer type, set point and
	// shift, so identical ones share a count.
	type vkey struct {
		trailer  int
		setPoint constraints.Temperature
		start    time.Time
		end      time.Time
		limits   constraints.HoursOfService
	}
	typeOf := map[vkey]int{}
	var members [][]int // vehicle indices of each routing type
	// A trailer carries at most a pallet per floor position plus one on
	// top of each for the pallets that may be stacked; the count is a
	// routing dimension, so that the loading time budgeted below holds.
	stackable := 0
	for _, o := range pool {
		for _, pi := range o.pallets {
			if req.Pallets[pi].MayBeStacked {
				stackable++
			}
		}
	}
	for vi, v := range pl.vehicles {
		if pl.used[vi] {
			continue
		}
		sh := req.Shifts[v.shift]
		tt := req.Fleet[v.trailer]
		capa := routingCapacity(tt)
		hos := m.limits(v.shift)
		// Loading is budgeted for a full trailer: the earliest departure is
		// a full load after the shift (or the dock) opens, and the duty
		// left for the road is the limit less that loading time.
		most := capa.Positions + min(capa.Positions, stackable)
		fullLoad := m.loading(most)
		start := sh.Start
		if !m.alwaysDock && len(m.dockWin) > 0 && m.dockWin[0].Start.After(start) {
			start = m.dockWin[0].Start
		}
		start = start.Add(fullLoad)
		duty := hos.MaxDuty.D() - fullLoad
		if !start.Before(sh.End) || duty <= 0 || capa.Positions <= 0 {
			continue // this pairing cannot drive any route
		}
		k := vkey{v.trailer, v.setPoint, sh.Start, sh.End, hos}
		t, ok := typeOf[k]
		if !ok {
			t = len(p.VehicleTypes)
			typeOf[k] = t
			p.VehicleTypes = append(p.VehicleTypes, routeplan.VehicleType{
				ID:            fmt.Sprintf("%s/%s/%s", tt.ID, v.setPoint, sh.ID),
				Capacity:      []float64{float64(capa.Positions), capa.WeightKg, capa.VolumeM3, float64(most)},
				ShiftStart:    pl.secondsUp(start),
				ShiftEnd:      pl.seconds(sh.End),
				MaxDuty:       duty.Seconds(),
				MaxDriving:    hos.MaxDriving.D().Seconds(),
				BreakAfter:    hos.BreakAfter.D().Seconds(),
				BreakDuration: hos.BreakDuration.D().Seconds(),
				FixedCost:     tt.Costs.Fixed,
				DistanceCost:  tt.Costs.PerKm / 1000,
				TimeCost:      tt.Costs.PerHour / 3600,
			})
			members = append(members, nil)
		}
		p.VehicleTypes[t].Count++
		members[t] = append(members[t], vi)
	}
	if len(p.VehicleTypes) == 0 {
		for _, o := range pool {
			o.reason, o.message = ReasonFleetExhausted, "no trailer with a free driver shift is left"
		}
		return pool, nil
	}
	for _, o := range pool {
		site := routeplan.Site{
			ID:           fmt.Sprintf("%s/%s", req.Stores[o.store].ID, o.class),
			Location:     1 + o.store,
			Service:      m.service(o.store, len(o.pallets)).Seconds(),
			Demand:       []float64{float64(o.load.Positions), o.load.WeightKg, o.load.VolumeM3, float64(len(o.pallets))},
			VehicleTypes: []int{},
		}
		for _, w := range m.storeWin[o.store] {
			if a, b := pl.secondsUp(w.Start), pl.seconds(w.End); a <= b {
				site.Windows = append(site.Windows, routeplan.Window{Start: a, End: b})
			}
		}
		if len(site.Windows) == 0 {
			// Closed over the whole horizon: an empty window list would
			// mean "always open" to routeplan, so give it one it cannot use.
			site.Windows = []routeplan.Window{{Start: -2, End: -1}}
		}
		for t := range p.VehicleTypes {
			if pl.compatible(o, pl.vehicles[members[t][0]]) {
				site.VehicleTypes = append(site.VehicleTypes, t)
			}
		}
		p.Sites = append(p.Sites, site)
	}
	workers := req.Options.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sol, err := routeplan.Solve(ctx, p, routeplan.Options{TimeLimit: max(limit, time.Millisecond), MaxIterations: req.Options.Iterations, Seed: req.Options.Seed + int64(round), Workers: workers})
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// Cancelled before routing had a solution: these orders stay
		// unplanned, and the plan so far is still returned.
		return pool, nil
	}
	if err != nil {
		return nil, fmt.Errorf("engine: routing: %w", err)
	}
	for _, u := range sol.Unassigned {
		pl.unassign(pool[u.Site], reasonOf(u.Reason), "routing found no feasible route for it")
	}
	var back []*order
	next := make([]int, len(members)) // next unused member of each routing type
	for _, rr := range sol.Routes {
		vi := members[rr.VehicleType][next[rr.VehicleType]]
		next[rr.VehicleType]++
		visits := rr.Visits
		for len(visits) > 0 {
			r, reason, msg := pl.buildRoute(vi, visits, pool)
			if r != nil {
				pl.routes = append(pl.routes, *r)
				pl.used[vi] = true
				break
			}
			last := pool[visits[len(visits)-1].Site]
			last.reason, last.message = reason, msg
			back = append(back, last)
			visits = visits[:len(visits)-1]
		}
	}
	return back, nil
}

func reasonOf(r routeplan.Reason) string {
	switch r {
	case routeplan.NoCompatibleVehicle:
		return ReasonNoCompatibleTrailer
	case routeplan.Capacity:
		return ReasonCapacity
	case routeplan.TimeWindow:
		return ReasonTimeWindow
	case routeplan.ShiftLimit:
		return ReasonShiftLimit
	case routeplan.FleetExhausted:
		return ReasonFleetExhausted
	}
	return ReasonNotPlanned
}

// buildRoute turns routing visits into a route with stops, times and a
// floor layout, and checks it with the validator's own route check. It
// returns nil and the reason when the route cannot be used as it is.
func (pl *planner) buildRoute(vi int, visits []routeplan.Visit, pool []*order) (*Route, string, string) {
	m, req := pl.m, pl.m.req
	v := pl.vehicles[vi]
	tt := req.Fleet[v.trailer]
	r := &Route{Trailer: tt.ID, Shift: req.Shifts[v.shift].ID}
	var lp []loadplan.Pallet
	for _, vis := range visits {
		o := pool[vis.Site]
		sid := req.Stores[o.store].ID
		if n := len(r.Stops); n > 0 && r.Stops[n-1].Store == sid {
			// Two orders of one store back to back are one stop.
			r.Stops[n-1].Departure = pl.instant(vis.Departure)
		} else {
			arr, start := pl.instant(vis.Arrival), pl.instant(vis.Start)
			r.Stops = append(r.Stops, Stop{Store: sid, Arrival: arr, Start: start, Departure: pl.instant(vis.Departure), Wait: constraints.Duration(start.Sub(arr))})
		}
		k := len(r.Stops) - 1
		for _, pi := range o.pallets {
			r.Stops[k].Pallets = append(r.Stops[k].Pallets, req.Pallets[pi].ID)
			lp = append(lp, layoutPallet(req.Pallets[pi], k))
		}
	}
	first := pool[visits[0].Site]
	depart := pl.instant(visits[0].Arrival).Add(-m.matrix.Duration(0, 1+first.store))
	r.Depart = depart
	last := pool[visits[len(visits)-1].Site]
	r.Return = pl.instant(visits[len(visits)-1].Departure).Add(m.matrix.Duration(1+last.store, 0))
	r.Start = depart.Add(-m.loading(len(lp)))
	if !m.dockOpen(r.Start) {
		// Start loading at the last moment the dock was open, then wait.
		for i := len(m.dockWin) - 1; i >= 0; i-- {
			if !m.dockWin[i].Start.After(r.Start) {
				r.Start = m.dockWin[i].End
				break
			}
		}
	}

	lay, err := loadplan.PlanTrailer(layoutTrailer(tt), lp, len(r.Stops))
	if err != nil {
		return nil, ReasonLoadLayout, err.Error()
	}
	r.Load = fromLayout(lay)
	rm, vs := m.checkRoute(r, "route")
	if len(vs) > 0 {
		reason := ReasonShiftLimit
		for _, v := range vs {
			switch v.Code {
			case loadplan.CodeKingpin, loadplan.CodeAxleGroup, loadplan.CodePositions, loadplan.CodeFloorLength, loadplan.CodeTooManyZones:
				reason = ReasonLoadLayout
			case CodeOpeningHours:
				reason = ReasonTimeWindow
			}
		}
		return nil, reason, vs.Error()
	}
	r.Metrics = rm
	return r, "", ""
}

func fromLayout(l *loadplan.Layout) LoadPlan {
	var lp LoadPlan
	for _, z := range l.Zones {
		lp.Zones = append(lp.Zones, Zone{Temperature: z.Temperature, FirstRow: z.FirstRow, LastRow: z.LastRow, FromMM: z.FromMM, ToMM: z.ToMM})
	}
	for _, p := range l.Placements {
		lp.Placements = append(lp.Placements, Placement{Pallet: p.Pallet, Row: p.Row, Side: p.Side.String(), Turned: p.Turned, Zone: p.Zone, XMM: p.XMM, Level: p.Level})
	}
	for _, a := range l.Axles {
		lp.Axles = append(lp.Axles, AxleLoad{AfterStop: a.AfterStop, KingpinKg: a.KingpinKg, AxleGroupKg: a.AxleGroupKg})
	}
	return lp
}

func (pl *planner) unassign(o *order, reason, msg string) {
	for _, pi := range o.pallets {
		pl.unassigned = append(pl.unassigned, Unassigned{Pallet: pl.m.req.Pallets[pi].ID, Reason: reason, Message: msg})
	}
}

// finish orders the routes by departure, names them, and totals the metrics.
func (pl *planner) finish() Result {
	slices.SortStableFunc(pl.routes, func(a, b Route) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.Shift, b.Shift)
	})
	plan := Result{Routes: pl.routes, Unassigned: pl.unassigned}
	if plan.Routes == nil {
		plan.Routes = []Route{}
	}
	if plan.Unassigned == nil {
		plan.Unassigned = []Unassigned{}
	}
	order := make(map[string]int, len(pl.m.req.Pallets))
	for i, p := range pl.m.req.Pallets {
		order[p.ID] = i
	}
	slices.SortStableFunc(plan.Unassigned, func(a, b Unassigned) int { return cmp.Compare(order[a.Pallet], order[b.Pallet]) })
	var util float64
	for i := range plan.Routes {
		r := &plan.Routes[i]
		r.ID = fmt.Sprintf("R%d", i+1)
		t := &plan.Metrics
		t.Routes++
		t.Stops += r.Metrics.Stops
		t.Pallets += r.Metrics.Pallets
		t.DistanceM += r.Metrics.DistanceM
		t.Duration += r.Metrics.Duration
		t.Driving += r.Metrics.Driving
		t.Wait += r.Metrics.Wait
		t.Cost += r.Metrics.Cost
		util += r.Metrics.PosUtil
	}
	plan.Metrics.Unassigned = len(plan.Unassigned)
	var routed []int
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				routed = append(routed, pl.m.pallet[id])
			}
		}
	}
	plan.Metrics.TrailersLowerBound = pl.m.trailerBound(routed)
	if plan.Metrics.Routes > 0 {
		plan.Metrics.PosUtil = util / float64(plan.Metrics.Routes)
	}
	return plan
}
