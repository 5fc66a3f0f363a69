// Package numtext writes numbers for people: the messages of the library's
// checks show the offending value and its limits, large ones with
// thousands separators ("1,000,000,000 kg"), so that a planner reads them
// without counting digits.
//
// It imports nothing of the library's, so that every package may use it.
package numtext

import (
	"math"
	"strconv"
	"strings"
)

// Float writes v with thousands separators in its whole part and the
// fraction it has, in the shortest form that reads back to v: 1e9 is
// "1,000,000,000", 1234.5 is "1,234.5", -3 is "-3", 0.85 is "0.85". NaN
// and the infinities are written "NaN", "+Inf" and "-Inf"; magnitudes of
// 1e21 and more, which no request quantity reaches, in exponent form.
func Float(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'g', -1, 64)
	case math.Abs(v) >= 1e21:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if s == "-0" {
		s = "0"
	}
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	out := sign + separate(whole)
	if hasFrac {
		out += "." + frac
	}
	return out
}

// Int writes n with thousands separators: 5000 is "5,000".
func Int(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + separate(s[1:])
	}
	return separate(s)
}

// Whole writes v rounded to a whole number (halves away from zero), with
// thousands separators: 12345.6 is "12,346", -0.4 is "0".
func Whole(v float64) string {
	r := math.Round(v)
	if r == 0 {
		r = 0 // no "-0"
	}
	return Float(r)
}

// separate puts a comma between every group of three digits, from the
// right.
func separate(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	b.Grow(len(digits) + len(digits)/3)
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(digits[i])
	}
	return b.String()
}
