package engine

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

func loadSample(b *testing.B) Request {
	src, err := os.ReadFile("../examples/quickstart/sample.json")
	if err != nil {
		b.Fatal(err)
	}
	req, err := DecodeRequest(bytes.NewReader(src))
	if err != nil {
		b.Fatal(err)
	}
	return req
}

// BenchmarkValidateSample measures the independent validator on the
// quickstart sample's plan (48 stores, 400 pallets).
func BenchmarkValidateSample(b *testing.B) {
	req := loadSample(b)
	req.Options.Iterations = 200
	plan, err := Plan(context.Background(), req)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := Validate(req, plan); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanSample measures a whole planning call on the quickstart
// sample with a fixed budget of 200 routing iterations in each of the
// default search streams, run by one goroutine.
func BenchmarkPlanSample(b *testing.B) {
	req := loadSample(b)
	req.Options.Iterations = 200
	req.Options.Workers = 1
	req.Options.TimeLimit = constraints.Duration(60e9)
	for b.Loop() {
		if _, err := Plan(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
