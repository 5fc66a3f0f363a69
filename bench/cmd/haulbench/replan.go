package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/haulplan/haulplan/bench/dcday"
	"github.com/haulplan/haulplan/engine"
)

func init() {
	commands["replan"] = command{summary: "how much a generated DC day's plan changes when the night's changes are planned again, from scratch and from the previous plan under a lock", run: runReplan}
}

const replanHeader = "instance,mode,stores,pallets,stores_after,pallets_after,delivered_before,delivered_after,extra_pallets,extra_delivered," +
	"added_stores_delivered,locked_routes,locked_changed,locked_gained,extra_on_locked,stores_compared,stores_moved,stores_retimed,stores_moved_or_retimed,moved_or_retimed_share," +
	"unlocked_compared,unlocked_moved_or_retimed,unlocked_share,unlocked_stops,unlocked_stops_moved_or_retimed,unlocked_stops_share," +
	"routes_before,routes_after,routes_changed,seconds,first_full_seconds"

// runReplan plans a generated day, changes its request as a night does
// (dcday.LateChanges: 5 % more pallets, two stores added, one removed)
// and plans the changed request again in each of the modes -modes asks
// for: from scratch ("scratch"), the figure re-planning is to beat, and
// from the previous plan ("previous": Request.Previous, with the lock
// -lock says). It prints a row per mode of how far the second plan strays
// from the first (engine.Changes), over all stores and over the stores
// no locked route delivers. Every plan is re-checked by engine.Validate,
// given the previous plan and the lock, and the bench checks on its own
// that every locked route is in the new plan as it was.
func runReplan(args []string, stdout, stderr io.Writer) error {
	f, err := parseReplanFlags(args, stderr)
	if err != nil {
		return err
	}
	req, name, err := f.request()
	if err != nil {
		return err
	}
	f.day.options(&req.Options, false)
	before, err := firstPlan(name+" (before)", req, *f.beforeFile)
	if err != nil {
		return err
	}
	// The night cancels a store whose trailer is not loaded yet: one off
	// the routes the lock fixes, in every mode, so that the modes plan
	// the same changes.
	lock := replanLock(before, *f.lockName)
	var spare []string
	for _, l := range lockedRoutes(before, lock) {
		for _, st := range l.Stops {
			spare = append(spare, st.Store)
		}
	}
	changed, made, err := dcday.LateChangesSparing(req, uint64(*f.day.seed), spare)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(stdout, replanHeader); err != nil {
		return err
	}
	for _, mode := range f.runs {
		r := replanRow{name: name, mode: mode, req: req, changed: changed, before: before, made: made}
		if err := f.replan(&r, lock, stdout, stderr); err != nil {
			return err
		}
	}
	return nil
}

// replanFlags are haulbench replan's flags: the day's, as dcday's, and
// the re-plan's own; runs are the modes -modes asks for.
type replanFlags struct {
	day                    *dcdayFlags
	replanLimit, tolerance *time.Duration
	changesOut, modes      *string
	beforeFile, cpuProfile *string
	requestFile, lockName  *string
	runs                   []string
}

// parseReplanFlags reads runReplan's arguments, and checks them.
func parseReplanFlags(args []string, stderr io.Writer) (*replanFlags, error) {
	fs := flag.NewFlagSet("replan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fl := &dcdayFlags{set: map[string]bool{}, whole: new(bool)}
	f := &replanFlags{day: fl}
	fl.stores = fs.Int("stores", 0, "plan a generated day of N stores")
	fl.seed = fs.Int64("seed", 1, "seed of the generated day, of its late changes and of the search (engine Options.Seed)")
	fl.limit = fs.Duration("time", engine.DefaultTimeLimit, "time limit of the first plan and of the re-plan from scratch")
	f.replanLimit = fs.Duration("replan-time", 0, "time limit of the re-plan from the previous plan (0: engine's default for a re-plan, engine.DefaultReplanTimeLimit)")
	fl.iterations = fs.Int("iterations", 0, "iteration budget of each search stream (0: the time limit alone)")
	fl.streams = fs.Int("streams", 0, fmt.Sprintf("search streams (0: engine's default, %d)", engine.DefaultStreams))
	fl.objective = fs.String("objective", "", "trailers, drivers or cost (engine Options.Objective; empty: engine's default)")
	fl.modeName = fs.String("mode", "standard", "the generated day: standard, realistic, door-limited or near (as haulbench dcday -mode)")
	f.changesOut = fs.String("changes", "", "write the changes of the last mode (engine.PlanChanges JSON) to `FILE.json`")
	f.tolerance = fs.Duration("tolerance", engine.DefaultChangeTolerance, "how far a store's arrival may move before it counts as retimed")
	f.modes = fs.String("modes", "scratch,previous", "the re-plans to run: scratch, previous or both, comma-separated")
	f.beforeFile = fs.String("before", "", "read the first plan from `FILE.json` when it exists, else plan it and write it there (re-plans of one first plan compare)")
	f.cpuProfile = fs.String("cpuprofile", "", "write a CPU profile of the re-plans from the previous plan to `FILE`")
	f.requestFile = fs.String("request", "", "re-plan the request in `FILE.json` (the quickstart's sample, say) instead of a generated day; -stores and -mode are then ignored")
	f.lockName = fs.String("lock", "before", "the lock of a re-plan from the previous plan: before (lock.before at the median loading start), routes (lock.routes: every other route) or none")
	fs.Usage = commandUsage(fs, stderr,
		"haulbench replan -stores N|-request FILE.json [-mode standard|realistic|door-limited|near] [-seed 1] [-time 10s] [-replan-time 0] [-iterations 0] [-streams 0] [-objective trailers|drivers|cost] [-tolerance 15m] [-modes scratch,previous] [-lock before|routes|none] [-changes FILE.json]",
		"Plans a grocery DC day generated by bench/dcday, applies the night's late\n"+
			"changes (dcday.LateChanges, drawn from -seed: 5 % more pallets on the\n"+
			"day's stores, 2 stores added, 1 removed), plans the changed day again,\n"+
			"from scratch and from the previous plan under -lock, and prints a CSV row\n"+
			"per mode on stdout:\n  "+replanHeader+"\n"+
			"moved_or_retimed_share is the stores moved to other routes (trailer unit,\n"+
			"shift, trip) or whose arrival moved by more than -tolerance, over the\n"+
			"stores both plans deliver; unlocked_share the same over the stores no\n"+
			"locked route delivers; unlocked_stops_share the stops of the unlocked\n"+
			"routes the new plan does not make on the same route within -tolerance\n"+
			"(the issue's measure); locked_changed counts the locked routes the new\n"+
			"plan does not have as they were or as they were with late pallets added\n"+
			"(engine.Lock: every pallet standing where it stood, the stops as they\n"+
			"were, later by at most -tolerance), locked_gained those with late pallets\n"+
			"added, extra_on_locked the extra pallets riding locked routes; routes_changed counts the routes whose\n"+
			"paperwork changed (engine.ChangeMetrics); seconds is the re-plan's time,\n"+
			"first_full_seconds when its search first had a plan that delivers as\n"+
			"many pallets (engine.Progress).\n"+
			"stderr gets a summary.",
		"haulbench replan -stores 1000 -time 30s -replan-time 2s -seed 1",
		"none needed: the day and its changes are generated from -seed (nothing in\n"+
			"../shared/data); bench/scripts/replan.sh runs the standard pair (200 stores\n"+
			"at 10 s, 1,000 at 30 s) into bench/results/replan.md.")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	runs, err := replanModes(*f.modes)
	switch {
	case fs.NArg() > 0:
		fs.Usage()
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	case *f.requestFile == "" && (*fl.stores < 2 || *fl.stores > engine.MaxStores):
		fs.Usage()
		return nil, fmt.Errorf("-stores: want 2 to %d stores, got %d", engine.MaxStores, *fl.stores)
	case *f.tolerance <= 0:
		return nil, fmt.Errorf("-tolerance: want a positive duration, got %v", *f.tolerance)
	case *f.replanLimit < 0:
		return nil, fmt.Errorf("-replan-time: want a duration of 0 or more, got %v", *f.replanLimit)
	case err != nil:
		return nil, err
	case *f.lockName != "before" && *f.lockName != "routes" && *f.lockName != "none":
		return nil, fmt.Errorf("-lock: %q is not before, routes or none", *f.lockName)
	}
	f.runs = runs
	if fl.obj, err = parseObjective(*fl.objective); err != nil {
		return nil, err
	}
	var ok bool
	if fl.mode, ok = dcday.ParseMode(*fl.modeName); !ok {
		return nil, fmt.Errorf("-mode: %q is not standard, realistic, door-limited or near", *fl.modeName)
	}
	return f, nil
}

// request is the day to plan, read from -request or generated, and its
// instance name.
func (f *replanFlags) request() (engine.Request, string, error) {
	fl := f.day
	name := fmt.Sprintf("replan-%d-s%d", *fl.stores, *fl.seed)
	if *f.requestFile != "" {
		req, err := readRequest(*f.requestFile)
		if err != nil {
			return engine.Request{}, "", err
		}
		return req, fmt.Sprintf("replan-%s-s%d", strings.TrimSuffix(filepath.Base(*f.requestFile), ".json"), *fl.seed), nil
	}
	req, err := dcday.Generate(dcday.Config{Stores: *fl.stores, Seed: uint64(*fl.seed), Mode: fl.mode})
	if err != nil {
		return engine.Request{}, "", err
	}
	if fl.mode != dcday.Standard {
		name = fmt.Sprintf("replan-%v-%d-s%d", fl.mode, *fl.stores, *fl.seed)
	}
	return req, name, nil
}

// replan plans r.changed again in mode r.mode (from the previous plan
// r.before under lock, or from scratch), checks the plan with
// engine.Validate, and writes its row r.
func (f *replanFlags) replan(r *replanRow, lock engine.Lock, stdout, stderr io.Writer) error {
	again := r.changed
	if r.mode == "previous" {
		again.Previous = &r.before
		again.Lock = lock
		again.Options.TimeLimit = *f.replanLimit
	}
	// When the search first had a plan that delivers what the returned
	// plan delivers (a progress report's Delivered).
	type report struct {
		at        time.Duration
		delivered int
	}
	var reports []report
	again.Options.Progress = func(p engine.Progress) { reports = append(reports, report{p.Elapsed, p.Delivered}) }
	profile := r.mode == "previous" && *f.cpuProfile != ""
	if profile {
		pf, err := os.Create(*f.cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			pf.Close()
			return err
		}
	}
	// seconds is the engine.Plan call alone; the bench's own Validate of
	// its plan comes after.
	began := time.Now()
	after, err := engine.Plan(context.Background(), again)
	r.secs = time.Since(began).Seconds()
	if profile {
		pprof.StopCPUProfile()
	}
	what := fmt.Sprintf("%s (%s, after the late changes)", r.name, r.mode)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := engine.Validate(again, after); err != nil {
		return errors.Join(fmt.Errorf("%s: the plan fails engine.Validate", what), err)
	}
	r.after = after
	r.first = r.secs
	for _, p := range reports {
		if p.delivered >= after.Metrics.Pallets {
			r.first = p.at.Seconds()
			break
		}
	}
	if r.pc, err = engine.Changes(r.before, after, engine.ChangeOptions{Tolerance: *f.tolerance}); err != nil {
		return err
	}
	if *f.changesOut != "" {
		b, err := engine.MarshalIndent(r.pc)
		if err != nil {
			return err
		}
		if err := os.WriteFile(*f.changesOut, b, 0o644); err != nil {
			return err
		}
	}
	if r.mode == "previous" {
		r.count(lockedRoutes(r.before, lock), *f.tolerance)
	} else {
		r.count(nil, *f.tolerance)
	}
	return r.write(stdout, stderr, *f.tolerance)
}

// readRequest decodes the request in file.
func readRequest(file string) (engine.Request, error) {
	f, err := os.Open(file)
	if err != nil {
		return engine.Request{}, fmt.Errorf("-request: %w", err)
	}
	defer f.Close()
	req, err := engine.DecodeRequest(f)
	if err != nil {
		return engine.Request{}, fmt.Errorf("-request %s: %w", file, err)
	}
	return req, nil
}

// replanModes reads -modes.
func replanModes(s string) ([]string, error) {
	var out []string
	for m := range strings.SplitSeq(s, ",") {
		if m != "scratch" && m != "previous" {
			return nil, fmt.Errorf("-modes: %q is not scratch or previous", m)
		}
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out, nil
}

// replanLock is the lock -lock names on the previous plan: lock.before
// at the median loading start (the earlier half of the routes loading or
// loaded), every other route by id, or none.
func replanLock(prev engine.Result, name string) engine.Lock {
	if len(prev.Routes) == 0 {
		return engine.Lock{}
	}
	switch name {
	case "before":
		starts := make([]time.Time, len(prev.Routes))
		for i, r := range prev.Routes {
			starts[i] = r.LoadingStart
		}
		slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
		return engine.Lock{Before: starts[(len(starts)-1)/2]}
	case "routes":
		var ids []string
		for i, r := range prev.Routes {
			if i%2 == 0 {
				ids = append(ids, r.ID)
			}
		}
		return engine.Lock{Routes: ids}
	}
	return engine.Lock{}
}

// lockedRoutes lists the previous plan's routes the lock fixes, as the
// bench reads engine.Lock on its own: by id, by loading start, by store,
// and the earlier trips of a locked trip's shift.
func lockedRoutes(prev engine.Result, lock engine.Lock) []engine.Route {
	on := make([]bool, len(prev.Routes))
	for i, r := range prev.Routes {
		on[i] = slices.Contains(lock.Routes, r.ID) || (!lock.Before.IsZero() && !r.LoadingStart.After(lock.Before)) ||
			slices.ContainsFunc(r.Stops, func(st engine.Stop) bool { return slices.Contains(lock.Stores, st.Store) })
	}
	var out []engine.Route
	for _, r := range prev.Routes {
		for j, l := range prev.Routes {
			if on[j] && l.Shift == r.Shift && l.Trip >= r.Trip {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// replanRow is one mode's figures.
type replanRow struct {
	name, mode              string
	req, changed            engine.Request
	before, after           engine.Result
	made                    dcday.LateChangesMade
	pc                      engine.PlanChanges
	secs, first             float64 // the call's seconds; when its search first had a plan delivering as much
	locked, lockedChanged   int
	lockedGained            int // locked routes that took late pallets
	extraOnLocked           int // extra pallets riding locked routes
	unlockedCompared, unMoR int
	// stops and stopsMoR count the stops of the previous plan's unlocked
	// routes at stores the changed day still has, and those of them the
	// new plan does not make on the same route (trailer unit, shift,
	// trip) within the tolerance of the old arrival.
	stops, stopsMoR int
}

// count sets the row's lock figures: the locked routes, those the new
// plan does not have as they were (same trailer unit, shift and trip,
// dock door, times, stops with their times and pallets, floor
// placements), and the stores no locked route delivers.
func (r *replanRow) count(locked []engine.Route, tolerance time.Duration) {
	r.locked = len(locked)
	onLocked := map[string]bool{}
	for _, l := range locked {
		for _, st := range l.Stops {
			onLocked[st.Store] = true
		}
		same, gained := false, 0
		for _, n := range r.after.Routes {
			if n.TrailerUnit == l.TrailerUnit && n.Shift == l.Shift && n.Trip == l.Trip {
				same = sameLockedRoute(l, n)
				if !same {
					gained = lateOnLockedRoute(l, n, tolerance)
				}
			}
		}
		switch {
		case gained > 0:
			r.lockedGained++
			r.extraOnLocked += gained
		case !same:
			r.lockedChanged++
		}
	}
	type key struct {
		unit, shift string
		trip        int
	}
	isLocked := map[key]bool{}
	for _, l := range locked {
		isLocked[key{l.TrailerUnit, l.Shift, l.Trip}] = true
	}
	now := map[key]map[string]time.Time{} // the new plan's arrivals, by route and store
	for _, n := range r.after.Routes {
		k := key{n.TrailerUnit, n.Shift, n.Trip}
		now[k] = map[string]time.Time{}
		for _, st := range n.Stops {
			now[k][st.Store] = st.Arrival
		}
	}
	stores := map[string]bool{}
	for _, s := range r.changed.Stores {
		stores[s.ID] = true
	}
	for _, p := range r.before.Routes {
		k := key{p.TrailerUnit, p.Shift, p.Trip}
		if isLocked[k] {
			continue
		}
		for _, st := range p.Stops {
			if len(st.Pallets) == 0 || !stores[st.Store] {
				continue
			}
			r.stops++
			at, ok := now[k][st.Store]
			if d := at.Sub(st.Arrival); !ok || d > tolerance || -d > tolerance {
				r.stopsMoR++
			}
		}
	}
	changed := map[string]engine.StoreChange{}
	for _, c := range r.pc.Stores {
		changed[c.Store] = c
	}
	// The stores both plans deliver, as Changes counts them, less those
	// on locked routes.
	inAfter := deliveredStores(r.after)
	for s := range deliveredStores(r.before) {
		if !inAfter[s] || onLocked[s] {
			continue
		}
		r.unlockedCompared++
		if c, ok := changed[s]; ok && (c.Has(engine.Moved) || c.Has(engine.Retimed)) {
			r.unMoR++
		}
	}
}

// sameLockedRoute reports whether route b is route a to the second and
// the placement (its id and breaks may differ: ids number the new plan's
// routes, and breaks are stated anew).
func sameLockedRoute(a, b engine.Route) bool {
	if a.Trailer != b.Trailer || a.DockDoor != b.DockDoor || !a.LoadingStart.Equal(b.LoadingStart) || !a.LoadingEnd.Equal(b.LoadingEnd) ||
		!a.Start.Equal(b.Start) || !a.Depart.Equal(b.Depart) || !a.Return.Equal(b.Return) || len(a.Stops) != len(b.Stops) ||
		!slices.Equal(a.Load.Placements, b.Load.Placements) {
		return false
	}
	for k, s := range a.Stops {
		t := b.Stops[k]
		if s.Store != t.Store || !s.Arrival.Equal(t.Arrival) || !s.Start.Equal(t.Start) || !s.Departure.Equal(t.Departure) || !slices.Equal(s.Pallets, t.Pallets) {
			return false
		}
	}
	return true
}

// lateOnLockedRoute is how many pallets route b, the new plan's route of
// locked route a, carries besides a's when b is a with late pallets added
// as engine.Lock allows, read on the bench's own: the same trailer, door
// and loading start, the same stops in the same order, each with a's
// pallets first, every placement of a first and unchanged, no time
// earlier and the return later by at most tolerance. It is 0 for any
// other route.
func lateOnLockedRoute(a, b engine.Route, tolerance time.Duration) int {
	if a.Trailer != b.Trailer || a.DockDoor != b.DockDoor || !a.LoadingStart.Equal(b.LoadingStart) || len(a.Stops) != len(b.Stops) ||
		len(b.Load.Placements) < len(a.Load.Placements) || !slices.Equal(a.Load.Placements, b.Load.Placements[:len(a.Load.Placements)]) ||
		b.Depart.Before(a.Depart) || b.Return.Before(a.Return) || b.Return.Sub(a.Return) > tolerance {
		return 0
	}
	added := 0
	for k, s := range a.Stops {
		t := b.Stops[k]
		if s.Store != t.Store || len(t.Pallets) < len(s.Pallets) || !slices.Equal(s.Pallets, t.Pallets[:len(s.Pallets)]) || t.Arrival.Before(s.Arrival) {
			return 0
		}
		added += len(t.Pallets) - len(s.Pallets)
	}
	return added
}

// deliveredStores are the stores a plan delivers a pallet to.
func deliveredStores(p engine.Result) map[string]bool {
	out := map[string]bool{}
	for _, r := range p.Routes {
		for _, st := range r.Stops {
			if len(st.Pallets) > 0 {
				out[st.Store] = true
			}
		}
	}
	return out
}

// write prints the row and its summary.
func (r *replanRow) write(stdout, stderr io.Writer, tolerance time.Duration) error {
	delivered := deliveredPallets(r.after)
	extraDelivered := 0
	for _, id := range r.made.ExtraPallets {
		if delivered[id] {
			extraDelivered++
		}
	}
	addedDelivered := 0
	for _, c := range r.pc.Stores {
		for _, s := range r.made.AddedStores {
			if c.Store == s && c.Has(engine.Added) {
				addedDelivered++
			}
		}
	}
	m := r.pc.Metrics
	share, unShare, stopShare := 0.0, 0.0, 0.0
	if r.stops > 0 {
		stopShare = float64(r.stopsMoR) / float64(r.stops)
	}
	if m.StoresCompared > 0 {
		share = float64(m.StoresMovedOrRetimed) / float64(m.StoresCompared)
	}
	if r.unlockedCompared > 0 {
		unShare = float64(r.unMoR) / float64(r.unlockedCompared)
	}
	if _, err := fmt.Fprintf(stdout, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.4f,%d,%d,%.4f,%d,%d,%.4f,%d,%d,%d,%.2f,%.2f\n",
		r.name, r.mode, len(r.req.Stores), len(r.req.Pallets), len(r.changed.Stores), len(r.changed.Pallets), r.before.Metrics.Pallets, r.after.Metrics.Pallets,
		len(r.made.ExtraPallets), extraDelivered, addedDelivered, r.locked, r.lockedChanged, r.lockedGained, r.extraOnLocked, m.StoresCompared, m.StoresMoved, m.StoresRetimed, m.StoresMovedOrRetimed, share,
		r.unlockedCompared, r.unMoR, unShare, r.stops, r.stopsMoR, stopShare, r.before.Metrics.Routes, r.after.Metrics.Routes, m.RoutesChanged, r.secs, r.first); err != nil {
		return err
	}
	how := "planned from scratch"
	if r.mode == "previous" {
		how = fmt.Sprintf("planned from the previous plan, %d routes locked (%d changed, %d took %d late pallets)", r.locked, r.lockedChanged, r.lockedGained, r.extraOnLocked)
	}
	fmt.Fprintf(stderr, "%s: %s after the late changes (stores %v removed, %v added, %d extra pallets) in %.2f s (a plan delivering as much after %.2f s): "+
		"%d of %d stores both plans deliver moved or retimed by more than %v (%.1f %%: %d moved to other routes, %d retimed); "+
		"%d of %d stores off the locked routes (%.1f %%), %d of %d of their stops not on their route within %v (%.1f %%); "+
		"%d routes changed their paperwork (%d routes before, %d after); %d of %d extra pallets and %d of %d added stores delivered; "+
		"%d pallets delivered before, %d after (%d unassigned)\n",
		r.name, how, r.made.RemovedStores, r.made.AddedStores, len(r.made.ExtraPallets), r.secs, r.first,
		m.StoresMovedOrRetimed, m.StoresCompared, tolerance, 100*share, m.StoresMoved, m.StoresRetimed,
		r.unMoR, r.unlockedCompared, 100*unShare, r.stopsMoR, r.stops, tolerance, 100*stopShare,
		m.RoutesChanged, r.before.Metrics.Routes, r.after.Metrics.Routes, extraDelivered, len(r.made.ExtraPallets), addedDelivered, len(r.made.AddedStores),
		r.before.Metrics.Pallets, r.after.Metrics.Pallets, r.after.Metrics.Unassigned)
	if left := extraLeft(r.made.ExtraPallets, r.after); len(left) > 0 {
		fmt.Fprintf(stderr, "%s: extra pallets left unassigned: %s\n", r.name, strings.Join(left, ", "))
	}
	return nil
}

// extraLeft lists the extra pallets the plan leaves unassigned, each as
// "pallet (store, reason)", in the order extra has them.
func extraLeft(extra []string, plan engine.Result) []string {
	why := map[string]engine.Unassigned{}
	for _, u := range plan.Unassigned {
		why[u.Pallet] = u
	}
	var out []string
	for _, id := range extra {
		if u, ok := why[id]; ok {
			out = append(out, fmt.Sprintf("%s (%s, %s)", id, u.Store, u.Reason))
		}
	}
	return out
}

// planValid plans req and returns the plan, or an error when planning
// fails or the plan fails engine.Validate.
func planValid(name string, req engine.Request) (engine.Result, error) {
	plan, err := engine.Plan(context.Background(), req)
	if err != nil {
		return engine.Result{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := engine.Validate(req, plan); err != nil {
		return engine.Result{}, errors.Join(fmt.Errorf("%s: the plan fails engine.Validate", name), err)
	}
	return plan, nil
}

// deliveredPallets returns the ids of the pallets the plan delivers.
func deliveredPallets(plan engine.Result) map[string]bool {
	ids := map[string]bool{}
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				ids[id] = true
			}
		}
	}
	return ids
}

// firstPlan is the plan of req, read from file when it names one that
// exists (checked by engine.Validate as any plan), else planned and, when
// file is set, written there.
func firstPlan(name string, req engine.Request, file string) (engine.Result, error) {
	if file != "" {
		if f, err := os.Open(file); err == nil {
			defer f.Close()
			plan, err := engine.DecodePlan(f)
			if err != nil {
				return engine.Result{}, fmt.Errorf("-before %s: %w", file, err)
			}
			if err := engine.Validate(req, plan); err != nil {
				return engine.Result{}, errors.Join(fmt.Errorf("-before %s: the plan does not answer this day", file), err)
			}
			return plan, nil
		}
	}
	plan, err := planValid(name, req)
	if err != nil || file == "" {
		return plan, err
	}
	b, err := engine.MarshalIndent(plan)
	if err != nil {
		return engine.Result{}, err
	}
	return plan, os.WriteFile(file, b, 0o644)
}
