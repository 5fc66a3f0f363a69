package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"github.com/haulplan/haulplan/internal/numtext"
)

// A request's road matrix (Request.RoadMatrix) replaces the travel model:
// Check requires a row for the DC and every store, planning reads the legs
// as given, a store without a road from the DC or back is NO_ROAD, and
// Validate checks every leg a plan drives against the matrix.

// roadMatrixPath is where the road matrix sits in the request's JSON form.
const roadMatrixPath = "travel.matrix"

// roadMatrix checks the request's road matrix: a road matrix and
// Options.Matrix at once, the matrix itself (checkRoadMatrix), and a row
// for the DC and every store.
func (c checker) roadMatrix(r Request) {
	m := r.RoadMatrix
	if m == nil {
		return
	}
	if r.Options.Matrix != nil {
		c.add(CodeInvalidValue, roadMatrixPath, "a road matrix and Options.Matrix both give the travel: set one")
	}
	checkRoadMatrix(m, roadMatrixPath, c.report)
	if len(m.IDs) > MaxMatrixPlaces {
		return
	}
	rows := m.Index()
	var missing []string
	count := 0
	need := func(id, what string) {
		if _, ok := rows[id]; ok || id == "" {
			return
		}
		if count < 5 {
			missing = append(missing, what+" "+strconv.Quote(id))
		}
		count++
	}
	need(r.DC.ID, "the DC")
	for i, s := range r.Stores {
		need(s.ID, fmt.Sprintf("store stores[%d]", i))
	}
	if count > 0 {
		list := strings.Join(missing, ", ")
		if count > len(missing) {
			list += fmt.Sprintf(" and %s more", numtext.Int(count-len(missing)))
		}
		c.add(CodeRequired, roadMatrixPath+".ids", "lacks %s: the matrix needs a row and a column for the DC and every store", list)
	}
}

// checkRoadMatrix reports the problems of m (geo.RoadMatrix.Problems) at
// their paths in the JSON form under prefix: "ids[3]", "distancesM[3][7]".
func checkRoadMatrix(m *geo.RoadMatrix, prefix string, report func(constraints.Violation)) {
	add := func(code, path, format string, args ...any) {
		report(constraints.Violation{Code: code, Path: joinPath(prefix, path), Message: fmt.Sprintf(format, args...)})
	}
	if len(m.IDs) > MaxMatrixPlaces {
		add(CodeInvalidValue, "ids", "%s ids: at most %s places per matrix", numtext.Int(len(m.IDs)), numtext.Int(MaxMatrixPlaces))
		return
	}
	for _, p := range m.Problems() {
		name := map[string]string{"ids": "ids", "metres": "distancesM", "seconds": "durationsS"}[p.Field]
		switch {
		case p.Field == "ids" && p.Reason == "is empty":
			add(CodeRequired, constraints.Index(name, p.Row), "id: required")
		case p.Field == "ids":
			add(CodeDuplicateID, constraints.Index(name, p.Row), "id %s", p.Reason)
		case p.Row < 0:
			add(CodeInvalidValue, name, "%s", p.Reason)
		default:
			unit := "m"
			if p.Field == "seconds" {
				unit = "s"
			}
			add(CodeInvalidValue, constraints.Index(constraints.Index(name, p.Row), p.Col), "leg %s → %s of %v %s: %s",
				strconv.Quote(m.IDs[p.Row]), strconv.Quote(m.IDs[p.Col]), p.Value, unit, p.Reason)
		}
	}
}

func joinPath(prefix, path string) string {
	if prefix == "" {
		return path
	}
	return prefix + "." + path
}

// roadRows returns the row of the road matrix of every place of the
// request (0 the DC, 1+i store i). Check has made sure every one has one.
func roadRows(req *Request) []int {
	idx := req.RoadMatrix.Index()
	rows := make([]int, 1+len(req.Stores))
	rows[0] = idx[req.DC.ID]
	for i, s := range req.Stores {
		rows[1+i] = idx[s.ID]
	}
	return rows
}

// noRoad says why store s cannot be served through the model's matrix:
// no route from the DC, or none back; "" when it can.
func (m *model) noRoad(s int) string {
	out, back := m.matrix.Routed(0, 1+s), m.matrix.Routed(1+s, 0)
	id := strconv.Quote(m.req.Stores[s].ID)
	switch {
	case !out && !back:
		return fmt.Sprintf("the road matrix has no route from the DC to store %s nor back", id)
	case !out:
		return fmt.Sprintf("the road matrix has no route from the DC to store %s", id)
	case !back:
		return fmt.Sprintf("the road matrix has no route from store %s back to the DC", id)
	}
	return ""
}
