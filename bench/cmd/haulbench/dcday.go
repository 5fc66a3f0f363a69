package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/haulplan/haulplan/bench/dcday"
	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

func init() {
	commands["dcday"] = command{summary: "grocery DC days (generated, or request files) planned end to end by engine.Plan", run: runDCDay}
}

const dcdayHeader = "instance,stores,pallets,routes,trailers_lower_bound,delivered,unassigned,km,cost,seconds_to_first_plan,seconds,peak_rss_mb,same_store_bound," +
	"shifts_used,shifts_lower_bound,trailer_units_used,trailer_units_lower_bound,peak_dock_doors"

// runDCDay plans generated DC days (bench/dcday) or request files with
// engine.Plan and prints one CSV row per run; every plan is re-checked by
// engine.Validate, and a plan that fails it fails the command.
//
// Peak RSS is the process's (VmHWM), so with several sizes each one runs in
// a child process of haulbench itself: one size's memory never shows in
// another's row.
func runDCDay(args []string, stdout, stderr io.Writer) error {
	fs, fl := dcdayFlagSet(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) { fl.set[f.Name] = true })
	ns, err := storeCounts(*fl.sizes, *fl.stores)
	if err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		fs.Usage()
		return fmt.Errorf("unexpected arguments %q (a request file goes with -in)", fs.Args())
	case (*fl.in != "") == (len(ns) > 0):
		fs.Usage()
		return errors.New("want one of -stores, -sizes or -in")
	case *fl.out != "" && len(ns) != 1:
		return errors.New("-out writes one generated day: use it with -stores")
	case *fl.planOut != "" && len(ns) > 1:
		return errors.New("-plan writes one plan: use it with -stores or -in")
	case *fl.in != "" && fl.set["travel"]:
		return errors.New("-travel chooses a generated day's road model: a request file has its own")
	case *fl.in != "" && fl.set["rush"]:
		return errors.New("-rush gives a generated day rush hours: a request file has its own travel.profile")
	case *fl.in != "" && (fl.set["halves"] || fl.set["halves-as-full"]):
		return errors.New("-halves and -halves-as-full choose a generated day's pallets: a request file has its own")
	case *fl.halves < 0 || *fl.halves > 1:
		return fmt.Errorf("-halves: %v is not a share from 0 to 1", *fl.halves)
	}
	if fl.obj, err = parseObjective(*fl.objective); err != nil {
		return err
	}
	var ok bool
	if fl.mode, ok = dcday.ParseMode(*fl.modeName); !ok {
		return fmt.Errorf("-mode: %q is not standard, realistic or door-limited", *fl.modeName)
	}
	if fl.travel, ok = travelModels[*fl.travelName]; !ok {
		return fmt.Errorf("-travel: %q is not bands, single or single-60", *fl.travelName)
	}
	if *fl.header {
		if _, err := fmt.Fprintln(stdout, dcdayHeader); err != nil {
			return err
		}
	}
	if *fl.in != "" {
		req, err := readWith(*fl.in, engine.DecodeRequest)
		if err != nil {
			return err
		}
		fl.options(&req.Options, true) // the file's options hold where no flag is given
		return planDCDay(strings.TrimSuffix(filepath.Base(*fl.in), filepath.Ext(*fl.in)), req, *fl.planOut, *fl.shiftUse, stdout, stderr)
	}
	if len(ns) > 1 {
		return dcdayChildren(ns, args, stdout, stderr)
	}
	req, err := dcday.Generate(dcday.Config{Stores: ns[0], Seed: uint64(*fl.seed), Mode: fl.mode, Travel: fl.travel,
		HalfShare: *fl.halves, HalvesAsFull: *fl.halvesAsFull})
	if err != nil {
		return err
	}
	fl.options(&req.Options, false)
	if *fl.rush {
		req.RushHours = weekdayRush
		req.DC.TimeZone = req.TimeZone().String() // the stores' zone, the generated DC's
	}
	if *fl.matrix {
		// -out is the request with its matrix, written on the way.
		if req, err = withRoadMatrix(req, *fl.out, stderr); err != nil {
			return err
		}
	} else if *fl.out != "" {
		b, err := engine.MarshalIndent(req)
		if err != nil {
			return err
		}
		if err := os.WriteFile(*fl.out, b, 0o644); err != nil {
			return err
		}
	}
	name := fmt.Sprintf("dcday-%d-s%d", ns[0], *fl.seed)
	if fl.mode != dcday.Standard {
		name = fmt.Sprintf("dcday-%v-%d-s%d", fl.mode, ns[0], *fl.seed)
	}
	if *fl.travelName != "bands" {
		name += "-" + *fl.travelName
	}
	if *fl.matrix {
		name += "-matrix"
	}
	if *fl.rush {
		name += "-rush"
	}
	if *fl.halves > 0 {
		name += fmt.Sprintf("-halves%g", *fl.halves)
	}
	if *fl.halvesAsFull {
		name += "-halves-as-full"
	}
	return planDCDay(name, req, *fl.planOut, *fl.shiftUse, stdout, stderr)
}

// weekdayRush is the rush hours -rush gives a generated day: the morning
// and evening peaks of a weekday, when trucks keep 60 % and 65 % of their
// free-flow speed.
var weekdayRush = geo.RushHours{
	{From: 6*time.Hour + 30*time.Minute, To: 9 * time.Hour, Factor: 0.6, Days: weekdays},
	{From: 15*time.Hour + 30*time.Minute, To: 19 * time.Hour, Factor: 0.65, Days: weekdays},
}

var weekdays = []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}

// dcdayFlags are the flags of haulbench dcday.
type dcdayFlags struct {
	stores, iterations, streams *int
	sizes, objective, in, out   *string
	planOut                     *string
	modeName, travelName        *string
	seed                        *int64
	limit                       *time.Duration
	whole, header, matrix, rush *bool
	halves                      *float64
	halvesAsFull                *bool
	shiftUse                    *bool
	set                         map[string]bool // the flags given on the command line
	obj                         engine.Objective
	mode                        dcday.Mode
	travel                      geo.TravelModel
}

// travelModels are the road models -travel chooses for a generated day:
// geo's default speed bands; the single-speed model with its defaults,
// 55 km/h over a circuity of 1.3, which a request without travel drove
// before the bands; or 60 km/h over 1.25, a single speed that reaches a
// store 250 km out and back within 11 h of driving, only just.
var travelModels = map[string]geo.TravelModel{
	"bands":     {},
	"single":    {SpeedKmh: geo.DefaultSpeedKmh, Circuity: geo.DefaultCircuity},
	"single-60": {SpeedKmh: 60, Circuity: 1.25},
}

// dcdayFlagSet defines the flags of haulbench dcday and its usage.
func dcdayFlagSet(stderr io.Writer) (*flag.FlagSet, *dcdayFlags) {
	fs := flag.NewFlagSet("dcday", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fl := &dcdayFlags{set: map[string]bool{}}
	fl.stores = fs.Int("stores", 0, "plan one generated day of N stores")
	fl.sizes = fs.String("sizes", "", "plan generated days of these store counts, comma-separated, each in a child process")
	fl.seed = fs.Int64("seed", 1, "seed of the generated day and of the search (engine Options.Seed)")
	fl.limit = fs.Duration("time", engine.DefaultTimeLimit, "time limit of each planning call")
	fl.iterations = fs.Int("iterations", 0, "iteration budget of each search stream (0: the time limit alone)")
	fl.streams = fs.Int("streams", 0, fmt.Sprintf("search streams (0: engine's default, %d)", engine.DefaultStreams))
	fl.objective = fs.String("objective", "", "trailers (fewest routes, then cost), drivers (fewest shifts, then routes, then cost) or cost (engine Options.Objective; empty: engine's default, or the file's)")
	fl.modeName = fs.String("mode", "standard", "the generated day: standard (doc of bench/dcday), realistic (stores 60-120 km out, fewer drivers and trailer units than trips, 10-30 doors, night loading and staging), door-limited (1,000 stores want it: 20 doors, 8 h of night loading) or near (the realistic day 20-60 km out with drivers and trailers to spare and unlimited doors)")
	fl.travelName = fs.String("travel", "bands", "the generated day's road model: bands (geo's default speed bands), single (one speed, 55 km/h over a circuity of 1.3, geo's single-speed defaults) or single-60 (60 km/h over 1.25)")
	fl.whole = fs.Bool("whole", false, "keep each store's pallets of one class on one trailer (engine Options.WholeDeliveries)")
	fl.in = fs.String("in", "", "plan this request file (engine JSON) instead of a generated day")
	fl.out = fs.String("out", "", "write the generated request, with the options above, to FILE.json")
	fl.planOut = fs.String("plan", "", "write the plan (engine JSON) to FILE.json")
	fl.matrix = fs.Bool("matrix", false, "send the generated day's travel as a road matrix: embed geo's travel model between the DC and the stores as travel.matrix, write the request as JSON (to -out if given) and plan what engine.DecodeRequest reads back; stderr gets the body's bytes and the decoding time, and the row's peak RSS is of decoding and planning")
	fl.rush = fs.Bool("rush", false, "give the generated day weekday rush hours on the DC's clock (travel.profile: 06:30-09:00 at 0.6 of free-flow speed, 15:30-19:00 at 0.65)")
	fl.shiftUse = fs.Bool("shifts", false, "also print to stderr how the plan uses its shifts and trailer units: shifts and units by their number of trips, duty hours a shift, and how many single-trip shifts could hand their trip, as timed, to another shift")
	fl.header = fs.Bool("header", true, "print the CSV header (child runs of -sizes leave it out)")
	fl.halves = fs.Float64("halves", 0, "share of half pallets in the generated day, 0 to 1 (0: bench/dcday's default, 6 %)")
	fl.halvesAsFull = fs.Bool("halves-as-full", false, "give the generated day's half pallets a full 48×40 in footprint, nothing else changed: what sharing floor positions saves")
	fs.Usage = commandUsage(fs, stderr,
		"haulbench dcday (-stores N | -sizes N,N,... | -in FILE.json) [-mode standard|realistic|door-limited|near] [-travel bands|single|single-60] [-rush] [-halves 0.06] [-halves-as-full] [-seed 1] [-time 10s] [-iterations 0] [-streams 0] [-objective trailers|drivers|cost] [-whole] [-shifts] [-matrix] [-out FILE.json] [-plan FILE.json]",
		"Plans grocery DC days generated by bench/dcday (or engine request files)\n"+
			"with engine.Plan, re-checks every plan with engine.Validate and prints one\n"+
			"CSV row per run on stdout:\n  "+dcdayHeader+"\n"+
			"and on stderr the trailers and shifts used, how the floors are used (positions,\n"+
			"stacks, halves sharing a position) and why pallets stayed behind.\n"+
			"With -sizes each size runs in a child process, so that its peak RSS\n"+
			"(VmHWM) is its own.",
		"haulbench dcday -sizes 50,200,1000,5000 -time 60s -seed 1 > dcday.csv",
		"none needed: the days are generated from -seed (nothing in ../shared/data);\n"+
			"-out saves one as an engine request, -in plans any request file, -plan\n"+
			"writes the plan;\n"+
			"bench/scripts/dcday.sh runs the standard table.")
	return fs, fl
}

// storeCounts returns the store counts of -sizes (comma-separated) and
// then -stores (when not 0).
func storeCounts(sizes string, stores int) ([]int, error) {
	var ns []int
	if sizes != "" {
		for f := range strings.SplitSeq(sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 || n > engine.MaxStores {
				return nil, fmt.Errorf("-sizes: %q is not a store count from 1 to %d", f, engine.MaxStores)
			}
			ns = append(ns, n)
		}
	}
	if stores != 0 {
		ns = append(ns, stores)
	}
	return ns, nil
}

// parseObjective reads -objective: empty for the engine's default.
func parseObjective(s string) (engine.Objective, error) {
	if s == "" {
		return 0, nil
	}
	known := []engine.Objective{engine.FewestTrailers, engine.FewestDrivers, engine.LowestCost}
	i := slices.IndexFunc(known, func(o engine.Objective) bool { return o.String() == s })
	if i < 0 {
		return 0, fmt.Errorf("-objective: %q is none of %q, %q and %q", s, engine.FewestTrailers, engine.FewestDrivers, engine.LowestCost)
	}
	return known[i], nil
}

// options sets the planning options the flags give: all of them, or with
// keep only those given on the command line, so that a request file's own
// options hold where no flag is given.
func (fl *dcdayFlags) options(o *engine.Options, keep bool) {
	if !keep || fl.set["time"] {
		o.TimeLimit = *fl.limit
	}
	if !keep || fl.set["iterations"] {
		o.Iterations = *fl.iterations
	}
	if !keep || fl.set["seed"] {
		o.Seed = *fl.seed
	}
	if !keep || fl.set["streams"] {
		o.Streams = *fl.streams
	}
	if !keep || fl.set["objective"] {
		o.Objective = fl.obj
	}
	if !keep || fl.set["whole"] {
		o.WholeDeliveries = *fl.whole
	}
}

// dcdayChildren runs each size as `haulbench dcday -stores N` with the
// other flags of args, one after the other, so that each row's peak RSS is
// its own; a failed size is reported and the others still run.
func dcdayChildren(ns []int, args []string, stdout, stderr io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := strings.TrimLeft(args[i], "-")
		name, _, hasValue := strings.Cut(a, "=")
		switch name {
		case "sizes", "stores", "header":
			if !hasValue && name != "header" {
				i++ // the value is the next argument
			}
			continue
		}
		rest = append(rest, args[i])
	}
	var failed []string
	for _, n := range ns {
		cmd := exec.Command(exe, append([]string{"dcday", "-stores", strconv.Itoa(n), "-header=false"}, rest...)...)
		cmd.Stdout, cmd.Stderr = stdout, stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(stderr, "dcday %d stores: %v\n", n, err)
			failed = append(failed, strconv.Itoa(n))
		}
	}
	if failed != nil {
		return fmt.Errorf("%d of %d sizes failed (%s stores)", len(failed), len(ns), strings.Join(failed, ", "))
	}
	return nil
}

// planDCDay plans req, checks the plan with engine.Validate, writes it to
// the file planOut unless that is empty, and prints its row and a summary
// of what the plan left unused and why pallets stay behind; with shifts,
// also how it uses its shifts and units (measureShiftUse).
func planDCDay(name string, req engine.Request, planOut string, shifts bool, stdout, stderr io.Writer) error {
	var mu sync.Mutex
	var first, anyPlan time.Duration
	req.Options.Progress = func(p engine.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Routes > 0 && anyPlan == 0 {
			anyPlan = p.Elapsed
		}
		if p.Phase == engine.PhaseRouting && p.Routes > 0 && first == 0 {
			first = p.Elapsed
		}
	}
	began := time.Now()
	plan, err := engine.Plan(context.Background(), req)
	secs := time.Since(began).Seconds()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := engine.Validate(req, plan); err != nil {
		fmt.Fprintf(stderr, "%s: PLAN FAILS engine.Validate: %v\n", name, err)
		return fmt.Errorf("%s: the plan fails engine.Validate", name)
	}
	if planOut != "" {
		b, err := engine.MarshalIndent(plan)
		if err != nil {
			return err
		}
		if err := os.WriteFile(planOut, b, 0o644); err != nil {
			return err
		}
	}
	mu.Lock()
	if first == 0 {
		first = anyPlan
	}
	mu.Unlock()
	m := plan.Metrics
	rss := ""
	if kb, ok := peakRSSKB(); ok {
		rss = fmt.Sprintf("%.0f", float64(kb)/1024)
	}
	sameStore, err := engine.SameStoreStackingBound(req, plan)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if _, err := fmt.Fprintf(stdout, "%s,%d,%d,%d,%d,%d,%d,%.1f,%.2f,%.2f,%.2f,%s,%d,%d,%d,%d,%d,%d\n", name, len(req.Stores), len(req.Pallets),
		m.Routes, m.TrailersLowerBound, m.Pallets, m.Unassigned, m.DistanceM/1000, m.Cost, first.Seconds(), secs, rss, sameStore,
		m.ShiftsUsed, m.ShiftsLowerBound, m.TrailerUnitsUsed, m.TrailerUnitsLowerBound, m.PeakDockDoors); err != nil {
		return err
	}
	if shifts {
		writeShiftUse(stderr, name, measureShiftUse(req, plan))
	}
	return summariseDCDay(stderr, name, req, plan, secs, req.Options.TimeLimit)
}

// summariseDCDay writes what a row does not hold: the gap to the bound,
// the trailers and shifts left unused, how the floors are used, and why
// pallets stayed behind.
func summariseDCDay(w io.Writer, name string, req engine.Request, plan engine.Result, secs float64, limit time.Duration) error {
	m := plan.Metrics
	// How full the trailers of each type ride, and how much ambient
	// freight takes reefer room, say whether a plan's extra routes are
	// half-empty trailers or a fleet that runs out of one kind.
	temp := make(map[string]constraints.Temperature, len(req.Pallets))
	for _, p := range req.Pallets {
		temp[p.ID] = p.Temperature
	}
	kind := map[string]constraints.EquipmentKind{}
	for _, t := range req.Fleet {
		kind[t.ID] = t.Equipment.Kind
	}
	used, positions := map[string]int{}, map[string]int{}
	ambientOnReefers := 0
	// A store's pallets of one class on two or more trailers: what taking
	// routes off (the trailers objective) costs the stores in receiving.
	type storeClass struct {
		store string
		class constraints.Temperature
	}
	trailersOf := map[storeClass]map[string]bool{}
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				k := storeClass{st.Store, temp[id]}
				if trailersOf[k] == nil {
					trailersOf[k] = map[string]bool{}
				}
				trailersOf[k][r.ID] = true
			}
		}
	}
	split := 0
	for _, rs := range trailersOf {
		if len(rs) > 1 {
			split++
		}
	}
	for _, r := range plan.Routes {
		used[r.Trailer]++
		positions[r.Trailer] += r.Metrics.Positions
		if kind[r.Trailer] != constraints.DryVan {
			for _, st := range r.Stops {
				for _, id := range st.Pallets {
					if temp[id] == constraints.Ambient {
						ambientOnReefers++
					}
				}
			}
		}
	}
	var fleet []string
	for _, t := range req.Fleet {
		fill := ""
		if used[t.ID] > 0 {
			fill = fmt.Sprintf(" (%.1f of %d positions a route)", float64(positions[t.ID])/float64(used[t.ID]), t.PalletPositions)
		}
		fleet = append(fleet, fmt.Sprintf("%s %d/%d%s", t.ID, used[t.ID], t.Count, fill))
	}
	over := 0.0
	if m.TrailersLowerBound > 0 {
		over = 100 * float64(m.Routes-m.TrailersLowerBound) / float64(m.TrailersLowerBound)
	}
	fmt.Fprintf(w, "%s: %d routes, bound %d (+%.1f %%); %d of %d pallets delivered; trailers used %s; %d ambient pallets on reefers; %d of %d store deliveries of one class on two or more trailers; shifts used %d/%d; %.1f s against a limit of %s\n",
		name, m.Routes, m.TrailersLowerBound, over, m.Pallets, len(req.Pallets), strings.Join(fleet, ", "), ambientOnReefers, split, len(trailersOf), m.ShiftsUsed, len(req.Shifts), secs, limit)
	fmt.Fprintf(w, "%s: %d routes (trips); shifts used %d, bound %d (%s); trailer units used %d, bound %d (%s); at most %d trailers loading at once on %s\n",
		name, m.Routes, m.ShiftsUsed, m.ShiftsLowerBound, overBound(m.ShiftsUsed, m.ShiftsLowerBound),
		m.TrailerUnitsUsed, m.TrailerUnitsLowerBound, overBound(m.TrailerUnitsUsed, m.TrailerUnitsLowerBound), m.PeakDockDoors, doorsText(req.DC.DockDoors))
	writeFloorUse(w, name, measureFloorUse(req, plan))
	if len(plan.Unassigned) > 0 {
		reasons := map[string]int{}
		for _, u := range plan.Unassigned {
			reasons[u.Reason]++
		}
		var rs []string
		for r, c := range reasons {
			rs = append(rs, fmt.Sprintf("%d %s", c, r))
		}
		slices.Sort(rs)
		fmt.Fprintf(w, "%s: unassigned: %s; first: %s (%s)\n", name, strings.Join(rs, ", "), plan.Unassigned[0].Pallet, plan.Unassigned[0].Message)
	}
	return nil
}

// peakRSSKB reads the process's peak resident set size (VmHWM) from
// /proc/self/status; false where there is no such file.
func peakRSSKB() (int, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb, err == nil
		}
	}
	return 0, false
}

// overBound says how far used lies above its lower bound, in per cent.
func overBound(used, bound int) string {
	if bound <= 0 {
		return "no bound"
	}
	return fmt.Sprintf("%+.1f %%", 100*float64(used-bound)/float64(bound))
}

// doorsText names the DC's dock doors: a number, or unlimited for 0.
func doorsText(doors int) string {
	if doors == 0 {
		return "unlimited doors"
	}
	return fmt.Sprintf("%d doors", doors)
}
