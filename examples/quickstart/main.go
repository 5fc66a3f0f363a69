// Command quickstart plans a day of store deliveries from one distribution
// centre and prints the plan: per route (one trip) the trailer unit, the
// driver shift and trip, the loading at its dock door, the stops with their
// times and pallet counts, the hours-of-service breaks taken at them, and
// the trailer's utilisation; then the trips of each driver shift, the
// loadings at each dock door, the totals and the verdict of the
// independent validator. Rows and stops are numbered from 1.
//
//	go run ./examples/quickstart                 # the bundled Dallas–Fort Worth sample
//	go run ./examples/quickstart -in req.json    # your own request
//	go run ./examples/quickstart -json > plan.json
//	go run ./examples/quickstart -out out        # and write the reports to out/
//	go run ./examples/quickstart -in req.json -matrix osrm.json   # with your road matrix
//	go run ./examples/quickstart -in req.json -compare plan.json  # and what changed since plan.json
//	go run ./examples/quickstart -in req.json -previous plan.json -lock-before 03:30  # re-plan, keeping what loads by 03:30
//
// -compare FILE reads a previous plan (the JSON form -json writes) and
// prints, after the plan, every store whose delivery differs from it
// (engine.Changes: ADDED, REMOVED, MOVED to other routes, told apart by
// trailer unit, shift and trip, RETIMED by more than 15 minutes,
// PALLETS_CHANGED) and the counts; with -json they go to stderr.
//
// -previous FILE re-plans from the plan in FILE (the JSON form -json or
// -out writes): the request carries it (engine.Request.Previous), the
// search prefers it, and the plan is printed with what changed since it,
// as -compare prints it; the reports then show the changes and mark the
// locked routes. What of it stays as it is (engine.Lock): -lock-before
// TIME every route whose loading has started by then (a clock time on
// the request's clock, 03:30, is the one in the night the previous plan
// loads in: the 24 hours from 12 hours before its first loading; or a
// date and time, 2026-11-24T03:30, or an instant with its offset),
// -lock-routes R1,R2 those routes whatever the time, -lock-stores S1,S2
// those stores on their routes.
//
// -matrix FILE puts a road matrix into the request (replacing the one it
// carries, if any): the JSON form of a request's travel.matrix,
// {"ids", "distancesM", "durationsS"}, or, for a file ending in .csv, one
// leg a row under the header from,to,distance_m,duration_s (metres and
// seconds; a leg without a row, or with an empty distance or duration,
// has no route; a place to itself is 0 unless a row says otherwise).
//
// With -out DIR it also writes DIR/plan.json, DIR/dispatch-summary.xlsx,
// DIR/routes.geojson, DIR/routes.svg (the route map), DIR/schedule.svg (the
// drivers' shifts and their trips), DIR/dock.svg (the loadings at the dock
// doors), DIR/trailers/<route>.svg (each trailer's floor) and
// DIR/index.html, one page that holds them all (package engine/report).
package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/haulplan/haulplan/engine"
)

//go:embed sample.json
var sample []byte

// main exits 0 on success and on -h, 2 on a flag it does not know, and 1
// on any other error.
func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	var usage usageError
	switch {
	case err == nil:
	case errors.As(err, &usage):
		os.Exit(2) // the flag package has printed the problem and the usage
	default:
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// usageError is a command line the flags do not parse.
type usageError struct{ error }

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil // the usage asked for is printed: a success
	}
	if err != nil {
		return err
	}
	req, name, err := o.request()
	if err != nil {
		return err
	}
	var previous engine.Result
	compareWith := o.compare
	switch {
	case o.compare != "":
		if previous, err = readPlanFile(o.compare); err != nil {
			return err
		}
	case o.replan.previous != "":
		if previous, err = o.replan.apply(&req); err != nil {
			return err
		}
		compareWith = o.replan.previous
		fmt.Fprintf(stderr, "quickstart: re-planning from %s (%s); locked: %s\n", o.replan.previous,
			plural(len(previous.Routes), "route"), newPrinter(req, previous).lockText(req.Lock))
	}
	progress := newProgressLine(stderr)
	if !o.quiet {
		req.Options.Progress = progress.report
	}
	began := time.Now()
	plan, err := engine.Plan(context.Background(), req)
	progress.done()
	if err != nil {
		return err
	}
	took := time.Since(began)
	verdict := engine.Validate(req, plan)
	changes := plan.Changes
	if changes == nil && compareWith != "" {
		pc, err := engine.Changes(previous, plan, engine.ChangeOptions{})
		if err != nil {
			return fmt.Errorf("comparing with %s: %w", compareWith, err)
		}
		changes = &pc
		if req.Previous != nil {
			plan.Changes = changes // what a re-plan's result carries, for the reports and -json
		}
	}
	if o.out != "" {
		files, err := writeReports(o.out, req, plan)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "quickstart: wrote %s to %s (open %s)\n", plural(len(files), "file"), o.out, filepath.Join(o.out, "index.html"))
	}
	if o.asJSON {
		b, err := engine.MarshalIndent(plan)
		if err != nil {
			return err
		}
		_, err = stdout.Write(b)
		if changes != nil {
			newPrinter(req, plan).changes(stderr, *changes, compareWith)
		}
		if err == nil && verdict != nil {
			err = fmt.Errorf("the plan fails validation: %w", verdict)
		}
		return err
	}
	summary(stdout, req, plan, name, took)
	if changes != nil {
		newPrinter(req, plan).changes(stdout, *changes, compareWith)
	}
	if verdict != nil {
		fmt.Fprintf(stdout, "Validate: FAILED\n%v\n", verdict)
		return errors.New("the plan fails validation")
	}
	fmt.Fprintln(stdout, "Validate: OK (every time, load, zone and axle load recomputed from the request)")
	return nil
}

// options are quickstart's flags.
type options struct {
	in         string
	matrix     string
	limit      time.Duration
	seed       int64
	seedSet    bool // -seed was given, so 0 is a seed too
	iterations int
	asJSON     bool
	out        string
	compare    string
	replan     replanFlags
	quiet      bool
}

// parseFlags reads the command line; it returns flag.ErrHelp after
// printing the usage asked for, and a usageError for a command line the
// flags do not parse.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.in, "in", "", "request `file` in the engine's JSON form (default: the bundled sample)")
	fs.StringVar(&o.matrix, "matrix", "", "road matrix `file` to plan with: JSON like a request's travel.matrix, or CSV (.csv) with rows from,to,distance_m,duration_s")
	fs.DurationVar(&o.limit, "time", 0, "search time limit (default: the request's options.timeLimit)")
	fs.Int64Var(&o.seed, "seed", 0, "search seed (default: the request's options.seed)")
	fs.IntVar(&o.iterations, "iterations", 0, "iteration budget per search stream, for the same plan on any machine (default: the request's options.iterations)")
	fs.BoolVar(&o.asJSON, "json", false, "print the plan as JSON instead of the summary")
	fs.StringVar(&o.out, "out", "", "write the plan and its reports (xlsx, GeoJSON, SVG, HTML) to `dir`")
	fs.StringVar(&o.compare, "compare", "", "print what changed since the previous plan in `file` (JSON as -json writes it): stores added, removed, moved, retimed, with other pallet counts")
	fs.StringVar(&o.replan.previous, "previous", "", "re-plan from the plan in `file` (JSON as -json writes it): keep what the -lock flags fix, prefer the rest, print what changed")
	fs.StringVar(&o.replan.lockBefore, "lock-before", "", "with -previous: keep every route whose loading has started by `time` (03:30 on the request's clock, in the night the previous plan loads in; 2026-11-24T03:30; or RFC 3339)")
	fs.StringVar(&o.replan.lockRoutes, "lock-routes", "", "with -previous: keep these `routes` of it as they are (ids, comma-separated: R1,R2)")
	fs.StringVar(&o.replan.lockStores, "lock-stores", "", "with -previous: keep these `stores` on their route and trip (ids, comma-separated)")
	fs.BoolVar(&o.quiet, "quiet", false, "show no progress on stderr while planning")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: go run ./examples/quickstart [flags]

Plans a day of store deliveries (the bundled Dallas–Fort Worth sample, or
the request in -in FILE), prints the plan and the verdict of the
independent validator, and with -out DIR writes the plan and its reports.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err}
	}
	fs.Visit(func(f *flag.Flag) { o.seedSet = o.seedSet || f.Name == "seed" })
	if err := o.replan.check(o.compare); err != nil {
		return o, err
	}
	return o, nil
}

// request returns the request to plan, the bundled sample or the file
// -in names, with the options the flags give, and a name for it.
func (o options) request() (engine.Request, string, error) {
	src := sample
	name := "bundled sample"
	if o.in != "" {
		b, err := os.ReadFile(o.in)
		if err != nil {
			return engine.Request{}, "", err
		}
		src, name = b, o.in
	}
	req, err := engine.DecodeRequest(bytes.NewReader(src))
	if err != nil {
		return engine.Request{}, "", fmt.Errorf("%s: %w", name, err)
	}
	if o.limit > 0 {
		req.Options.TimeLimit = o.limit
	}
	if o.seedSet {
		req.Options.Seed = o.seed
	}
	if o.iterations > 0 {
		req.Options.Iterations = o.iterations
	}
	if o.matrix != "" {
		m, err := readMatrixFile(o.matrix)
		if err != nil {
			return engine.Request{}, "", err
		}
		req.RoadMatrix = m
		if err := req.Check(); err != nil {
			return engine.Request{}, "", fmt.Errorf("%s with the matrix %s: %w", name, o.matrix, err)
		}
		name += " with the road matrix " + o.matrix
	}
	return req, name, nil
}
