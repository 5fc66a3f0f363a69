package vrptw

import (
	"strings"
	"testing"

	"github.com/haulplan/haulplan/routeplan"
)

func FuzzRead(f *testing.F) {
	f.Add(tiny)
	f.Add("X\nVEHICLE\n1 10\nCUSTOMER\n0 0 0 0 0 10 0\n1 1 1 1 0 5 1\n")
	f.Add("X\nVEHICLE\n1e300 10\nCUSTOMER\n")
	f.Fuzz(func(t *testing.T, text string) {
		in, err := Read(strings.NewReader(text))
		if err != nil {
			return
		}
		// Whatever parses must give a valid problem under both conventions.
		if len(in.Customers) > 50 {
			return
		}
		for _, c := range []Convention{Hierarchical, Distance} {
			if err := routeplanCheck(in.Problem(c)); err != nil {
				t.Fatalf("parsed instance gives an invalid problem: %v", err)
			}
		}
	})
}

func FuzzReadSol(f *testing.F) {
	f.Add("Route #1: 1 2 3\nRoute #2: 4\nCost 12.5\n")
	f.Add("Route #1 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		routes, _, err := ReadSol(strings.NewReader(text))
		if err != nil {
			return
		}
		// What parses must survive a write and a read unchanged.
		var buf strings.Builder
		if err := WriteSol(&buf, routes, 1, 1); err != nil {
			t.Fatal(err)
		}
		again, cost, err := ReadSol(strings.NewReader(buf.String()))
		if err != nil || cost != 1 || len(again) != len(routes) {
			t.Fatalf("round trip: %v %g %v", again, cost, err)
		}
		for k := range routes {
			if len(again[k]) != len(routes[k]) {
				t.Fatalf("route %d: %v became %v", k, routes[k], again[k])
			}
			for j := range routes[k] {
				if again[k][j] != routes[k][j] {
					t.Fatalf("route %d: %v became %v", k, routes[k], again[k])
				}
			}
		}
	})
}

func FuzzReadRefs(f *testing.F) {
	f.Add("instance,vehicles,distance\nC101,10,828.94\n")
	f.Add("instance,vehicles\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, _ = ReadRefs(strings.NewReader(text))
	})
}

var routeplanCheck = routeplan.Check
