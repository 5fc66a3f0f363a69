package routeplan

// ranked is the objective of one used route whose cost terms are in o,
// ranked by the problem's Objective: under Hierarchical the route counts
// as a vehicle first, so that fewer routes beat any saving in cost.
// Every place that prices a route goes through here, so that the choice
// of objective lives in one function.
func (in *instance) ranked(o objective) objective {
	if in.hierarchical {
		o.vehicles = 1
	}
	return o
}
