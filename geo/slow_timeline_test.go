package geo

import (
	"math"
	"math/big"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// unix is the instant s seconds after 1970 UTC.
func unix(s int64) time.Time { return time.Unix(s, 0).UTC() }

// TestArriveByHand: legs through one interval from 1000 s to 2000 s
// after the epoch at half speed, and decimal factors, worked out by hand,
// in both forms.
func TestArriveByHand(t *testing.T) {
	const epoch = 1_772_000_000 // a whole second in 2026
	half := SlowIntervals{{Start: unix(epoch + 1000), End: unix(epoch + 2000), Factor: 0.5}}
	tests := []struct {
		name                string
		ivs                 SlowIntervals
		depart, free, wantS int64
	}{
		{"ends before the interval", half, 0, 500, 500},
		{"ends where the interval starts", half, 0, 1000, 1000},
		{"ends where the interval ends", half, 0, 1500, 2000},
		{"crosses the interval", half, 0, 2000, 2500},
		{"inside", half, 1500, 100, 1700},
		{"leaves the interval", half, 1900, 100, 2050},
		{"after the interval", half, 2000, 100, 2100},
		{"from before to after", half, 900, 1200, 2600},
		{"no intervals", nil, 1500, 100, 1600},
		{"zero leg", half, 1500, 0, 1500},
		// 600 s at 0.6 are 1000 s exactly, whatever 0.6's binary rounding.
		{"a decimal factor", SlowIntervals{{Start: unix(epoch), End: unix(epoch + 5000), Factor: 0.6}}, 0, 600, 1000},
		// 290/0.29 is 1000.0000000000001 in floating point: noise.
		{"floating-point noise", SlowIntervals{{Start: unix(epoch), End: unix(epoch + 5000), Factor: 0.29}}, 0, 290, 1000},
		// 100 s at 0.7 are 142.86 s: rounded up.
		{"rounded up", SlowIntervals{{Start: unix(epoch), End: unix(epoch + 5000), Factor: 0.7}}, 0, 100, 143},
		// 50 s at 0.7 to the end of the interval (35 free-flow seconds),
		// then 65 s at factor 1: 115 s.
		{"two intervals touching", SlowIntervals{
			{Start: unix(epoch), End: unix(epoch + 50), Factor: 0.7},
			{Start: unix(epoch + 50), End: unix(epoch + 5000), Factor: 1},
		}, 0, 100, 115},
		// 100 s at 0.5 (50 free), 100 s free, 100 s at 0.25 (25 free),
		// then 25 s free: 325 s.
		{"two intervals", SlowIntervals{
			{Start: unix(epoch), End: unix(epoch + 100), Factor: 0.5},
			{Start: unix(epoch + 200), End: unix(epoch + 300), Factor: 0.25},
		}, 0, 200, 325},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.ivs.Arrive(unix(epoch+tc.depart), time.Duration(tc.free)*time.Second)
			if want := unix(epoch + tc.wantS); !got.Equal(want) {
				t.Errorf("SlowIntervals.Arrive = +%v, want +%d s", got.Sub(unix(epoch)), tc.wantS)
			}
			tl := tc.ivs.Timeline(unix(epoch))
			if got := tl.Arrive(float64(tc.depart), float64(tc.free)); got != float64(tc.wantS) {
				t.Errorf("SlowTimeline.Arrive = %v, want %d", got, tc.wantS)
			}
		})
	}
}

// genFactor draws factors of every kind a profile may hold: decimal ones
// as people write them, the extremes, and any in between.
func genFactor() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.SampledFrom([]float64{MinRushFactor, 0.25, 0.5, 0.6, 0.7, 0.75, 0.9, 0.99, 1}),
		rapid.Custom(func(t *rapid.T) float64 { return float64(rapid.IntRange(10, 100).Draw(t, "percent")) / 100 }),
		rapid.Float64Range(MinRushFactor, 1),
	)
}

// slowCase is a set of slow intervals around a whole-second epoch (Unix
// seconds), from a profile or drawn directly.
type slowCase struct {
	epoch int64
	ivs   SlowIntervals
}

func genSlowCase() *rapid.Generator[slowCase] {
	zones := []string{"UTC", "America/Chicago", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu"}
	direct := rapid.Custom(func(t *rapid.T) SlowIntervals {
		at := rapid.Int64Range(-5*3600, 5*3600).Draw(t, "first")
		n := rapid.IntRange(0, 12).Draw(t, "n")
		var out SlowIntervals
		for range n {
			at += rapid.Int64Range(0, 7200).Draw(t, "gap")
			end := at + rapid.Int64Range(1, 3*3600).Draw(t, "length")
			out = append(out, SlowInterval{Start: unix(at), End: unix(end), Factor: genFactor().Draw(t, "factor")})
			at = end
		}
		return out
	})
	fromProfile := rapid.Custom(func(t *rapid.T) SlowIntervals {
		// Cut points in minutes, paired into periods that cannot overlap.
		cuts := rapid.SliceOfNDistinct(rapid.IntRange(0, 1440), 0, 10, rapid.ID[int]).Draw(t, "cuts")
		sortInts(cuts)
		var h RushHours
		for i := 0; i+1 < len(cuts); i += 2 {
			var days []time.Weekday
			for d := time.Sunday; d <= time.Saturday; d++ {
				if rapid.Bool().Draw(t, "day") {
					days = append(days, d)
				}
			}
			h = append(h, RushPeriod{From: time.Duration(cuts[i]) * time.Minute, To: time.Duration(cuts[i+1]) * time.Minute, Factor: genFactor().Draw(t, "factor"), Days: days})
		}
		if err := h.Check(); err != nil {
			t.Fatalf("generated profile: %v", err)
		}
		loc, err := time.LoadLocation(rapid.SampledFrom(zones).Draw(t, "zone"))
		if err != nil {
			t.Fatal(err)
		}
		return h.Intervals(loc, unix(-86400), unix(3*86400))
	})
	return rapid.Custom(func(t *rapid.T) slowCase {
		epoch := rapid.Int64Range(1_600_000_000, 1_900_000_000).Draw(t, "epoch")
		ivs := rapid.OneOf(direct, fromProfile).Draw(t, "intervals")
		for i := range ivs {
			ivs[i].Start = ivs[i].Start.Add(time.Duration(epoch) * time.Second)
			ivs[i].End = ivs[i].End.Add(time.Duration(epoch) * time.Second)
		}
		return slowCase{epoch: epoch, ivs: ivs}
	})
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// genDepart draws a departure, in seconds after the case's epoch, around
// and inside its intervals; genFree a free-flow duration in seconds.
func genDepart(t *rapid.T, label string) int64 {
	return rapid.Int64Range(-6*3600, 3*86400).Draw(t, label)
}

func genFree(t *rapid.T, label string) int64 {
	return rapid.OneOf(rapid.Int64Range(0, 900), rapid.Int64Range(0, 20*3600)).Draw(t, label)
}

// exactArrive integrates the leg in exact rational arithmetic (the
// factors as the float64 values they are): the model both forms of Arrive
// round.
func exactArrive(ivs SlowIntervals, depart, free int64) *big.Rat {
	pos, left := big.NewRat(depart, 1), big.NewRat(free, 1)
	for _, iv := range ivs {
		a, b := big.NewRat(iv.Start.Unix(), 1), big.NewRat(iv.End.Unix(), 1)
		if b.Cmp(pos) <= 0 {
			continue
		}
		if a.Cmp(new(big.Rat).Add(pos, left)) >= 0 {
			break
		}
		if a.Cmp(pos) > 0 {
			left.Sub(left, new(big.Rat).Sub(a, pos))
			pos.Set(a)
		}
		f := new(big.Rat).SetFloat64(iv.Factor)
		reach := new(big.Rat).Mul(new(big.Rat).Sub(b, pos), f)
		if left.Cmp(reach) <= 0 {
			return pos.Add(pos, new(big.Rat).Quo(left, f))
		}
		left.Sub(left, reach)
		pos.Set(b)
	}
	return pos.Add(pos, left)
}

// arriveBoth runs both forms on a leg departing depart seconds after the
// case's epoch, fails when they disagree, and returns the arrival.
func arriveBoth(t *rapid.T, c slowCase, tl SlowTimeline, depart, free int64) int64 {
	got := c.ivs.Arrive(unix(c.epoch+depart), time.Duration(free)*time.Second)
	fl := tl.Arrive(float64(depart), float64(free))
	if got.Nanosecond() != 0 || float64(got.Unix()-c.epoch) != fl {
		t.Fatalf("leg of %d s at +%d s: SlowIntervals.Arrive +%v, SlowTimeline.Arrive %v", free, depart, got.Sub(unix(c.epoch)), fl)
	}
	return got.Unix() - c.epoch
}

// TestArriveProperties: the two forms agree to the second on whole
// seconds; arrivals lie within a second after the exact integral, never
// before free flow, and never earlier for a later departure or a longer
// leg; a leg the intervals do not slow arrives at free flow, and one
// wholly inside an interval of factor f takes ⌈free/f⌉.
func TestArriveProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genSlowCase().Draw(t, "case")
		tl := c.ivs.Timeline(unix(c.epoch))
		d1, free1 := genDepart(t, "depart"), genFree(t, "free")
		a1 := arriveBoth(t, c, tl, d1, free1)

		exact := exactArrive(c.ivs, c.epoch+d1, free1)
		exact.Sub(exact, big.NewRat(c.epoch, 1))
		ex, _ := exact.Float64()
		if float64(a1) < ex-2e-6 || float64(a1) > ex+1 {
			t.Fatalf("leg of %d s at +%d s arrives at +%d s, the exact integral at %v", free1, d1, a1, exact.FloatString(6))
		}
		if a1-d1 < free1 {
			t.Fatalf("leg of %d s at +%d s takes %d s", free1, d1, a1-d1)
		}

		// FIFO, a second later or any number of seconds later.
		d2 := d1 + rapid.OneOf(rapid.Int64Range(0, 1), rapid.Int64Range(0, 86400)).Draw(t, "later")
		if a2 := arriveBoth(t, c, tl, d2, free1); a2 < a1 {
			t.Fatalf("leg of %d s: at +%d s arrives at +%d s, at +%d s at +%d s", free1, d1, a1, d2, a2)
		}

		// Monotone in free, and no slower than the slowest factor allows.
		free2 := free1 + rapid.OneOf(rapid.Int64Range(0, 1), rapid.Int64Range(0, 7200)).Draw(t, "longer")
		a3 := arriveBoth(t, c, tl, d1, free2)
		slowest := 1.0
		for _, iv := range c.ivs {
			slowest = min(slowest, iv.Factor)
		}
		if a3 < a1 || float64(a3-a1) > float64(free2-free1)/slowest+1 {
			t.Fatalf("at +%d s: %d s arrive at +%d s, %d s at +%d s (slowest factor %v)", d1, free1, a1, free2, a3, slowest)
		}

		// Legs the intervals leave alone: with none, or within a gap.
		if got := (SlowTimeline{}).Arrive(float64(d1)+0.25, float64(free1)+0.5); got != float64(d1)+0.25+float64(free1)+0.5 {
			t.Fatalf("no intervals: %v", got)
		}
		if len(c.ivs) > 0 {
			k := rapid.IntRange(0, len(c.ivs)).Draw(t, "gap")
			lo, hi := c.ivs[0].Start.Unix()-c.epoch-86400, c.ivs[0].Start.Unix()-c.epoch
			if k > 0 {
				lo = c.ivs[k-1].End.Unix() - c.epoch
				hi = lo + 86400
				if k < len(c.ivs) {
					hi = c.ivs[k].Start.Unix() - c.epoch
				}
			}
			if hi > lo {
				d := rapid.Int64Range(lo, hi-1).Draw(t, "free depart")
				free := rapid.Int64Range(0, hi-d).Draw(t, "free leg")
				if a := arriveBoth(t, c, tl, d, free); a != d+free {
					t.Fatalf("leg of %d s at +%d s in a gap [%d, %d) arrives at +%d s", free, d, lo, hi, a)
				}
			}

			// A leg wholly inside an interval of a decimal factor.
			iv := c.ivs[rapid.IntRange(0, len(c.ivs)-1).Draw(t, "interval")]
			percent := int64(math.Round(iv.Factor * 100))
			if float64(percent)/100 == iv.Factor {
				s, e := iv.Start.Unix()-c.epoch, iv.End.Unix()-c.epoch
				d := rapid.Int64Range(s, e-1).Draw(t, "slow depart")
				free := rapid.Int64Range(0, (e-d)*percent/100).Draw(t, "slow leg")
				want := (free*100 + percent - 1) / percent
				if a := arriveBoth(t, c, tl, d, free); a-d != want {
					t.Fatalf("leg of %d s at +%d s inside [%d, %d) at %v takes %d s, want %d", free, d, s, e, iv.Factor, a-d, want)
				}
			}
		}
	})
}

// TestArriveOddInputs: fractions of a second, legs of no time or of
// absurd length, and departures outside every interval neither panic nor
// run backwards.
func TestArriveOddInputs(t *testing.T) {
	ivs := SlowIntervals{{Start: unix(1000), End: unix(2000), Factor: 0.5}}
	tl := ivs.Timeline(unix(0))
	for _, free := range []time.Duration{-time.Second, 0, time.Nanosecond, 1500*time.Millisecond + 1, math.MaxInt64} {
		for _, depart := range []time.Time{unix(0), unix(1500).Add(time.Millisecond), unix(5000), {}} {
			got := ivs.Arrive(depart, free)
			if free > 0 && got.Sub(depart) < free {
				t.Errorf("leg of %v at %v arrives %v later", free, depart, got.Sub(depart))
			}
			if free <= 0 && !got.Equal(depart.Add(free)) {
				t.Errorf("leg of %v at %v arrives at %v", free, depart, got)
			}
		}
	}
	if got := tl.Arrive(1500.5, 10.25); got != 1500.5+10.25+11 {
		t.Errorf("fractional leg inside: %v, want the 10.25 s and 10.25 s more rounded up", got)
	}
	if got := tl.Arrive(0, math.Inf(1)); !math.IsInf(got, 1) {
		t.Errorf("infinite leg arrives at %v", got)
	}
	if got := tl.Arrive(math.NaN(), 5); !math.IsNaN(got) {
		t.Errorf("NaN departure arrives at %v", got)
	}
	if got := tl.Arrive(1200, math.NaN()); !math.IsNaN(got) {
		t.Errorf("NaN leg arrives at %v", got)
	}
}

// TestSlowTimelineAllocatesNothing: the simulation calls Arrive for every
// leg of every move it plays, and a backward pass Depart.
func TestSlowTimelineAllocatesNothing(t *testing.T) {
	tl := weekOfRushHours(t).Timeline(unix(0))
	if tl.Len() == 0 {
		t.Fatal("no intervals")
	}
	var sink float64
	if n := testing.AllocsPerRun(100, func() { sink += tl.Arrive(3*86400+7*3600, 5400) }); n != 0 {
		t.Errorf("Arrive allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { sink += tl.Depart(3*86400+9*3600, 5400) }); n != 0 {
		t.Errorf("Depart allocates %v times", n)
	}
	_ = sink
}

// weekOfRushHours is a week of morning and evening rush hours in Chicago
// from the epoch, as a DC might have.
func weekOfRushHours(tb testing.TB) SlowIntervals {
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		tb.Fatal(err)
	}
	weekdays := []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}
	h := RushHours{
		{From: 6*time.Hour + 30*time.Minute, To: 9 * time.Hour, Factor: 0.6, Days: weekdays},
		{From: 11*time.Hour + 30*time.Minute, To: 13 * time.Hour, Factor: 0.85},
		{From: 15*time.Hour + 30*time.Minute, To: 19 * time.Hour, Factor: 0.65, Days: weekdays},
	}
	return h.Intervals(loc, unix(0), unix(8*86400))
}

func BenchmarkSlowTimelineArrive(b *testing.B) {
	tl := weekOfRushHours(b).Timeline(unix(0))
	var sink float64
	depart := 0.0
	for b.Loop() {
		sink += tl.Arrive(depart, 2700)
		depart += 997
		if depart > 7*86400 {
			depart = 0
		}
	}
	_ = sink
}

// TestDepartInvertsArrive: the departure Depart gives arrives by the
// arrival asked for and, when the leg is slowed, a second later it
// arrives after it; unslowed, it is the arrival less free flow; and a
// later arrival never gives an earlier departure.
func TestDepartInvertsArrive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genSlowCase().Draw(t, "case")
		tl := c.ivs.Timeline(unix(c.epoch))
		arrive, free := genDepart(t, "arrive"), genFree(t, "free")
		d := tl.Depart(float64(arrive), float64(free))
		if d != math.Floor(d) {
			t.Fatalf("leg of %d s by +%d s: departs at %v", free, arrive, d)
		}
		if got := tl.Arrive(d, float64(free)); got > float64(arrive) {
			t.Fatalf("leg of %d s by +%d s: departs at %v, arrives at %v", free, arrive, d, got)
		}
		if next := tl.Arrive(d+1, float64(free)); next <= float64(arrive) {
			t.Fatalf("leg of %d s by +%d s: departs at %v, but a second later arrives at %v", free, arrive, d, next)
		}
		if exact := exactArrive(c.ivs, c.epoch+arrive-free, free); exact.Cmp(big.NewRat(c.epoch+arrive, 1)) == 0 && d != float64(arrive-free) {
			t.Fatalf("leg of %d s by +%d s meets no slowdown, departs at %v", free, arrive, d)
		}
		later := arrive + rapid.Int64Range(0, 7200).Draw(t, "later")
		if d2 := tl.Depart(float64(later), float64(free)); d2 < d {
			t.Fatalf("leg of %d s: by +%d s departs at %v, by +%d s at %v", free, arrive, d, later, d2)
		}
	})
	tl := SlowIntervals{{Start: unix(1000), End: unix(2000), Factor: 0.5}}.Timeline(unix(0))
	for _, tc := range []struct{ arrive, free, want float64 }{
		{2500, 2000, 0}, {1700, 100, 1500}, {900.5, 100.25, 800.25}, {1000, 0, 1000}, {2050, 100, 1900},
	} {
		if got := tl.Depart(tc.arrive, tc.free); got != tc.want {
			t.Errorf("Depart(%v, %v) = %v, want %v", tc.arrive, tc.free, got, tc.want)
		}
	}
	// Backwards, 290/0.29 is 1000.0000000000001 too: floating-point noise
	// puts d* a hair before 0, and Arrive(0, 290) is 1000.
	noisy := SlowIntervals{{Start: unix(-5000), End: unix(5000), Factor: 0.29}}.Timeline(unix(0))
	if got := noisy.Depart(1000, 290); got != 0 {
		t.Errorf("Depart(1000, 290) at 0.29 = %v, want 0", got)
	}
	if got := (SlowTimeline{}).Depart(10.5, 2.25); got != 8.25 {
		t.Errorf("no intervals: %v", got)
	}
}

// TestSlowTimelineProblems: a timeline from a checked profile has no
// problems; one from hand-made intervals names each bad interval.
func TestSlowTimelineProblems(t *testing.T) {
	const epoch = 1_772_000_000
	weekday := RushHours{{From: 6*time.Hour + 30*time.Minute, To: 9 * time.Hour, Factor: 0.6}, {From: 15*time.Hour + 30*time.Minute, To: 19 * time.Hour, Factor: 0.65}}
	good := weekday.Intervals(time.UTC, unix(epoch), unix(epoch+7*86400)).Timeline(unix(epoch))
	if good.Len() == 0 || len(good.Problems()) != 0 {
		t.Fatalf("checked profile: %d intervals, problems %q", good.Len(), good.Problems())
	}
	bad := SlowIntervals{
		{Start: unix(epoch + 100), End: unix(epoch + 200), Factor: 0.5},
		{Start: unix(epoch + 150), End: unix(epoch + 300), Factor: 0.5}, // overlaps
		{Start: unix(epoch + 400), End: unix(epoch + 400), Factor: 0.5}, // empty
		{Start: unix(epoch + 500), End: unix(epoch + 600), Factor: 0.05},
		{Start: unix(epoch + 700), End: unix(epoch + 800), Factor: math.NaN()},
	}.Timeline(unix(epoch))
	got := bad.Problems()
	want := []string{"interval 1: starts", "interval 2: ends", "interval 3: factor 0.05", "interval 4: factor NaN"}
	if len(got) != len(want) {
		t.Fatalf("problems %q, want %d", got, len(want))
	}
	for i := range want {
		if len(got[i]) < len(want[i]) || got[i][:len(want[i])] != want[i] {
			t.Errorf("problem %d = %q, want it to start %q", i, got[i], want[i])
		}
	}
}

// TestSlows: whether an interval overlaps an open span, at and around the
// ends of two intervals.
func TestSlows(t *testing.T) {
	const epoch = 1_772_000_000
	tl := SlowIntervals{
		{Start: unix(epoch + 100), End: unix(epoch + 200), Factor: 0.5},
		{Start: unix(epoch + 400), End: unix(epoch + 500), Factor: 0.8},
	}.Timeline(unix(epoch))
	for _, c := range []struct {
		from, to float64
		want     bool
	}{
		{0, 100, false}, {0, 101, true}, {150, 160, true}, {199, 300, true}, {200, 400, false},
		{200, 401, true}, {499, 600, true}, {500, 900, false}, {160, 150, false}, {-1e9, 1e9, true},
	} {
		if got := tl.Slows(c.from, c.to); got != c.want {
			t.Errorf("Slows(%g, %g) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
	if (SlowTimeline{}).Slows(-1e9, 1e9) {
		t.Errorf("the zero timeline slows travel")
	}
}
