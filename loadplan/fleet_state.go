package loadplan

import (
	"context"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"sort"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// fleetPacker holds PackFleet's input in the form its phases share, and the
// memory of layouts already computed.
type fleetPacker struct {
	ctx          context.Context
	end          limit // of the whole call
	fleet        []FleetTrailer
	pallets      []Pallet
	storeRank    map[string]int
	rank         []int    // store rank of each pallet
	allowed      [][]bool // allowed[i][k]: pallet i alone lays out on type k
	bySize       []int    // types, largest first
	byPreference []int    // types, most preferred first
	memo         map[string]*Layout
	key          []byte
	calls        int // PlanTrailer calls, for tests and tuning
}

// memoLimit caps the layouts remembered (a few kB each); past it the
// memory starts afresh, which costs time only.
const memoLimit = 1 << 12

func newFleetPacker(ctx context.Context, fleet []FleetTrailer, pallets []Pallet, deadline time.Time) *fleetPacker {
	f := &fleetPacker{ctx: ctx, end: limit{at: deadline, layouts: math.MaxInt}, fleet: fleet, pallets: pallets, storeRank: map[string]int{},
		rank: make([]int, len(pallets)), allowed: make([][]bool, len(pallets)), memo: map[string]*Layout{}}
	for i, p := range pallets {
		r, ok := f.storeRank[p.Store]
		if !ok {
			r = len(f.storeRank)
			f.storeRank[p.Store] = r
		}
		f.rank[i] = r
	}
	for k := range fleet {
		f.bySize = append(f.bySize, k)
	}
	sort.SliceStable(f.bySize, func(a, b int) bool { return f.larger(f.bySize[a], f.bySize[b]) })
	f.byPreference = append([]int(nil), f.bySize...)
	sort.SliceStable(f.byPreference, func(a, b int) bool { return f.preferred(f.byPreference[a], f.byPreference[b]) })
	return f
}

// limit is where a phase of the search stops: at a time, or once the
// count of layouts made (fleetPacker.calls) reaches layouts. Without a
// layout budget (FleetOptions.MaxLayouts) layouts is math.MaxInt and the
// phases share the time; with one, they share the layouts, and the time
// is only the call's hard limit, so that the work each phase gets does
// not depend on the machine's speed.
type limit struct {
	at      time.Time
	layouts int
}

// stopped reports whether ctx or the limit l ends the search.
func (f *fleetPacker) stopped(l limit) bool {
	return f.ctx.Err() != nil || f.calls >= l.layouts || time.Now().After(l.at)
}

// share returns the limit of a phase that may take num/den of what is
// left before l.
func (f *fleetPacker) share(l limit, num, den int) limit {
	if l.layouts == math.MaxInt {
		return limit{at: time.Now().Add(time.Until(l.at) * time.Duration(num) / time.Duration(den)), layouts: l.layouts}
	}
	return limit{at: l.at, layouts: f.calls + max(0, l.layouts-f.calls)*num/den}
}

// screen records which types can carry each pallet alone and puts the
// pallets no free type carries into plan.Unplaced with the first reason;
// it returns the others.
func (f *fleetPacker) screen(plan *FleetPlan) []int {
	anyType := false
	for _, ft := range f.fleet {
		anyType = anyType || ft.Count > 0
	}
	var todo []int
	for i, p := range f.pallets {
		f.allowed[i] = make([]bool, len(f.fleet))
		code, reason, ok := "", "", false
		for k, ft := range f.fleet {
			if ft.Count <= 0 {
				continue
			}
			_, err := PlanTrailer(ft.Trailer, []Pallet{p}, 1)
			if err == nil {
				f.allowed[i][k], ok = true, true
				continue
			}
			if code == "" {
				if v := constraints.AsViolations(err); len(v) > 0 {
					code, reason = v[0].Code, v[0].Message
				} else {
					code, reason = CodeInvalid, err.Error()
				}
			}
		}
		switch {
		case !anyType:
			plan.Unplaced = append(plan.Unplaced, UnplacedPallet{Pallet: p.ID, Code: CodeNoTrailer, Reason: "the fleet has no trailer"})
		case !ok:
			plan.Unplaced = append(plan.Unplaced, UnplacedPallet{Pallet: p.ID, Code: code, Reason: reason})
		default:
			todo = append(todo, i)
		}
	}
	return todo
}

// storeOrder sorts pallets by store, the stores with the most freight
// (against the largest capacity of the fleet) first, a store's pallets
// colder classes first, each class in input order.
func (f *fleetPacker) storeOrder(idx []int) []int {
	capW, capV := 0.0, 0.0
	for _, ft := range f.fleet {
		if ft.Count > 0 {
			capW, capV = math.Max(capW, ft.Trailer.PayloadKg), math.Max(capV, ft.Trailer.Volume())
		}
	}
	size := map[string]float64{}
	for _, i := range idx {
		p := f.pallets[i]
		size[p.Store] += math.Max(p.WeightKg/math.Max(capW, 1), p.VolumeM3/math.Max(capV, 1e-9))
	}
	out := append([]int(nil), idx...)
	sort.SliceStable(out, func(a, b int) bool {
		sa, sb := f.pallets[out[a]].Store, f.pallets[out[b]].Store
		if sa != sb && size[sa] != size[sb] {
			return size[sa] > size[sb]
		}
		if ra, rb := f.rank[out[a]], f.rank[out[b]]; ra != rb {
			return ra < rb
		}
		return f.pallets[out[a]].Temperature > f.pallets[out[b]].Temperature
	})
	return out
}

// larger orders trailer types by floor area, then payload, then volume.
func (f *fleetPacker) larger(a, b int) bool {
	ta, tb := f.fleet[a].Trailer, f.fleet[b].Trailer
	if aa, ab := ta.LengthMM*ta.WidthMM, tb.LengthMM*tb.WidthMM; aa != ab {
		return aa > ab
	}
	if ta.PayloadKg != tb.PayloadKg {
		return ta.PayloadKg > tb.PayloadKg
	}
	return ta.Volume() > tb.Volume()
}

// loadAgg sums what the cheap checks need about a set of pallets.
type loadAgg struct {
	n              int
	pairs          int // at most this many pallets can stand on others
	flexible       int // pallets that may be stacked or carry
	weight, volume float64
	floorArea      int64 // of the pallets that must stand on the floor
	classes        uint8 // bit t set when class t is on board
}

// plus adds pallet p. pairs grows by one only if p could be stacked or
// carry: a bound, made exact by pairsWith where it matters.
func (a loadAgg) plus(p Pallet) loadAgg {
	a.n++
	if p.MayCarry || p.MayBeStacked {
		a.pairs++
		a.flexible++
	}
	if !p.MayBeStacked {
		a.floorArea += int64(p.LengthMM) * int64(p.WidthMM)
	}
	a.weight += p.WeightKg
	a.volume += p.VolumeM3
	a.classes |= 1 << uint(p.Temperature)
	return a
}

// groupPairs bounds the stacked pairs of one group of pallets that may
// stack together (one store and class): each pair needs a pallet that may
// carry, another that may be stacked, and two pallets.
func groupPairs(n, carry, stackable int) int { return min(carry, stackable, n/2) }

// stackGroup is a store and class: PlanTrailer stacks only within one.
type stackGroup struct{ rank, class int }

// aggOf sums the pallets idx, with the pairs bound per stackGroup.
func (f *fleetPacker) aggOf(idx []int) loadAgg {
	var a loadAgg
	type counts struct {
		g                   stackGroup
		n, carry, stackable int
	}
	var groups []counts // few per load: a linear search beats a map
	for _, i := range idx {
		p := f.pallets[i]
		a = a.plus(p)
		if !p.MayCarry && !p.MayBeStacked {
			continue
		}
		g := stackGroup{f.rank[i], int(p.Temperature)}
		j := 0
		for j < len(groups) && groups[j].g != g {
			j++
		}
		if j == len(groups) {
			groups = append(groups, counts{g: g})
		}
		c := &groups[j]
		c.n++
		if p.MayCarry {
			c.carry++
		}
		if p.MayBeStacked {
			c.stackable++
		}
	}
	a.pairs = 0
	for _, c := range groups {
		a.pairs += groupPairs(c.n, c.carry, c.stackable)
	}
	return a
}

// pairsWith returns the pairs bound of load l with pallet i added: only
// i's group changes.
func (f *fleetPacker) pairsWith(l *fleetLoad, i int) int {
	p := f.pallets[i]
	if !p.MayCarry && !p.MayBeStacked {
		return l.agg.pairs
	}
	n, carry, stackable := 0, 0, 0
	for _, j := range l.pallets {
		q := f.pallets[j]
		if f.rank[j] == f.rank[i] && q.Temperature == p.Temperature && (q.MayCarry || q.MayBeStacked) {
			n++
			if q.MayCarry {
				carry++
			}
			if q.MayBeStacked {
				stackable++
			}
		}
	}
	before := groupPairs(n, carry, stackable)
	n++
	if p.MayCarry {
		carry++
	}
	if p.MayBeStacked {
		stackable++
	}
	return l.agg.pairs - before + groupPairs(n, carry, stackable)
}

// mayFit checks conditions PlanTrailer needs of any set with these sums on
// a trailer of type k. Each is necessary, so a false here spares a layout
// that would fail, and a true still needs one: equipment and zone count,
// payload and volume (with a margin for the order of float sums), floor
// positions (PlanTrailer stacks only within a store and class, a bottom
// that may carry under a top that may be stacked), and the floor area of
// the pallets that may not be stacked.
func (f *fleetPacker) mayFit(k int, a loadAgg) bool {
	t := f.fleet[k].Trailer
	for c := range constraints.Temperatures {
		if a.classes&(1<<uint(c)) != 0 && !t.Equipment.Carries(constraints.Temperature(c)) {
			return false
		}
	}
	if bits.OnesCount8(a.classes) > t.Equipment.Zones() {
		return false
	}
	if a.weight > t.PayloadKg*(1+1e-6)+1e-6 || a.volume > t.Volume()*(1+1e-6)+1e-9 {
		return false
	}
	if t.Positions > 0 && a.n-a.pairs > t.Positions {
		return false
	}
	return a.floorArea <= int64(t.LengthMM)*int64(t.WidthMM)
}

// fleetLoad is one trailer of a packing. Loads are never changed once
// made: a move builds new ones, so packings can share them.
type fleetLoad struct {
	kind    int
	pallets []int // ascending
	layout  *Layout
	agg     loadAgg
}

// packing is a complete packing: loads, free trailers per type, and the
// pallets no trailer had room for.
type packing struct {
	loads  []*fleetLoad
	left   []int
	noRoom []int
	// bound and stop cache lowerBound and stopBound: the packed pallets
	// change only when pallets without room find some, so the count of
	// those tells.
	bound, boundNoRoom int
	stop, stopNoRoom   int
}

func (f *fleetPacker) newPacking() *packing {
	s := &packing{left: make([]int, len(f.fleet)), boundNoRoom: -1, stopNoRoom: -1}
	for k, ft := range f.fleet {
		s.left[k] = ft.Count
	}
	return s
}

// stops sums the stops of the loads.
func (f *fleetPacker) stops(s *packing) int {
	n := 0
	for _, l := range s.loads {
		n += f.storeCount(l.pallets)
	}
	return n
}

func (f *fleetPacker) storeCount(idx []int) int {
	seen := map[int]bool{}
	for _, i := range idx {
		seen[f.rank[i]] = true
	}
	return len(seen)
}

// better orders packings: fewer pallets left without room, then fewer
// trailers, then fewer stops.
func (f *fleetPacker) better(a, b *packing) bool {
	if len(a.noRoom) != len(b.noRoom) {
		return len(a.noRoom) < len(b.noRoom)
	}
	if len(a.loads) != len(b.loads) {
		return len(a.loads) < len(b.loads)
	}
	return f.stops(a) < f.stops(b)
}

// withStops returns copies of the pallets with Stop set by store, stores
// in order of first appearance in the input, and the store of each stop.
func (f *fleetPacker) withStops(idx []int) ([]Pallet, []string) {
	ranks := make([]int, len(idx))
	for j, i := range idx {
		ranks[j] = f.rank[i]
	}
	sort.Ints(ranks)
	ranks = slices.Compact(ranks)
	stores := make([]string, len(ranks))
	// Input order keeps the layout independent of the packing order.
	sorted := append([]int(nil), idx...)
	sort.Ints(sorted)
	ps := make([]Pallet, len(sorted))
	for j, i := range sorted {
		stop, _ := slices.BinarySearch(ranks, f.rank[i])
		ps[j] = f.pallets[i]
		ps[j].Stop = stop
		stores[stop] = ps[j].Store
	}
	return ps, stores
}

// layout lays the pallets (ascending indices) out on a trailer of type k,
// or reports that PlanTrailer finds no layout; it checks the pallets'
// types and the cheap conditions first and remembers every answer.
func (f *fleetPacker) layout(k int, idx []int, a loadAgg) (*Layout, bool) {
	for _, i := range idx {
		if !f.allowed[i][k] {
			return nil, false
		}
	}
	if !f.mayFit(k, a) {
		return nil, false
	}
	f.key = binary.AppendUvarint(f.key[:0], uint64(k))
	for _, i := range idx {
		f.key = binary.AppendUvarint(f.key, uint64(i))
	}
	if lay, ok := f.memo[string(f.key)]; ok {
		return lay, lay != nil
	}
	f.calls++
	ps, stores := f.withStops(idx)
	lay, err := PlanTrailer(f.fleet[k].Trailer, ps, len(stores))
	if err != nil {
		lay = nil
	}
	if len(f.memo) >= memoLimit {
		clear(f.memo)
	}
	f.memo[string(f.key)] = lay
	return lay, lay != nil
}

// makeLoad lays idx out on type k and returns the load, or nil.
func (f *fleetPacker) makeLoad(k int, idx []int) *fleetLoad {
	idx = sortedCopy(idx)
	a := f.aggOf(idx)
	lay, ok := f.layout(k, idx, a)
	if !ok {
		return nil
	}
	return &fleetLoad{kind: k, pallets: idx, layout: lay, agg: a}
}

// with returns l with pallet i added, or nil when that does not lay out.
func (f *fleetPacker) with(l *fleetLoad, i int) *fleetLoad {
	if !f.allowed[i][l.kind] {
		return nil
	}
	a := l.agg.plus(f.pallets[i])
	a.pairs = f.pairsWith(l, i)
	if !f.mayFit(l.kind, a) {
		return nil
	}
	idx := insertSorted(l.pallets, i)
	lay, ok := f.layout(l.kind, idx, a)
	if !ok {
		return nil
	}
	return &fleetLoad{kind: l.kind, pallets: idx, layout: lay, agg: a}
}

// firstFit packs the pallets in the given order. Each run of pallets of
// one store and class goes into the first load that takes it whole (one
// layout instead of one per pallet, and the store's pallets together);
// otherwise each of its pallets goes into the first load that takes it or
// else a new trailer. It stops when ctx ends and returns how many pallets
// of order it handled.
func (f *fleetPacker) firstFit(order []int) (*packing, int) {
	s := f.newPacking()
	for j := 0; j < len(order); {
		if f.ctx.Err() != nil {
			return s, j
		}
		e := j + 1
		for e < len(order) && f.rank[order[e]] == f.rank[order[j]] && f.pallets[order[e]].Temperature == f.pallets[order[j]].Temperature {
			e++
		}
		if e-j > 1 && f.placeGroup(s, order[j:e]) {
			j = e
			continue
		}
		for ; j < e; j++ {
			if f.ctx.Err() != nil {
				return s, j
			}
			if !f.place(s, order[j]) {
				s.noRoom = append(s.noRoom, order[j])
			}
		}
	}
	return s, len(order)
}

// placeGroup puts the pallets into the first open load that takes them
// all and reports whether one did.
func (f *fleetPacker) placeGroup(s *packing, group []int) bool {
	g := sortedCopy(group)
	ga := f.aggOf(g)
	for li, l := range s.loads {
		a := l.agg
		a.n += ga.n
		a.pairs += ga.flexible
		a.flexible += ga.flexible
		a.weight += ga.weight
		a.volume += ga.volume
		a.floorArea += ga.floorArea
		a.classes |= ga.classes
		if !f.mayFit(l.kind, a) {
			continue
		}
		if nl := f.makeLoad(l.kind, merged(l.pallets, g)); nl != nil {
			s.loads[li] = nl
			return true
		}
	}
	return false
}

// place puts pallet i into the first load that takes it, or opens the
// most preferred free type that does (see preferred).
func (f *fleetPacker) place(s *packing, i int) bool {
	for li, l := range s.loads {
		if nl := f.with(l, i); nl != nil {
			s.loads[li] = nl
			return true
		}
	}
	for _, k := range f.byPreference {
		if s.left[k] <= 0 || !f.allowed[i][k] {
			continue
		}
		if l := f.makeLoad(k, []int{i}); l != nil {
			s.left[k]--
			s.loads = append(s.loads, l)
			return true
		}
	}
	return false
}

func sortedCopy(idx []int) []int {
	out := append([]int(nil), idx...)
	sort.Ints(out)
	return out
}

func insertSorted(idx []int, i int) []int {
	j := sort.SearchInts(idx, i)
	out := make([]int, 0, len(idx)+1)
	out = append(out, idx[:j]...)
	out = append(out, i)
	return append(out, idx[j:]...)
}

// without returns idx minus the members of drop (both ascending).
func without(idx, drop []int) []int {
	out := make([]int, 0, len(idx))
	j := 0
	for _, i := range idx {
		for j < len(drop) && drop[j] < i {
			j++
		}
		if j < len(drop) && drop[j] == i {
			continue
		}
		out = append(out, i)
	}
	return out
}

// merged returns the union of two ascending index lists.
func merged(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	sort.Ints(out)
	return out
}
