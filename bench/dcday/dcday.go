package dcday

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

// Config chooses a generated day. The zero RadiusKm means the default for
// the size.
type Config struct {
	Stores int
	Seed   uint64
	// RadiusKm bounds the stores' great-circle distance from the DC; 0
	// means DefaultRadiusKm(Stores). Only a Standard day reads it.
	RadiusKm float64
	// Mode is the kind of day; the zero value is Standard.
	Mode Mode
	// Travel is the day's road model; the zero value is geo's default
	// speed bands (haulbench dcday -travel chooses others to compare).
	Travel geo.TravelModel
	// HalfShare is the share of half pallets among the pallets, from 0 to
	// 1; 0 means the default, HalfShare (6 %). The other kinds keep their
	// shares while there is room (StackShare of low stackable pallets, the
	// rest full pallets).
	HalfShare float64
	// HalvesAsFull gives the half pallets a full 48×40 in footprint and
	// changes nothing else of the day: the same stores, pallets, weights
	// and heights, to measure what sharing floor positions saves.
	HalvesAsFull bool
}

// freight is what storePallets draws a store's pallets by.
type freight struct {
	halfShare    float64
	halvesAsFull bool
}

func (cfg Config) freight() freight {
	f := freight{halfShare: HalfShare, halvesAsFull: cfg.HalvesAsFull}
	if cfg.HalfShare > 0 {
		f.halfShare = min(cfg.HalfShare, 1)
	}
	return f
}

// ErrStores is returned for a store count Generate cannot make a request of.
var ErrStores = errors.New("dcday: stores must be between 1 and engine.MaxStores")

// ErrMode is returned for a Mode that is none of the defined ones.
var ErrMode = errors.New("dcday: unknown mode")

// DefaultRadiusKm is the radius of the area served: 180 km, a metro area and
// the towns around it; 250 km from 2,000 stores up, a regional network.
func DefaultRadiusKm(stores int) float64 {
	if stores >= 2000 {
		return 250
	}
	return 180
}

// Shares of the generated freight, which the tests hold the days to.
const (
	ShortYardShare = 0.15 // stores that take 48 ft trailers at most
	AmbientShare   = 0.65 // of pallets
	ChilledShare   = 0.25
	FrozenShare    = 0.10
	HalfShare      = 0.06 // half pallets, of pallets
	StackShare     = 0.08 // low pallets that may be stacked two high
	MinPallets     = 4    // per store
	MaxPallets     = 20
)

// ShortYardMM is the longest trailer a short-yard store accepts: 48 ft.
const ShortYardMM = 14630

// timeZone is the DC's and every store's zone.
const timeZone = "America/Chicago"

// dcLocation is the DC: Lancaster, south of Dallas.
var dcLocation = geo.Point{Lat: 32.5921, Lng: -96.7561}

// DeliveryDate is the day every generated request delivers: Tuesday 24
// November 2026, in timeZone. Shifts start from 21:00 the evening before.
var DeliveryDate = time.Date(2026, 11, 24, 0, 0, 0, 0, mustZone(timeZone))

// Generate returns the day cfg describes. The same cfg gives the same
// request on any machine.
func Generate(cfg Config) (engine.Request, error) {
	if cfg.Stores < 1 || cfg.Stores > engine.MaxStores {
		return engine.Request{}, fmt.Errorf("%w, got %d", ErrStores, cfg.Stores)
	}
	switch cfg.Mode {
	case Standard:
	case Realistic, DoorLimited, Near:
		return generateRealistic(cfg), nil
	default:
		return engine.Request{}, fmt.Errorf("%w: %v", ErrMode, cfg.Mode)
	}
	radius := cfg.RadiusKm
	if radius <= 0 {
		radius = DefaultRadiusKm(cfg.Stores)
	}
	// The store count is the PCG's stream, so that the days of one seed
	// differ between sizes rather than one being a prefix of the other.
	r := rand.New(rand.NewPCG(cfg.Seed, uint64(cfg.Stores)))
	req := engine.Request{
		DC: engine.DC{ID: "DC", Name: "Lancaster DC", Location: dcLocation,
			DockHours: dockHours(), LoadingPerPallet: 90 * time.Second},
		HoursOfService: constraints.HoursOfService{MaxDriving: 11 * time.Hour, MaxDuty: 14 * time.Hour,
			BreakAfter: 8 * time.Hour, BreakDuration: 30 * time.Minute},
		Travel: cfg.Travel,
	}
	sites := storeSites(r, cfg.Stores, radius)
	short := shortYards(r, sites)
	for i, s := range sites {
		st := engine.Store{ID: fmt.Sprintf("S%04d", i+1), Location: s.at, Hours: receiving(r),
			Unloading: engine.Unloading{Fixed: time.Duration(10+5*r.IntN(3)) * time.Minute, PerPallet: 2 * time.Minute}}
		if short[i] {
			st.MaxTrailerLengthMM = ShortYardMM
		}
		req.Stores = append(req.Stores, st)
		req.Pallets = append(req.Pallets, storePallets(r, st.ID, cfg.freight())...)
	}
	req.Fleet = fleet(req)
	req.Shifts = shifts(shiftCount(req))
	return req, nil
}

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // time/tzdata is linked in through constraints
	}
	return loc
}
