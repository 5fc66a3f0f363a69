package delivery

import (
	"math"
	"time"
	"unicode/utf8"

	"github.com/haulplan/haulplan/constraints"
)

// Enumerations. The document lists only one example value for most of
// these fields; the sets below are this package's documented choice (see
// doc.go) and the one place to extend them.
var (
	deliveryMethods  = []string{"SCHEDULED_DELIVERY"}
	instructionTypes = []string{"CUSTOMER"}
	latLongTypes     = []string{LatLongCustomerPinDrop, LatLongGeocoded}
	scanTypes        = []string{"CODE128"}
	orderSizes       = []string{"S", "M", "L", "XL"}
	lengthUnits      = []string{"IN", "CM"}
	weightUnits      = []string{"OZ", "LB", "G", "KG"}
)

// Values of LatLong.Type. Only CUSTOMER_PINDROP is in the document; the
// lock rule for pin-drop coordinates implies coordinates of another origin,
// named GEOCODED here (derived from the address).
const (
	LatLongCustomerPinDrop = "CUSTOMER_PINDROP"
	LatLongGeocoded        = "GEOCODED"
)

// Length limits in characters (Unicode code points) and array limits; the
// document gives none, so these are this package's choice.
const (
	MaxIDLen          = 64  // deliveryId, clientId, externalOrderId, pickup point ids, itemId, scanId
	MaxNameLen        = 100 // customer.firstName, customer.lastName
	MaxEmailLen       = 254 // RFC 5321 path limit
	MaxAddressLineLen = 100 // address.line1, address.line2
	MaxCityLen        = 64  // address.city, address.state
	MaxZipLen         = 10  // address.zipCode
	MaxGateCodeLen    = 32  // propertyDetails.gateCode
	MaxTextLen        = 500 // instructionText, itemDescription
	MaxInstructions   = 10
	MaxScans          = 100 // scanDetails, and scanDetail within each
	MaxItems          = 500 // itemDetails
	MaxDimensions     = 20  // summary.dimensions
	MaxBodyBytes      = 1 << 20
)

// Check checks every booking constraint on d and returns an *Error
// listing all violations, or nil. Apply and Book run it on their result.
func Check(d Delivery) error {
	var vs constraints.Violations
	validate(&d, &vs)
	if len(vs) == 0 {
		return nil
	}
	return &Error{Violations: vs.Sorted()}
}

type checker struct{ vs *constraints.Violations }

func (c checker) add(code, parent, name, format string, args ...any) {
	c.vs.Add(code, join(parent, name), format, args...)
}

// Array elements are checked with paths relative to the element, and only
// the violations found get the element's path put in front: building
// "deliveries.orderManifest.itemDetails[3]" for every element of every
// valid delivery would cost more than all the checks.

// mark returns the current number of violations.
func (c checker) mark() int { return len(*c.vs) }

// prefix puts index(parent, i) in front of the paths of the violations
// recorded since mark n.
func (c checker) prefix(n int, parent string, i int) {
	if len(*c.vs) == n {
		return
	}
	ep := index(parent, i)
	for k := n; k < len(*c.vs); k++ {
		(*c.vs)[k].Path = join(ep, (*c.vs)[k].Path)
	}
}

// text checks presence and length; it reports false if v is empty.
func (c checker) text(parent, name, v string, required bool, max int) bool {
	if v == "" {
		if required {
			c.add(CodeRequired, parent, name, "is required")
		}
		return false
	}
	if len(v) > max && utf8.RuneCountInString(v) > max {
		c.add(CodeTooLong, parent, name, "must be at most %d characters", max)
	}
	return true
}

func (c checker) enum(parent, name, v string, required bool, set []string) {
	if v == "" {
		if required {
			c.add(CodeRequired, parent, name, "is required")
		}
		return
	}
	if !in(v, set) {
		c.add(CodeInvalidEnum, parent, name, "must be one of %v, not %q", set, short(v))
	}
}

func (c checker) time(parent, name string, t time.Time) bool {
	if t.IsZero() {
		c.add(CodeRequired, parent, name, "is required")
		return false
	}
	if y := t.UTC().Year(); y < 1 || y > 9999 || t.Nanosecond()%int(time.Millisecond) != 0 {
		c.add(CodeInvalidFormat, parent, name, "must be a whole millisecond in years 0001-9999")
		return false
	}
	return true
}

// nonNegative checks a dimension, weight or amount.
func (c checker) nonNegative(parent, name string, v float64) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		c.add(CodeOutOfRange, parent, name, "must be a finite number")
	case v < 0:
		c.add(CodeNegative, parent, name, "must not be negative, got %g", v)
	}
}

func (c checker) count(parent, name string, n, max int) {
	if n > max {
		c.add(CodeTooMany, parent, name, "must have at most %d entries, got %d", max, n)
	}
}

func validate(d *Delivery, vs *constraints.Violations) {
	c := checker{vs}
	const p = "deliveries"
	c.text(p, "deliveryId", d.DeliveryID, true, MaxIDLen)
	if !d.Status.Valid() {
		c.add(CodeInvalidStatus, p, "status", "%q is not a known status", short(string(d.Status)))
	}
	c.text(p, "clientId", d.ClientID, true, MaxIDLen)
	c.text(p, "externalOrderId", d.ExternalOrderID, true, MaxIDLen)
	c.enum(p, "deliveryMethod", d.DeliveryMethod, true, deliveryMethods)

	ready := c.time(p, "orderPickupReadyTime", d.OrderPickupReadyTime)
	lo := c.time(p, "requestedMinDeliverySlotTime", d.RequestedMinDeliverySlotTime)
	hi := c.time(p, "requestedMaxDeliverySlotTime", d.RequestedMaxDeliverySlotTime)
	if lo && hi && !d.RequestedMinDeliverySlotTime.Before(d.RequestedMaxDeliverySlotTime) {
		c.add(CodeSlotOrder, p, "requestedMaxDeliverySlotTime", "must be after requestedMinDeliverySlotTime (%s)",
			d.RequestedMinDeliverySlotTime.UTC().Format(timestampLayout))
	}
	if ready && hi && d.OrderPickupReadyTime.After(d.RequestedMaxDeliverySlotTime) {
		c.add(CodePickupAfterSlot, p, "orderPickupReadyTime", "must not be after requestedMaxDeliverySlotTime (%s)",
			d.RequestedMaxDeliverySlotTime.UTC().Format(timestampLayout))
	}

	validateCustomer(c, &d.Customer)

	const pp = p + ".pickupDetails"
	c.text(pp, "pickupPointId", d.PickupDetails.PickupPointID, true, MaxIDLen)
	c.text(pp, "externalPickupPointId", d.PickupDetails.ExternalPickupPointID, false, MaxIDLen)

	const ip = p + ".instructions"
	c.count(p, "instructions", len(d.Instructions), MaxInstructions)
	for i := range d.Instructions {
		in := &d.Instructions[i]
		n := c.mark()
		c.text("", "instructionText", in.InstructionText, true, MaxTextLen)
		c.enum("", "instructionType", in.InstructionType, true, instructionTypes)
		c.prefix(n, ip, i)
	}

	validateDeliveryDetails(c, &d.DeliveryDetails)

	const sp = p + ".scanDetails"
	c.count(p, "scanDetails", len(d.ScanDetails), MaxScans)
	for i := range d.ScanDetails {
		s := &d.ScanDetails[i]
		n := c.mark()
		c.enum("", "scanType", s.ScanType, true, scanTypes)
		if len(s.ScanDetail) == 0 {
			c.add(CodeRequired, "", "scanDetail", "must list at least one scan")
		}
		c.count("", "scanDetail", len(s.ScanDetail), MaxScans)
		for j := range s.ScanDetail {
			nj := c.mark()
			c.text("", "scanId", s.ScanDetail[j].ScanID, true, MaxIDLen)
			c.prefix(nj, "scanDetail", j)
		}
		c.prefix(n, sp, i)
	}

	validateManifest(c, &d.OrderManifest)
}

func validateCustomer(c checker, cu *Customer) {
	const p = "deliveries.customer"
	c.text(p, "firstName", cu.FirstName, true, MaxNameLen)
	c.text(p, "lastName", cu.LastName, true, MaxNameLen)
	if c.text(p, "email", cu.Email, false, MaxEmailLen) && !validEmail(cu.Email) {
		c.add(CodeInvalidFormat, p, "email", "must be an e-mail address like name@example.com, not %q", short(cu.Email))
	}
	const pp = p + ".phone"
	cc, num := cu.Phone.CountryCode, cu.Phone.Number
	ccDigits := 0
	if c.text(pp, "countryCode", cc, true, 4) {
		d := cc
		if d[0] == '+' {
			d = d[1:]
		}
		if len(d) < 1 || len(d) > 3 || d[0] == '0' || !allDigits(d) {
			c.add(CodeInvalidFormat, pp, "countryCode", "must be a country calling code of 1 to 3 digits, optionally after '+', not %q", short(cc))
		} else {
			ccDigits = len(d)
		}
	}
	if c.text(pp, "number", num, true, 15) {
		switch {
		case !allDigits(num):
			c.add(CodeInvalidFormat, pp, "number", "must contain digits only")
		case len(num) < 4:
			c.add(CodeInvalidFormat, pp, "number", "must have at least 4 digits")
		case len(num)+ccDigits > 15:
			c.add(CodeInvalidFormat, pp, "number", "must have at most %d digits with country code %s (E.164 allows 15)", 15-ccDigits, cc)
		}
	}
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func validateDeliveryDetails(c checker, dd *DeliveryDetails) {
	const ap = "deliveries.deliveryDetails.address"
	a := &dd.Address
	c.text(ap, "line1", a.Line1, true, MaxAddressLineLen)
	c.text(ap, "line2", a.Line2, false, MaxAddressLineLen)
	c.text(ap, "city", a.City, true, MaxCityLen)
	c.text(ap, "state", a.State, true, MaxCityLen)
	if c.text(ap, "zipCode", a.ZipCode, true, MaxZipLen) && !validZip(a.ZipCode) {
		c.add(CodeInvalidFormat, ap, "zipCode", "must hold letters, digits, spaces and hyphens only")
	}
	if a.CountryCode == "" {
		c.add(CodeRequired, ap, "countryCode", "is required")
	} else if len(a.CountryCode) != 2 || !upper(a.CountryCode[0]) || !upper(a.CountryCode[1]) {
		c.add(CodeInvalidFormat, ap, "countryCode", "must be an ISO 3166-1 alpha-2 code like US, not %q", short(a.CountryCode))
	}

	if ll := dd.LatLong; ll != nil {
		const lp = "deliveries.deliveryDetails.latLong"
		c.enum(lp, "type", ll.Type, true, latLongTypes)
		if !(ll.Lat >= -90 && ll.Lat <= 90) {
			c.add(CodeOutOfRange, lp, "lat", "must be between -90 and 90, got %g", ll.Lat)
		}
		if !(ll.Lng >= -180 && ll.Lng <= 180) {
			c.add(CodeOutOfRange, lp, "lng", "must be between -180 and 180, got %g", ll.Lng)
		}
	}

	const pp = "deliveries.deliveryDetails.propertyDetails"
	pd := &dd.PropertyDetails
	c.text(pp, "gateCode", pd.GateCode, false, MaxGateCodeLen)
	c.enum(pp, "propertyType", pd.PropertyType, false, propertyTypes)
	c.enum(pp, "locationPreference", pd.LocationPreference, false, locationPreferences)
	knownType := pd.PropertyType == "" || in(pd.PropertyType, propertyTypes)
	knownPref := in(pd.LocationPreference, locationPreferences)
	if knownType && knownPref && !Allowed(pd.PropertyType, pd.LocationPreference) {
		if pd.PropertyType == "" {
			c.add(CodeDisallowedCombination, pp, "locationPreference",
				"%s is not allowed when propertyType is null", pd.LocationPreference)
		} else {
			c.add(CodeDisallowedCombination, pp, "locationPreference",
				"%s is not allowed for propertyType %s", pd.LocationPreference, pd.PropertyType)
		}
	}
}

func upper(b byte) bool { return b >= 'A' && b <= 'Z' }

func validZip(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(upper(b) || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == ' ' || b == '-') {
			return false
		}
	}
	return true
}

func validCurrency(s string) bool { return len(s) == 3 && upper(s[0]) && upper(s[1]) && upper(s[2]) }

func (c checker) dimensions(p string, d *Dimensions) {
	c.nonNegative(p, "length", d.Length)
	c.nonNegative(p, "width", d.Width)
	c.nonNegative(p, "height", d.Height)
	c.enum(p, "unitOfMeasure", d.UnitOfMeasure, true, lengthUnits)
}

func (c checker) weight(p string, w *Weight) {
	c.nonNegative(p, "measurementValue", w.MeasurementValue)
	c.enum(p, "unitOfMeasure", w.UnitOfMeasure, true, weightUnits)
}

func (c checker) money(p string, m *Money) {
	c.nonNegative(p, "currencyAmount", m.CurrencyAmount)
	if m.CurrencyUnit == "" {
		c.add(CodeRequired, p, "currencyUnit", "is required")
	} else if !validCurrency(m.CurrencyUnit) {
		c.add(CodeInvalidFormat, p, "currencyUnit", "must be an ISO 4217 code like USD, not %q", short(m.CurrencyUnit))
	}
}

// gramsPer converts the weight units to grams.
var gramsPer = map[string]float64{"OZ": 28.349523125, "LB": 453.59237, "G": 1, "KG": 1000}

func validateManifest(c checker, om *OrderManifest) {
	const p = "deliveries.orderManifest"
	const ip = p + ".itemDetails"
	if len(om.ItemDetails) == 0 {
		c.add(CodeRequired, p, "itemDetails", "must list at least one item")
	}
	c.count(p, "itemDetails", len(om.ItemDetails), MaxItems)
	qty := 0
	for i := range om.ItemDetails {
		it := &om.ItemDetails[i]
		n := c.mark()
		c.text("", "itemId", it.ItemID, true, MaxIDLen)
		c.text("", "itemDescription", it.ItemDescription, false, MaxTextLen)
		if it.Dimensions != nil {
			c.dimensions("dimensions", it.Dimensions)
		}
		if it.Quantity < 1 {
			c.add(CodeNotPositive, "", "quantity", "must be at least 1, got %d", it.Quantity)
		}
		qty += max(it.Quantity, 0)
		if it.ItemWeight != nil {
			c.weight("itemWeight", it.ItemWeight)
		}
		if it.ItemTotal != nil {
			c.money("itemTotal", it.ItemTotal)
		}
		c.prefix(n, ip, i)
	}
	s := om.Summary
	if s == nil {
		return
	}
	const sp = p + ".summary"
	if s.TotalItems < 1 {
		c.add(CodeNotPositive, sp, "totalItems", "must be at least 1, got %d", s.TotalItems)
	} else if len(om.ItemDetails) > 0 && s.TotalItems != qty {
		c.add(CodeTotalMismatch, sp, "totalItems", "is %d but the item quantities add up to %d", s.TotalItems, qty)
	}
	c.enum(sp, "orderSize", s.OrderSize, false, orderSizes)
	c.count(sp, "dimensions", len(s.Dimensions), MaxDimensions)
	for i := range s.Dimensions {
		n := c.mark()
		c.dimensions("", &s.Dimensions[i])
		c.prefix(n, sp+".dimensions", i)
	}
	if tv := s.TotalValueOfItems; tv != nil {
		c.money(sp+".totalValueOfItems", tv)
		checkValueTotal(c, om, tv)
	}
	if tw := s.TotalOrderWeight; tw != nil {
		c.weight(sp+".totalOrderWeight", tw)
		checkWeightTotal(c, om, tw)
	}
}

// checkValueTotal: the order value must equal the sum of the line totals,
// to the cent, when every line carries a total in the order's currency.
func checkValueTotal(c checker, om *OrderManifest, tv *Money) {
	const ip = "deliveries.orderManifest.itemDetails"
	sum, complete := 0.0, len(om.ItemDetails) > 0
	for i := range om.ItemDetails {
		t := om.ItemDetails[i].ItemTotal
		if t == nil {
			complete = false
			continue
		}
		if t.CurrencyUnit != tv.CurrencyUnit {
			c.add(CodeCurrencyMismatch, index(ip, i)+".itemTotal", "currencyUnit",
				"is %q but the order total is in %q", short(t.CurrencyUnit), short(tv.CurrencyUnit))
			complete = false
		}
		sum += t.CurrencyAmount
	}
	if complete && math.Abs(sum-tv.CurrencyAmount) > 0.005+1e-9*math.Abs(sum) {
		c.add(CodeTotalMismatch, "deliveries.orderManifest.summary.totalValueOfItems", "currencyAmount",
			"is %.2f but the item totals add up to %.2f", tv.CurrencyAmount, sum)
	}
}

// checkWeightTotal: the order weight may exceed the goods (packaging) but
// must not be below the sum of unit weight × quantity, when every line
// carries a weight.
func checkWeightTotal(c checker, om *OrderManifest, tw *Weight) {
	to, ok := gramsPer[tw.UnitOfMeasure]
	if !ok || len(om.ItemDetails) == 0 {
		return
	}
	sum := 0.0
	for i := range om.ItemDetails {
		it := &om.ItemDetails[i]
		g, ok := 0.0, false
		if it.ItemWeight != nil {
			g, ok = gramsPer[it.ItemWeight.UnitOfMeasure]
		}
		if !ok {
			return
		}
		sum += it.ItemWeight.MeasurementValue * g * float64(max(it.Quantity, 0))
	}
	sum /= to
	if tw.MeasurementValue < sum-1e-6*math.Max(1, sum) {
		c.add(CodeTotalMismatch, "deliveries.orderManifest.summary.totalOrderWeight", "measurementValue",
			"is %g %s but the items weigh %g %s", tw.MeasurementValue, tw.UnitOfMeasure, sum, tw.UnitOfMeasure)
	}
}

// validEmail checks the common address syntax (RFC 5322 dot-atom local
// part, DNS host name with a letter-only top-level label). Quoted local
// parts, IP literals and non-ASCII addresses are refused on purpose: the
// carrier's systems need an address they can send to.
func validEmail(s string) bool {
	at := -1
	for i := 0; i < len(s); i++ {
		if s[i] == '@' {
			if at >= 0 {
				return false
			}
			at = i
		}
	}
	if at < 1 || at > 64 || at == len(s)-1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	prev := byte('.')
	for i := 0; i < len(local); i++ {
		b := local[i]
		switch {
		case b == '.':
			if prev == '.' {
				return false
			}
		case upper(b) || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9'):
		case b < utf8.RuneSelf && b > ' ' && containsByte("!#$%&'*+/=?^_`{|}~-", b):
		default:
			return false
		}
		prev = b
	}
	if prev == '.' {
		return false
	}
	labels, start := 0, 0
	for i := 0; i <= len(domain); i++ {
		if i < len(domain) && domain[i] != '.' {
			b := domain[i]
			if !(upper(b) || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '-') {
				return false
			}
			continue
		}
		l := domain[start:i]
		if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		labels++
		if i == len(domain) { // top-level label: letters only, at least two
			if len(l) < 2 {
				return false
			}
			for j := 0; j < len(l); j++ {
				if !(upper(l[j]) || (l[j] >= 'a' && l[j] <= 'z')) {
					return false
				}
			}
		}
		start = i + 1
	}
	return labels >= 2
}

func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}
