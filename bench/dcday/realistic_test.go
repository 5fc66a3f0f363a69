package dcday

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

func generateMode(t *testing.T, stores int, mode Mode) engine.Request {
	t.Helper()
	req, err := Generate(Config{Stores: stores, Seed: 1, Mode: mode})
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Check(); err != nil {
		t.Fatalf("%v day of %d stores: %v", mode, stores, err)
	}
	return req
}

// TestRealisticDaysKeepTheirPromises holds Realistic days to what the
// mode says: stores in the ring, morning receiving, fewer shifts and
// trailer units than trailer loads, doors by size, night staging that
// reaches every shift.
func TestRealisticDaysKeepTheirPromises(t *testing.T) {
	for _, n := range []int{200, 1000} {
		req := generateMode(t, n, Realistic)
		for _, s := range req.Stores {
			if km := geo.Distance(req.DC.Location, s.Location) / 1000; km < RingInnerKm || km > RingOuterKm {
				t.Fatalf("%d stores: store %s is %.1f km from the DC", n, s.ID, km)
			}
			for _, o := range s.Hours.Days["tue"] {
				if o.Open < "04:00" || o.Close > "16:00" || o.Close <= o.Open {
					t.Fatalf("store %s receives %s–%s on the delivery day", s.ID, o.Open, o.Close)
				}
			}
		}
		// No trailer holds more than 30 positions and a pallet takes at
		// least half of one, so the day needs at least this many loads.
		loads := int(math.Ceil(floorPositions(req) / 30))
		units := 0
		for _, ft := range req.Fleet {
			units += ft.Count
		}
		if len(req.Shifts) >= loads || units >= loads {
			t.Errorf("%d stores: %d shifts and %d units for at least %d trailer loads", n, len(req.Shifts), units, loads)
		}
		if got := float64(len(req.Shifts)) / float64(loads); math.Abs(got-ShiftShare) > 0.02 {
			t.Errorf("%d stores: %.3f shifts a load, want about %.2f", n, got, ShiftShare)
		}
		if d := req.DC.DockDoors; d < MinDoors || d > MaxDoors || d != Doors(n) {
			t.Errorf("%d stores: %d doors", n, d)
		}
		dc := req.DC
		if dc.HookTime != 15*time.Minute || dc.TrailerTurnaround != 30*time.Minute {
			t.Errorf("hook %v, turnaround %v", dc.HookTime, dc.TrailerTurnaround)
		}
		// A trailer loaded when the dock opens at 20:00 may wait for the
		// latest shift to hook it.
		opens := DeliveryDate.Add(-4 * time.Hour)
		for _, s := range req.Shifts {
			if s.Start.Sub(opens) > dc.MaxStaging || s.End.Sub(s.Start) != 14*time.Hour {
				t.Fatalf("shift %s %s–%s: loaded at 20:00, a trailer waits at most %v", s.ID, s.Start, s.End, dc.MaxStaging)
			}
		}
	}
	if Doors(50) != MinDoors || Doors(5000) != MaxDoors {
		t.Errorf("doors of 50 and 5,000 stores: %d and %d", Doors(50), Doors(5000))
	}
}

// TestNearDay: stores within NearOuterKm, doors unlimited, and the
// Standard day's shifts and trailers, at least a trailer and a driver for
// every load.
func TestNearDay(t *testing.T) {
	req := generateMode(t, 200, Near)
	for _, s := range req.Stores {
		if km := geo.Distance(req.DC.Location, s.Location) / 1000; km < NearInnerKm || km > NearOuterKm {
			t.Fatalf("store %s is %.1f km from the DC", s.ID, km)
		}
	}
	loads := int(math.Ceil(floorPositions(req) / 30))
	units := 0
	for _, ft := range req.Fleet {
		units += ft.Count
	}
	if req.DC.DockDoors != 0 || len(req.Shifts) < loads || units < loads || req.DC.MaxStaging != 12*time.Hour {
		t.Errorf("%d doors, %d shifts, %d units for %d loads, staging %v", req.DC.DockDoors, len(req.Shifts), units, loads, req.DC.MaxStaging)
	}
}

// TestDoorLimitedDay: 1,000 stores, 20 doors, 8 h of loading a night.
func TestDoorLimitedDay(t *testing.T) {
	req := generateMode(t, 1000, DoorLimited)
	if req.DC.DockDoors != DoorLimitedDoors {
		t.Errorf("%d doors", req.DC.DockDoors)
	}
	ws, err := req.DC.DockHours.Resolve(DeliveryDate.Add(-24*time.Hour), DeliveryDate)
	if err != nil {
		t.Fatal(err)
	}
	var open time.Duration
	for _, w := range ws {
		open += w.End.Sub(w.Start)
	}
	// The day before the delivery day holds 00:00–04:00 and 20:00–24:00.
	if open != DoorLimitedHours*time.Hour {
		t.Errorf("dock open %v a day, want %d h", open, DoorLimitedHours)
	}
}

func TestModesAreReproducibleAndDistinct(t *testing.T) {
	a, b := generateMode(t, 200, Realistic), generateMode(t, 200, Realistic)
	if a.Stores[7].Location != b.Stores[7].Location || len(a.Pallets) != len(b.Pallets) {
		t.Fatal("one config gave two realistic days")
	}
	if std := generateMode(t, 200, Standard); std.Stores[7].Location == a.Stores[7].Location {
		t.Fatal("the standard and realistic days share their stores")
	}
	if _, err := Generate(Config{Stores: 10, Mode: Mode(9)}); !errors.Is(err, ErrMode) {
		t.Errorf("mode 9: %v", err)
	}
	for _, m := range []Mode{Standard, Realistic, DoorLimited, Near} {
		if back, ok := ParseMode(m.String()); !ok || back != m {
			t.Errorf("%v reads back as %v", m, back)
		}
	}
}
