package dcday

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/haulplan/haulplan/engine"
)

// The night's changes LateChanges makes, the target of re-planning a
// released plan: 5 % more pallets on existing stores, two stores added,
// one removed.
const (
	LateExtraShare    = 0.05
	LateStoresAdded   = 2
	LateStoresRemoved = 1
)

// LateChangesMade says what LateChanges changed, for a caller to follow
// each change into the next plan.
type LateChangesMade struct {
	RemovedStores []string
	// AddedStores are the new stores; their pallets are in the request as
	// any store's are.
	AddedStores []string
	// ExtraPallets are the pallets added to stores the day had.
	ExtraPallets []string
}

// ErrLateChanges is returned for a day LateChanges cannot change: fewer
// stores than the stores it removes plus one, or a road matrix (the new
// stores would have no roads in it).
var ErrLateChanges = errors.New("dcday: late changes need a day of at least 2 stores and no road matrix")

// LateChanges returns req with the changes a night brings after its plan
// was released, drawn from seed (the same req and seed give the same
// changes on any machine); req itself is left as it is:
//
//   - LateStoresRemoved stores cancel: they and their pallets go;
//   - stores the day had order LateExtraShare more pallets, rounded to
//     the nearest pallet and at least one: each extra pallet goes to a
//     store drawn at random (so a store may add several) and is a copy of
//     one of that store's pallets (class, footprint, weight, height)
//     under a new id, "<store>-L01";
//   - LateStoresAdded new stores join, each beside a store of the day (1
//     to 5 km away) with that store's receiving hours, unloading and yard,
//     a new id ("S0201" after S0200) and an order of its own drawn as
//     Generate draws one.
//
// The fleet and the shifts stay as they are: the night brings freight,
// not trucks.
func LateChanges(req engine.Request, seed uint64) (engine.Request, LateChangesMade, error) {
	return LateChangesSparing(req, seed, nil)
}

// LateChangesSparing is LateChanges that removes none of the stores in
// spare: those on the released plan's locked routes, say, whose trailers
// are loaded (a cancelled store there is a lock the request breaks, which
// engine.Plan reports). With no store spared it draws what LateChanges
// draws.
func LateChangesSparing(req engine.Request, seed uint64, spare []string) (engine.Request, LateChangesMade, error) {
	removable := 0
	for _, st := range req.Stores {
		if !slices.Contains(spare, st.ID) {
			removable++
		}
	}
	if len(req.Stores) < LateStoresRemoved+1 || removable < LateStoresRemoved || req.RoadMatrix != nil {
		return engine.Request{}, LateChangesMade{}, fmt.Errorf("%w (%d stores, road matrix %t)", ErrLateChanges, len(req.Stores), req.RoadMatrix != nil)
	}
	r := rand.New(rand.NewPCG(seed, 0x1a7e))
	var made LateChangesMade
	out := req
	out.Stores = slices.Clone(req.Stores)
	gone := map[string]bool{}
	for range LateStoresRemoved {
		i := r.IntN(len(out.Stores))
		if len(spare) > 0 {
			var may []int
			for k, st := range out.Stores {
				if !slices.Contains(spare, st.ID) {
					may = append(may, k)
				}
			}
			i = may[r.IntN(len(may))]
		}
		gone[out.Stores[i].ID] = true
		made.RemovedStores = append(made.RemovedStores, out.Stores[i].ID)
		out.Stores = slices.Delete(out.Stores, i, i+1)
	}
	out.Pallets = make([]engine.Pallet, 0, len(req.Pallets)+len(req.Pallets)/10+2*MaxPallets)
	byStore := map[string][]engine.Pallet{}
	ids := map[string]bool{}
	for _, p := range req.Pallets {
		ids[p.ID] = true
		if !gone[p.Store] {
			out.Pallets = append(out.Pallets, p)
			byStore[p.Store] = append(byStore[p.Store], p)
		}
	}
	// The extra pallets go to stores that have pallets to copy.
	var ordering []string
	for _, s := range out.Stores {
		if len(byStore[s.ID]) > 0 {
			ordering = append(ordering, s.ID)
		}
	}
	extra := max(1, int(math.Round(LateExtraShare*float64(len(out.Pallets)))))
	added := map[string]int{}
	for i := 0; i < extra && len(ordering) > 0; i++ {
		s := ordering[r.IntN(len(ordering))]
		p := byStore[s][r.IntN(len(byStore[s]))]
		for {
			added[s]++
			p.ID = fmt.Sprintf("%s-L%02d", s, added[s])
			if !ids[p.ID] {
				break
			}
		}
		ids[p.ID] = true
		out.Pallets = append(out.Pallets, p)
		made.ExtraPallets = append(made.ExtraPallets, p.ID)
	}
	storeIDs := map[string]bool{}
	for _, s := range req.Stores {
		storeIDs[s.ID] = true
	}
	next := len(req.Stores)
	for range LateStoresAdded {
		beside := out.Stores[r.IntN(len(out.Stores))]
		st := beside
		st.Name = ""
		for {
			next++
			st.ID = fmt.Sprintf("S%04d", next)
			if !storeIDs[st.ID] {
				break
			}
		}
		storeIDs[st.ID] = true
		st.Location = offset(beside.Location, 1+4*r.Float64(), 2*math.Pi*r.Float64())
		out.Stores = append(out.Stores, st)
		out.Pallets = append(out.Pallets, storePallets(r, st.ID, Config{}.freight())...)
		made.AddedStores = append(made.AddedStores, st.ID)
	}
	return out, made, nil
}
