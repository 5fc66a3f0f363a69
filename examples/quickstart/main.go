// Command quickstart plans a day of store deliveries from one distribution
// centre and prints the plan: per route the trailer, the driver shift, the
// stops with their times and pallet counts, and the trailer's utilisation;
// then the totals and the verdict of the independent validator.
//
//	go run ./examples/quickstart                 # the bundled Dallas–Fort Worth sample
//	go run ./examples/quickstart -in req.json    # your own request
//	go run ./examples/quickstart -json > plan.json
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
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

//go:embed sample.json
var sample []byte

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "request `file` in the engine's JSON form (default: the bundled sample)")
	limit := fs.Duration("time", 0, "search time limit (default: the request's options.timeLimit)")
	seed := fs.Int64("seed", -1, "search seed (default: the request's options.seed)")
	asJSON := fs.Bool("json", false, "print the plan as JSON instead of the summary")
	if err := fs.Parse(args); err != nil {
		return err
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
		req.Options.TimeLimit = constraints.Duration(*limit)
	}
	if *seed >= 0 {
		req.Options.Seed = *seed
	}
	began := time.Now()
	plan, err := engine.Plan(context.Background(), req)
	if err != nil {
		return err
	}
	took := time.Since(began)
	verdict := engine.Validate(req, plan)
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

func summary(w io.Writer, req engine.Request, plan engine.Result, name string, took time.Duration) {
	loc := time.UTC
	if len(req.Stores) > 0 && req.Stores[0].Hours.TimeZone != "" {
		if l, err := time.LoadLocation(req.Stores[0].Hours.TimeZone); err == nil {
			loc = l
		}
	}
	storeName := map[string]string{}
	for _, s := range req.Stores {
		storeName[s.ID] = s.Name
	}
	trailerName := map[string]string{}
	for _, t := range req.Fleet {
		trailerName[t.ID] = t.Name
	}
	hm := func(t time.Time) string { return t.In(loc).Format("15:04") }
	fmt.Fprintf(w, "haulplan quickstart: %s: %d stores, %d pallets, %d trailer types, %d shifts; planned in %v (times in %s)\n\n",
		name, len(req.Stores), len(req.Pallets), len(req.Fleet), len(req.Shifts), took.Round(time.Millisecond), loc)
	for _, r := range plan.Routes {
		m := r.Metrics
		var zones []string
		for _, z := range r.Load.Zones {
			zones = append(zones, fmt.Sprintf("%s rows %d-%d", z.Temperature, z.FirstRow, z.LastRow))
		}
		fmt.Fprintf(w, "%s  %s (%s), shift %s: load %s, depart %s, back %s; %.1f km, %d pallets; positions %.0f%%, weight %.0f%%, volume %.0f%%; %s\n",
			r.ID, trailerName[r.Trailer], r.Trailer, r.Shift, hm(r.Start), hm(r.Depart), hm(r.Return), m.DistanceM/1000, m.Pallets,
			100*m.PosUtil, 100*m.WeightUtil, 100*m.VolumeUtil, strings.Join(zones, ", "))
		for i, s := range r.Stops {
			wait := ""
			if s.Wait > 0 {
				wait = fmt.Sprintf(" (waits %v)", s.Wait.D())
			}
			fmt.Fprintf(w, "    %2d. %-22s arrive %s, unload %s, leave %s, %2d pallets%s\n",
				i+1, storeName[s.Store], hm(s.Arrival), hm(s.Start), hm(s.Departure), len(s.Pallets), wait)
		}
		if n := len(r.Load.Axles); n > 0 {
			a := r.Load.Axles[0]
			fmt.Fprintf(w, "    axle loads at departure: kingpin %.0f kg, trailer tandem %.0f kg\n", a.KingpinKg, a.AxleGroupKg)
		}
	}
	m := plan.Metrics
	fmt.Fprintf(w, "\nTotals: %d routes (no plan needs fewer than %d for these pallets), %d stops, %d pallets delivered, %d unassigned; %.1f km, %v driving, %v on duty, %v waiting; cost %.2f; mean position use %.0f%%\n",
		m.Routes, m.TrailersLowerBound, m.Stops, m.Pallets, m.Unassigned, m.DistanceM/1000, m.Driving.D(), m.Duration.D(), m.Wait.D(), m.Cost, 100*m.PosUtil)
	// Unassigned pallets per store and cause, in the order they are listed.
	type cause struct{ store, reason, message string }
	count := map[cause]int{}
	var causes []cause
	for _, u := range plan.Unassigned {
		c := cause{u.Store, u.Reason, u.Message}
		if count[c] == 0 {
			causes = append(causes, c)
		}
		count[c]++
	}
	if len(causes) > 0 {
		fmt.Fprintln(w, "\nUnassigned:")
	}
	width := 0
	for _, c := range causes {
		width = max(width, len(storeName[c.store])+len(c.store)+3)
	}
	for _, c := range causes {
		n := fmt.Sprintf("%d pallets", count[c])
		if count[c] == 1 {
			n = "1 pallet"
		}
		fmt.Fprintf(w, "  %-*s %11s  %s: %s\n", width, storeName[c.store]+" ("+c.store+")", n, c.reason, c.message)
	}
}
