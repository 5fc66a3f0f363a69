package main

import "testing"

// TestByteSize: a size flag reads plain bytes and binary and decimal
// units, and writes its value back in the largest whole binary unit.
func TestByteSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		text string
	}{
		{"33554432", 32 << 20, "32MiB"},
		{"32MiB", 32 << 20, "32MiB"},
		{"32 mib", 32 << 20, "32MiB"},
		{"1GiB", 1 << 30, "1GiB"},
		{"1536KiB", 1536 << 10, "1536KiB"},
		{"500MB", 500e6, "500000000"},
		{"2kB", 2000, "2000"},
		{"0", 0, "0"},
		{"4TiB", 4 << 40, "4TiB"},
		{"100B", 100, "100"},
	} {
		var b byteSize
		if err := b.Set(c.in); err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if int64(b) != c.want || b.String() != c.text {
			t.Errorf("%q = %d %q, want %d %q", c.in, int64(b), b.String(), c.want, c.text)
		}
	}
	for _, bad := range []string{"", "MiB", "-1", "1.5GiB", "12 apples", "9999999TiB"} {
		var b byteSize
		if err := b.Set(bad); err == nil {
			t.Errorf("%q read as %d, want an error", bad, int64(b))
		}
	}
}
