package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/haulplan/haulplan/bench/vrptw"
	"github.com/haulplan/haulplan/routeplan"
)

func init() {
	commands["vrptw"] = command{summary: "vehicle routing with time windows (Solomon, Gehring & Homberger)", run: runVRPTW}
}

// runVRPTW solves each Solomon-format file and prints
// instance,vehicles,distance,seconds; every solution is re-checked by the
// benchmark's own rules before it is printed.
func runVRPTW(args []string, stdout, stderr io.Writer) error {
	r := &vrptwRun{}
	var objective, refFile string
	fs := r.flagSet(stderr, &objective, &refFile)
	if err := fs.Parse(args); err != nil {
		return err
	}
	var err error
	if r.conv, err = parseConvention(objective); err != nil {
		return err
	}
	if fs.NArg() == 0 && r.random <= 0 {
		fs.Usage()
		return errors.New("no instance files")
	}
	var refs map[string]vrptw.Ref
	if refFile != "" {
		if refs, err = readWith(refFile, vrptw.ReadRefs); err != nil {
			return err
		}
	}
	if r.solDir != "" {
		if err := os.MkdirAll(r.solDir, 0o755); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintln(stdout, "instance,vehicles,distance,seconds"); err != nil {
		return err
	}
	r.decimals = 2
	if r.conv == vrptw.Distance {
		r.decimals = 1
	}
	var outs []vrptw.Outcome
	failed := 0
	jobs := fs.Args()
	if r.random > 0 {
		jobs = append(jobs, "") // the random instance
	}
	for _, path := range jobs {
		in, name, err := r.instance(path)
		if path == "" {
			path = name
		}
		var o vrptw.Outcome
		if err == nil {
			o, err = solveVRPTW(in, name, r.conv, r.limit, r.workers, r.seed, r.solDir, r.decimals)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			failed++
			continue
		}
		fmt.Fprintf(stderr, "%s: first feasible solution after %.2f s (%d vehicles, distance %.*f)\n", name, o.FirstSeconds, o.FirstVehicles, r.decimals, o.FirstDistance)
		outs = append(outs, o)
		if _, err := fmt.Fprintf(stdout, "%s,%d,%.*f,%.2f\n", o.Instance, o.Vehicles, r.decimals, o.Distance, o.Seconds); err != nil {
			return err
		}
	}
	if refs != nil {
		if err := vrptw.WriteSummary(stderr, vrptw.Score(outs, refs)); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d instances failed", failed, len(jobs))
	}
	return nil
}

// parseConvention reads -objective.
func parseConvention(objective string) (vrptw.Convention, error) {
	switch objective {
	case "hierarchical":
		return vrptw.Hierarchical, nil
	case "distance":
		return vrptw.Distance, nil
	}
	return 0, fmt.Errorf("unknown objective %q (want hierarchical or distance)", objective)
}

// vrptwRun is what the flags of haulbench vrptw set for every instance.
type vrptwRun struct {
	conv     vrptw.Convention
	limit    time.Duration
	workers  int
	seed     int64
	solDir   string
	random   int // customers of the random instance
	decimals int // of the distances printed
}

// flagSet defines the flags of haulbench vrptw, into r and the two
// strings, and its usage.
func (r *vrptwRun) flagSet(stderr io.Writer, objective, refFile *string) *flag.FlagSet {
	fs := flag.NewFlagSet("vrptw", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&r.limit, "time", 10*time.Second, "time limit per instance")
	fs.StringVar(objective, "objective", "hierarchical", "hierarchical (fewest vehicles, then double-precision distance) or distance (DIMACS truncation)")
	fs.IntVar(&r.workers, "workers", 1, "independent searches, run in parallel (routeplan Options.Streams and Workers)")
	fs.Int64Var(&r.seed, "seed", 1, "random seed")
	fs.StringVar(&r.solDir, "sol", "", "write DIR/<instance>.sol in CVRPLIB form")
	fs.StringVar(refFile, "ref", "", "reference CSV (bks.csv, bks_distance.csv); totals and gaps on stderr")
	fs.IntVar(&r.random, "random", 0, "also solve a random instance of N customers (vrptw.Random, seed -seed), named randomN")
	fs.Usage = commandUsage(fs, stderr,
		"haulbench vrptw [-time 10s] [-objective hierarchical|distance] [-workers 1] [-seed 1] [-sol DIR] [-ref FILE.csv] [-random N] FILE...",
		"Solves each Solomon-format instance with routeplan, re-checks the solution\n"+
			"by the benchmark's own rules and prints instance,vehicles,distance,seconds\n"+
			"on stdout; with -ref, totals and gaps on stderr.",
		"haulbench vrptw -time 10s -objective hierarchical -ref ../shared/data/vrptw/bks.csv ../shared/data/vrptw/solomon/r1*.txt",
		"Solomon (1987) and Gehring & Homberger (1999) instances as in\n"+
			"VROOM-Project/vroom-scripts; best known solutions from SINTEF (bks.csv,\n"+
			"fewest vehicles then distance) and CVRPLIB (bks_distance.csv, DIMACS\n"+
			"rounding). A copy is in ../shared/data/vrptw (README.md there lists the\n"+
			"sources); bench/scripts/vrptw.sh runs the standard table.")
	return fs
}

// instance reads the instance in the file path, or makes the random one
// when path is empty, and returns it with its name.
func (r vrptwRun) instance(path string) (*vrptw.Instance, string, error) {
	if path == "" {
		in := vrptw.Random(r.random, uint64(r.seed))
		return in, in.Name, nil
	}
	in, err := readVRPTW(path)
	return in, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), err
}

func readVRPTW(path string) (*vrptw.Instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return vrptw.Read(f)
}

func solveVRPTW(in *vrptw.Instance, name string, conv vrptw.Convention, limit time.Duration, workers int, seed int64, solDir string, decimals int) (vrptw.Outcome, error) {
	var o vrptw.Outcome
	p := in.Problem(conv)
	began := time.Now()
	scale := conv.Scale()
	progress := func(p routeplan.Progress) {
		if p.Feasible && o.FirstSeconds == 0 {
			o.FirstSeconds = time.Since(began).Seconds()
			o.FirstVehicles, o.FirstDistance = p.Vehicles, p.Distance/scale
		}
	}
	sol, err := routeplan.Solve(context.Background(), p, routeplan.Options{TimeLimit: limit, Streams: workers, Workers: workers, Seed: seed, Progress: progress})
	secs := time.Since(began).Seconds()
	if err != nil {
		return o, err
	}
	if len(sol.Unassigned) > 0 {
		return o, fmt.Errorf("%d customers unassigned (first: %d, %s)", len(sol.Unassigned), sol.Unassigned[0].Site+1, sol.Unassigned[0].Reason)
	}
	routes := vrptw.Routes(sol)
	dist, err := in.Validate(conv, routes)
	if err != nil {
		return o, fmt.Errorf("solver returned an infeasible solution: %w", err)
	}
	if solDir != "" {
		out, err := os.Create(filepath.Join(solDir, name+".sol"))
		if err != nil {
			return o, err
		}
		err = vrptw.WriteSol(out, routes, dist, decimals)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return o, err
		}
	}
	o.Instance, o.Vehicles, o.Distance, o.Seconds = name, len(routes), dist, secs
	return o, nil
}
