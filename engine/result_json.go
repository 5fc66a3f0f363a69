package engine

import (
	"encoding/json"

	"github.com/haulplan/haulplan/internal/jsonwire"
)

// The plan's JSON form, read by DecodePlan; see request_json.go.

var resultObject = &object[Result]{What: "a plan", Members: []member[Result]{
	{Name: "routes", Read: func(d dec, r *Result) { arrayOf(routeObject, "an array of routes")(d, &r.Routes) }},
	{Name: "unassigned", Read: func(d dec, r *Result) { arrayOf(unassignedObject, "an array of unassigned pallets")(d, &r.Unassigned) }},
	{Name: "metrics", Read: func(d dec, r *Result) { metricsObject.Read(d, d, &r.Metrics) }},
	{Name: "changes", Read: func(d dec, r *Result) { optional(planChangesObject)(d, &r.Changes) }},
}}

var routeObject = &object[Route]{What: "a route", Members: []member[Route]{
	{Name: "id", Read: func(d dec, r *Route) { d.ReadString(&r.ID) }},
	{Name: "trailer", Read: func(d dec, r *Route) { d.ReadString(&r.Trailer) }},
	{Name: "shift", Read: func(d dec, r *Route) { d.ReadString(&r.Shift) }},
	{Name: "trip", Read: func(d dec, r *Route) { d.ReadInt(&r.Trip, "a trip number (1, 2, …)") }},
	{Name: "trailerUnit", Read: func(d dec, r *Route) { d.ReadString(&r.TrailerUnit) }},
	{Name: "dockDoor", Read: func(d dec, r *Route) { d.ReadInt(&r.DockDoor, "a dock door number (1, 2, …)") }},
	{Name: "loadingStart", Read: func(d dec, r *Route) { d.ReadTime(&r.LoadingStart) }},
	{Name: "loadingEnd", Read: func(d dec, r *Route) { d.ReadTime(&r.LoadingEnd) }},
	{Name: "start", Read: func(d dec, r *Route) { d.ReadTime(&r.Start) }},
	{Name: "depart", Read: func(d dec, r *Route) { d.ReadTime(&r.Depart) }},
	{Name: "return", Read: func(d dec, r *Route) { d.ReadTime(&r.Return) }},
	{Name: "stops", Read: func(d dec, r *Route) { arrayOf(stopObject, "an array of stops")(d, &r.Stops) }},
	{Name: "load", Read: func(d dec, r *Route) { loadPlanObject.Read(d, d, &r.Load) }},
	{Name: "metrics", Read: func(d dec, r *Route) { routeMetricsObject.Read(d, d, &r.Metrics) }},
	{Name: "locked", Read: func(d dec, r *Route) { d.ReadBool(&r.Locked) }},
}}

var stopObject = &object[Stop]{What: "a stop", Members: []member[Stop]{
	{Name: "store", Read: func(d dec, s *Stop) { d.ReadString(&s.Store) }},
	{Name: "arrival", Read: func(d dec, s *Stop) { d.ReadTime(&s.Arrival) }},
	{Name: "start", Read: func(d dec, s *Stop) { d.ReadTime(&s.Start) }},
	{Name: "departure", Read: func(d dec, s *Stop) { d.ReadTime(&s.Departure) }},
	{Name: "wait", Read: func(d dec, s *Stop) { d.ReadDuration(&s.Wait) }},
	{Name: "pallets", Read: func(d dec, s *Stop) { stringsArray(d, &s.Pallets, "an array of pallet ids") }},
	{Name: "break", Read: func(d dec, s *Stop) { optional(breakObject)(d, &s.Break) }},
}}

var breakObject = &object[Break]{What: "a break", Members: []member[Break]{
	{Name: "start", Read: func(d dec, b *Break) { d.ReadTime(&b.Start) }},
	{Name: "duration", Read: func(d dec, b *Break) { d.ReadDuration(&b.Duration) }},
	{Name: "wait", Read: func(d dec, b *Break) { d.ReadDuration(&b.Wait) }},
	{Name: "unloading", Read: func(d dec, b *Break) { d.ReadDuration(&b.Unloading) }},
	{Name: "rest", Read: func(d dec, b *Break) { d.ReadDuration(&b.Rest) }},
}}

var loadPlanObject = &object[LoadPlan]{What: "a load plan", Members: []member[LoadPlan]{
	{Name: "zones", Read: func(d dec, l *LoadPlan) { arrayOf(zoneObject, "an array of zones")(d, &l.Zones) }},
	{Name: "placements", Read: func(d dec, l *LoadPlan) { arrayOf(placementObject, "an array of placements")(d, &l.Placements) }},
	{Name: "axles", Read: func(d dec, l *LoadPlan) { arrayOf(axleLoadObject, "an array of axle loads")(d, &l.Axles) }},
}}

var zoneObject = &object[Zone]{What: "a zone", Members: []member[Zone]{
	{Name: "temperature", Read: func(d dec, z *Zone) { jsonwire.ReadEnum(d, &z.Temperature, temperatureNames) }},
	{Name: "firstRow", Read: func(d dec, z *Zone) { d.ReadInt(&z.FirstRow, "a row number") }},
	{Name: "lastRow", Read: func(d dec, z *Zone) { d.ReadInt(&z.LastRow, "a row number") }},
	{Name: "fromMM", Read: func(d dec, z *Zone) { d.ReadInt(&z.FromMM, wantMM) }},
	{Name: "toMM", Read: func(d dec, z *Zone) { d.ReadInt(&z.ToMM, wantMM) }},
}}

var placementObject = &object[Placement]{What: "a placement", Members: []member[Placement]{
	{Name: "pallet", Read: func(d dec, p *Placement) { d.ReadString(&p.Pallet) }},
	{Name: "row", Read: func(d dec, p *Placement) { d.ReadInt(&p.Row, "a row number") }},
	{Name: "side", Read: func(d dec, p *Placement) { d.ReadString(&p.Side) }},
	{Name: "turned", Read: func(d dec, p *Placement) { d.ReadBool(&p.Turned) }},
	{Name: "zone", Read: func(d dec, p *Placement) { d.ReadInt(&p.Zone, "a zone index") }},
	{Name: "xMM", Read: func(d dec, p *Placement) { d.ReadInt(&p.XMM, wantMM) }},
	{Name: "level", Read: func(d dec, p *Placement) { d.ReadInt(&p.Level, "a level (0 on the floor, 1 stacked)") }},
	{Name: "slot", Read: func(d dec, p *Placement) { d.ReadInt(&p.Slot, "a slot (0 at the wall, 1 beside it)") }},
}}

var axleLoadObject = &object[AxleLoad]{What: "an axle load", Members: []member[AxleLoad]{
	{Name: "afterStop", Read: func(d dec, a *AxleLoad) { d.ReadInt(&a.AfterStop, "a stop index") }},
	{Name: "kingpinKg", Read: func(d dec, a *AxleLoad) { d.ReadFloat(&a.KingpinKg, wantKg) }},
	{Name: "axleGroupKg", Read: func(d dec, a *AxleLoad) { d.ReadFloat(&a.AxleGroupKg, wantKg) }},
}}

var unassignedObject = &object[Unassigned]{What: "an unassigned pallet", Members: []member[Unassigned]{
	{Name: "pallet", Read: func(d dec, u *Unassigned) { d.ReadString(&u.Pallet) }},
	{Name: "store", Read: func(d dec, u *Unassigned) { d.ReadString(&u.Store) }},
	{Name: "reason", Read: func(d dec, u *Unassigned) { d.ReadString(&u.Reason) }},
	{Name: "message", Read: func(d dec, u *Unassigned) { d.ReadString(&u.Message) }},
}}

var routeMetricsObject = &object[RouteMetrics]{What: "route metrics", Members: []member[RouteMetrics]{
	{Name: "stops", Read: func(d dec, m *RouteMetrics) { d.ReadInt(&m.Stops, wantCount) }},
	{Name: "pallets", Read: func(d dec, m *RouteMetrics) { d.ReadInt(&m.Pallets, wantCount) }},
	{Name: "distanceM", Read: func(d dec, m *RouteMetrics) { d.ReadFloat(&m.DistanceM, "a number of metres") }},
	{Name: "duration", Read: func(d dec, m *RouteMetrics) { d.ReadDuration(&m.Duration) }},
	{Name: "driving", Read: func(d dec, m *RouteMetrics) { d.ReadDuration(&m.Driving) }},
	{Name: "wait", Read: func(d dec, m *RouteMetrics) { d.ReadDuration(&m.Wait) }},
	{Name: "weightKg", Read: func(d dec, m *RouteMetrics) { d.ReadFloat(&m.WeightKg, wantKg) }},
	{Name: "volumeM3", Read: func(d dec, m *RouteMetrics) { d.ReadFloat(&m.VolumeM3, wantM3) }},
	{Name: "positions", Read: func(d dec, m *RouteMetrics) { d.ReadInt(&m.Positions, "a whole number of pallet positions") }},
	{Name: "cost", Read: func(d dec, m *RouteMetrics) { d.ReadFloat(&m.Cost, wantMoney) }},
	{Name: "positionsUtilisation", Read: func(d dec, m *RouteMetrics) { d.ReadFloat(&m.PosUtil, wantShare) }},
	{Name: "weightUtilisation", Read: func(d dec, m *RouteMetrics) { d.ReadFloat(&m.WeightUtil, wantShare) }},
	{Name: "volumeUtilisation", Read: func(d dec, m *RouteMetrics) { d.ReadFloat(&m.VolumeUtil, wantShare) }},
}}

const wantShare = "a share from 0 to 1"

var metricsObject = &object[Metrics]{What: "plan metrics", Members: []member[Metrics]{
	{Name: "routes", Read: func(d dec, m *Metrics) { d.ReadInt(&m.Routes, wantCount) }},
	{Name: "stops", Read: func(d dec, m *Metrics) { d.ReadInt(&m.Stops, wantCount) }},
	{Name: "pallets", Read: func(d dec, m *Metrics) { d.ReadInt(&m.Pallets, wantCount) }},
	{Name: "unassigned", Read: func(d dec, m *Metrics) { d.ReadInt(&m.Unassigned, wantCount) }},
	{Name: "distanceM", Read: func(d dec, m *Metrics) { d.ReadFloat(&m.DistanceM, "a number of metres") }},
	{Name: "duration", Read: func(d dec, m *Metrics) { d.ReadDuration(&m.Duration) }},
	{Name: "driving", Read: func(d dec, m *Metrics) { d.ReadDuration(&m.Driving) }},
	{Name: "wait", Read: func(d dec, m *Metrics) { d.ReadDuration(&m.Wait) }},
	{Name: "cost", Read: func(d dec, m *Metrics) { d.ReadFloat(&m.Cost, wantMoney) }},
	{Name: "shiftsUsed", Read: func(d dec, m *Metrics) { d.ReadInt(&m.ShiftsUsed, wantCount) }},
	{Name: "trailerUnitsUsed", Read: func(d dec, m *Metrics) { d.ReadInt(&m.TrailerUnitsUsed, wantCount) }},
	{Name: "peakDockDoors", Read: func(d dec, m *Metrics) { d.ReadInt(&m.PeakDockDoors, wantCount) }},
	{Name: "positionsUtilisation", Read: func(d dec, m *Metrics) { d.ReadFloat(&m.PosUtil, wantShare) }},
	{Name: "trailersLowerBound", Read: func(d dec, m *Metrics) { d.ReadInt(&m.TrailersLowerBound, wantCount) }},
	{Name: "shiftsLowerBound", Read: func(d dec, m *Metrics) { d.ReadInt(&m.ShiftsLowerBound, wantCount) }},
	{Name: "trailerUnitsLowerBound", Read: func(d dec, m *Metrics) { d.ReadInt(&m.TrailerUnitsLowerBound, wantCount) }},
}}

// MarshalJSON writes the stop with wait as a duration string.
func (s Stop) MarshalJSON() ([]byte, error) {
	type plain Stop
	return json.Marshal(struct {
		plain
		Wait string `json:"wait"`
	}{plain(s), s.Wait.String()})
}

// MarshalJSON writes the break with its durations as strings.
func (b Break) MarshalJSON() ([]byte, error) {
	type plain Break
	return json.Marshal(struct {
		plain
		Duration  string `json:"duration"`
		Wait      string `json:"wait"`
		Unloading string `json:"unloading"`
		Rest      string `json:"rest"`
	}{plain(b), b.Duration.String(), b.Wait.String(), b.Unloading.String(), b.Rest.String()})
}

// MarshalJSON writes the route metrics with durations as strings.
func (m RouteMetrics) MarshalJSON() ([]byte, error) {
	type plain RouteMetrics
	return json.Marshal(struct {
		plain
		Duration string `json:"duration"`
		Driving  string `json:"driving"`
		Wait     string `json:"wait"`
	}{plain(m), m.Duration.String(), m.Driving.String(), m.Wait.String()})
}

// MarshalJSON writes the plan metrics with durations as strings.
func (m Metrics) MarshalJSON() ([]byte, error) {
	type plain Metrics
	return json.Marshal(struct {
		plain
		Duration string `json:"duration"`
		Driving  string `json:"driving"`
		Wait     string `json:"wait"`
	}{plain(m), m.Duration.String(), m.Driving.String(), m.Wait.String()})
}
