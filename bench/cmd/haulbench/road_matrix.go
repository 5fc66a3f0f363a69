package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

// withRoadMatrix gives the generated day req a road matrix, as a JSON
// client would send one, and returns the request read back from its JSON
// form: the legs are geo's travel model between the DC and the stores
// (ids in the request's order, so that the engine plans on the matrix's
// own slices), the request with its matrix is written to file (a
// temporary one when file is empty), everything built so far is let go,
// the peak RSS is reset, and the file is decoded by engine.DecodeRequest.
// It prints the body's size and the decoding time on stderr, so that the
// row's peak RSS is that of decoding and planning alone.
func withRoadMatrix(req engine.Request, file string, stderr io.Writer) (engine.Request, error) {
	began := time.Now()
	points := make([]geo.Point, 1+len(req.Stores))
	ids := make([]string, 1+len(req.Stores))
	points[0], ids[0] = req.DC.Location, req.DC.ID
	for i, s := range req.Stores {
		points[1+i], ids[1+i] = s.Location, s.ID
	}
	mx, err := req.Travel.Matrix(context.Background(), points)
	if err != nil {
		return engine.Request{}, err
	}
	rm := geo.NewRoadMatrix(ids)
	for i := range ids {
		for j := range ids {
			rm.Set(i, j, mx.Distance(i, j), mx.Duration(i, j))
		}
	}
	req.RoadMatrix = rm
	if file == "" {
		f, err := os.CreateTemp("", "haulbench-matrix-*.json")
		if err != nil {
			return engine.Request{}, err
		}
		file = f.Name()
		f.Close()
		defer os.Remove(file)
	}
	b, err := req.MarshalJSON()
	if err != nil {
		return engine.Request{}, err
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		return engine.Request{}, err
	}
	size := len(b)
	built := time.Since(began)
	// b, req and its matrix are not used from here on: the collector
	// frees them.
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()

	began = time.Now()
	f, err := os.Open(file)
	if err != nil {
		return engine.Request{}, err
	}
	defer f.Close()
	back, err := engine.DecodeRequest(f)
	if err != nil {
		return engine.Request{}, fmt.Errorf("decoding the request with its matrix: %w", err)
	}
	decoded := time.Since(began)
	rss := ""
	if kb, ok := peakRSSKB(); ok {
		rss = fmt.Sprintf("; peak RSS %.0f MB after decoding", float64(kb)/1024)
	}
	fmt.Fprintf(stderr, "road matrix: %d×%d legs, request body %d bytes (%.1f MB), built and written in %.1f s, decoded in %.2f s%s\n",
		len(ids), len(ids), size, float64(size)/1e6, built.Seconds(), decoded.Seconds(), rss)
	return back, nil
}

// resetPeakRSS resets the process's peak RSS (VmHWM) to its RSS now
// (Linux: writing 5 to /proc/self/clear_refs), so that the peak measured
// afterwards is of what runs next; elsewhere it does nothing.
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}
