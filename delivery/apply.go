package delivery

import (
	"github.com/haulplan/haulplan/constraints"
)

// parseBody parses a request body and returns its "deliveries" member.
// Syntax errors, a body over MaxBodyBytes and a top level other than
// {"deliveries": {...}} are reported as violations.
func parseBody(body []byte, m *merger) *node {
	if len(body) > MaxBodyBytes {
		m.vs.Add(CodeBodyTooLarge, "", "body has %d bytes; at most %d are accepted", len(body), MaxBodyBytes)
		return nil
	}
	root, err := parseJSON(body)
	if err != nil {
		m.vs.Add(CodeMalformedJSON, "", "body is not valid JSON: %v", err)
		return nil
	}
	if !m.object(&root, "") {
		return nil
	}
	var d *node
	for i := range root.members {
		if root.members[i].key == "deliveries" {
			d = &root.members[i].val
		} else {
			m.unknown("", root.members[i].key)
		}
	}
	if d == nil {
		m.vs.Add(CodeRequired, "deliveries", "is required")
	}
	if len(m.vs) > 0 {
		return nil
	}
	return d
}

func fail(vs constraints.Violations) error { return &Error{Violations: vs.Sorted()} }

// Book decodes a booking body, {"deliveries": {...}} with the members of
// section 2.2, into a new delivery with the given id in status
// DELIVERY_REQUESTED, and checks every booking constraint. The caller
// chooses the id (the package has no clock and no randomness). On error
// the *Error lists every violation.
func Book(id string, body []byte) (Delivery, error) {
	var m merger
	n := parseBody(body, &m)
	if n == nil {
		return Delivery{}, fail(m.vs)
	}
	d := Delivery{DeliveryID: id, Status: StatusRequested}
	m.delivery(n, &d)
	if len(m.vs) > 0 {
		return Delivery{}, fail(m.vs)
	}
	validate(&d, &m.vs)
	if len(m.vs) > 0 {
		return Delivery{}, fail(m.vs)
	}
	return d, nil
}

// Apply performs the update operation of section 4.2: it decodes body,
// {"deliveries": {...}} with any subset of the members of section 2.2,
// merges it into a copy of current and returns that copy.
//
// A member sent replaces the current value (objects member by member,
// arrays as a whole; null clears), an absent member is left alone. The
// update fails, and nothing is applied, when:
//   - the body is malformed (ErrMalformed);
//   - current is in a terminal status (ErrClosed);
//   - no sent value differs from the current one (ErrNoChange);
//   - a changed field is locked by current's status (ErrLockedField);
//   - the result breaks the propertyType × locationPreference matrix
//     (ErrDisallowedCombination) or another booking constraint
//     (ErrInvalidValue).
//
// The checks run in stages, and the first stage that fails decides the
// error: (1) JSON syntax, size and the top level; (2) current's status
// (unknown or terminal); (3) decoding of the members (types, unknown and
// repeated members, timestamp format, numbers); (4) no change; (5) locked
// fields and every constraint of the merged result, reported together.
// Every violation of the deciding stage is listed. Apply never changes
// current and keeps no reference to body; on error it returns current
// itself.
func Apply(current Delivery, body []byte) (Delivery, error) {
	var m merger
	n := parseBody(body, &m)
	if n == nil {
		return current, fail(m.vs)
	}
	switch {
	case !current.Status.Valid():
		m.vs.Add(CodeInvalidStatus, pathStatus, "current status %q is not a known status", short(string(current.Status)))
	case current.Status.Terminal():
		m.vs.Add(CodeClosed, "deliveries", "delivery is %s and accepts no change", current.Status)
	}
	if len(m.vs) > 0 {
		return current, fail(m.vs)
	}
	next := current.Clone()
	m.delivery(n, &next)
	if len(m.vs) > 0 {
		return current, fail(m.vs)
	}
	if len(m.changes) == 0 {
		m.vs.Add(CodeNoChange, "deliveries", "no sent value differs from the current delivery; nothing was changed")
		return current, fail(m.vs)
	}
	checkLocks(&m, &current, &next)
	validate(&next, &m.vs)
	if len(m.vs) > 0 {
		return current, fail(m.vs)
	}
	return next, nil
}

func isPinDrop(d *Delivery) bool {
	return d.DeliveryDetails.LatLong != nil && d.DeliveryDetails.LatLong.Type == LatLongCustomerPinDrop
}

// checkLocks reports every changed member that section 3 freezes in the
// current status. Coordinates count as a customer pin-drop when they are
// one before or after the update, so that neither retyping a pin-drop nor
// replacing coordinates with a pin-drop slips through.
func checkLocks(m *merger, cur, next *Delivery) {
	s := cur.Status
	pin := isPinDrop(cur) || isPinDrop(next)
	for _, c := range m.changes {
		switch {
		case c.lock == lockDriver && s.DriverAssigned():
			m.vs.Add(CodeLocked, join(c.parent, c.name), "cannot be changed once a driver is assigned (status %s)", s)
		case c.lock == lockPinDrop && s.DriverAssigned() && pin:
			m.vs.Add(CodeLocked, join(c.parent, c.name), "customer pin-drop coordinates cannot be changed once a driver is assigned (status %s)", s)
		case c.lock == lockDispatch && s.Dispatched():
			m.vs.Add(CodeLocked, join(c.parent, c.name), "cannot be changed once the order is dispatched (status %s)", s)
		}
	}
}
