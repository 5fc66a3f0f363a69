package binpack

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Ref is the reference row of one instance, read from an optima.csv of
// either data set.
type Ref struct {
	// Set is the benchmark set ("set" or "benchmark" column).
	Set string
	// Optimum is the proven optimum, 0 when unknown.
	Optimum int
	// LB is the best known lower bound, 0 when absent.
	LB int
	// BestKnown is the best heuristic result of the source study (vector
	// set only), 0 when absent.
	BestKnown int
}

// Refs holds the reference rows by instance name. A name can occur in
// several sets (the vector data has class1_120_3_0 both in panigrahy and in
// new), so each name maps to all its rows.
type Refs map[string][]Ref

// Lookup returns the reference row of an instance read from path: the only
// row of that name, or the one whose set is a directory on the path.
func (rs Refs) Lookup(instance, path string) (Ref, bool) {
	rows := rs[instance]
	switch len(rows) {
	case 0:
		return Ref{}, false
	case 1:
		return rows[0], true
	}
	dirs := strings.Split(filepath.ToSlash(filepath.Dir(path)), "/")
	for _, r := range rows {
		if slices.Contains(dirs, r.Set) {
			return r, true
		}
	}
	return Ref{}, false
}

// ReadRefs reads an optima.csv (BPPLIB form instance,set,...,optimum,...
// or vector form instance,benchmark,...,lb,optimum,best_known,...). Empty
// cells read as 0.
func ReadRefs(r io.Reader) (Refs, error) {
	rows, col, err := readTable(r, "instance")
	if err != nil {
		return nil, err
	}
	setCol, ok := col["set"]
	if !ok {
		setCol, ok = col["benchmark"]
	}
	if !ok {
		return nil, fmt.Errorf("%w: no set or benchmark column", ErrFormat)
	}
	out := make(Refs, len(rows))
	for li, row := range rows {
		ref := Ref{Set: row[setCol]}
		for name, dst := range map[string]*int{"optimum": &ref.Optimum, "lb": &ref.LB, "best_known": &ref.BestKnown} {
			if c, ok := col[name]; ok {
				if *dst, err = cellInt(row[c]); err != nil {
					return nil, fmt.Errorf("%w: row %d: %s: %v", ErrFormat, li+2, name, err)
				}
			}
		}
		name := row[col["instance"]]
		out[name] = append(out[name], ref)
	}
	return out, nil
}

// Baseline is a row of baselines.csv: greedy bin counts computed with the
// data.
type Baseline struct {
	// Set is the benchmark set.
	Set string
	// L1 is ceil(sum of weights / capacity); FFD and BFD are the bin counts
	// of first-fit and best-fit decreasing.
	L1, FFD, BFD int
	// Optimum is the proven optimum, 0 when unknown.
	Optimum int
}

// ReadBaselines reads baselines.csv
// (instance,set,n,capacity,l1_ceil_sum_over_c,ffd,bfd,optimum).
func ReadBaselines(r io.Reader) (map[string]Baseline, error) {
	rows, col, err := readTable(r, "instance", "set", "l1_ceil_sum_over_c", "ffd", "bfd", "optimum")
	if err != nil {
		return nil, err
	}
	out := make(map[string]Baseline, len(rows))
	for li, row := range rows {
		b := Baseline{Set: row[col["set"]]}
		for name, dst := range map[string]*int{"l1_ceil_sum_over_c": &b.L1, "ffd": &b.FFD, "bfd": &b.BFD, "optimum": &b.Optimum} {
			if *dst, err = cellInt(row[col[name]]); err != nil {
				return nil, fmt.Errorf("%w: row %d: %s: %v", ErrFormat, li+2, name, err)
			}
		}
		out[row[col["instance"]]] = b
	}
	return out, nil
}

func readTable(r io.Reader, required ...string) ([][]string, map[string]int, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	all, err := cr.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("%w: empty table", ErrFormat)
	}
	col := map[string]int{}
	for i, h := range all[0] {
		col[strings.TrimSpace(h)] = i
	}
	for _, name := range required {
		if _, ok := col[name]; !ok {
			return nil, nil, fmt.Errorf("%w: no %s column", ErrFormat, name)
		}
	}
	return all[1:], col, nil
}

func cellInt(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, fmt.Errorf("negative value %d", v)
	}
	return v, nil
}
