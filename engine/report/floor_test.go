package report

import (
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// TestZoneLabelsDoNotOverlap: a one-row frozen zone at the nose is
// narrower than its label; the labels of neighbouring zones must still not
// write over each other (they did, in the README's trailer floor).
func TestZoneLabelsDoNotOverlap(t *testing.T) {
	px := func(mm float64) float64 { return 70 + mm*900/14630 }
	for _, zones := range [][]engine.Zone{
		{
			{Temperature: constraints.Frozen, FirstRow: 0, LastRow: 0, FromMM: 0, ToMM: 1016},
			{Temperature: constraints.Chilled, FirstRow: 1, LastRow: 6, FromMM: 1016, ToMM: 7112},
			{Temperature: constraints.Ambient, FirstRow: 7, LastRow: 12, FromMM: 7112, ToMM: 14350},
		},
		{
			{Temperature: constraints.Frozen, FirstRow: 0, LastRow: 0, FromMM: 0, ToMM: 1016},
			{Temperature: constraints.Chilled, FirstRow: 1, LastRow: 1, FromMM: 1016, ToMM: 2032},
			{Temperature: constraints.Ambient, FirstRow: 2, LastRow: 12, FromMM: 2032, ToMM: 14350},
		},
		{
			{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 13, FromMM: 0, ToMM: 14350},
		},
	} {
		labels := zoneLabels(zones, px)
		for i := range labels {
			for j := i + 1; j < len(labels); j++ {
				if labels[i].y != labels[j].y {
					continue
				}
				endI := px(float64(zones[i].FromMM)) + 4 + labelCharWidth*float64(len([]rune(labels[i].text)))
				if startJ := px(float64(zones[j].FromMM)) + 4; endI > startJ {
					t.Errorf("labels %q and %q overlap on the line at y=%v (%.0f > %.0f)", labels[i].text, labels[j].text, labels[i].y, endI, startJ)
				}
			}
		}
		if len(zones) == 1 && labels[0].y != floorTop-5 {
			t.Errorf("a single zone's label moved off the line above the floor: y=%v", labels[0].y)
		}
	}
	// A person counts rows from 1 at the nose; the plan from 0.
	if got := rowsText(engine.Zone{FirstRow: 3, LastRow: 3}); got != "row 4" {
		t.Errorf("row index 3 reads %q, want row 4", got)
	}
	if got := rowsText(engine.Zone{FirstRow: 0, LastRow: 7}); got != "rows 1–8" {
		t.Errorf("row indices 0 to 7 read %q, want rows 1–8", got)
	}
}
