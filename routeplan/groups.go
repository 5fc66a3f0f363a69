package routeplan

// tooManyGroups reports whether a trip of seq carries more distinct
// Site.Group values than max allows (a reload starts a trip and has no
// group); seen is scratch space, returned for reuse. Trips are short and
// max small, so a linear scan of the groups met so far beats a map.
func (in *instance) tooManyGroups(seq []int, max int, seen []int) (bool, []int) {
	seen = seen[:0]
	for _, i := range seq {
		if in.isReload(i) {
			seen = seen[:0]
			continue
		}
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
