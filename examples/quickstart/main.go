// Command quickstart plans a day of store deliveries from one distribution
// centre and prints the plan: per route the trailer, the driver shift, the
// stops with their times and pallet counts, the hours-of-service breaks
// taken at them, and the trailer's utilisation; then the totals and the
// verdict of the independent validator. Rows and stops are numbered from 1.
//
//	go run ./examples/quickstart                 # the bundled Dallas–Fort Worth sample
//	go run ./examples/quickstart -in req.json    # your own request
//	go run ./examples/quickstart -json > plan.json
//	go run ./examples/quickstart -out out        # and write the reports to out/
//
// With -out DIR it also writes DIR/plan.json, DIR/dispatch-summary.xlsx,
// DIR/routes.geojson, DIR/routes.svg (the route map), DIR/schedule.svg,
// DIR/trailers/<route>.svg (each trailer's floor) and DIR/index.html, one
// page that holds them all (package engine/report).
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
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "request `file` in the engine's JSON form (default: the bundled sample)")
	limit := fs.Duration("time", 0, "search time limit (default: the request's options.timeLimit)")
	seed := fs.Int64("seed", 0, "search seed (default: the request's options.seed)")
	iterations := fs.Int("iterations", 0, "iteration budget per search stream, for the same plan on any machine (default: the request's options.iterations)")
	asJSON := fs.Bool("json", false, "print the plan as JSON instead of the summary")
	out := fs.String("out", "", "write the plan and its reports (xlsx, GeoJSON, SVG, HTML) to `dir`")
	quiet := fs.Bool("quiet", false, "show no progress on stderr while planning")
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
			return nil // the usage asked for is printed: a success
		}
		return usageError{err}
	}
	src := sample
	name := "bundled sample"
	if *in != "" {
		b, err := os.ReadFile(*in)
		if err != nil {
			return err
		}
		src, name = b, *in
	}
	req, err := engine.DecodeRequest(bytes.NewReader(src))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if *limit > 0 {
		req.Options.TimeLimit = *limit
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "seed" {
			req.Options.Seed = *seed
		}
	})
	if *iterations > 0 {
		req.Options.Iterations = *iterations
	}
	progress := newProgressLine(stderr)
	if !*quiet {
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
	if *out != "" {
		files, err := writeReports(*out, req, plan)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "quickstart: wrote %s to %s (open %s)\n", plural(len(files), "file"), *out, filepath.Join(*out, "index.html"))
	}
	if *asJSON {
		b, err := engine.MarshalIndent(plan)
		if err != nil {
			return err
		}
		_, err = stdout.Write(b)
		if err == nil && verdict != nil {
			err = fmt.Errorf("the plan fails validation: %w", verdict)
		}
		return err
	}
	summary(stdout, req, plan, name, took)
	if verdict != nil {
		fmt.Fprintf(stdout, "Validate: FAILED\n%v\n", verdict)
		return errors.New("the plan fails validation")
	}
	fmt.Fprintln(stdout, "Validate: OK (every time, load, zone and axle load recomputed from the request)")
	return nil
}
