package binpack

import (
	"fmt"
	"io"
	"slices"
)

// Outcome is one solver run on one instance.
type Outcome struct {
	// Instance is the file name without its extension.
	Instance string
	// Path is the file read; it tells apart instances of the same name in
	// different sets.
	Path string
	// Bins and LowerBound are the solver's packing size and bound.
	Bins, LowerBound int
	// Seconds is the wall time of the solve.
	Seconds float64
}

// SetScore summarises the outcomes of one benchmark set against the
// reference values.
type SetScore struct {
	// Set is the benchmark set, "?" for instances without a reference row.
	Set string
	// Instances is the number of outcomes in the set.
	Instances int
	// WithOptimum counts those with a known optimum; AtOptimum those solved
	// with exactly that many bins; Excess sums bins - optimum over them.
	WithOptimum, AtOptimum, Excess int
	// Proven counts outcomes whose bins equal their own lower bound.
	Proven int
	// WithBestKnown counts outcomes with a best_known value; Bins and
	// BestKnown sum bins and best_known over them.
	WithBestKnown, Bins, BestKnown int
	// MeanSeconds and MaxSeconds are over all outcomes of the set.
	MeanSeconds, MaxSeconds float64
}

// Score groups outcomes by the set of their reference row (instances
// without one go to the set "?") and scores each set; the sets come out in
// name order.
func Score(outs []Outcome, refs Refs) []SetScore {
	by := map[string]*SetScore{}
	for _, o := range outs {
		ref, ok := refs.Lookup(o.Instance, o.Path)
		set := ref.Set
		if !ok {
			set = "?"
		}
		s := by[set]
		if s == nil {
			s = &SetScore{Set: set}
			by[set] = s
		}
		s.Instances++
		if ref.Optimum > 0 {
			s.WithOptimum++
			if o.Bins == ref.Optimum {
				s.AtOptimum++
			}
			s.Excess += o.Bins - ref.Optimum
		}
		if o.Bins == o.LowerBound {
			s.Proven++
		}
		if ref.BestKnown > 0 {
			s.WithBestKnown++
			s.Bins += o.Bins
			s.BestKnown += ref.BestKnown
		}
		s.MeanSeconds += o.Seconds
		s.MaxSeconds = max(s.MaxSeconds, o.Seconds)
	}
	out := make([]SetScore, 0, len(by))
	for _, s := range by {
		s.MeanSeconds /= float64(s.Instances)
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b SetScore) int {
		if a.Set < b.Set {
			return -1
		}
		if a.Set > b.Set {
			return 1
		}
		return 0
	})
	return out
}

// WriteScores prints one line per set and a total line.
func WriteScores(w io.Writer, scores []SetScore) error {
	var tot SetScore
	tot.Set = "total"
	for _, s := range scores {
		if err := writeScore(w, s); err != nil {
			return err
		}
		tot.MeanSeconds += s.MeanSeconds * float64(s.Instances)
		tot.Instances += s.Instances
		tot.WithOptimum += s.WithOptimum
		tot.AtOptimum += s.AtOptimum
		tot.Excess += s.Excess
		tot.Proven += s.Proven
		tot.WithBestKnown += s.WithBestKnown
		tot.Bins += s.Bins
		tot.BestKnown += s.BestKnown
		tot.MaxSeconds = max(tot.MaxSeconds, s.MaxSeconds)
	}
	if len(scores) > 1 {
		if tot.Instances > 0 {
			tot.MeanSeconds /= float64(tot.Instances)
		}
		return writeScore(w, tot)
	}
	return nil
}

func writeScore(w io.Writer, s SetScore) error {
	line := fmt.Sprintf("%s: %d instances, at optimum %d/%d, excess bins %d, proven optimal %d, mean %.4fs, max %.4fs",
		s.Set, s.Instances, s.AtOptimum, s.WithOptimum, s.Excess, s.Proven, s.MeanSeconds, s.MaxSeconds)
	if s.WithBestKnown > 0 {
		line += fmt.Sprintf(", bins %d vs best_known %d over %d", s.Bins, s.BestKnown, s.WithBestKnown)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}
