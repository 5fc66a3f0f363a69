// Package constraints is the shared vocabulary of haulplan's planners: time
// windows and weekly opening hours resolved to instants, driver shifts and
// hours-of-service limits, capacity vectors, temperature classes and trailer
// equipment, and the Violation type every check in the library reports with.
//
// It holds no search and no optimisation; loadplan, routeplan, delivery and
// engine all import it, and of haulplan's packages it imports only
// internal/numtext, which writes the numbers of its messages.
package constraints
