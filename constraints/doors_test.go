package constraints

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestCheckDoors: every bad door is reported at its field path, once; a
// good list and an empty one (the rear door) pass.
func TestCheckDoors(t *testing.T) {
	const length = 14350
	rear := Door{Side: RearDoor}
	tests := []struct {
		name  string
		doors []Door
		want  []string // "path code"
	}{
		{"none: the rear door", nil, nil},
		{"rear and a curbside door at the nose", []Door{rear, {Side: CurbDoor, ToMM: 2500}}, nil},
		{"doors on both walls over one stretch", []Door{rear, {Side: CurbDoor, FromMM: 5000, ToMM: 6500}, {Side: RoadDoor, FromMM: 5000, ToMM: 6500}}, nil},
		{"a side door up to the door end", []Door{{Side: RoadDoor, FromMM: 13000, ToMM: length}, rear}, nil},
		{"no rear door", []Door{{Side: CurbDoor, ToMM: 2500}}, []string{"fleet[2].doors REQUIRED"}},
		{"two rear doors", []Door{rear, rear}, []string{"fleet[2].doors[1].side INVALID_VALUE"}},
		{"a rear door with a stretch", []Door{{Side: RearDoor, FromMM: 10, ToMM: 20}}, []string{"fleet[2].doors[0].fromMM INVALID_VALUE", "fleet[2].doors[0].toMM INVALID_VALUE"}},
		{"a side door past the end", []Door{rear, {Side: CurbDoor, FromMM: 13000, ToMM: length + 1}}, []string{"fleet[2].doors[1].toMM INVALID_VALUE"}},
		{"a side door without its end", []Door{rear, {Side: CurbDoor, FromMM: 1000}}, []string{"fleet[2].doors[1].toMM REQUIRED"}},
		{"a side door ending where it starts", []Door{rear, {Side: RoadDoor, FromMM: 1000, ToMM: 1000}}, []string{"fleet[2].doors[1].toMM INVALID_VALUE"}},
		{"a side door before the nose", []Door{rear, {Side: CurbDoor, FromMM: -1, ToMM: 1000}}, []string{"fleet[2].doors[1].fromMM INVALID_VALUE"}},
		{"overlapping doors in one wall", []Door{rear, {Side: CurbDoor, ToMM: 2500}, {Side: CurbDoor, FromMM: 2499, ToMM: 4000}}, []string{"fleet[2].doors[2].fromMM INVALID_VALUE"}},
		{"doors touching in one wall", []Door{rear, {Side: CurbDoor, ToMM: 2500}, {Side: CurbDoor, FromMM: 2500, ToMM: 4000}}, nil},
		{"an unknown side", []Door{rear, {Side: DoorSide(7), ToMM: 100}}, []string{"fleet[2].doors[1].side INVALID_VALUE"}},
		{"no side", []Door{rear, {ToMM: 100}}, []string{"fleet[2].doors[1].side REQUIRED"}},
		{"too many doors", append([]Door{rear}, curbDoors(MaxDoors)...), []string{"fleet[2].doors INVALID_VALUE"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, v := range CheckDoors("fleet[2].doors", tc.doors, length) {
				if v.Message == "" {
					t.Errorf("%s: no message", v.Path)
				}
				got = append(got, v.Path+" "+v.Code)
			}
			got = slices.Compact(slices.Sorted(slices.Values(got)))
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// curbDoors is n curbside doors of 500 mm, 1,000 mm apart.
func curbDoors(n int) []Door {
	var ds []Door
	for i := range n {
		ds = append(ds, Door{Side: CurbDoor, FromMM: 1000 * i, ToMM: 1000*i + 500})
	}
	return ds
}

// TestDoorJSON: a door list reads and writes with side names, and a side
// door's stretch; an unknown side is an error.
func TestDoorJSON(t *testing.T) {
	in := `[{"side":"REAR"},{"side":"CURB","toMM":2500},{"side":"ROAD","fromMM":7000,"toMM":8500}]`
	var ds []Door
	if err := json.Unmarshal([]byte(in), &ds); err != nil {
		t.Fatal(err)
	}
	want := []Door{{Side: RearDoor}, {Side: CurbDoor, ToMM: 2500}, {Side: RoadDoor, FromMM: 7000, ToMM: 8500}}
	if !slices.Equal(ds, want) {
		t.Fatalf("read %+v, want %+v", ds, want)
	}
	out, err := json.Marshal(ds)
	if err != nil || string(out) != in {
		t.Fatalf("wrote %s (%v), want %s", out, err, in)
	}
	if err := json.Unmarshal([]byte(`[{"side":"LEFT"}]`), &ds); err == nil {
		t.Fatal("side LEFT read without error")
	}
	if _, err := json.Marshal(Door{Side: DoorSide(5)}); err == nil {
		t.Fatal("side 5 written without error")
	}
}
