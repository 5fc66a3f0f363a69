package engine

import (
	"context"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// model is a checked request prepared for planning and validation: indexes
// by id, the travel matrix (location 0 is the DC, 1+i is store i), and every
// weekly schedule resolved to instants over the horizon. It is derived from
// the request alone.
type model struct {
	req        *Request
	origin     time.Time // earliest shift start: the horizon's beginning
	end        time.Time // latest shift end
	matrix     *geo.Matrix
	store      map[string]int
	pallet     map[string]int
	trailer    map[string]int
	shift      map[string]int
	storeWin   [][]constraints.Window
	dockWin    []constraints.Window // nil: loading may start at any time
	alwaysDock bool
	// rush is the travel profile on routing's seconds from origin (zero
	// without one): its slow intervals over the shifts and a day either
	// side, beyond which travel is free flow.
	rush geo.SlowTimeline
	// fixed are the previous plan's routes the request's lock fixes, as
	// the plan will have them (see fixRoutes): they hold their shifts,
	// trailer units and dock doors over their times, and their pallets
	// are planned already. kept marks, by pallet, those on a fixed route
	// or on a route kept from the previous plan (seedPrevious): the
	// orders leave them out.
	fixed []Route
	kept  []bool
	// besideFixed checks routes beside fixed (validateBesideFixed), made
	// on first use, once fixed is final.
	besideFixed *besideFixed
	// keptTrips are, by shift, the previous plan's trips seedPrevious
	// kept, in the order driven (parallel to the shift's routes in the
	// fleet state): a change to a kept shift is timed near them and
	// counts the stops it retimes against them (kept_routes.go).
	keptTrips map[string][]Route
}

// prepare builds the model of a checked request: indexes of its stores,
// pallets, trailer types and shifts by ID, the shifts' horizon, the
// travel profile's timeline, the travel matrix, and the receiving and dock
// hours resolved over the horizon.
func prepare(ctx context.Context, req *Request) (*model, error) {
	m := &model{
		req:     req,
		store:   make(map[string]int, len(req.Stores)),
		pallet:  make(map[string]int, len(req.Pallets)),
		trailer: make(map[string]int, len(req.Fleet)),
		shift:   make(map[string]int, len(req.Shifts)),
	}
	for i, s := range req.Stores {
		m.store[s.ID] = i
	}
	for i, p := range req.Pallets {
		m.pallet[p.ID] = i
	}
	for i, t := range req.Fleet {
		m.trailer[t.ID] = i
	}
	for i, s := range req.Shifts {
		m.shift[s.ID] = i
		if m.origin.IsZero() || s.Start.Before(m.origin) {
			m.origin = s.Start
		}
		if m.end.IsZero() || s.End.After(m.end) {
			m.end = s.End
		}
	}
	if len(req.RushHours) > 0 && len(req.Shifts) > 0 {
		// Routing's seconds count from a whole second, on which the
		// profile's intervals lie, so that the solver's timeline and
		// Validate's instants agree to the second.
		m.origin = m.origin.Truncate(time.Second)
		if loc, err := time.LoadLocation(req.dcZone()); err == nil && req.dcZone() != "" {
			m.rush = req.RushHours.Intervals(loc, m.origin.Add(-24*time.Hour), m.end.Add(24*time.Hour)).Timeline(m.origin)
		}
	}
	if err := m.travelMatrix(ctx); err != nil {
		return nil, err
	}
	if err := m.resolveHours(); err != nil {
		return nil, err
	}
	return m, nil
}

// travelMatrix sets m.matrix, the travel between the DC (row 0) and the
// stores (row 1+i for store i): the request's road matrix, else the
// matrix of Options.Matrix or of the request's travel model.
func (m *model) travelMatrix(ctx context.Context) error {
	req := m.req
	points := make([]geo.Point, 1+len(req.Stores))
	points[0] = req.DC.Location
	for i, s := range req.Stores {
		points[1+i] = s.Location
	}
	var src geo.MatrixSource = req.Travel
	if req.Options.Matrix != nil {
		src = req.Options.Matrix
	}
	var mx *geo.Matrix
	var err error
	if req.RoadMatrix != nil {
		// The request's own matrix: its slices themselves when its ids
		// are the DC and the stores in order, else a copy of those rows.
		mx = req.RoadMatrix.Matrix(roadRows(req))
	} else if mx, err = src.Matrix(ctx, points); err != nil {
		return err
	}
	if mx == nil || mx.Len() != len(points) {
		return constraints.Violations{{Code: CodeInvalidValue, Path: "options.matrix", Message: "the matrix source returned a matrix of the wrong size"}}
	}
	m.matrix = mx
	return nil
}

// resolveHours sets the stores' receiving windows and the dock's over the
// shifts' horizon, from m.origin to m.end (without shifts, none, and the
// dock always open when it has no hours).
func (m *model) resolveHours() error {
	req := m.req
	m.storeWin = make([][]constraints.Window, len(req.Stores))
	if len(req.Shifts) == 0 {
		m.alwaysDock = req.DC.DockHours == nil
		return nil
	}
	for i, s := range req.Stores {
		ws, err := s.Hours.Resolve(m.origin, m.end)
		if err != nil {
			return err
		}
		m.storeWin[i] = ws
	}
	if req.DC.DockHours == nil {
		m.alwaysDock = true
		return nil
	}
	// A trailer may be loaded before the first shift starts, up to its
	// staging limit and its loading before the hook-up.
	ws, err := req.DC.DockHours.Resolve(m.origin.Add(-m.loadingLead()), m.end)
	if err != nil {
		return err
	}
	m.dockWin = ws
	return nil
}

// loadingLead is the longest a loading may start before its trip: the
// longest staging limit and the loading of the most pallets a trip
// carries (mostTripPallets).
func (m *model) loadingLead() time.Duration {
	all := make([]int, len(m.req.Pallets))
	for i := range all {
		all[i] = i
	}
	loading := m.req.DC.LoadingTime(mostTripPallets(m.req, all))
	var lead time.Duration
	for _, t := range m.req.Fleet {
		lead = max(lead, m.req.StagingLimit(t)+loading)
	}
	return lead
}

// travel returns the distance (m) and duration between matrix locations.
func (m *model) travel(from, to int) (float64, time.Duration) {
	return m.matrix.Distance(from, to), m.matrix.Duration(from, to)
}

// service is the unloading time for n pallets at store s.
func (m *model) service(s, n int) time.Duration {
	return m.req.Stores[s].Unloading.Time(n)
}

// loading is the loading time for n pallets at the DC.
func (m *model) loading(n int) time.Duration {
	return m.req.DC.LoadingTime(n)
}
