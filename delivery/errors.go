package delivery

import (
	"errors"

	"github.com/haulplan/haulplan/constraints"
)

// Sentinels for the kinds of failure. An *Error matches every sentinel
// whose kind occurs among its violations, and also constraints.ErrInvalid.
var (
	// ErrNoChange: no sent value differs from the current one (rules 1–2 of
	// section 4.2); nothing was applied.
	ErrNoChange = errors.New("delivery: no sent value differs from the current one")
	// ErrLockedField: the update changes a field that the delivery's status
	// locks (section 3).
	ErrLockedField = errors.New("delivery: field locked in the current status")
	// ErrDisallowedCombination: the resulting propertyType and
	// locationPreference form a pair marked Not Allowed (section 2.3).
	ErrDisallowedCombination = errors.New("delivery: disallowed propertyType and locationPreference combination")
	// ErrInvalidValue: the resulting delivery breaks a booking constraint.
	ErrInvalidValue = errors.New("delivery: invalid value")
	// ErrMalformed: the body is not a well-formed request (bad JSON, a
	// member of the wrong JSON type, an unknown or repeated member).
	ErrMalformed = errors.New("delivery: malformed request body")
	// ErrClosed: the delivery is in a terminal status and accepts no change.
	ErrClosed = errors.New("delivery: delivery is closed")
	// ErrIllegalTransition: the status change is not in the lifecycle.
	ErrIllegalTransition = errors.New("delivery: illegal status transition")
)

// Violation codes. They are stable: clients may match on them.
const (
	CodeMalformedJSON         = "MALFORMED_JSON"
	CodeBodyTooLarge          = "BODY_TOO_LARGE"
	CodeInvalidType           = "INVALID_TYPE"
	CodeUnknownMember         = "UNKNOWN_MEMBER"
	CodeDuplicateMember       = "DUPLICATE_MEMBER"
	CodeRequired              = "REQUIRED"
	CodeInvalidFormat         = "INVALID_FORMAT"
	CodeInvalidEnum           = "INVALID_ENUM"
	CodeOutOfRange            = "OUT_OF_RANGE"
	CodeTooLong               = "TOO_LONG"
	CodeTooMany               = "TOO_MANY"
	CodeNegative              = "NEGATIVE"
	CodeNotPositive           = "NOT_POSITIVE"
	CodeNotInteger            = "NOT_INTEGER"
	CodeSlotOrder             = "SLOT_ORDER"
	CodePickupAfterSlot       = "PICKUP_AFTER_SLOT_END"
	CodeTotalMismatch         = "TOTAL_MISMATCH"
	CodeCurrencyMismatch      = "CURRENCY_MISMATCH"
	CodeInvalidStatus         = "INVALID_STATUS"
	CodeNoChange              = "NO_CHANGE"
	CodeLocked                = "FIELD_LOCKED"
	CodeDisallowedCombination = "DISALLOWED_COMBINATION"
	CodeClosed                = "DELIVERY_CLOSED"
	CodeIllegalTransition     = "ILLEGAL_TRANSITION"
	codeInternal              = "INTERNAL_ERROR"
	severityError             = "ERROR"
	categoryRequest           = "REQUEST"
	categoryData              = "DATA"
	categoryApplication       = "APPLICATION"
	categorySystem            = "SYSTEM"
	pathStatus                = "deliveries.status"
	pathDeliveryID            = "deliveries.deliveryId"
	pathLocationPreference    = "deliveries.deliveryDetails.propertyDetails.locationPreference"
	pathPropertyType          = "deliveries.deliveryDetails.propertyDetails.propertyType"
)

type codeInfo struct {
	kind     error
	category string
	info     string
}

var codeTable = map[string]codeInfo{
	CodeMalformedJSON:         {ErrMalformed, categoryRequest, "The body must be a JSON object with one member, deliveries."},
	CodeBodyTooLarge:          {ErrMalformed, categoryRequest, "The body must not exceed MaxBodyBytes."},
	CodeInvalidType:           {ErrMalformed, categoryRequest, "The member has the wrong JSON type."},
	CodeUnknownMember:         {ErrMalformed, categoryRequest, "Only the members of the delivery payload may be sent."},
	CodeDuplicateMember:       {ErrMalformed, categoryRequest, "A member may appear only once in an object."},
	CodeRequired:              {ErrInvalidValue, categoryData, "A booked delivery must carry this member."},
	CodeInvalidFormat:         {ErrInvalidValue, categoryData, "The value does not have the required format."},
	CodeInvalidEnum:           {ErrInvalidValue, categoryData, "The value is not one of the allowed values."},
	CodeOutOfRange:            {ErrInvalidValue, categoryData, "The value is outside its allowed range."},
	CodeTooLong:               {ErrInvalidValue, categoryData, "The value exceeds its length limit."},
	CodeTooMany:               {ErrInvalidValue, categoryData, "The array exceeds its length limit."},
	CodeNegative:              {ErrInvalidValue, categoryData, "Dimensions, weights and amounts must not be negative."},
	CodeNotPositive:           {ErrInvalidValue, categoryData, "Quantities must be positive."},
	CodeNotInteger:            {ErrInvalidValue, categoryData, "The value must be an integer."},
	CodeSlotOrder:             {ErrInvalidValue, categoryData, "The delivery slot must start before it ends."},
	CodePickupAfterSlot:       {ErrInvalidValue, categoryData, "The order must be ready for pickup no later than the end of the delivery slot."},
	CodeTotalMismatch:         {ErrInvalidValue, categoryData, "Order totals must agree with the item details."},
	CodeCurrencyMismatch:      {ErrInvalidValue, categoryData, "Item amounts must use the currency of the order total."},
	CodeInvalidStatus:         {ErrInvalidValue, categoryData, "The status is not a known delivery status."},
	CodeNoChange:              {ErrNoChange, categoryData, "At least one sent value must differ from the current value."},
	CodeLocked:                {ErrLockedField, categoryApplication, "This field cannot be changed in the delivery's current status."},
	CodeDisallowedCombination: {ErrDisallowedCombination, categoryData, "This propertyType and locationPreference combination is not allowed."},
	CodeClosed:                {ErrClosed, categoryApplication, "A delivered, returned or cancelled delivery cannot be changed."},
	CodeIllegalTransition:     {ErrIllegalTransition, categoryApplication, "The delivery lifecycle does not allow this status change."},
}

// Error is the error of every failed Book, Apply, Check and Transition:
// the full list of violations, each with a code, a JSON field path such as
// "deliveries.deliveryDetails.propertyDetails.locationPreference" and a
// message.
type Error struct {
	Violations constraints.Violations
}

// Error lists the violations.
func (e *Error) Error() string { return "delivery: " + e.Violations.Error() }

// Unwrap exposes the violations, so constraints.AsViolations and
// errors.Is(err, constraints.ErrInvalid) work on an *Error.
func (e *Error) Unwrap() error { return e.Violations }

// Is reports whether any violation is of the kind of target (one of the
// sentinels of this package).
func (e *Error) Is(target error) bool {
	for _, v := range e.Violations {
		if codeTable[v.Code].kind == target {
			return true
		}
	}
	return false
}

// ProviderError is one entry of the provider's error body.
type ProviderError struct {
	Code        string `json:"code"`
	Field       string `json:"field"`
	Description string `json:"description"`
	Info        string `json:"info"`
	Severity    string `json:"severity"`
	Category    string `json:"category"`
}

// ProviderErrorBody is the provider's error body,
// {"errors":[{"code","field","description","info","severity","category"}]}.
// Encode it with encoding/json.
type ProviderErrorBody struct {
	Errors []ProviderError `json:"errors"`
}

// ProviderErrors maps err onto the provider's error body: one entry per
// violation, code and field path as reported, description the violation's
// message, info the rule the code stands for, severity ERROR and category
// REQUEST (the body itself is wrong), DATA (a value is wrong) or
// APPLICATION (the delivery's status forbids the change). An error that
// carries no violations becomes one INTERNAL_ERROR entry of category
// SYSTEM; a nil error gives an empty list.
//
// The interface document shows no error body or status for update
// failures; every code here is a client error (HTTP 400) except
// INTERNAL_ERROR.
func ProviderErrors(err error) ProviderErrorBody {
	body := ProviderErrorBody{Errors: []ProviderError{}}
	if err == nil {
		return body
	}
	vs := constraints.AsViolations(err)
	if len(vs) == 0 {
		body.Errors = append(body.Errors, ProviderError{
			Code: codeInternal, Description: err.Error(), Severity: severityError, Category: categorySystem,
		})
		return body
	}
	for _, v := range vs {
		ci, ok := codeTable[v.Code]
		if !ok {
			ci = codeInfo{category: categoryData}
		}
		body.Errors = append(body.Errors, ProviderError{
			Code: v.Code, Field: v.Path, Description: v.Message, Info: ci.info,
			Severity: severityError, Category: ci.category,
		})
	}
	return body
}
