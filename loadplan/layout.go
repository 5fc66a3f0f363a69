package loadplan

import (
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

// PlanTrailer lays out pallets on one trailer for a trip of the given number
// of stops (each pallet's Stop lies in [0, stops)). It returns a layout that
// Check accepts, or a constraints.Violations naming every reason it could
// not find one. The layout is deterministic: the same input gives the same
// layout.
//
// The current method is greedy: one zone per temperature class present,
// colder towards the nose; inside a zone, pallets in reverse stop order,
// paired into rows in the orientation that makes the row shortest; the rows
// packed against the nose, or slid towards the door by part of the free
// floor when that is what keeps the axle loads legal.
func PlanTrailer(tr Trailer, pallets []Pallet, stops int) (*Layout, error) {
	if vs := checkInputs(tr, pallets, stops); len(vs) > 0 {
		return nil, vs
	}
	var vs constraints.Violations
	var total constraints.Load
	present := map[constraints.Temperature]bool{}
	var classes []constraints.Temperature
	for i, p := range pallets {
		path := constraints.Index("pallets", i)
		if !tr.Equipment.Carries(p.Temperature) {
			vs.Add(CodeTemperature, path, "%s pallet %q cannot ride on a %s", p.Temperature, p.ID, tr.Equipment.Kind)
		}
		if p.HeightMM > tr.HeightMM {
			vs.Add(CodeTooTall, path, "pallet %q is %d mm tall, the trailer %d mm inside", p.ID, p.HeightMM, tr.HeightMM)
		}
		if p.WidthMM > tr.WidthMM {
			vs.Add(CodeTooWide, path, "pallet %q (%d × %d mm) fits the %d mm floor in no orientation", p.ID, p.LengthMM, p.WidthMM, tr.WidthMM)
		}
		total = total.Add(constraints.Load{WeightKg: p.WeightKg, VolumeM3: p.VolumeM3})
		if !present[p.Temperature] {
			present[p.Temperature] = true
			classes = append(classes, p.Temperature)
		}
	}
	if len(classes) > tr.Equipment.Zones() {
		vs.Add(CodeTooManyZones, "pallets", "%d temperature classes, but a %s holds %d", len(classes), tr.Equipment.Kind, tr.Equipment.Zones())
	}
	if total.WeightKg > tr.PayloadKg*(1+1e-9) {
		vs.Add(CodePayload, "pallets", "%.1f kg of pallets, payload %.1f kg", total.WeightKg, tr.PayloadKg)
	}
	if total.VolumeM3 > tr.Volume()*(1+1e-9) {
		vs.Add(CodeVolume, "pallets", "%.2f m³ of pallets, trailer holds %.2f m³", total.VolumeM3, tr.Volume())
	}
	if len(vs) > 0 {
		return nil, vs
	}

	// Colder zones towards the nose.
	sort.Slice(classes, func(i, j int) bool { return classes[i] > classes[j] })
	lay := &Layout{}
	type rowInfo struct{ depth int }
	var rows []rowInfo
	placedIdx := make([]int, 0, len(pallets)) // pallet index of each placement
	positions := 0
	for zi, class := range classes {
		var idx []int
		for i, p := range pallets {
			if p.Temperature == class {
				idx = append(idx, i)
			}
		}
		// Last stop first; ties by input order keep the layout stable.
		sort.SliceStable(idx, func(a, b int) bool { return pallets[idx[a]].Stop > pallets[idx[b]].Stop })
		first := len(rows)
		for k := 0; k < len(idx); {
			p := pallets[idx[k]]
			if k+1 < len(idx) {
				q := pallets[idx[k+1]]
				if tp, tq, depth, ok := pairRow(p, q, tr.WidthMM); ok {
					r := len(rows)
					rows = append(rows, rowInfo{depth})
					lay.Placements = append(lay.Placements,
						Placement{Pallet: p.ID, Row: r, Side: Left, Turned: tp, Zone: zi},
						Placement{Pallet: q.ID, Row: r, Side: Right, Turned: tq, Zone: zi})
					placedIdx = append(placedIdx, idx[k], idx[k+1])
					positions += 2
					k += 2
					continue
				}
			}
			turned, depth, side := singleRow(p, tr.WidthMM)
			r := len(rows)
			rows = append(rows, rowInfo{depth})
			lay.Placements = append(lay.Placements, Placement{Pallet: p.ID, Row: r, Side: side, Turned: turned, Zone: zi})
			placedIdx = append(placedIdx, idx[k])
			positions += side.Positions()
			k++
		}
		lay.Zones = append(lay.Zones, Zone{Temperature: class, FirstRow: first, LastRow: len(rows) - 1})
	}
	used := 0
	rowX := make([]int, len(rows))
	for r, ri := range rows {
		rowX[r] = used
		used += ri.depth
	}
	if tr.Positions > 0 && positions > tr.Positions {
		vs.Add(CodePositions, "pallets", "%d floor positions needed, the trailer allows %d", positions, tr.Positions)
	}
	if used > tr.LengthMM {
		vs.Add(CodeFloorLength, "pallets", "%d rows need %d mm of floor, the trailer has %d mm", len(rows), used, tr.LengthMM)
	}
	if len(vs) > 0 {
		return nil, vs
	}

	// Slide the block of rows towards the door if the nose position
	// overloads the kingpin; try a few offsets and keep the first legal one.
	slack := tr.LengthMM - used
	var axleVs constraints.Violations
	for _, frac := range []int{0, 1, 2, 3, 4} {
		off := slack * frac / 4
		for i := range lay.Placements {
			lay.Placements[i].XMM = off + rowX[lay.Placements[i].Row]
		}
		lay.Axles, axleVs = axleLoads(tr, pallets, placedIdx, lay.Placements, stops)
		if len(axleVs) == 0 {
			break
		}
	}
	if len(axleVs) > 0 {
		return nil, axleVs
	}
	lay.Rows = len(rows)
	lay.LengthMM = used
	lay.Load = constraints.Load{Positions: positions, WeightKg: total.WeightKg, VolumeM3: total.VolumeM3}
	lay.PositionsUsed, lay.WeightUsed, lay.VolumeUsed = lay.Load.Utilisation(constraints.Load{Positions: tr.Positions, WeightKg: tr.PayloadKg, VolumeM3: tr.Volume()})
	if tr.Positions == 0 {
		lay.PositionsUsed = 0
	}
	return lay, nil
}

// along and across give a pallet's extent along and across the trailer.
func along(p Pallet, turned bool) int {
	if turned {
		return p.WidthMM
	}
	return p.LengthMM
}

func across(p Pallet, turned bool) int {
	if turned {
		return p.LengthMM
	}
	return p.WidthMM
}

// pairRow finds the orientations that let p and q share a row with the
// shortest depth.
func pairRow(p, q Pallet, width int) (tp, tq bool, depth int, ok bool) {
	best := -1
	for _, a := range []bool{true, false} {
		for _, b := range []bool{true, false} {
			if across(p, a)+across(q, b) > width {
				continue
			}
			d := max(along(p, a), along(q, b))
			if best < 0 || d < best {
				best, tp, tq = d, a, b
			}
		}
	}
	return tp, tq, best, best >= 0
}

// singleRow places p alone in a row: on the left if it leaves at most half
// the width to it, in the centre otherwise, in the orientation that makes
// the row shortest.
func singleRow(p Pallet, width int) (turned bool, depth int, side Side) {
	turned = p.LengthMM <= width // turned is shorter along the floor
	depth = along(p, turned)
	if 2*across(p, turned) <= width {
		return turned, depth, Left
	}
	return turned, depth, Center
}

// axleLoads computes the loads at departure and after every stop, and the
// violations of the trailer's limits among them.
func axleLoads(tr Trailer, pallets []Pallet, placedIdx []int, pl []Placement, stops int) ([]AxleLoad, constraints.Violations) {
	var vs constraints.Violations
	out := make([]AxleLoad, 0, stops+1)
	loads := make([]constraints.PointLoad, 0, len(pl))
	for after := -1; after < stops; after++ {
		loads = loads[:0]
		for k, i := range placedIdx {
			p := pallets[i]
			if p.Stop > after {
				loads = append(loads, constraints.PointLoad{XMM: float64(pl[k].XMM) + float64(along(p, pl[k].Turned))/2, Kg: p.WeightKg})
			}
		}
		kp, ax := tr.Axles.Loads(loads)
		out = append(out, AxleLoad{AfterStop: after, KingpinKg: kp, AxleGroupKg: ax})
		vs = append(vs, axleLimitViolations(tr.Axles, after, kp, ax)...)
	}
	return out, vs
}

func axleLimitViolations(g constraints.AxleGeometry, after int, kp, ax float64) constraints.Violations {
	var vs constraints.Violations
	when := "at departure"
	if after >= 0 {
		when = "after stop " + itoa(after)
	}
	const tol = 1e-6
	if kp > g.KingpinLimitKg+tol {
		vs.Add(CodeKingpin, "axles", "kingpin carries %.0f kg %s, limit %.0f kg", kp, when, g.KingpinLimitKg)
	}
	if kp < -tol {
		vs.Add(CodeKingpin, "axles", "kingpin load %.0f kg %s: the load lifts the trailer's nose", kp, when)
	}
	if ax > g.AxleGroupLimitKg+tol {
		vs.Add(CodeAxleGroup, "axles", "axle group carries %.0f kg %s, limit %.0f kg", ax, when, g.AxleGroupLimitKg)
	}
	return vs
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// checkInputs rejects numbers that cannot describe a trailer or a pallet,
// so the geometry below never divides by zero or loops on garbage.
func checkInputs(tr Trailer, pallets []Pallet, stops int) constraints.Violations {
	var vs constraints.Violations
	if tr.LengthMM <= 0 || tr.WidthMM <= 0 || tr.HeightMM <= 0 {
		vs.Add(CodeInvalid, "trailer", "inside dimensions must be positive, got %d × %d × %d mm", tr.LengthMM, tr.WidthMM, tr.HeightMM)
	}
	if tr.Positions < 0 {
		vs.Add(CodeInvalid, "trailer.positions", "must not be negative")
	}
	if !(tr.PayloadKg >= 0) {
		vs.Add(CodeInvalid, "trailer.payloadKg", "must not be negative")
	}
	if !tr.Equipment.Kind.Valid() {
		vs.Add(CodeInvalid, "trailer.equipment", "unknown equipment kind")
	}
	vs = append(vs, tr.Axles.CheckInput("trailer.axles", float64(tr.LengthMM))...)
	if stops < 0 {
		vs.Add(CodeInvalid, "stops", "must not be negative")
	}
	seen := map[string]bool{}
	for i, p := range pallets {
		path := constraints.Index("pallets", i)
		if p.LengthMM <= 0 || p.WidthMM <= 0 || p.HeightMM <= 0 || p.WidthMM > p.LengthMM {
			vs.Add(CodeInvalid, path, "footprint must be positive with length >= width, got %d × %d × %d mm", p.LengthMM, p.WidthMM, p.HeightMM)
		}
		if !(p.WeightKg >= 0) || p.WeightKg > 1e9 || !(p.VolumeM3 >= 0) || p.VolumeM3 > 1e9 {
			vs.Add(CodeInvalid, path, "weight and volume must be finite and not negative")
		}
		if p.Stop < 0 || p.Stop >= stops {
			vs.Add(CodeInvalid, constraints.Field(path, "stop"), "stop %d outside [0, %d)", p.Stop, stops)
		}
		if !p.Temperature.Valid() {
			vs.Add(CodeInvalid, constraints.Field(path, "temperature"), "unknown temperature class")
		}
		if seen[p.ID] {
			vs.Add(CodeDuplicate, constraints.Field(path, "id"), "pallet %q listed twice", p.ID)
		}
		seen[p.ID] = true
	}
	return vs
}
