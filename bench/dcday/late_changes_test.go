package dcday

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

func TestLateChanges(t *testing.T) {
	for _, mode := range []Mode{Standard, Realistic} {
		for seed := range uint64(4) {
			req, err := Generate(Config{Stores: 200, Seed: 1, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			same, _ := Generate(Config{Stores: 200, Seed: 1, Mode: mode})
			out, made, err := LateChanges(req, seed)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(req, same) {
				t.Fatalf("%v seed %d: LateChanges changed the request it was given", mode, seed)
			}
			if err := out.Check(); err != nil {
				t.Fatalf("%v seed %d: the changed day fails Check: %v", mode, seed, err)
			}
			again, made2, _ := LateChanges(req, seed)
			if !reflect.DeepEqual(out, again) || !reflect.DeepEqual(made, made2) {
				t.Fatalf("%v seed %d: two calls differ", mode, seed)
			}
			checkLateChanges(t, req, out, made)
		}
	}
	req := generate(t, 50, 1)
	a, madeA, _ := LateChanges(req, 1)
	b, madeB, _ := LateChanges(req, 2)
	if reflect.DeepEqual(madeA, madeB) || reflect.DeepEqual(a, b) {
		t.Fatal("seeds 1 and 2 make the same changes")
	}
}

// checkLateChanges holds out to what LateChanges says it makes of req.
func checkLateChanges(t *testing.T, req, out engine.Request, made LateChangesMade) {
	t.Helper()
	if len(made.RemovedStores) != LateStoresRemoved || len(made.AddedStores) != LateStoresAdded {
		t.Fatalf("removed %v, added %v", made.RemovedStores, made.AddedStores)
	}
	if len(out.Stores) != len(req.Stores)-LateStoresRemoved+LateStoresAdded {
		t.Fatalf("%d stores from %d", len(out.Stores), len(req.Stores))
	}
	before := map[string]engine.Store{}
	for _, s := range req.Stores {
		before[s.ID] = s
	}
	after := map[string]engine.Store{}
	for _, s := range out.Stores {
		after[s.ID] = s
	}
	for _, s := range made.RemovedStores {
		if _, ok := after[s]; ok {
			t.Errorf("removed store %s is still there", s)
		}
	}
	for _, id := range made.AddedStores {
		s, ok := after[id]
		if _, was := before[id]; !ok || was {
			t.Fatalf("added store %s: in the day %t, before %t", id, ok, was)
		}
		// Beside a store of the day, with its hours and unloading.
		near := false
		for _, o := range req.Stores {
			d := geo.Distance(o.Location, s.Location)
			near = near || (d >= 900 && d <= 5100 && reflect.DeepEqual(o.Hours, s.Hours) && o.Unloading == s.Unloading &&
				o.MaxTrailerLengthMM == s.MaxTrailerLengthMM && !slices.Contains(made.RemovedStores, o.ID))
		}
		if !near {
			t.Errorf("added store %s stands beside no store of the day like it", id)
		}
	}
	perStore := map[string]int{}
	old := map[string]engine.Pallet{}
	kept := 0
	for _, p := range req.Pallets {
		old[p.ID] = p
		if !slices.Contains(made.RemovedStores, p.Store) {
			kept++
		}
	}
	extra := map[string]bool{}
	for _, id := range made.ExtraPallets {
		extra[id] = true
	}
	for _, p := range out.Pallets {
		perStore[p.Store]++
		switch {
		case slices.Contains(made.RemovedStores, p.Store):
			t.Fatalf("pallet %s of removed store %s", p.ID, p.Store)
		case extra[p.ID]:
			// A copy of a pallet of its own store, under a new id.
			if _, was := old[p.ID]; was || !strings.HasPrefix(p.ID, p.Store+"-L") {
				t.Errorf("extra pallet %s", p.ID)
			}
			copied := false
			for _, o := range req.Pallets {
				q := o
				q.ID = p.ID
				copied = copied || q == p
			}
			if !copied || before[p.Store].ID == "" {
				t.Errorf("extra pallet %+v is no copy of a pallet of a store of the day", p)
			}
		case slices.Contains(made.AddedStores, p.Store):
		default:
			if old[p.ID] != p {
				t.Errorf("pallet %s changed: %+v, was %+v", p.ID, p, old[p.ID])
			}
		}
	}
	if want := int(math.Round(LateExtraShare * float64(kept))); len(made.ExtraPallets) != want {
		t.Errorf("%d extra pallets on %d kept, want %d", len(made.ExtraPallets), kept, want)
	}
	for _, id := range made.AddedStores {
		if n := perStore[id]; n < MinPallets || n > MaxPallets {
			t.Errorf("added store %s orders %d pallets", id, n)
		}
	}
	if got, want := len(out.Pallets), kept+len(made.ExtraPallets)+perStore[made.AddedStores[0]]+perStore[made.AddedStores[1]]; got != want {
		t.Errorf("%d pallets, want %d", got, want)
	}
}

func TestLateChangesRefuses(t *testing.T) {
	if _, _, err := LateChanges(generate(t, 1, 1), 1); !errors.Is(err, ErrLateChanges) {
		t.Errorf("one store: %v", err)
	}
	req := generate(t, 3, 1)
	req.RoadMatrix = &geo.RoadMatrix{}
	if _, _, err := LateChanges(req, 1); !errors.Is(err, ErrLateChanges) {
		t.Errorf("road matrix: %v", err)
	}
}

// TestLateChangesSparing: the stores spared are never the one removed,
// over many seeds, and sparing all but one removes that one; sparing
// none draws what LateChanges draws; sparing every store is refused.
func TestLateChangesSparing(t *testing.T) {
	req, err := Generate(Config{Stores: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var spare []string
	for _, s := range req.Stores[:10] {
		spare = append(spare, s.ID)
	}
	for seed := range uint64(30) {
		_, made, err := LateChangesSparing(req, seed, spare)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range made.RemovedStores {
			if slices.Contains(spare, s) {
				t.Fatalf("seed %d: spared store %s removed", seed, s)
			}
		}
		a, _, _ := LateChanges(req, seed)
		b, _, _ := LateChangesSparing(req, seed, nil)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: sparing no store draws other changes than LateChanges", seed)
		}
	}
	var all []string
	for _, s := range req.Stores {
		all = append(all, s.ID)
	}
	_, made, err := LateChangesSparing(req, 1, all[1:])
	if err != nil || !slices.Equal(made.RemovedStores, all[:1]) {
		t.Fatalf("sparing all but %s: removed %v, %v", all[0], made.RemovedStores, err)
	}
	if _, _, err := LateChangesSparing(req, 1, all); !errors.Is(err, ErrLateChanges) {
		t.Fatalf("sparing every store: %v, want ErrLateChanges", err)
	}
}
