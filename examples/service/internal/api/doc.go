// Package api is the HTTP interface of the service: the operations of the
// interface document (an access token, planning jobs and their reports, the
// update of a booked delivery) on net/http's ServeMux, with bearer tokens
// checked on every request (the store's verdict on a token is kept in
// memory for 5 s, so that a token revoked by any process stops working
// here within 5 s and a client retrying an unknown token costs a database
// read once in 5 s), failed authentications limited per client id and per
// client address (10 a minute by default, then 429 with Retry-After, before
// anything is checked), the SVC_CONSUMER.ID header, tenant isolation
// (another tenant's job or delivery is not found), rate limits per tenant and operation (the
// interface document's 10 a minute for the planning operations, a limit of
// their own for the delivery operations, which the document leaves
// unlimited), strict bodies, and one error body for every failure,
// {"errors":[{"code","field","description","info","severity","category"}]}.
//
// The planning and delivery rules are not here: requests are read and
// checked by engine.DecodeRequest, reports come from engine/report, and
// every delivery change goes through the delivery package (Book, Apply,
// Transition). State lives behind store.Store; planning jobs are run by
// whoever holds the queue's workers, reached only through Canceller.
//
// The OpenAPI 3.1 document of every operation is embedded (openapi.json)
// and served at /openapi.json with the handler's own rate and body limits
// written into its description; the tests validate every response they
// receive against it.
//
// Choices where the interface document is silent (each is also said in
// the OpenAPI document): 202 and a Location header for a new job, 201 and
// Location for a booked delivery; job details carry planState (NONE,
// BEST_SO_FAR, FINAL) so a client knows what the routes are, and a
// COMPLETED job's progress is phase DONE with its plan's numbers; the
// dispatch summary is served for a COMPLETED job's standing release only
// (409 PLAN_NOT_READY before, 409 NO_RELEASE after a cancel or failure),
// the HTML report for any plan, the best so far included; cancels are
// idempotent (a second cancel answers the resource as it is), a FAILED
// job's cancel is 409 JOB_FAILED; a re-plan (POST /v1/job/{jobId}/replan)
// is a new job whose request is the body with the job's plan as its
// previous plan (a body with a "previous" of its own is 400), of a
// COMPLETED job only (409 PLAN_NOT_READY before, 409 NO_PLAN for a FAILED
// or CANCELLED one), linked both ways in job details (replanOf, replans),
// each job's cancel its own; the job states and their transitions are
// documented with the OpenAPI document's JobStatus; a missing
// SVC_CONSUMER.ID is 400, a token or client of another consumer 403 (RFC
// 6750 insufficient_scope, RFC 6749 unauthorized_client); the token
// endpoint's errors carry RFC 6749 §5.2's error and error_description
// beside the common errors list, and its 401
// a Basic challenge; the token counts against the planning operations'
// limit; a body of another Content-Type is 415 (RFC 9110 §15.5.16), one
// over its limit 413 (§15.5.14); a consumer books an order once among its
// deliveries that are not cancelled (a repeat is 409 DUPLICATE naming the
// booking); createRoutes, replanJob and bookDelivery take an
// Idempotency-Key (a repeat gets the first success again,
// Idempotent-Replayed: true; the key with another body, or a re-plan's
// key for another job, 422, while the first is under way 409); a body that
// would take the consumer past its storage quota is 507 (RFC 4918
// §11.5); the limiter failing is 503 with Retry-After, never a skipped
// limit; a planning request asking for more options.streams than the
// service runs is 400 (the streams decide the plan, so it is not cut
// silently like the time limit), and one over its consumer's queue 429
// TOO_MANY_QUEUED_JOBS with Retry-After; every
// JSON answer has Cache-Control: no-store, every answer
// X-Content-Type-Options: nosniff and X-Request-Id, the service's own id
// of the request (a client's X-Request-Id is only logged beside it, as
// client_request_id); the report's page may not be framed (CSP
// frame-ancestors 'none') and has no <base> (base-uri 'none'); every
// value a client chooses is logged at most 256 bytes long, then a marker
// with its length; a delivery change that loses
// the optimistic race re-applies to the fresh delivery, up to 16 times,
// then 409 CONCURRENT_UPDATE.
package api
