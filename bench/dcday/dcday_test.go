package dcday

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

func generate(t *testing.T, stores int, seed uint64) engine.Request {
	t.Helper()
	req, err := Generate(Config{Stores: stores, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestDaysPassCheck(t *testing.T) {
	sizes := []int{1, 50, 200, 1000, 5000}
	if testing.Short() {
		sizes = sizes[:3]
	}
	for _, n := range sizes {
		for seed := range uint64(3) {
			req := generate(t, n, seed)
			if err := req.Check(); err != nil {
				t.Fatalf("%d stores, seed %d: %v", n, seed, err)
			}
			if len(req.Stores) != n {
				t.Fatalf("%d stores, seed %d: got %d stores", n, seed, len(req.Stores))
			}
		}
	}
}

func TestDaysAreReproducible(t *testing.T) {
	encode := func(req engine.Request) []byte {
		b, err := engine.MarshalIndent(req)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b := encode(generate(t, 200, 7)), encode(generate(t, 200, 7))
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed gave two different days")
	}
	if c := encode(generate(t, 200, 8)); bytes.Equal(a, c) {
		t.Fatal("seeds 7 and 8 gave the same day")
	}
	// The JSON form is the request: what haulbench -out writes reads back.
	back, err := engine.DecodeRequest(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(back), a) {
		t.Fatal("the day changed through its JSON form")
	}
}

func TestGenerateRejectsBadSizes(t *testing.T) {
	for _, n := range []int{0, -1, engine.MaxStores + 1} {
		if _, err := Generate(Config{Stores: n}); !errors.Is(err, ErrStores) {
			t.Errorf("%d stores: got %v, want ErrStores", n, err)
		}
	}
}

// TestDaysHaveTheStatedMix holds a 1,000-store day to what doc.go says.
func TestDaysHaveTheStatedMix(t *testing.T) {
	for _, n := range []int{1000, 5000} {
		if testing.Short() && n > 1000 {
			continue
		}
		req := generate(t, n, 1)
		near := func(what string, got, want, tol float64) {
			t.Helper()
			if math.Abs(got-want) > tol {
				t.Errorf("%d stores: %s %.3f, want %.3f ± %.3f", n, what, got, want, tol)
			}
		}
		short, split, closedDay := 0, 0, 0
		maxKm := 0.0
		for _, s := range req.Stores {
			if s.MaxTrailerLengthMM == ShortYardMM {
				short++
			}
			for _, os := range s.Hours.Days {
				if len(os) > 1 {
					split++
					break
				}
			}
			if len(s.Hours.Days) < 7 {
				closedDay++
			}
			maxKm = max(maxKm, geo.Distance(req.DC.Location, s.Location)/1000)
		}
		near("48 ft stores", float64(short)/float64(n), ShortYardShare, 0.005)
		near("stores with split windows", float64(split)/float64(n), 0.30, 0.05)
		near("stores closed some day", float64(closedDay)/float64(n), 0.40, 0.05)
		if r := DefaultRadiusKm(n); maxKm > r || maxKm < 0.8*r {
			t.Errorf("%d stores: farthest store %.0f km from the DC, want within %.0f km and beyond %.0f", n, maxKm, r, 0.8*r)
		}
		perStore := map[string]int{}
		var temp [3]int
		half, stack := 0, 0
		for _, p := range req.Pallets {
			perStore[p.Store]++
			temp[p.Temperature]++
			if p.Footprint == engine.HalfFootprint {
				half++
			}
			if p.MayBeStacked && p.MayCarry {
				stack++
			}
		}
		for id, c := range perStore {
			if c < MinPallets || c > MaxPallets {
				t.Fatalf("%d stores: store %s has %d pallets", n, id, c)
			}
		}
		np := float64(len(req.Pallets))
		near("pallets per store", np/float64(n), (MinPallets+MaxPallets)/2.0, 0.6)
		near("ambient", float64(temp[constraints.Ambient])/np, AmbientShare, 0.02)
		near("chilled", float64(temp[constraints.Chilled])/np, ChilledShare, 0.02)
		near("frozen", float64(temp[constraints.Frozen])/np, FrozenShare, 0.015)
		near("half pallets", float64(half)/np, HalfShare, 0.015)
		near("stackable pallets", float64(stack)/np, StackShare, 0.015)

		kinds := map[constraints.EquipmentKind]int{}
		units := 0
		for _, tt := range req.Fleet {
			kinds[tt.Equipment.Kind] += tt.Count
			units += tt.Count
		}
		// The short yards take the 48 ft types of both kinds, and only those.
		shortKinds := map[constraints.EquipmentKind]bool{}
		for _, tt := range req.Fleet {
			if tt.LengthMM <= ShortYardMM {
				shortKinds[tt.Equipment.Kind] = true
			}
		}
		if !shortKinds[constraints.DryVan] || !shortKinds[constraints.MultiTempReefer] || shortKinds[constraints.Reefer] {
			t.Errorf("%d stores: the 48 ft types are %v", n, shortKinds)
		}
		if kinds[constraints.DryVan] == 0 || kinds[constraints.Reefer] == 0 || kinds[constraints.MultiTempReefer] == 0 {
			t.Errorf("%d stores: fleet lacks a kind: %v", n, kinds)
		}
		// Neither scarce nor lavish: between the positions' count and
		// half as much again, for trailers and for drivers.
		full := np / 30
		near("trailers per full load", float64(units)/full, 1.3, 0.15)
		near("shifts per full load", float64(len(req.Shifts))/full, Slack, 0.1)
		for _, s := range req.Shifts {
			if s.End.Sub(s.Start).Hours() != 14 {
				t.Fatalf("%d stores: shift %s is not 14 h", n, s.ID)
			}
		}
	}
}

// TestHalfShareKnob: a day asked for 30 % half pallets has about that
// share, and the same day with its halves as full pallets differs in
// nothing but their footprints.
func TestHalfShareKnob(t *testing.T) {
	halves, err := Generate(Config{Stores: 200, Seed: 3, HalfShare: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	full, err := Generate(Config{Stores: 200, Seed: 3, HalfShare: 0.3, HalvesAsFull: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(halves.Pallets) != len(full.Pallets) {
		t.Fatalf("%d pallets with halves, %d with halves as full", len(halves.Pallets), len(full.Pallets))
	}
	n := 0
	for i, p := range halves.Pallets {
		q := full.Pallets[i]
		if p.Footprint == engine.HalfFootprint {
			n++
			if q.Footprint != engine.StandardFootprint {
				t.Fatalf("pallet %s: a half as full has footprint %v", q.ID, q.Footprint)
			}
			q.Footprint = p.Footprint
		}
		if p != q {
			t.Fatalf("pallet %d differs beyond its footprint: %+v, %+v", i, p, q)
		}
	}
	if share := float64(n) / float64(len(halves.Pallets)); share < 0.27 || share > 0.33 {
		t.Errorf("%.3f of the pallets are halves, want about 0.30", share)
	}
}
