package delivery

import "github.com/haulplan/haulplan/constraints"

// Status is where a delivery is in the carrier lifecycle. The interface
// document names no states; these follow the usual last-mile carrier
// lifecycle, in this order:
//
//	DELIVERY_REQUESTED → DRIVER_ASSIGNED → ENROUTE_TO_PICKUP →
//	ARRIVED_AT_PICKUP → DISPATCHED → ENROUTE_TO_DROPOFF → DELIVERED
//
// plus CANCELLED (from any non-terminal state), DELIVERY_FAILED (the
// drop-off attempt failed; the driver may try again or bring the order
// back) and RETURNED (the order is back at the pickup point). Before
// dispatch the driver may be unassigned, which puts the delivery back to
// DELIVERY_REQUESTED. DELIVERED, CANCELLED and RETURNED are terminal.
type Status string

// The statuses of a delivery; see Status for the lifecycle.
const (
	StatusRequested        Status = "DELIVERY_REQUESTED"
	StatusDriverAssigned   Status = "DRIVER_ASSIGNED"
	StatusEnrouteToPickup  Status = "ENROUTE_TO_PICKUP"
	StatusArrivedAtPickup  Status = "ARRIVED_AT_PICKUP"
	StatusDispatched       Status = "DISPATCHED"
	StatusEnrouteToDropoff Status = "ENROUTE_TO_DROPOFF"
	StatusDelivered        Status = "DELIVERED"
	StatusFailed           Status = "DELIVERY_FAILED"
	StatusReturned         Status = "RETURNED"
	StatusCancelled        Status = "CANCELLED"
)

// Statuses lists every status in lifecycle order.
var Statuses = []Status{
	StatusRequested, StatusDriverAssigned, StatusEnrouteToPickup,
	StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff,
	StatusDelivered, StatusFailed, StatusReturned, StatusCancelled,
}

type statusInfo struct {
	driverAssigned bool
	dispatched     bool
	terminal       bool
	next           []Status
}

var statusTable = map[Status]statusInfo{
	StatusRequested:        {next: []Status{StatusDriverAssigned, StatusCancelled}},
	StatusDriverAssigned:   {driverAssigned: true, next: []Status{StatusEnrouteToPickup, StatusRequested, StatusCancelled}},
	StatusEnrouteToPickup:  {driverAssigned: true, next: []Status{StatusArrivedAtPickup, StatusRequested, StatusCancelled}},
	StatusArrivedAtPickup:  {driverAssigned: true, next: []Status{StatusDispatched, StatusRequested, StatusCancelled}},
	StatusDispatched:       {driverAssigned: true, dispatched: true, next: []Status{StatusEnrouteToDropoff, StatusCancelled}},
	StatusEnrouteToDropoff: {driverAssigned: true, dispatched: true, next: []Status{StatusDelivered, StatusFailed, StatusCancelled}},
	StatusFailed:           {driverAssigned: true, dispatched: true, next: []Status{StatusEnrouteToDropoff, StatusReturned, StatusCancelled}},
	StatusDelivered:        {driverAssigned: true, dispatched: true, terminal: true},
	StatusReturned:         {driverAssigned: true, dispatched: true, terminal: true},
	StatusCancelled:        {terminal: true},
}

// Valid reports whether s is one of the statuses above.
func (s Status) Valid() bool { _, ok := statusTable[s]; return ok }

// DriverAssigned reports whether a driver has been assigned (section 3's
// first condition): true from DRIVER_ASSIGNED on.
func (s Status) DriverAssigned() bool { return statusTable[s].driverAssigned }

// Dispatched reports whether the order has left the pickup point
// (section 3's second condition): true from DISPATCHED on.
func (s Status) Dispatched() bool { return statusTable[s].dispatched }

// Terminal reports whether the delivery is closed; a closed delivery
// accepts no update and no transition.
func (s Status) Terminal() bool { return statusTable[s].terminal }

// Next lists the statuses s may move to, in a fixed order.
func (s Status) Next() []Status { return append([]Status(nil), statusTable[s].next...) }

// CanTransition reports whether a delivery in status s may move to status to.
func (s Status) CanTransition(to Status) bool {
	for _, n := range statusTable[s].next {
		if n == to {
			return true
		}
	}
	return false
}

// Transition returns a copy of d moved to status to, or an error matching
// ErrIllegalTransition (or ErrClosed when d is terminal). d is not changed.
func Transition(d Delivery, to Status) (Delivery, error) {
	var vs constraints.Violations
	switch {
	case !d.Status.Valid():
		vs.Add(CodeInvalidStatus, pathStatus, "current status %q is not a known status", d.Status)
	case !to.Valid():
		vs.Add(CodeInvalidStatus, pathStatus, "target status %q is not a known status", to)
	case d.Status.Terminal():
		vs.Add(CodeClosed, pathStatus, "delivery is %s and accepts no change", d.Status)
	case !d.Status.CanTransition(to):
		vs.Add(CodeIllegalTransition, pathStatus, "a delivery cannot move from %s to %s", d.Status, to)
	}
	if len(vs) > 0 {
		return d, &Error{Violations: vs}
	}
	c := d.Clone()
	c.Status = to
	return c, nil
}
