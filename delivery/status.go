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

var statuses = []Status{
	StatusRequested, StatusDriverAssigned, StatusEnrouteToPickup,
	StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff,
	StatusDelivered, StatusFailed, StatusReturned, StatusCancelled,
}

// Statuses returns every status in lifecycle order (a new slice).
func Statuses() []Status { return append([]Status(nil), statuses...) }

type statusInfo struct {
	driverAssigned bool
	dispatched     bool
	terminal       bool
	next           []Status
}

// statusTable is indexed by statusIndex; it is the lifecycle's one source.
var statusTable = [...]statusInfo{
	{}, // unknown status
	{next: []Status{StatusDriverAssigned, StatusCancelled}},
	{driverAssigned: true, next: []Status{StatusEnrouteToPickup, StatusRequested, StatusCancelled}},
	{driverAssigned: true, next: []Status{StatusArrivedAtPickup, StatusRequested, StatusCancelled}},
	{driverAssigned: true, next: []Status{StatusDispatched, StatusRequested, StatusCancelled}},
	{driverAssigned: true, dispatched: true, next: []Status{StatusEnrouteToDropoff, StatusCancelled}},
	{driverAssigned: true, dispatched: true, next: []Status{StatusDelivered, StatusFailed, StatusCancelled}},
	{driverAssigned: true, dispatched: true, terminal: true},
	{driverAssigned: true, dispatched: true, next: []Status{StatusEnrouteToDropoff, StatusReturned, StatusCancelled}},
	{driverAssigned: true, dispatched: true, terminal: true},
	{terminal: true},
}

// statusIndex maps a status to its row of statusTable (1 + its position in
// statuses), 0 for an unknown one; a switch, because the update path asks
// several times per call.
func statusIndex(s Status) int {
	switch s {
	case StatusRequested:
		return 1
	case StatusDriverAssigned:
		return 2
	case StatusEnrouteToPickup:
		return 3
	case StatusArrivedAtPickup:
		return 4
	case StatusDispatched:
		return 5
	case StatusEnrouteToDropoff:
		return 6
	case StatusDelivered:
		return 7
	case StatusFailed:
		return 8
	case StatusReturned:
		return 9
	case StatusCancelled:
		return 10
	}
	return 0
}

func (s Status) info() *statusInfo { return &statusTable[statusIndex(s)] }

// Valid reports whether s is one of the statuses above.
func (s Status) Valid() bool { return statusIndex(s) != 0 }

// DriverAssigned reports whether a driver has been assigned (section 3's
// first condition): true from DRIVER_ASSIGNED on.
func (s Status) DriverAssigned() bool { return s.info().driverAssigned }

// Dispatched reports whether the order has left the pickup point
// (section 3's second condition): true from DISPATCHED on.
func (s Status) Dispatched() bool { return s.info().dispatched }

// Terminal reports whether the delivery is closed; a closed delivery
// accepts no update and no transition.
func (s Status) Terminal() bool { return s.info().terminal }

// Next lists the statuses s may move to, in a fixed order.
func (s Status) Next() []Status { return append([]Status(nil), s.info().next...) }

// CanTransition reports whether a delivery in status s may move to status to.
func (s Status) CanTransition(to Status) bool {
	for _, n := range s.info().next {
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
