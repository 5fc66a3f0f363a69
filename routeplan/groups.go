package routeplan

// tooManyGroups reports whether seq carries more distinct Site.Group values
// than max allows; seen is scratch space, returned for reuse. Routes are
// short and max small, so a linear scan of the groups met so far beats a
// map.
func (in *instance) tooManyGroups(seq []int, max int, seen []int) (bool, []int) {
	seen = seen[:0]
	for _, i := range seq {
		g := in.sites[i].Group
		found := false
		for _, h := range seen {
			if h == g {
				found = true
				break
			}
		}
		if !found {
			if len(seen) == max {
				return true, seen
			}
			seen = append(seen, g)
		}
	}
	return false, seen
}
