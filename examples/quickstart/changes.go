package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// readPlanFile reads a plan in the JSON form -json writes; errors name the
// file and every bad member's path.
func readPlanFile(path string) (engine.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return engine.Result{}, err
	}
	defer f.Close()
	plan, err := engine.DecodePlan(f)
	if err != nil {
		return engine.Result{}, fmt.Errorf("%s: %w", path, err)
	}
	return plan, nil
}

// changes prints what changed from the previous plan (read from the file
// name) to the new one, a line per store that differs, then the counts.
func (p *printer) changes(w io.Writer, pc engine.PlanChanges, name string) {
	m := pc.Metrics
	fmt.Fprintf(w, "\nChanges against %s (routes told apart by trailer unit, shift and trip; an arrival that moves by more than %s is retimed):\n",
		name, hhmm(pc.Tolerance))
	width := 0
	for _, c := range pc.Stores {
		width = max(width, len(p.storeName(c.Store))+len(c.Store)+3)
	}
	for _, c := range pc.Stores {
		var kinds []string
		for _, k := range c.Kinds {
			kinds = append(kinds, k.String())
		}
		fmt.Fprintf(w, "  %-*s %-32s %s → %s; arrival %s → %s; pallets %d → %d\n", width, p.storeName(c.Store)+" ("+c.Store+")",
			strings.Join(kinds, ", "), routesText(c.From), routesText(c.To), p.arrivals(c.OldArrival, c.OldLastArrival),
			p.arrivals(c.NewArrival, c.NewLastArrival), c.OldPallets, c.NewPallets)
	}
	share := 0.0
	if m.StoresCompared > 0 {
		share = 100 * float64(m.StoresMovedOrRetimed) / float64(m.StoresCompared)
	}
	fmt.Fprintf(w, "  %d of %s both plans deliver moved or retimed (%.1f %%): %d moved, %d retimed; %d added, %d removed, %d with another pallet count; %s whose paperwork changed\n",
		m.StoresMovedOrRetimed, plural(m.StoresCompared, "store"), share, m.StoresMoved, m.StoresRetimed, m.StoresAdded, m.StoresRemoved, m.StoresPalletsChanged,
		plural(m.RoutesChanged, "route"))
}

// arrivals writes a store's first and last arrival, "Tue 24 Nov 05:10",
// "Tue 24 Nov 05:10–07:40" for a store several stops deliver, or "none"
// where a plan does not deliver it.
func (p *printer) arrivals(first, last time.Time) string {
	switch {
	case first.IsZero():
		return "none"
	case last.Equal(first):
		return p.at(first)
	}
	return p.at(first) + "–" + p.near(last, first)
}

// routesText names routes as a dispatcher does: "R3 (DRY53-04, D0001 trip
// 2)", several joined by "+", none as "none".
func routesText(rs []engine.RouteRef) string {
	if len(rs) == 0 {
		return "none"
	}
	var out []string
	for _, r := range rs {
		out = append(out, r.String())
	}
	return strings.Join(out, " + ")
}
