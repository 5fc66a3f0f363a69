package delivery

import (
	"strings"

	"github.com/haulplan/haulplan/constraints"
)

// tooLarge reports a body over MaxBodyBytes.
func tooLarge(body []byte, m *merger) bool {
	if len(body) <= MaxBodyBytes {
		return false
	}
	m.vs.Add(CodeBodyTooLarge, "", "body has %d bytes; at most %d are accepted", len(body), MaxBodyBytes)
	return true
}

// malformed reports whether the body was not JSON; the decoder then lists
// the syntax error alone: findings in a body that is not JSON mean
// nothing.
func malformed(m *merger) bool { return m.d.Syntax() != nil }

func fail(vs constraints.Violations) error { return &Error{Violations: vs.Sorted()} }

// structural reports whether the decoder found the body not to fit the
// payload schema (a member of the wrong JSON type, unknown or repeated):
// then the body says nothing reliable about the delivery and fails alone.
func structural(vs constraints.Violations) bool {
	for _, v := range vs {
		if codeTable[v.Code].kind == ErrMalformed {
			return true
		}
	}
	return false
}

// compares reports whether the check behind code compares the member at
// path with others: the slot checks compare the three timestamps, the
// total checks the manifest's members.
func compares(code, path string) bool {
	switch code {
	case CodeSlotOrder, CodePickupAfterSlot:
		return path == "deliveries.orderPickupReadyTime" || path == "deliveries.requestedMinDeliverySlotTime" ||
			path == "deliveries.requestedMaxDeliverySlotTime"
	case CodeTotalMismatch, CodeCurrencyMismatch:
		return strings.HasPrefix(path, "deliveries.orderManifest.")
	}
	return false
}

// validateDecoded checks every booking constraint on d, the result of a
// decode that recorded the first decoded entries of m.vs (value violations
// only: bad timestamps, nulls and out-of-range numbers, missing members of
// a new object). The members that failed to decode kept their old value,
// so a finding at one of their paths restates the decode violation, and a
// check that compares one of them with other members would judge a value
// the client did not send: those findings are left out. Everything else is
// reported together.
func validateDecoded(d *Delivery, m *merger, decoded int) {
	if decoded == 0 {
		validate(d, &m.vs)
		return
	}
	var vs constraints.Violations
	validate(d, &vs)
next:
	for _, v := range vs {
		for _, dv := range m.vs[:decoded] {
			if v.Path == dv.Path || compares(v.Code, dv.Path) {
				continue next
			}
		}
		m.vs = append(m.vs, v)
	}
}

// Book decodes a booking body, {"deliveries": {...}} with the members of
// section 2.2, into a new delivery with the given id in status
// DELIVERY_REQUESTED, and checks every booking constraint. The caller
// chooses the id (the package has no clock and no randomness). On error
// the *Error lists every violation.
func Book(id string, body []byte) (Delivery, error) {
	var m merger
	if tooLarge(body, &m) {
		return Delivery{}, fail(m.vs)
	}
	d := Delivery{DeliveryID: id, Status: StatusRequested}
	m.read(body, &d)
	if malformed(&m) || structural(m.vs) {
		return Delivery{}, fail(m.vs)
	}
	validateDecoded(&d, &m, len(m.vs))
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
// error: (1) size and JSON syntax; (2) current's status (unknown or
// terminal), after the top level of the body; (3) the shape of the body
// (the top level, members of the wrong JSON type, unknown and repeated
// members); (4) no change; (5) the values that do not decode (timestamp
// format, null or out-of-range numbers, integers, members a new object
// needs), locked fields and every constraint of the merged result,
// reported together. Every violation of the deciding stage is listed. Apply never changes
// current and keeps no reference to body; on error it returns current
// itself.
func Apply(current Delivery, body []byte) (Delivery, error) {
	// The merger and the merged copy escape (the schema's readers are
	// function values); one allocation holds both.
	st := new(struct {
		m    merger
		next Delivery
	})
	m, next := &st.m, &st.next
	if tooLarge(body, m) {
		return current, fail(m.vs)
	}
	if !current.Status.Valid() || current.Status.Terminal() {
		// Still read the body: a malformed one is reported as such.
		m.read(body, nil)
		if !malformed(m) && len(m.vs) == 0 {
			if current.Status.Valid() {
				m.vs.Add(CodeClosed, "deliveries", "delivery is %s and accepts no change", current.Status)
			} else {
				m.vs.Add(CodeInvalidStatus, pathStatus, "current status %q is not a known status", short(string(current.Status)))
			}
		}
		return current, fail(m.vs)
	}
	*next = current.Clone()
	m.status = current.Status
	m.read(body, next)
	if malformed(m) || structural(m.vs) {
		return current, fail(m.vs)
	}
	// A sent value that failed to decode (m.vs not empty) differs from the
	// current one, so only a clean body can be a no-op.
	if len(m.vs) == 0 && m.nchanges == 0 {
		m.vs.Add(CodeNoChange, "deliveries", "no sent value differs from the current delivery; nothing was changed")
		return current, fail(m.vs)
	}
	decoded := len(m.vs)
	checkLocks(m, &current, next)
	validateDecoded(next, m, decoded)
	if len(m.vs) > 0 {
		return current, fail(m.vs)
	}
	return *next, nil
}

func isPinDrop(d *Delivery) bool {
	return d.DeliveryDetails.LatLong != nil && d.DeliveryDetails.LatLong.Type == LatLongCustomerPinDrop
}

// checkLocks reports every changed member that section 3 freezes in the
// current status (the merger kept those the status may lock).
// Coordinates count as a customer pin-drop when they are one before or
// after the update, so that neither retyping a pin-drop nor
// replacing coordinates with a pin-drop slips through.
func checkLocks(m *merger, cur, next *Delivery) {
	s := cur.Status
	pin := isPinDrop(cur) || isPinDrop(next)
	for _, c := range m.changes {
		switch {
		case c.lock == lockDriver && s.DriverAssigned():
			m.vs.Add(CodeLocked, c.path, "cannot be changed once a driver is assigned (status %s)", s)
		case c.lock == lockPinDrop && s.DriverAssigned() && pin:
			m.vs.Add(CodeLocked, c.path, "customer pin-drop coordinates cannot be changed once a driver is assigned (status %s)", s)
		case c.lock == lockDispatch && s.Dispatched():
			m.vs.Add(CodeLocked, c.path, "cannot be changed once the order is dispatched (status %s)", s)
		}
	}
}
