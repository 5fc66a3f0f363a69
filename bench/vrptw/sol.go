package vrptw

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteSol writes routes in CVRPLIB form: "Route #k: c1 c2 ..." per route,
// then "Cost <cost>" with the given number of decimals.
func WriteSol(w io.Writer, routes [][]int, cost float64, decimals int) error {
	bw := bufio.NewWriter(w)
	for k, r := range routes {
		fmt.Fprintf(bw, "Route #%d:", k+1)
		for _, id := range r {
			fmt.Fprintf(bw, " %d", id)
		}
		bw.WriteByte('\n')
	}
	fmt.Fprintf(bw, "Cost %.*f\n", decimals, cost)
	return bw.Flush()
}

// ReadSol reads a CVRPLIB .sol file ("Route #1: 5 3 7", "Cost 827.3") or a
// SINTEF one ("Key : value" header lines, "Solution", "Route  1 : 5 3 7"):
// its routes and its stated cost (NaN when there is no Cost line).
func ReadSol(r io.Reader) ([][]int, float64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<22)
	var routes [][]int
	cost := math.NaN()
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "" || text == "Solution":
		case strings.HasPrefix(text, "Route"):
			colon := strings.IndexByte(text, ':')
			if colon < 0 {
				return nil, 0, fmt.Errorf("vrptw: sol line %d: no colon", line)
			}
			var ids []int
			for _, f := range strings.Fields(text[colon+1:]) {
				id, err := strconv.Atoi(f)
				if err != nil {
					return nil, 0, fmt.Errorf("vrptw: sol line %d: %q is not a customer number", line, f)
				}
				ids = append(ids, id)
			}
			routes = append(routes, ids)
		case strings.HasPrefix(text, "Cost"):
			v, err := strconv.ParseFloat(strings.TrimSpace(text[len("Cost"):]), 64)
			if err != nil {
				return nil, 0, fmt.Errorf("vrptw: sol line %d: bad cost", line)
			}
			cost = v
		case len(routes) == 0 && strings.Contains(text, ":"):
			// SINTEF header field (instance, authors, date, reference).
		default:
			return nil, 0, fmt.Errorf("vrptw: sol line %d: unexpected %q", line, text)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("vrptw: %v", err)
	}
	return routes, cost, nil
}
