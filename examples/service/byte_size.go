package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// byteSize is a flag's number of bytes, written plain (33554432) or with
// a unit: KiB, MiB, GiB, TiB (powers of 1024) or kB, MB, GB, TB (powers of
// 1000), in any case, with or without a space ("32MiB", "1 GiB"). -h
// shows the default in the largest binary unit that writes it whole.
type byteSize int64

var byteUnits = []struct {
	name string
	size int64
}{
	{"tib", 1 << 40}, {"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10},
	{"tb", 1e12}, {"gb", 1e9}, {"mb", 1e6}, {"kb", 1e3}, {"b", 1},
}

func (b *byteSize) Set(s string) error {
	text := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range byteUnits {
		if num, ok := strings.CutSuffix(text, u.name); ok {
			text, mult = strings.TrimSpace(num), u.size
			break
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return fmt.Errorf("%q: want a number of bytes, with a unit or not (1048576, 512KiB, 32MiB, 1GiB, 500MB)", s)
	}
	*b = byteSize(n * mult)
	return nil
}

func (b byteSize) String() string {
	n := int64(b)
	for _, u := range byteUnits[:4] {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + strings.Replace(strings.ToUpper(u.name), "I", "i", 1)
		}
	}
	return strconv.FormatInt(n, 10)
}
