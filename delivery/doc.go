// Package delivery holds booked last-mile deliveries and every rule for
// changing one: the update operation of the delivery interface (sections
// 2.2, 2.3, 3 and 4.2 of the interface document) as a pure function,
// without HTTP.
//
// Book decodes a booking body into a Delivery; Apply decodes an update
// body, merges it into a copy of the current delivery and returns the copy
// or an *Error that lists every violation with a stable code, a JSON field
// path ("deliveries.deliveryDetails.propertyDetails.locationPreference")
// and a message. Transition moves a delivery through its lifecycle (see
// Status). ProviderErrors maps any of these errors onto the provider's
// error body for a transport to send; NewReceipt builds the success body.
// Every function is pure (no clock, no randomness, no I/O, no shared
// mutable state) and safe for concurrent use; the inputs are never changed.
//
// # Update rules
//
// A member absent from the body is left alone, a member sent with a value
// replaces the current one (objects member by member, arrays as a whole),
// a member sent as null clears it. The update fails unless at least one
// sent value differs from the current one (NO_CHANGE). Once a driver is
// assigned, pickupDetails, deliveryDetails.address, customer.phone and
// deliveryDetails.latLong (when it is, or would become, a CUSTOMER_PINDROP)
// are locked; once dispatched, the delivery slot times, the order line
// items (orderManifest.itemDetails), scanDetails, the customer's first and
// last name, instructions and deliveryDetails.propertyDetails are locked.
// Sending a locked member with its current value is not a change. The
// merged delivery must satisfy every booking constraint, including the
// propertyType × locationPreference matrix (Allowed).
//
// # Choices where the document is silent
//
//   - Body: strict JSON, at most MaxBodyBytes, top level
//     {"deliveries": {...}} only. Unknown and repeated members are errors
//     (UNKNOWN_MEMBER, DUPLICATE_MEMBER), as are members of the wrong JSON
//     type (INVALID_TYPE). deliveryId and status are not payload members.
//   - Null: clears strings, booleans, timestamps, optional objects
//     (latLong, summary and the money, weight and dimensions objects) and
//     arrays; a null for another object clears each of its members. A null
//     number inside an object is refused; a new optional object must carry
//     its numbers (latLong lat and lng, summary totalItems, amounts, weights,
//     the three dimensions, item quantity).
//   - Required for a booking: clientId, externalOrderId, deliveryMethod,
//     the three timestamps, customer first and last name, phone country
//     code and number, pickupPointId, address line1, city, state, zipCode
//     and countryCode, at least one item with itemId and quantity. Within
//     optional objects: latLong type; every unitOfMeasure and currencyUnit;
//     instruction text and type; scanType and at least one scanId.
//   - Formats: timestamps exactly YYYY-MM-DDTHH:MM:SS.mmmZ; e-mail as a
//     dot-atom local part @ a DNS name with a letter-only top-level label;
//     phone countryCode 1–3 digits (optional "+", no leading 0), number
//     4 digits or more, digits only, at most 15 digits with the country
//     code (E.164); address countryCode ISO 3166-1 alpha-2; zipCode
//     letters, digits, spaces and hyphens; currencyUnit three capital
//     letters (ISO 4217).
//   - Enumerations beyond the document's examples: deliveryMethod
//     SCHEDULED_DELIVERY; instructionType CUSTOMER; latLong.type
//     CUSTOMER_PINDROP or GEOCODED; scanType CODE128; orderSize S, M, L,
//     XL; length units IN, CM; weight units OZ, LB, G, KG.
//   - Limits: see the Max constants.
//   - Totals: summary.totalItems must equal the sum of item quantities;
//     totalValueOfItems must equal the sum of itemTotal to the cent when
//     every item has one (itemTotal is the line total) and all use the
//     order's currency; totalOrderWeight must not be below the sum of
//     itemWeight × quantity when every item has a weight (itemWeight is per
//     unit; packaging may add weight).
//   - Time: no rule depends on the clock (the package is pure), so a slot
//     in the past is not refused here.
//   - Statuses and transitions: see Status. A terminal delivery accepts no
//     update (DELIVERY_CLOSED).
//   - Stages: a body that is not JSON, a closed delivery, a body that does
//     not fit the payload (wrong JSON types, unknown or repeated members)
//     and an update without change each fail alone (in that order; see
//     Apply). Values that do not decode (a malformed timestamp, a null or
//     out-of-range number, a missing member of a new object), locked fields
//     and the constraint violations of the merged result are reported
//     together; a value that does not decode counts as a change.
//   - No aliasing: nothing returned (a Delivery, a path, a message) shares
//     memory with the body, so the caller may reuse the body's buffer.
package delivery
