package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	bench "github.com/haulplan/haulplan/bench/binpack"
	"github.com/haulplan/haulplan/loadplan/binpack"
)

func init() {
	commands["binpack"] = command{summary: "bin packing (BPPLIB) and vector packing (.vbp)", run: runBinpack}
}

// runBinpack solves each file and prints instance,bins,lower_bound,seconds.
func runBinpack(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("binpack", flag.ContinueOnError)
	fs.SetOutput(stderr)
	limit := fs.Duration("time", time.Second, "time limit per instance")
	solDir := fs.String("sol", "", "write DIR/<instance>.sol, one line per bin with 0-based item indices")
	refFile := fs.String("ref", "", "optima.csv to score against (summary on stderr)")
	seed := fs.Uint64("seed", 1, "random seed of the improvement search")
	fs.Usage = commandUsage(fs, stderr,
		"haulbench binpack [-time 1s] [-seed 1] [-sol DIR] [-ref FILE.csv] FILE...",
		"Solves each instance with loadplan/binpack, one at a time, and prints\n"+
			"instance,bins,lower_bound,seconds on stdout; with -ref, a summary per set\n"+
			"on stderr. FILE is BPPLIB's BPP format (.txt: n, capacity, one weight a\n"+
			"line) or vector packing (.vbp: d, capacities, n, sizes and counts).",
		"haulbench binpack -time 1s -ref ../shared/data/binpacking/optima.csv ../shared/data/binpacking/hard28/*.txt",
		"Falkenauer, Scholl and Hard28 from BPPLIB (Delorme, Iori & Martello 2018,\n"+
			"github.com/mdelorme2/BPPLIB; optima from BPPLib.jl), vector packing d = 3\n"+
			"from Mommessin, Erlebach & Shakhlevich 2025\n"+
			"(github.com/Vectorpack/experiments_vector_paper). A copy with optima.csv\n"+
			"is in ../shared/data/{binpacking,vectorpacking} (README.md there says\n"+
			"how it was made); bench/scripts/binpack.sh runs the standard groups.")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("no instance files")
	}
	var refs bench.Refs
	if *refFile != "" {
		var err error
		if refs, err = readWith(*refFile, bench.ReadRefs); err != nil {
			return err
		}
	}
	if *solDir != "" {
		if err := os.MkdirAll(*solDir, 0o755); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintln(stdout, "instance,bins,lower_bound,seconds"); err != nil {
		return err
	}
	var outs []bench.Outcome
	failed := 0
	for _, path := range fs.Args() {
		o, err := solveFile(path, *limit, *seed, *solDir, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			failed++
			continue
		}
		outs = append(outs, o)
		if _, err := fmt.Fprintf(stdout, "%s,%d,%d,%s\n", o.Instance, o.Bins, o.LowerBound, strconv.FormatFloat(o.Seconds, 'f', 4, 64)); err != nil {
			return err
		}
	}
	if refs != nil {
		if err := bench.WriteScores(stderr, bench.Score(outs, refs)); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files failed", failed, fs.NArg())
	}
	return nil
}

func solveFile(path string, limit time.Duration, seed uint64, solDir string, warn io.Writer) (bench.Outcome, error) {
	f, err := os.Open(path)
	if err != nil {
		return bench.Outcome{}, err
	}
	defer f.Close()
	var p binpack.Problem
	if strings.EqualFold(filepath.Ext(path), ".vbp") {
		p, err = bench.ReadVBP(f)
	} else {
		p, err = bench.ReadBPP(f)
	}
	if err != nil {
		return bench.Outcome{}, err
	}
	if n := bench.ClampNegative(&p); n > 0 {
		fmt.Fprintf(warn, "%s: %d negative sizes read as 0 (a packing valid for 0 is valid for the negative size)\n", path, n)
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	began := time.Now()
	res, err := binpack.Solve(context.Background(), p, binpack.Options{TimeLimit: limit, Seed: seed})
	secs := time.Since(began).Seconds()
	if err != nil {
		return bench.Outcome{}, err
	}
	if err := binpack.Validate(p, res.Bins); err != nil {
		return bench.Outcome{}, fmt.Errorf("solver returned an invalid packing: %w", err)
	}
	if solDir != "" {
		var b strings.Builder
		for _, bin := range res.Bins {
			for j, i := range bin {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(strconv.Itoa(i))
			}
			b.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(solDir, name+".sol"), []byte(b.String()), 0o644); err != nil {
			return bench.Outcome{}, err
		}
	}
	return bench.Outcome{Instance: name, Path: path, Bins: len(res.Bins), LowerBound: res.LowerBound, Seconds: secs}, nil
}
