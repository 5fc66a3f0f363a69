package report

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/internal/numtext"
)

// TrailerFloor writes an SVG floor diagram of route routeID's trailer, seen
// from above with the nose on the left and the rear door on the right, the
// curb side at the top: the doors as bars on the walls, the
// temperature zones as coloured stretches of floor with their rows
// (numbered from 1 at the nose), each pallet a rectangle
// where its placement puts it, labelled with the number of the stop that
// unloads it (a pallet stacked on another drawn inside it, dashed, with its
// own number), and under the floor the kingpin and the trailer's axle
// group with their loads at departure against their limits.
func TrailerFloor(w io.Writer, req engine.Request, plan engine.Result, routeID string) error {
	d := newDay(&req, &plan)
	for i := range plan.Routes {
		if plan.Routes[i].ID == routeID {
			s, err := d.floor(&plan.Routes[i])
			if err != nil {
				return err
			}
			_, err = w.Write(s.bytes())
			return err
		}
	}
	return fmt.Errorf("report: no route %q in the plan", routeID)
}

// Temperature colours: the zone's floor and its pallets.
var (
	zoneColour   = [3]string{"#f6efdf", "#dcf1ea", "#dce8fb"}
	palletColour = [3]string{"#e3c794", "#8fd3bf", "#93bcef"}
)

// The floor diagram's layout, in pixels.
const (
	floorWidth  = 900.0 // the inside length
	floorLeft   = 70.0
	floorTop    = 84.0
	floorRight  = 70.0
	axleSection = 150.0
)

// floorBox is a pallet's footprint in millimetres: x from the nose, y from
// the left wall seen from the door.
type floorBox struct{ x0, x1, y0, y1 float64 }

// footprint is where a placement puts its pallet on the trailer's floor,
// by the rules loadplan documents: the length along the trailer (across
// when turned), LEFT against the left wall, RIGHT against the right wall,
// CENTER midway, a half or quarter pallet in slot 1 one of its widths in
// from its wall (so two halves of one position stand side by side).
func footprint(t *engine.TrailerType, p *engine.Pallet, pl engine.Placement) floorBox {
	var fp engine.Footprint
	if p != nil {
		fp = p.Footprint
	}
	length, width := fp.Dims()
	along, across := float64(length), float64(width)
	if pl.Turned {
		along, across = across, along
	}
	w := float64(t.Inside.WidthMM)
	b := floorBox{x0: float64(pl.XMM), x1: float64(pl.XMM) + along, y0: float64(pl.Slot) * across}
	switch pl.Side {
	case "RIGHT":
		b.y0 = w - float64(pl.Slot+1)*across
	case "CENTER":
		b.y0 = (w - across) / 2
	}
	b.y1 = b.y0 + across
	return b
}

func (d *day) floor(r *engine.Route) (*svgDoc, error) {
	t, ok := d.trailer[r.Trailer]
	if !ok || t.Inside.LengthMM <= 0 || t.Inside.WidthMM <= 0 {
		return nil, fmt.Errorf("report: route %s: unknown trailer type %q", r.ID, r.Trailer)
	}
	k := floorWidth / float64(t.Inside.LengthMM) // pixels per mm
	floorH := float64(t.Inside.WidthMM) * k
	// x(mm) and y(mm) to pixels; the left wall (seen from the door) is at
	// the bottom of the picture, since the door is on the right.
	px := func(x float64) float64 { return floorLeft + x*k }
	py := func(y float64) float64 { return floorTop + floorH - y*k }

	height := floorTop + floorH + axleSection
	s := newSVG(floorLeft+floorWidth+floorRight, height, r.ID+" floor")
	d.floorTitle(s, r, t)
	floorZones(s, r, px, floorH)
	s.rect(floorLeft, floorTop, floorWidth, floorH, attrs{"class", "floor", "fill", "none", "stroke", "#222222", "stroke-width", "2",
		"data-length-mm", fmt.Sprint(t.Inside.LengthMM), "data-width-mm", fmt.Sprint(t.Inside.WidthMM)})
	d.floorPallets(s, r, t, k, px, py)
	floorDoors(s, t, px, floorH)
	floorEnds(s, t, floorH)
	d.axles(s, r, t, px, floorTop+floorH+22)
	return s, nil
}

// floorTitle writes the route, trailer, shift and departure, and the
// pallets by class against the floor positions and payload.
func (d *day) floorTitle(s *svgDoc, r *engine.Route, t *engine.TrailerType) {
	c := d.routeClasses(r)
	var mix []string
	for i := 2; i >= 0; i-- {
		if c[i] > 0 {
			mix = append(mix, fmt.Sprintf("%d %s", c[i], lower(classNames[i])))
		}
	}
	s.text(floorLeft, 24, fmt.Sprintf("%s · %s (%s) · shift %s · departs %s", r.ID, d.trailerName(r.Trailer), r.Trailer, r.Shift, d.clock(r.Depart)),
		attrs{"font-size", "16", "font-weight", "bold"})
	s.text(floorLeft, 44, fmt.Sprintf("%s (%s) on %d of %s, %s kg of %s kg; numbers are stops, unloaded in order 1, 2, …",
		plural(r.Metrics.Pallets, "pallet"), join(mix), r.Metrics.Positions, plural(t.PalletPositions, "position"), numtext.Whole(r.Metrics.WeightKg), numtext.Whole(t.PayloadKg)),
		attrs{"fill", "#444444"})
}

// floorZones draws the zones across the floor, with their class and rows
// above it.
func floorZones(s *svgDoc, r *engine.Route, px func(float64) float64, floorH float64) {
	labels := zoneLabels(r.Load.Zones, px)
	for i, z := range r.Load.Zones {
		ci := int(z.Temperature)
		if !z.Temperature.Valid() {
			ci = 0
		}
		x0, x1 := px(float64(z.FromMM)), px(float64(z.ToMM))
		s.rectTip(x0, floorTop, x1-x0, floorH, attrs{"class", "zone", "fill", zoneColour[ci]},
			fmt.Sprintf("%s zone, %s, %d–%d mm from the nose", z.Temperature, rowsText(z), z.FromMM, z.ToMM))
		l := labels[i]
		s.line(x0, l.y-9, x0, floorTop, attrs{"stroke", "#666666"})
		s.text(x0+4, l.y, l.text, attrs{"font-size", "11", "fill", "#333333"})
	}
}

// floorPallets draws the pallets, numbered by stop: the floor level first,
// stacked pallets on top of them.
func (d *day) floorPallets(s *svgDoc, r *engine.Route, t *engine.TrailerType, k float64, px, py func(float64) float64) {
	stop := stopOf(r)
	pls := append([]engine.Placement(nil), r.Load.Placements...)
	sort.SliceStable(pls, func(i, j int) bool { return pls[i].Level < pls[j].Level })
	carrying := d.carrying(t, pls)
	s.group(attrs{"class", "pallets", "stroke", "#4a4a4a"})
	for _, pl := range pls {
		p := d.pallet[pl.Pallet]
		b := footprint(t, p, pl)
		ci := 0
		if p != nil && p.Temperature.Valid() {
			ci = int(p.Temperature)
		}
		label := "?"
		if n, ok := stop[pl.Pallet]; ok {
			label = fmt.Sprint(n + 1)
		}
		x, y, w, h := px(b.x0), py(b.y1), (b.x1-b.x0)*k, (b.y1-b.y0)*k
		a := attrs{"class", "pallet", "data-pallet", pl.Pallet, "data-stop", label, "data-level", fmt.Sprint(pl.Level), "data-slot", fmt.Sprint(pl.Slot), "fill", palletColour[ci]}
		tip := fmt.Sprintf("%s · stop %s · row %d %s%s · %s", pl.Pallet, label, pl.Row+1, pl.Side, slotText(pl.Slot), levelName(pl.Level))
		if p != nil {
			tip += fmt.Sprintf(" · %.0f kg · %s", p.WeightKg, p.Temperature)
		}
		if pl.Level > 0 {
			// A stacked pallet: dashed, in the right part of the one it
			// stands on, whose own number keeps the left part.
			in := min(w, h) * 0.14
			sx, sw := x+w*0.4, w*0.6-in
			s.rectTip(sx, y+in, sw, h-2*in, append(a, "stroke-dasharray", "4 2", "stroke-width", "1.5"), tip)
			s.text(sx+sw/2, y+h/2+5, label, attrs{"class", "stop-label", "text-anchor", "middle", "font-size", "12", "font-weight", "bold", "stroke", "none"})
			continue
		}
		s.rectTip(x+0.5, y+0.5, w-1, h-1, append(a, "rx", "2"), tip)
		lx, size := x+w/2, "13"
		if carrying[b] {
			lx, size = x+w*0.2, "12"
		}
		s.text(lx, y+h/2+5, label, attrs{"class", "stop-label", "text-anchor", "middle", "font-size", size, "font-weight", "bold", "stroke", "none"})
	}
	s.end()
}

// carrying returns the footprints of the floor pallets that carry a
// stacked one.
func (d *day) carrying(t *engine.TrailerType, pls []engine.Placement) map[floorBox]bool {
	carrying := map[floorBox]bool{}
	for _, pl := range pls {
		if pl.Level > 0 {
			for _, q := range pls {
				if q.Level == 0 {
					b := footprint(t, d.pallet[q.Pallet], q)
					if b.contains(footprint(t, d.pallet[pl.Pallet], pl)) {
						carrying[b] = true
					}
				}
			}
		}
	}
	return carrying
}

// floorEnds labels the nose (and the reefer unit there), the door and the
// walls.
func floorEnds(s *svgDoc, t *engine.TrailerType, floorH float64) {
	s.text(floorLeft-8, floorTop+floorH/2+4, "nose", attrs{"text-anchor", "end", "font-weight", "bold"})
	if t.Equipment.Kind != constraints.DryVan {
		s.text(floorLeft-8, floorTop+floorH/2+18, "reefer unit", attrs{"text-anchor", "end", "font-size", "10", "fill", "#555555"})
	}
	s.text(floorLeft+floorWidth+10, floorTop+floorH/2+4, "rear", attrs{"font-weight", "bold"})
	s.text(floorLeft+floorWidth+10, floorTop+floorH/2+18, "door", attrs{"font-weight", "bold"})
	s.text(floorLeft+floorWidth, floorTop-5, "curb side (right wall)", attrs{"text-anchor", "end", "font-size", "10", "fill", "#777777"})
	s.text(floorLeft+floorWidth, floorTop+floorH+13, "road side (left wall, seen from the rear door)", attrs{"text-anchor", "end", "font-size", "10", "fill", "#777777"})
}

// doorColour marks the doors on the walls.
const doorColour = "#d84315"

// floorDoors draws the trailer type's doors as thick bars on the walls:
// the rear door across the right end, a CURB door on the curb side (the
// right wall, at the top of the picture), a ROAD door on the road side
// (the left wall, at the bottom), each over its opening, with its side
// and stretch in the tooltip. A type that lists no doors has the rear door
// alone.
func floorDoors(s *svgDoc, t *engine.TrailerType, px func(float64) float64, floorH float64) {
	doors := t.Doors
	if len(doors) == 0 {
		doors = constraints.RearOnly
	}
	s.group(attrs{"class", "doors", "fill", doorColour})
	for _, d := range doors {
		a := attrs{"class", "door", "data-side", d.Side.String(), "data-from-mm", fmt.Sprint(d.FromMM), "data-to-mm", fmt.Sprint(d.ToMM)}
		x0, x1 := px(float64(d.FromMM)), px(float64(d.ToMM))
		switch d.Side {
		case constraints.RearDoor:
			s.rectTip(floorLeft+floorWidth-1, floorTop, 6, floorH, a, "rear door: the whole width")
		case constraints.CurbDoor:
			// On the wall line, under the zone labels above it.
			s.rectTip(x0, floorTop-3, x1-x0, 6, a, fmt.Sprintf("curbside door, %d–%d mm from the nose", d.FromMM, d.ToMM))
		case constraints.RoadDoor:
			s.rectTip(x0, floorTop+floorH-3, x1-x0, 6, a, fmt.Sprintf("roadside door, %d–%d mm from the nose", d.FromMM, d.ToMM))
		}
	}
	s.end()
}

func (b floorBox) contains(o floorBox) bool {
	return o.x0 >= b.x0 && o.x1 <= b.x1 && o.y0 >= b.y0 && o.y1 <= b.y1
}

// axles draws the kingpin and the axle group at their positions along the
// floor, with their loads at departure against their limits.
func (d *day) axles(s *svgDoc, r *engine.Route, t *engine.TrailerType, px func(float64) float64, y float64) {
	g := t.Axles
	a, ok := departureAxles(r)
	s.group(attrs{"class", "axles"})
	chassis := y + 18
	s.line(px(0), chassis, px(float64(t.Inside.LengthMM)), chassis, attrs{"stroke", "#555555", "stroke-width", "3"})
	kx, ax := px(g.KingpinMM), px(g.AxleGroupMM)
	s.polygon([][2]float64{{kx - 7, chassis}, {kx + 7, chassis}, {kx, chassis + 12}}, attrs{"class", "kingpin", "data-x", num(kx), "fill", "#333333"})
	s.group(attrs{"class", "axle-group", "data-x", num(ax)})
	for _, dx := range []float64{-10, 10} {
		s.circle(ax+dx, chassis+10, 8, attrs{"fill", "#333333"}, "")
	}
	s.end()
	if !ok {
		s.text(px(0), chassis+40, "no axle loads in the plan", attrs{"fill", "#aa0000"})
		s.end()
		return
	}
	gauge := func(x float64, anchorRight bool, name string, kg, limit float64) {
		frac := 0.0
		if limit > 0 {
			frac = kg / limit
		}
		label := fmt.Sprintf("%s at departure: %s kg of %s kg (%.0f%%)", name, numtext.Whole(kg), numtext.Whole(limit), 100*frac)
		bw := 180.0
		x0 := x - 20
		if anchorRight {
			x0 = x + 20 - bw
		}
		x0 = max(px(0), min(x0, px(float64(t.Inside.LengthMM))-bw))
		colour := "#4c9a4c"
		if frac > 1 {
			colour = "#c62828"
		} else if frac > 0.9 {
			colour = "#e09b00"
		}
		s.rect(x0, chassis+30, bw, 10, attrs{"fill", "#eeeeee", "stroke", "#999999"})
		s.rect(x0, chassis+30, bw*min(frac, 1), 10, attrs{"class", "gauge", "fill", colour})
		s.text(x0, chassis+56, label, attrs{"font-size", "11"})
	}
	gauge(kx, false, "kingpin", a.KingpinKg, g.KingpinLimitKg)
	gauge(ax, true, "axle group", a.AxleGroupKg, g.AxleGroupLimitKg)
	s.end()
	// The legend of temperatures and marks.
	ly := chassis + 86
	x := px(0)
	for i := 2; i >= 0; i-- {
		s.rect(x, ly-10, 14, 12, attrs{"fill", palletColour[i], "stroke", "#4a4a4a"})
		s.text(x+20, ly, lower(classNames[i]), attrs{"font-size", "11"})
		x += 90
	}
	s.rect(x, ly-11, 24, 14, attrs{"fill", palletColour[0], "stroke", "#4a4a4a"})
	s.rect(x+10, ly-9, 12, 10, attrs{"fill", palletColour[0], "stroke", "#4a4a4a", "stroke-dasharray", "3 2"})
	s.text(x+28, ly, "pallet stacked on another", attrs{"font-size", "11"})
	x += 200
	s.rect(x, ly-7, 24, 6, attrs{"fill", doorColour})
	s.text(x+30, ly, "door (curb side at the top)", attrs{"font-size", "11"})
}

// zoneLabel is where a zone's label stands above the floor.
type zoneLabel struct {
	text string
	y    float64 // baseline
}

// labelCharWidth is a generous width of one character of the 11 px label
// font, for deciding whether a label fits before the next one.
const labelCharWidth = 6.5

// rowsText is "row 3" or "rows 3–7", rows numbered from 1 at the nose.
func rowsText(z engine.Zone) string {
	if z.FirstRow == z.LastRow {
		return fmt.Sprintf("row %d", z.FirstRow+1)
	}
	return fmt.Sprintf("rows %d–%d", z.FirstRow+1, z.LastRow+1)
}

// zoneLabels places each zone's label ("CHILLED · rows 1–6") on the line
// just above the floor when it fits before the next zone's label starts,
// else on the line above that, so that a narrow zone (a one-row frozen
// compartment at the nose) never writes over its neighbour's label.
func zoneLabels(zones []engine.Zone, px func(float64) float64) []zoneLabel {
	out := make([]zoneLabel, len(zones))
	lineEnd := []float64{math.Inf(-1), math.Inf(-1)} // right end of the last label on each line
	for i, z := range zones {
		text := fmt.Sprintf("%s · %s", z.Temperature, rowsText(z))
		x := px(float64(z.FromMM)) + 4
		end := x + labelCharWidth*float64(len([]rune(text)))
		next := math.Inf(1)
		if i+1 < len(zones) {
			next = px(float64(zones[i+1].FromMM)) + 4
		}
		line := 0
		if end > next-6 || x < lineEnd[0]+6 {
			line = 1
		}
		if line == 1 && x < lineEnd[1]+6 {
			line = 0 // both lines taken: the lower one, as before
		}
		lineEnd[line] = end
		out[i] = zoneLabel{text: text, y: floorTop - 5 - 14*float64(line)}
	}
	return out
}

// slotText names the slot of a pallet sharing its position, for people:
// nothing against the wall, "inner slot" beside it.
func slotText(slot int) string {
	if slot == 1 {
		return ", inner slot"
	}
	return ""
}
