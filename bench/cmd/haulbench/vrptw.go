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
	fs := flag.NewFlagSet("vrptw", flag.ContinueOnError)
	fs.SetOutput(stderr)
	limit := fs.Duration("time", 10*time.Second, "time limit per instance")
	objective := fs.String("objective", "hierarchical", "hierarchical (fewest vehicles, then double-precision distance) or distance (DIMACS truncation)")
	workers := fs.Int("workers", 1, "parallel searches")
	seed := fs.Int64("seed", 1, "random seed")
	solDir := fs.String("sol", "", "write DIR/<instance>.sol in CVRPLIB form")
	refFile := fs.String("ref", "", "reference CSV (bks.csv, bks_distance.csv); totals and gaps on stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: haulbench vrptw [-time 10s] [-objective hierarchical|distance] [-workers 1] [-seed 1] [-sol DIR] [-ref FILE.csv] FILE...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	var conv vrptw.Convention
	switch *objective {
	case "hierarchical":
		conv = vrptw.Hierarchical
	case "distance":
		conv = vrptw.Distance
	default:
		return fmt.Errorf("unknown objective %q (want hierarchical or distance)", *objective)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("no instance files")
	}
	var refs map[string]vrptw.Ref
	if *refFile != "" {
		f, err := os.Open(*refFile)
		if err != nil {
			return err
		}
		refs, err = vrptw.ReadRefs(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *refFile, err)
		}
	}
	if *solDir != "" {
		if err := os.MkdirAll(*solDir, 0o755); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintln(stdout, "instance,vehicles,distance,seconds"); err != nil {
		return err
	}
	decimals := 2
	if conv == vrptw.Distance {
		decimals = 1
	}
	var outs []vrptw.Outcome
	failed := 0
	for _, path := range fs.Args() {
		o, err := solveVRPTW(path, conv, *limit, *workers, *seed, *solDir, decimals)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			failed++
			continue
		}
		outs = append(outs, o)
		if _, err := fmt.Fprintf(stdout, "%s,%d,%.*f,%.2f\n", o.Instance, o.Vehicles, decimals, o.Distance, o.Seconds); err != nil {
			return err
		}
	}
	if refs != nil {
		if err := vrptw.WriteSummary(stderr, vrptw.Score(outs, refs)); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files failed", failed, fs.NArg())
	}
	return nil
}

func solveVRPTW(path string, conv vrptw.Convention, limit time.Duration, workers int, seed int64, solDir string, decimals int) (vrptw.Outcome, error) {
	f, err := os.Open(path)
	if err != nil {
		return vrptw.Outcome{}, err
	}
	in, err := vrptw.Read(f)
	f.Close()
	if err != nil {
		return vrptw.Outcome{}, err
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	began := time.Now()
	sol, err := routeplan.Solve(context.Background(), in.Problem(conv), routeplan.Options{TimeLimit: limit, Workers: workers, Seed: seed})
	secs := time.Since(began).Seconds()
	if err != nil {
		return vrptw.Outcome{}, err
	}
	if len(sol.Unassigned) > 0 {
		return vrptw.Outcome{}, fmt.Errorf("%d customers unassigned (first: %d, %s)", len(sol.Unassigned), sol.Unassigned[0].Site+1, sol.Unassigned[0].Reason)
	}
	routes := vrptw.Routes(sol)
	dist, err := in.Check(conv, routes)
	if err != nil {
		return vrptw.Outcome{}, fmt.Errorf("solver returned an infeasible solution: %w", err)
	}
	if solDir != "" {
		out, err := os.Create(filepath.Join(solDir, name+".sol"))
		if err != nil {
			return vrptw.Outcome{}, err
		}
		err = vrptw.WriteSol(out, routes, dist, decimals)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return vrptw.Outcome{}, err
		}
	}
	return vrptw.Outcome{Instance: name, Vehicles: len(routes), Distance: dist, Seconds: secs}, nil
}
