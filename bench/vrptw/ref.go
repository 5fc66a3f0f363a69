package vrptw

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Ref is a reference result of one instance.
type Ref struct {
	Vehicles int
	Distance float64
}

// ReadRefs reads a reference table with at least the columns instance,
// vehicles and distance (bks.csv, bks_distance.csv), keyed by upper-case
// instance name.
func ReadRefs(r io.Reader) (map[string]Ref, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("vrptw: reference header: %v", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(strings.ToLower(h))] = i
	}
	ci, okI := col["instance"]
	cv, okV := col["vehicles"]
	cd, okD := col["distance"]
	if !okI || !okV || !okD {
		return nil, fmt.Errorf("vrptw: reference header needs instance, vehicles, distance; got %v", head)
	}
	refs := map[string]Ref{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("vrptw: reference line %d: %v", line, err)
		}
		if len(rec) <= max(ci, cv, cd) {
			return nil, fmt.Errorf("vrptw: reference line %d: %d columns", line, len(rec))
		}
		v, err1 := strconv.Atoi(strings.TrimSpace(rec[cv]))
		d, err2 := strconv.ParseFloat(strings.TrimSpace(rec[cd]), 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("vrptw: reference line %d: bad vehicles or distance", line)
		}
		refs[strings.ToUpper(strings.TrimSpace(rec[ci]))] = Ref{Vehicles: v, Distance: d}
	}
	return refs, nil
}

// Gap is the relative gap in percent of value over ref, the convention of
// PyVRP and DIMACS.
func Gap(value, ref float64) float64 { return 100 * (value - ref) / ref }
