package constraints

// Load is a capacity vector: what a trailer can hold or what a set of
// pallets needs. The planners treat every component as a hard limit.
type Load struct {
	Positions int     `json:"positions"` // pallet floor positions
	WeightKg  float64 `json:"weightKg"`
	VolumeM3  float64 `json:"volumeM3"`
}

// Add returns the component-wise sum.
func (l Load) Add(o Load) Load {
	return Load{l.Positions + o.Positions, l.WeightKg + o.WeightKg, l.VolumeM3 + o.VolumeM3}
}

// Fits reports whether l fits inside capacity c in every component.
// Weight and volume allow a relative slack of 1e-9 so that sums of
// decimal inputs that equal the limit are not rejected for rounding.
func (l Load) Fits(c Load) bool {
	return l.Positions <= c.Positions &&
		l.WeightKg <= c.WeightKg*(1+1e-9) &&
		l.VolumeM3 <= c.VolumeM3*(1+1e-9)
}

// Utilisation returns each component of l as a fraction of c (0 where c's
// component is 0).
func (l Load) Utilisation(c Load) (positions, weight, volume float64) {
	frac := func(a, b float64) float64 {
		if b <= 0 {
			return 0
		}
		return a / b
	}
	return frac(float64(l.Positions), float64(c.Positions)), frac(l.WeightKg, c.WeightKg), frac(l.VolumeM3, c.VolumeM3)
}
