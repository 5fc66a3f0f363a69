package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/engine"
)

// dcday -matrix plans the generated day through a road matrix read back
// from JSON: the same plan as the travel model gives (the legs are the
// model's), the matrix in the request written by -out, and the body's
// size and decoding time on stderr.
func TestDCDayMatrix(t *testing.T) {
	args := []string{"-stores", "20", "-iterations", "20", "-streams", "1", "-time", "20s"}
	plain, _ := dcdayRows(t, args...)
	out := filepath.Join(t.TempDir(), "day.json")
	rows, errs := dcdayRows(t, append(args, "-matrix", "-out", out)...)
	if len(rows) != 1 || rows[0][0] != "dcday-20-s1-matrix" {
		t.Fatalf("rows %q", rows)
	}
	// routes, bound, delivered, unassigned, km and cost (not the times)
	if strings.Join(rows[0][3:9], ",") != strings.Join(plain[0][3:9], ",") {
		t.Errorf("through the matrix %q, through the model %q", rows[0][3:9], plain[0][3:9])
	}
	if !strings.Contains(errs, "road matrix: 21×21 legs, request body ") || !strings.Contains(errs, "decoded in ") {
		t.Errorf("stderr: %s", errs)
	}
	req, err := readWith(out, engine.DecodeRequest)
	if err != nil {
		t.Fatal(err)
	}
	if req.RoadMatrix == nil || req.RoadMatrix.Len() != 21 || req.RoadMatrix.IDs[0] != req.DC.ID {
		t.Errorf("the request written has the matrix %+v", req.RoadMatrix)
	}
}
