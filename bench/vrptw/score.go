package vrptw

import (
	"fmt"
	"io"
	"strings"
)

// Outcome is the result of one instance.
type Outcome struct {
	Instance string
	Vehicles int
	Distance float64
	Seconds  float64
	// The first feasible solution: when it came and what it was.
	FirstSeconds  float64
	FirstVehicles int
	FirstDistance float64
}

// Summary compares outcomes with reference values.
type Summary struct {
	Instances, Missing          int // scored, and without a reference row
	Vehicles, RefVehicles       int
	Distance, RefDistance       float64
	AvgGap, MaxGap              float64 // distance gap in percent
	MaxGapInstance              string
	FewerVehicles, MoreVehicles int // instances below and above the reference count
	Matched                     int // distance within 0.005 % of the reference or better
}

// Score sums outcomes and their distance gaps against refs (matched by
// upper-case instance name).
func Score(outs []Outcome, refs map[string]Ref) Summary {
	var s Summary
	for _, o := range outs {
		r, ok := refs[strings.ToUpper(o.Instance)]
		if !ok {
			s.Missing++
			continue
		}
		s.Instances++
		s.Vehicles += o.Vehicles
		s.RefVehicles += r.Vehicles
		s.Distance += o.Distance
		s.RefDistance += r.Distance
		g := Gap(o.Distance, r.Distance)
		s.AvgGap += g
		if s.Instances == 1 || g > s.MaxGap {
			s.MaxGap, s.MaxGapInstance = g, o.Instance
		}
		switch {
		case o.Vehicles < r.Vehicles:
			s.FewerVehicles++
		case o.Vehicles > r.Vehicles:
			s.MoreVehicles++
		}
		if g <= 0.005 {
			s.Matched++
		}
	}
	if s.Instances > 0 {
		s.AvgGap /= float64(s.Instances)
	}
	return s
}

// WriteSummary prints s in a few human-readable lines.
func WriteSummary(w io.Writer, s Summary) error {
	_, err := fmt.Fprintf(w, "scored %d instances (%d without reference)\n"+
		"vehicles: %d, reference %d (%d instances more, %d fewer)\n"+
		"distance: %.2f, reference %.2f (%+.3f%%)\n"+
		"average gap %.3f%%, worst %.3f%% (%s), %d at or below the reference\n",
		s.Instances, s.Missing, s.Vehicles, s.RefVehicles, s.MoreVehicles, s.FewerVehicles,
		s.Distance, s.RefDistance, Gap(s.Distance, s.RefDistance), s.AvgGap, s.MaxGap, s.MaxGapInstance, s.Matched)
	return err
}
