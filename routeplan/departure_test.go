package routeplan

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestDepartureLaterWindow: site B opens only in the afternoon, site A
// in the morning and again in the afternoon. Leaving early enough for A's
// morning window, the vehicle waits hours for B; leaving at 13:00 serves A
// as its afternoon window opens and B right after, which shortens the duty
// from 5 h 10 min to 3 h 20 min. With a 4 h duty limit only the later
// departure is feasible.
func TestDepartureLaterWindow(t *testing.T) {
	for _, c := range []struct {
		name    string
		maxDuty float64
	}{{"time cost", 0}, {"duty limit", 4 * hour}} {
		t.Run(c.name, func(t *testing.T) {
			p := &Problem{N: 3,
				Distance: []float64{0, 50, 50, 50, 0, 50, 50, 50, 0},
				Duration: []float64{0, hour, hour, hour, 0, hour, hour, hour, 0}}
			p.Sites = []Site{
				{Location: 1, Service: 600, Windows: []Window{{5 * hour, 11 * hour}, {14 * hour, 20 * hour}}},
				{Location: 2, Service: 600, Windows: []Window{{14 * hour, 20 * hour}}},
			}
			p.VehicleTypes = []VehicleType{{Count: 1, ShiftStart: 4 * hour, ShiftEnd: 22 * hour,
				TimeCost: 0.1, DistanceCost: 1, MaxDuty: c.maxDuty}}
			in := newInstance(p)
			var s schedule
			if f := in.evaluate(0, []int{0, 1}, &s, false); f != feasible {
				t.Fatalf("failure %d, want feasible", f)
			}
			if s.depart != 13*hour || s.duty() != 3*hour+1200 {
				t.Fatalf("depart %g duty %g, want %g %g", s.depart, s.duty(), 13*hour, 3*hour+1200)
			}
		})
	}
}

// departureRoute draws a route of 1 to 5 sites, each open in 1 to 3
// windows, and a vehicle type under a random break rule, duty and driving
// limits, start windows and loading, every time a whole number of
// minutes; with rush set, under random rush hours (genRush).
func departureRoute(t *rapid.T, rush bool) (*instance, []int) {
	m := func(lo, hi int, name string) float64 { return 60 * float64(rapid.IntRange(lo, hi).Draw(t, name)) }
	n := rapid.IntRange(1, 5).Draw(t, "sites")
	nLoc := n + 1
	p := &Problem{N: nLoc, Distance: make([]float64, nLoc*nLoc), Duration: make([]float64, nLoc*nLoc)}
	for i := 0; i < nLoc; i++ {
		for j := 0; j < nLoc; j++ {
			if i != j {
				p.Duration[i*nLoc+j] = m(5, 90, "leg")
				p.Distance[i*nLoc+j] = p.Duration[i*nLoc+j] / 60
			}
		}
	}
	// Some sites share a location, so that stop service is shared.
	for i := 0; i < n; i++ {
		loc := 1 + i
		if i > 0 && rapid.IntRange(0, 4).Draw(t, "sameLocation") == 0 {
			loc = p.Sites[i-1].Location
		}
		s := Site{Location: loc, Service: m(0, 60, "service"), Demand: []float64{1}}
		if rapid.Bool().Draw(t, "stop") {
			s.StopService = m(0, 30, "stopService")
		}
		at := m(0, 480, "windowStart")
		for w := rapid.IntRange(1, 3).Draw(t, "windows"); w > 0; w-- {
			end := at + m(0, 300, "windowLen")
			s.Windows = append(s.Windows, Window{at, end})
			at = end + m(1, 360, "windowGap")
		}
		p.Sites = append(p.Sites, s)
	}
	vt := VehicleType{Count: 1, Capacity: []float64{float64(n)}, DistanceCost: 1,
		ShiftStart: m(0, 120, "shiftStart"), TimeCost: float64(rapid.IntRange(0, 3).Draw(t, "timeCost")) / 10}
	vt.ShiftEnd = vt.ShiftStart + m(300, 1200, "shiftLen")
	if rapid.Bool().Draw(t, "duty") {
		vt.MaxDuty = m(180, 900, "maxDuty")
	}
	if rapid.Bool().Draw(t, "driving") {
		vt.MaxDriving = m(180, 600, "maxDriving")
	}
	if rapid.IntRange(0, 3).Draw(t, "break") > 0 { // the rule most likely to hide a candidate
		vt.BreakAfter = m(60, 300, "breakAfter")
		vt.BreakDuration = m(0, 60, "breakDuration")
	}
	if rapid.Bool().Draw(t, "loading") {
		vt.StartService = m(0, 60, "startService")
		vt.StartServicePerUnit = []float64{m(0, 5, "perUnit")}
	}
	if rapid.Bool().Draw(t, "startWindows") {
		at := vt.ShiftStart - m(0, 60, "startWindowStart")
		for w := rapid.IntRange(1, 3).Draw(t, "startWindowCount"); w > 0; w-- {
			end := at + m(0, 120, "startWindowLen")
			vt.StartWindows = append(vt.StartWindows, Window{at, end})
			at = end + m(1, 300, "startWindowGap")
		}
	}
	p.VehicleTypes = []VehicleType{vt}
	if rush {
		p.Rush = genRush(t, 1500*60)
	}
	return newInstance(p), rapid.Permutation(seqN(n)).Draw(t, "order")
}

// TestDepartureIsBest: the departure evaluate chooses (tight, or with a
// time cost) gives a feasible schedule whose duty is no longer than the
// duty of any feasible departure on a one-minute grid over the shift,
// and when evaluate finds no feasible departure, none on the grid is.
// Every input is a whole number of minutes, so the best departure is on
// the grid: the check is exact. A case is cheap and the candidates a wrong
// rule would miss are rare (the break's), so it runs 200 rounds of checks
// (20,000 cases, about half a second).
func TestDepartureIsBest(t *testing.T) {
	for round := range 200 {
		t.Run(fmt.Sprint(round), func(t *testing.T) { rapid.Check(t, departureIsBest) })
	}
}

func departureIsBest(t *rapid.T) {
	in, seq := departureRoute(t, false)
	vt := &in.types[0]
	tight := rapid.Bool().Draw(t, "tight")
	var s, x schedule
	f := in.evaluate(0, seq, &s, tight)
	optimised := tight || vt.TimeCost > 0 // else the earliest departure is kept when feasible
	l := in.loadingTime(0, []float64{float64(len(seq))})
	d0, ok := in.earliestDeparture(0, l, in.types[0].StartWindows)
	if f == feasible {
		checkSchedule(t, in, seq, &s)
		if g := in.simulate(0, seq, s.depart, l, &x); g != feasible || x.duty() != s.duty() || x.ret != s.ret {
			t.Fatalf("depart %g: simulation gives failure %d duty %g return %g, evaluate %g %g", s.depart, g, x.duty(), x.ret, s.duty(), s.ret)
		}
		if s.depart < d0 {
			t.Fatalf("depart %g before the earliest departure %g", s.depart, d0)
		}
	}
	if !ok {
		return
	}
	for d := d0; d <= vt.ShiftEnd; d += 60 {
		if in.simulate(0, seq, d, l, &x) != feasible {
			continue
		}
		if f != feasible {
			t.Fatalf("no feasible departure found (failure %d), but departing at %g is (duty %g)", f, d, x.duty())
		}
		if optimised && x.duty() < s.duty() {
			t.Fatalf("departing at %g gives duty %g (return %g), evaluate departs at %g for duty %g (return %g)", d, x.duty(), x.ret, s.depart, s.duty(), s.ret)
		}
	}
}

// checkSchedule checks the times of s against the rules in its own code:
// windows, start windows, shift, duty and driving limits.
func checkSchedule(t *rapid.T, in *instance, seq []int, s *schedule) {
	vt := &in.types[0]
	inWindow := func(ws []Window, x float64) bool {
		if len(ws) == 0 {
			return true
		}
		for _, w := range ws {
			if w.Start <= x && x <= w.End {
				return true
			}
		}
		return false
	}
	if s.begin < vt.ShiftStart || !inWindow(vt.StartWindows, s.begin) || s.ret > vt.ShiftEnd {
		t.Fatalf("begin %g return %g outside the shift or start windows", s.begin, s.ret)
	}
	if vt.MaxDuty > 0 && s.duty() > vt.MaxDuty {
		t.Fatalf("duty %g over %g", s.duty(), vt.MaxDuty)
	}
	if vt.MaxDriving > 0 && s.drive > vt.MaxDriving {
		t.Fatalf("driving %g over %g", s.drive, vt.MaxDriving)
	}
	for k, i := range seq {
		if s.start[k] < s.arr[k] || !inWindow(in.sites[i].Windows, s.start[k]) {
			t.Fatalf("site %d: arrival %g start %g, windows %v", k, s.arr[k], s.start[k], in.sites[i].Windows)
		}
	}
}

// TestDepartureAfterAWaitThatWasABreak: departing at the shift start, the
// driver waits 158 min at the first store, which counts as the break; the
// rule then needs a second one before the drive home, taken at the last
// store and ending 1 min past the shift. Departing at 02:38 instead, the
// first wait is gone and the store with 32 min of unloading needs 1 min
// more to serve as the one break: back at 04:29, well inside the shift. A
// later departure returns earlier here, so the earliest one's failure
// must not end the search.
func TestDepartureAfterAWaitThatWasABreak(t *testing.T) {
	legs := [][]float64{{0, 5, 5, 5, 5}, {5, 0, 5, 5, 13}, {5, 10, 0, 5, 5}, {5, 5, 5, 0, 5}, {5, 5, 5, 45, 0}}
	p := &Problem{N: 5, Distance: make([]float64, 25), Duration: make([]float64, 25)}
	for i := range 5 {
		for j := range 5 {
			p.Duration[i*5+j], p.Distance[i*5+j] = 60*legs[i][j], legs[i][j]
		}
	}
	minutes := func(a, b float64) []Window { return []Window{{60 * a, 60 * b}} }
	p.Sites = []Site{
		{Location: 1, Demand: []float64{1}, Windows: minutes(0, 173)},
		{Location: 2, Demand: []float64{1}, Windows: minutes(163, 163)},
		{Location: 3, Demand: []float64{1}, Windows: append(minutes(3, 21), minutes(124, 264)...)},
		{Location: 4, Demand: []float64{1}, Service: 60 * 32, Windows: minutes(0, 186)},
	}
	p.VehicleTypes = []VehicleType{{Count: 1, Capacity: []float64{4}, DistanceCost: 1, ShiftEnd: 60 * 300,
		BreakAfter: 60 * 68, BreakDuration: 60 * 33}}
	in := newInstance(p)
	var s schedule
	if f := in.evaluate(0, []int{1, 0, 3, 2}, &s, false); f != feasible {
		t.Fatalf("failure %d, want feasible (departing at 158 min returns at 269 min)", f)
	}
	if s.ret > 60*300 {
		t.Fatalf("returns at %g min, after the shift", s.ret/60)
	}
}

// TestDepartureSearchIsExhaustive: the departure evaluate chooses is the
// one simulating every candidate departure would choose (shortest duty,
// then earliest return, then latest departure), times and all: the
// bounds that cut the search short only skip candidates that cannot win.
func TestDepartureSearchIsExhaustive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, seq := departureRoute(t, rapid.Bool().Draw(t, "rush"))
		vt := &in.types[0]
		tight := rapid.Bool().Draw(t, "tight")
		if !tight && vt.TimeCost == 0 {
			return // the earliest departure is kept: nothing is searched
		}
		var s, x schedule
		f := in.evaluate(0, seq, &s, tight)
		l := in.loadingTime(0, []float64{float64(len(seq))})
		d0, ok := in.earliestDeparture(0, l, in.types[0].StartWindows)
		if !ok {
			return
		}
		best := departureSearch{duty: inf, ret: inf}
		try := func(d float64) {
			g := in.simulate(0, seq, d, l, &x)
			if g == feasible {
				best.offer(d, x.duty(), x.ret)
			}
		}
		try(d0)
		hi := in.latestStart(0, seq, nil)
		if hi > d0 {
			hi += timeTol(hi)
		}
		var back []float64
		cands, _, _ := in.departures(0, seq, l, nil, d0, hi, nil, &back)
		if in.rush.Len() > 0 {
			// Every target carried back through the rush hours.
			for x := 3 * len(seq); x+2 < len(back); x += 3 {
				cands = addDeparture(cands, in.rushDeparture(back, int(back[x+1]), back[x+2], d0), d0, hi)
			}
		}
		for _, d := range cands {
			try(d)
		}
		if f != feasible {
			if best.found {
				t.Fatalf("failure %d, but departing at %g is feasible (duty %g)", f, best.depart, best.duty)
			}
			return
		}
		if !best.found || s.depart != best.depart || s.duty() != best.duty || s.ret != best.ret {
			t.Fatalf("evaluate departs at %g (duty %g, return %g), every candidate simulated gives %v", s.depart, s.duty(), s.ret, best)
		}
		in.simulate(0, seq, s.depart, l, &x)
		for k := range seq {
			if s.arr[k] != x.arr[k] || s.start[k] != x.start[k] || s.dep[k] != x.dep[k] {
				t.Fatalf("site %d: times %g %g %g, simulation %g %g %g", k, s.arr[k], s.start[k], s.dep[k], x.arr[k], x.start[k], x.dep[k])
			}
		}
	})
}

// TestPlayStopsAtTheFirstWaitThatIsABreak: played until a wait that
// counts as a break, a route stops exactly when the full simulation has
// such a wait (waitServedAsBreak), with the same times up to it; when it
// has none, the two simulations agree in everything.
func TestPlayStopsAtTheFirstWaitThatIsABreak(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, seq := departureRoute(t, rapid.Bool().Draw(t, "rush"))
		vt := &in.types[0]
		l := in.loadingTime(0, []float64{float64(len(seq))})
		d := vt.ShiftStart + 60*float64(rapid.IntRange(0, 600).Draw(t, "depart"))
		var full, part schedule
		f := in.simulate(0, seq, d, l, &full)
		g, waited := in.play(0, seq, d, l, &part, true)
		if waited != in.waitServedAsBreak(0, &full) {
			t.Fatalf("stopped %v, but the full simulation (failure %d) waits for a break: %v", waited, f, !waited)
		}
		k := len(part.arr)
		if len(part.start) != k || len(part.dep) != k || k > len(full.arr) {
			t.Fatalf("%d arrivals, %d starts, %d departures after a stop, of %d", k, len(part.start), len(part.dep), len(full.arr))
		}
		for x := 0; x < k; x++ {
			// A rest taken later at the last site kept may raise its departure.
			if part.arr[x] != full.arr[x] || part.start[x] != full.start[x] || (part.dep[x] != full.dep[x] && x != k-1) {
				t.Fatalf("site %d: %g %g %g, full simulation %g %g %g", x, part.arr[x], part.start[x], part.dep[x], full.arr[x], full.start[x], full.dep[x])
			}
		}
		if !waited && (g != f || k != len(full.arr) || part.ret != full.ret || part.dist != full.dist || part.drive != full.drive) {
			t.Fatalf("not stopped: failure %d return %g, full simulation %d %g", g, part.ret, f, full.ret)
		}
	})
}

// TestFreeDeparturesAgreeWithRush: departures has one loop without rush
// hours (freeDepartures) and one with them (rushDepartures), each
// carrying the break rule's rests and short. Under rush hours that slow
// nothing the route can reach they must agree: the same least duty and
// unrested return to the bit, and the same candidates below the latest
// start (the rush loop leaves out a target at the latest start itself,
// which the latest start is anyway).
func TestFreeDeparturesAgreeWithRush(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, seq := departureRoute(t, false)
		l := in.loadingTime(0, []float64{float64(len(seq))})
		lo, ok := in.earliestDeparture(0, l, in.types[0].StartWindows)
		if !ok {
			return
		}
		hi := in.latestStart(0, seq, nil)
		if hi > lo {
			hi += timeTol(hi)
		}
		var scratch, back []float64
		free, freeLeast, freeUnrested := in.freeDepartures(0, seq, l, nil, lo, hi, nil, &scratch)
		// A slow hour a year after the day: no leg of the route meets it.
		in.rush = rushTimeline(365*86400, 365*86400+3600, 0.5)
		rush, rushLeast, rushUnrested := in.rushDepartures(0, seq, l, nil, lo, hi, nil, &back)
		if freeLeast != rushLeast || freeUnrested != rushUnrested {
			t.Fatalf("least %g, unrested %g without rush hours; %g, %g with", freeLeast, freeUnrested, rushLeast, rushUnrested)
		}
		below := func(cs []float64) []float64 {
			var out []float64
			for _, d := range cs {
				if d < hi {
					out = append(out, d)
				}
			}
			slices.Sort(out)
			return slices.Compact(out)
		}
		if f, r := below(free), below(rush); !slices.Equal(f, r) {
			t.Fatalf("candidates below %g: %v without rush hours, %v with", hi, f, r)
		}
	})
}

// TestSlackFreeDepartureAgrees: with whole times the departure search
// settles at once on a departure that takes no more than the least time
// and returns as early as any (slackFreeDeparture). Its schedule must be
// the one the full search gives, to the bit: the same failure, departure,
// beginning, return, distance, driving, cost and times at every site. The
// generator draws whole minutes, so that the shortcut is tried; the test
// also counts the routes whose best departure is such a one (about one in
// fifteen), and fails when fewer than one in forty are, too few to test
// anything. 20 rounds of checks, 2,000 routes (fewer under -short).
func TestSlackFreeDepartureAgrees(t *testing.T) {
	routes, slackFree := 0, 0
	for round := range 20 {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) { routes, slackFree = routes+1, slackFree+slackFreeAgrees(t) })
		})
	}
	if slackFree < 5 || 40*slackFree < routes {
		t.Fatalf("%d slack-free best departures in %d routes drawn: the shortcut is barely tested", slackFree, routes)
	}
	t.Logf("%d slack-free best departures in %d routes", slackFree, routes)
}

// slackFreeAgrees is a case of TestSlackFreeDepartureAgrees; it returns 1
// when the best departure is slack-free.
func slackFreeAgrees(t *rapid.T) int {
	in, seq := departureRoute(t, false)
	if in.exact {
		return 0 // the Solomon case does not take the shortcut
	}
	if !in.wholeTimes {
		t.Fatalf("whole minutes, but wholeTimes is false")
	}
	tight := rapid.Bool().Draw(t, "tight")
	var with, without schedule
	f := in.evaluate(0, seq, &with, tight)
	in.wholeTimes = false
	g := in.evaluate(0, seq, &without, tight)
	in.wholeTimes = true
	if f != g {
		t.Fatalf("failure %d with the shortcut, %d without", f, g)
	}
	if f != feasible {
		return 0
	}
	if with.depart != without.depart || with.begin != without.begin || with.ret != without.ret ||
		with.dist != without.dist || with.drive != without.drive || with.cost != without.cost {
		t.Fatalf("with the shortcut: depart %g begin %g return %g distance %g driving %g cost %g; without: %g %g %g %g %g %g",
			with.depart, with.begin, with.ret, with.dist, with.drive, with.cost,
			without.depart, without.begin, without.ret, without.dist, without.drive, without.cost)
	}
	for k := range seq {
		if with.arr[k] != without.arr[k] || with.start[k] != without.start[k] || with.dep[k] != without.dep[k] {
			t.Fatalf("site %d: times %g %g %g with the shortcut, %g %g %g without", k, with.arr[k], with.start[k], with.dep[k], without.arr[k], without.start[k], without.dep[k])
		}
	}
	// Was the best departure one the shortcut takes?
	l := in.loadingTime(0, []float64{float64(len(seq))})
	lo, _ := in.earliestDeparture(0, l, in.types[0].StartWindows)
	hi := in.latestStart(0, seq, nil)
	if hi > lo {
		hi += timeTol(hi)
	}
	var back []float64
	cands, least, unrested := in.freeDepartures(0, seq, l, nil, lo, hi, nil, &back)
	if with.duty() == least+l && with.ret == unrested && slices.Contains(cands, with.depart) {
		return 1
	}
	return 0
}

// TestPlayFreeAgreesWithGeneral: play has one loop without rush hours
// and trip windows (playFree) and one for every case. Given trip windows
// that are the type's own start windows (a route without reloads, so
// that its sites keep their windows), play takes the general loop; the
// two must agree to the bit: the failure, where the play stops, whether
// it rested, and every time and sum. A rest before the drive home is
// drawn about once in fifty cases: 20 rounds of checks, 2,000 cases.
func TestPlayFreeAgreesWithGeneral(t *testing.T) {
	for round := range 20 {
		t.Run(fmt.Sprint(round), func(t *testing.T) { rapid.Check(t, playFreeAgrees) })
	}
}

func playFreeAgrees(t *rapid.T) {
	in, seq := departureRoute(t, false)
	vt := &in.types[0]
	l := in.loadingTime(0, []float64{float64(len(seq))})
	d := vt.ShiftStart + 60*float64(rapid.IntRange(0, 600).Draw(t, "depart"))
	untilWaitBreak := rapid.Bool().Draw(t, "untilWaitBreak")
	var free, general schedule
	f, fw := in.play(0, seq, d, l, &free, untilWaitBreak)
	general.tw = &tripWindows{start: vt.StartWindows}
	g, gw := in.play(0, seq, d, l, &general, untilWaitBreak)
	if f != g || fw != gw || free.rested != general.rested {
		t.Fatalf("failure %d, stopped %v, rested %v in the free loop; %d %v %v in the general one", f, fw, free.rested, g, gw, general.rested)
	}
	if free.begin != general.begin || free.depart != general.depart || free.dist != general.dist || free.drive != general.drive || free.ret != general.ret {
		t.Fatalf("begin %g depart %g distance %g driving %g return %g in the free loop; %g %g %g %g %g in the general one",
			free.begin, free.depart, free.dist, free.drive, free.ret, general.begin, general.depart, general.dist, general.drive, general.ret)
	}
	if !slices.Equal(free.arr, general.arr) || !slices.Equal(free.start, general.start) || !slices.Equal(free.dep, general.dep) {
		t.Fatalf("times %v %v %v in the free loop, %v %v %v in the general one", free.arr, free.start, free.dep, general.arr, general.start, general.dep)
	}
}

// TestWhole: whole accepts whole numbers up to 2^32 either way and
// nothing else, NaN and the infinities included.
func TestWhole(t *testing.T) {
	for x, want := range map[float64]bool{0: true, -3: true, 86400: true, 1 << 32: true, -(1 << 32): true,
		0.5: false, -2.25: false, 1<<32 + 1: false, 1 << 40: false, math.NaN(): false, math.Inf(1): false, math.Inf(-1): false} {
		if whole(x) != want {
			t.Errorf("whole(%g) = %v, want %v", x, !want, want)
		}
	}
}

// TestLatestDepartureSettlesAgrees: with whole times the departure search
// settles at once on the latest departure that fits the windows when it
// returns as early as any departure can and begins its start service as
// late (latestDepartureSettles). Its schedule must be the one the full
// search gives, to the bit, as in TestSlackFreeDepartureAgrees; the test
// counts the routes whose best departure is such a one (about one in
// sixty), and fails when fewer than one in two hundred are, too few to test
// anything. 100 rounds of checks, 10,000 routes (fewer under -short).
func TestLatestDepartureSettlesAgrees(t *testing.T) {
	routes, settled := 0, 0
	for round := range 100 {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) { routes, settled = routes+1, settled+latestDepartureAgrees(t) })
		})
	}
	if settled < 5 || 200*settled < routes {
		t.Fatalf("%d best departures at the latest start in %d routes drawn: the shortcut is barely tested", settled, routes)
	}
	t.Logf("%d best departures at the latest start in %d routes", settled, routes)
}

// latestDepartureAgrees is a case of TestLatestDepartureSettlesAgrees; it
// returns 1 when the best departure is the one latestDepartureSettles
// takes.
func latestDepartureAgrees(t *rapid.T) int {
	in, seq := departureRoute(t, false)
	if in.exact {
		return 0
	}
	tight := rapid.Bool().Draw(t, "tight")
	var with, without schedule
	f := in.evaluate(0, seq, &with, tight)
	in.wholeTimes = false // no shortcut of the search is taken
	g := in.evaluate(0, seq, &without, tight)
	in.wholeTimes = true
	if f != g {
		t.Fatalf("failure %d with the shortcuts, %d without", f, g)
	}
	if f != feasible {
		return 0
	}
	if with.depart != without.depart || with.begin != without.begin || with.ret != without.ret ||
		with.dist != without.dist || with.drive != without.drive || with.cost != without.cost {
		t.Fatalf("with the shortcuts: depart %g begin %g return %g distance %g driving %g cost %g; without: %g %g %g %g %g %g",
			with.depart, with.begin, with.ret, with.dist, with.drive, with.cost,
			without.depart, without.begin, without.ret, without.dist, without.drive, without.cost)
	}
	for k := range seq {
		if with.arr[k] != without.arr[k] || with.start[k] != without.start[k] || with.dep[k] != without.dep[k] {
			t.Fatalf("site %d: times %g %g %g with the shortcuts, %g %g %g without", k, with.arr[k], with.start[k], with.dep[k], without.arr[k], without.start[k], without.dep[k])
		}
	}
	// Was the best departure the latest start, returning at the search's
	// bound (the earliest departure played without the break rule bounds
	// the return whether or not that departure is monotone)?
	l := in.loadingTime(0, []float64{float64(len(seq))})
	lo, _ := in.earliestDeparture(0, l, in.types[0].StartWindows)
	hi := in.latestStart(0, seq, nil)
	if hi > lo && with.depart == hi && with.begin == hi-l && with.ret == in.unrestedReturn(0, seq, lo, nil) {
		return 1
	}
	return 0
}

// TestUnrestedReturnAgrees: unrestedReturn, which the shortcut of the
// departure search computes alone, is freeDepartures' return without the
// break rule to the bit.
func TestUnrestedReturnAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, seq := departureRoute(t, false)
		l := in.loadingTime(0, []float64{float64(len(seq))})
		lo, ok := in.earliestDeparture(0, l, in.types[0].StartWindows)
		if !ok {
			return
		}
		hi := in.latestStart(0, seq, nil)
		var scratch []float64
		_, _, want := in.freeDepartures(0, seq, l, nil, lo, hi, nil, &scratch)
		if got := in.unrestedReturn(0, seq, lo, nil); got != want {
			t.Fatalf("unrestedReturn %g, freeDepartures %g", got, want)
		}
	})
}
