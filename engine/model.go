package engine

import (
	"context"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"github.com/haulplan/haulplan/loadplan"
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
}

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
	points := make([]geo.Point, 1+len(req.Stores))
	points[0] = req.DC.Location
	for i, s := range req.Stores {
		points[1+i] = s.Location
	}
	var src geo.MatrixSource = req.Travel
	if req.Options.Matrix != nil {
		src = req.Options.Matrix
	}
	mx, err := src.Matrix(ctx, points)
	if err != nil {
		return nil, err
	}
	if mx == nil || mx.Len() != len(points) {
		return nil, constraints.Violations{{Code: CodeInvalidValue, Path: "options.matrix", Message: "the matrix source returned a matrix of the wrong size"}}
	}
	m.matrix = mx
	m.storeWin = make([][]constraints.Window, len(req.Stores))
	if len(req.Shifts) == 0 {
		m.alwaysDock = req.DC.DockHours == nil
		return m, nil
	}
	for i, s := range req.Stores {
		ws, err := s.Hours.Resolve(m.origin, m.end)
		if err != nil {
			return nil, err
		}
		m.storeWin[i] = ws
	}
	if req.DC.DockHours == nil {
		m.alwaysDock = true
	} else {
		ws, err := req.DC.DockHours.Resolve(m.origin, m.end)
		if err != nil {
			return nil, err
		}
		m.dockWin = ws
	}
	return m, nil
}

// travel returns the distance (m) and duration between matrix locations.
func (m *model) travel(from, to int) (float64, time.Duration) {
	return m.matrix.Distance(from, to), m.matrix.Duration(from, to)
}

// limits returns the hours-of-service limits of a shift: each field the
// shift's own limits leave zero falls back to the request's
// HoursOfService, then to the US default.
func (m *model) limits(shift int) constraints.HoursOfService {
	h := m.req.HoursOfService
	if l := m.req.Shifts[shift].Limits; l != nil {
		or := func(own, req time.Duration) time.Duration {
			if own != 0 {
				return own
			}
			return req
		}
		h = constraints.HoursOfService{
			MaxDriving:    or(l.MaxDriving, h.MaxDriving),
			MaxDuty:       or(l.MaxDuty, h.MaxDuty),
			BreakAfter:    or(l.BreakAfter, h.BreakAfter),
			BreakDuration: or(l.BreakDuration, h.BreakDuration),
		}
	}
	return h.WithDefaults()
}

// service is the unloading time for n pallets at store s.
func (m *model) service(s, n int) time.Duration {
	u := m.req.Stores[s].Unloading
	return u.Fixed + time.Duration(n)*u.PerPallet
}

// loading is the loading time for n pallets at the DC.
func (m *model) loading(n int) time.Duration {
	return time.Duration(n) * m.req.DC.LoadingPerPallet
}

// layoutTrailer is the loadplan view of a trailer type.
func layoutTrailer(t TrailerType) loadplan.Trailer {
	c := t.capacity()
	return loadplan.Trailer{
		ID: t.ID, LengthMM: t.Inside.LengthMM, WidthMM: t.Inside.WidthMM, HeightMM: t.Inside.HeightMM,
		Positions: t.PalletPositions, PayloadKg: t.PayloadKg, VolumeM3: c.VolumeM3,
		Equipment: t.Equipment, Axles: t.Axles,
	}
}

// loadFleet is the loadplan view of the fleet.
func (m *model) loadFleet() []loadplan.FleetTrailer {
	fleet := make([]loadplan.FleetTrailer, len(m.req.Fleet))
	for i, t := range m.req.Fleet {
		fleet[i] = loadplan.FleetTrailer{Trailer: layoutTrailer(t), Count: t.Count}
	}
	return fleet
}

// trailerBound is a proven lower bound on the number of trailers, hence
// routes, that any plan needs to deliver the pallets idx (indices into
// Request.Pallets): the larger of loadplan.FleetLowerBound against the
// whole fleet and floorCountBound.
func (m *model) trailerBound(idx []int) int {
	ps := make([]loadplan.Pallet, len(idx))
	for j, pi := range idx {
		ps[j] = layoutPallet(m.req.Pallets[pi], 0)
	}
	return max(loadplan.FleetLowerBound(m.loadFleet(), ps), floorCountBound(m.req, idx))
}

// layoutPallet is the loadplan view of a pallet delivered at stop index stop.
func layoutPallet(p Pallet, stop int) loadplan.Pallet {
	l, w := p.Footprint.Dims()
	return loadplan.Pallet{ID: p.ID, Store: p.Store, Stop: stop, LengthMM: l, WidthMM: w, HeightMM: p.HeightMM,
		WeightKg: p.WeightKg, VolumeM3: p.volume(), Temperature: p.Temperature,
		MayBeStacked: p.MayBeStacked, MayCarry: p.MayCarry}
}

// routeCost prices a route.
func routeCost(t TrailerType, distanceM float64, duration time.Duration) float64 {
	return t.Costs.Fixed + t.Costs.PerKm*distanceM/1000 + t.Costs.PerHour*duration.Hours()
}
