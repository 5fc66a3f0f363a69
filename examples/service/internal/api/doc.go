// Package api is the HTTP interface of the service: the operations of the
// interface document (an access token, planning jobs and their reports, the
// update of a booked delivery) on net/http's ServeMux, with the security
// and limits of issue 12: bearer tokens checked on every request (verified
// tokens cached in memory until they expire), the SVC_CONSUMER.ID header,
// tenant isolation (another tenant's job or delivery is not found), a rate
// limit per tenant and operation, strict bodies, and one error body for
// every failure, {"errors":[{"code","field","description","info","severity","category"}]}.
//
// The planning and delivery rules are not here: requests are read and
// checked by engine.DecodeRequest, reports come from engine/report, and
// every delivery change goes through the delivery package (Book, Apply,
// Transition). State lives behind store.Store; planning jobs are run by
// whoever holds the queue's workers, reached only through Canceller.
//
// The OpenAPI 3.1 document of every operation is embedded (openapi.json)
// and served at /openapi.json; the tests validate every response they
// receive against it.
//
// Choices where the interface document and the issue are silent are listed
// on the handlers and in the OpenAPI document's descriptions: 202 and a
// Location header for a new job, 201 for a booked delivery, 409 for a
// state that forbids the operation (no plan yet, a failed job, an update
// that lost every retry), cancels that are idempotent, and the token
// endpoint's errors carrying RFC 6749 §5.2's error and error_description
// beside the common errors list.
package api
