package delivery

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// lockClass says which condition of section 3 freezes a field.
type lockClass uint8

const (
	lockNone     lockClass = iota
	lockDriver             // frozen once a driver is assigned
	lockPinDrop            // frozen once a driver is assigned, if the coordinates are a customer pin-drop
	lockDispatch           // frozen once the order is dispatched
)

// change is one sent member whose value differs from the current one.
// The path is kept as parent and name and joined only if it must be
// reported, because most changes never are.
type change struct {
	parent, name string
	lock         lockClass
}

// merger reads a "deliveries" object against the payload schema and
// writes every sent member into a delivery (a deep copy owned by the
// caller): objects member by member, arrays as a whole. It records type
// errors and the members whose value changed.
//
// A null member takes the "not set" value of the model: "" for strings,
// false for booleans, the zero time, nil for optional objects and arrays.
// A null for an object that is not optional in the model means "every
// member null". A null number inside an object is refused (REQUIRED):
// send null for the whole object instead.
type merger struct {
	vs       constraints.Violations
	changes  []change
	suppress int // >0 while building a new object: its creation is the change
}

func join(parent, name string) string {
	switch {
	case name == "":
		return parent
	case parent == "":
		return name
	}
	return parent + "." + name
}

func index(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

func short(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	for i := range s {
		if i >= max {
			return s[:i] + "…"
		}
	}
	return s
}

func (m *merger) changed(parent, name string, lock lockClass) {
	if m.suppress == 0 {
		if m.changes == nil {
			m.changes = make([]change, 0, 4) // one allocation for a typical update
		}
		m.changes = append(m.changes, change{parent, name, lock})
	}
}

func (m *merger) typeErr(parent, name, want string, k kind) {
	m.vs.Add(CodeInvalidType, join(parent, name), "must be %s, not %s", want, k)
}

func (m *merger) unknown(lx *lexer, parent, name string) {
	m.vs.Add(CodeUnknownMember, join(parent, name), "is not a member of the delivery payload")
	lx.skip()
}

// object reads an object at path p, calling each for every member (each
// must consume the member's value). A value of another type is reported
// and skipped; a repeated member is reported, because JSON leaves its
// meaning open.
func (m *merger) object(lx *lexer, p string, each func(name string)) {
	if k := lx.peek(); k != kObject {
		m.typeErr(p, "", "an object", k)
		lx.skip()
		return
	}
	lx.enter()
	// Repeats are looked for among the first maxSeen distinct names only:
	// no object of the payload has that many members, so an object with
	// more distinct names fails anyway (UNKNOWN_MEMBER), and an unbounded
	// list would make a body of many names quadratic (a 1 MiB body took
	// 38 s).
	var buf [maxSeen]string
	seen := buf[:0]
	for first := true; ; first = false {
		name, ok := lx.member(first)
		if !ok {
			return
		}
		dup := false
		for _, s := range seen {
			if s == name {
				dup = true
				break
			}
		}
		if dup {
			m.vs.Add(CodeDuplicateMember, join(p, name), "appears more than once")
		} else if len(seen) < maxSeen {
			seen = append(seen, name)
		}
		each(name)
	}
}

// maxSeen bounds the names object remembers; the largest object of the
// payload, deliveries, has 13 members.
const maxSeen = 16

// orNull returns lx, or, when the next value is null, consumes it and
// returns a lexer over null, the object with every member null: that is
// what null means for an object the model always has.
func orNull(lx *lexer, null []byte, sub *lexer) *lexer {
	if lx.peek() != kNull {
		return lx
	}
	lx.null()
	*sub = lexer{data: null}
	return sub
}

func (m *merger) str(lx *lexer, parent, name string, dst *string, lock lockClass) {
	var v string
	switch k := lx.peek(); k {
	case kString:
		v = lx.stringValue()
	case kNull:
		lx.null()
	default:
		m.typeErr(parent, name, "a string", k)
		lx.skip()
		return
	}
	if *dst != v {
		*dst = v
		m.changed(parent, name, lock)
	}
}

func (m *merger) boolean(lx *lexer, parent, name string, dst *bool, lock lockClass) {
	var v bool
	switch k := lx.peek(); k {
	case kBool:
		v = lx.boolean()
	case kNull:
		lx.null()
	default:
		m.typeErr(parent, name, "a boolean", k)
		lx.skip()
		return
	}
	if *dst != v {
		*dst = v
		m.changed(parent, name, lock)
	}
}

func (m *merger) timestamp(lx *lexer, parent, name string, dst *time.Time, lock lockClass) {
	var v time.Time
	switch k := lx.peek(); k {
	case kString:
		raw, esc, ok := lx.scanString()
		if !ok {
			return
		}
		if esc {
			raw = unescape(raw)
		}
		t, ok := parseTimestamp(raw)
		if !ok {
			m.vs.Add(CodeInvalidFormat, join(parent, name),
				"must be an ISO 8601 UTC timestamp with milliseconds like 2026-11-22T10:00:00.000Z, not %q", short(string(raw)))
			// A value that does not parse differs from any stored one: it
			// counts as a change, so a locked member is reported as such.
			m.changed(parent, name, lock)
			return
		}
		v = t
	case kNull:
		lx.null()
	default:
		m.typeErr(parent, name, "a string", k)
		lx.skip()
		return
	}
	if !dst.Equal(v) {
		*dst = v
		m.changed(parent, name, lock)
	}
}

// number reads a number; ok is false (and a violation recorded) for null,
// other types and numbers beyond float64. lit is a slice of the body: copy
// it before keeping it. A null or a number beyond float64 differs from any
// stored value, so it counts as a change (for the lock check).
func (m *merger) number(lx *lexer, parent, name string, lock lockClass) (f float64, lit []byte, ok bool) {
	switch k := lx.peek(); k {
	case kNumber:
		lit = lx.number()
		if lx.err != nil {
			return 0, nil, false
		}
		f, err := strconv.ParseFloat(string(lit), 64)
		if err != nil {
			m.vs.Add(CodeOutOfRange, join(parent, name), "number %s is too large", short(string(lit)))
			m.changed(parent, name, lock)
			return 0, nil, false
		}
		return f, lit, true
	case kNull:
		lx.null()
		m.vs.Add(CodeRequired, join(parent, name), "must not be null (send null for the enclosing object to remove it)")
		m.changed(parent, name, lock)
	default:
		m.typeErr(parent, name, "a number", k)
		lx.skip()
	}
	return 0, nil, false
}

func (m *merger) float(lx *lexer, parent, name string, dst *float64, lock lockClass) {
	f, _, ok := m.number(lx, parent, name, lock)
	if ok && *dst != f {
		*dst = f
		m.changed(parent, name, lock)
	}
}

// maxExactInt bounds integers to those a float64 (and so any JSON reader)
// holds exactly.
const maxExactInt = 1 << 53

func (m *merger) integer(lx *lexer, parent, name string, dst *int, lock lockClass) {
	f, lit, ok := m.number(lx, parent, name, lock)
	if !ok {
		return
	}
	if f != math.Trunc(f) {
		m.vs.Add(CodeNotInteger, join(parent, name), "must be an integer, not %s", short(string(lit)))
		m.changed(parent, name, lock)
		return
	}
	if math.Abs(f) > maxExactInt {
		m.vs.Add(CodeOutOfRange, join(parent, name), "integer %s is too large", short(string(lit)))
		m.changed(parent, name, lock)
		return
	}
	if v := int(f); *dst != v {
		*dst = v
		m.changed(parent, name, lock)
	}
}

// require reports a member that a new object must carry because the model
// has no "not set" value for it.
func (m *merger) require(present bool, parent, name string) {
	if !present {
		m.vs.Add(CodeRequired, join(parent, name), "is required when the enclosing object is created")
	}
}

// ptrObject merges the next value into the optional object *dst at path
// p: null removes it, an object updates it member by member, or creates it
// (then the creation is the one change recorded, and fill checks the
// members a new object needs).
func ptrObject[T any](m *merger, lx *lexer, p string, dst **T, lock lockClass,
	fill func(m *merger, lx *lexer, p string, v *T, creating bool, lock lockClass)) {
	switch k := lx.peek(); k {
	case kNull:
		lx.null()
		if *dst != nil {
			*dst = nil
			m.changed(p, "", lock)
		}
		return
	case kObject:
	default:
		m.typeErr(p, "", "an object", k)
		lx.skip()
		return
	}
	if *dst == nil {
		v := new(T)
		m.suppress++
		fill(m, lx, p, v, true, lock)
		m.suppress--
		*dst = v
		m.changed(p, "", lock)
		return
	}
	fill(m, lx, p, *dst, false, lock)
}

// array reads an array at path p into a new slice, each element an object
// read by elem (with changes suppressed: the array is compared as a
// whole). ok is false when the value is neither an array nor null.
func array[T any](m *merger, lx *lexer, p string, elem func(lx *lexer, p string, v *T)) (out []T, ok bool) {
	switch k := lx.peek(); k {
	case kNull:
		lx.null()
		return nil, true
	case kArray:
	default:
		m.typeErr(p, "", "an array", k)
		lx.skip()
		return nil, false
	}
	lx.enter()
	out = []T{}
	m.suppress++
	for i := 0; lx.element(i == 0); i++ {
		var v T
		elem(lx, index(p, i), &v)
		out = append(out, v)
	}
	m.suppress--
	return out, true
}

// Null for an object that the model always has means every member null;
// these are those objects spelled out, read with the same code as a body.
var (
	nullCustomer        = []byte(`{"firstName":null,"lastName":null,"email":null,"phone":null}`)
	nullPhone           = []byte(`{"countryCode":null,"number":null}`)
	nullAddOns          = []byte(`{"returnable":null,"attendedDelivery":null,"proofOfDelivery":null,"capturePhotoProof":null,"isDropOffOTPRequired":null,"captureSignatureProof":null,"chainOfCustody":null}`)
	nullPickup          = []byte(`{"pickupPointId":null,"externalPickupPointId":null}`)
	nullDeliveryDetails = []byte(`{"address":null,"latLong":null,"propertyDetails":null}`)
	nullAddress         = []byte(`{"line1":null,"line2":null,"city":null,"state":null,"zipCode":null,"countryCode":null}`)
	nullProperty        = []byte(`{"gateCode":null,"propertyType":null,"locationPreference":null}`)
	nullManifest        = []byte(`{"summary":null,"itemDetails":null}`)
	nullSpecial         = []byte(`{"hasHazmatItems":null,"hasAlcoholItems":null,"hasFragileItems":null,"hasPharmacyItems":null}`)
)

// top reads the body's top level, {"deliveries": {...}}, calling
// deliveries for that member's value, and checks that nothing follows.
func (m *merger) top(lx *lexer, deliveries func()) {
	found, isObject := false, lx.peek() == kObject
	m.object(lx, "", func(name string) {
		if name == "deliveries" {
			found = true
			deliveries()
		} else {
			m.unknown(lx, "", name)
		}
	})
	lx.end()
	if isObject && !found && lx.err == nil {
		m.vs.Add(CodeRequired, "deliveries", "is required")
	}
}

func (m *merger) delivery(lx *lexer, d *Delivery) {
	const p = "deliveries"
	if lx.peek() == kNull {
		lx.null()
		m.vs.Add(CodeInvalidType, p, "must be an object, not null")
		return
	}
	var sub lexer
	m.object(lx, p, func(k string) {
		switch k {
		case "clientId":
			m.str(lx, p, k, &d.ClientID, lockNone)
		case "externalOrderId":
			m.str(lx, p, k, &d.ExternalOrderID, lockNone)
		case "deliveryMethod":
			m.str(lx, p, k, &d.DeliveryMethod, lockNone)
		case "orderPickupReadyTime":
			m.timestamp(lx, p, k, &d.OrderPickupReadyTime, lockNone)
		case "requestedMinDeliverySlotTime":
			m.timestamp(lx, p, k, &d.RequestedMinDeliverySlotTime, lockDispatch)
		case "requestedMaxDeliverySlotTime":
			m.timestamp(lx, p, k, &d.RequestedMaxDeliverySlotTime, lockDispatch)
		case "customer":
			m.customer(orNull(lx, nullCustomer, &sub), &d.Customer)
		case "addOnServices":
			m.addOns(orNull(lx, nullAddOns, &sub), &d.AddOnServices)
		case "pickupDetails":
			m.pickup(orNull(lx, nullPickup, &sub), &d.PickupDetails)
		case "instructions":
			m.instructions(lx, &d.Instructions)
		case "deliveryDetails":
			m.deliveryDetails(orNull(lx, nullDeliveryDetails, &sub), &d.DeliveryDetails)
		case "scanDetails":
			m.scans(lx, &d.ScanDetails)
		case "orderManifest":
			m.manifest(orNull(lx, nullManifest, &sub), &d.OrderManifest)
		default:
			m.unknown(lx, p, k)
		}
	})
}

func (m *merger) customer(lx *lexer, c *Customer) {
	const p = "deliveries.customer"
	m.object(lx, p, func(k string) {
		switch k {
		case "firstName":
			m.str(lx, p, k, &c.FirstName, lockDispatch)
		case "lastName":
			m.str(lx, p, k, &c.LastName, lockDispatch)
		case "email":
			m.str(lx, p, k, &c.Email, lockNone)
		case "phone":
			const pp = p + ".phone"
			var sub lexer
			plx := orNull(lx, nullPhone, &sub)
			m.object(plx, pp, func(k string) {
				switch k {
				case "countryCode":
					m.str(plx, pp, k, &c.Phone.CountryCode, lockDriver)
				case "number":
					m.str(plx, pp, k, &c.Phone.Number, lockDriver)
				default:
					m.unknown(plx, pp, k)
				}
			})
		default:
			m.unknown(lx, p, k)
		}
	})
}

func (m *merger) addOns(lx *lexer, a *AddOnServices) {
	const p = "deliveries.addOnServices"
	m.object(lx, p, func(k string) {
		var dst *bool
		switch k {
		case "returnable":
			dst = &a.Returnable
		case "attendedDelivery":
			dst = &a.AttendedDelivery
		case "proofOfDelivery":
			dst = &a.ProofOfDelivery
		case "capturePhotoProof":
			dst = &a.CapturePhotoProof
		case "isDropOffOTPRequired":
			dst = &a.IsDropOffOTPRequired
		case "captureSignatureProof":
			dst = &a.CaptureSignatureProof
		case "chainOfCustody":
			dst = &a.ChainOfCustody
		default:
			m.unknown(lx, p, k)
			return
		}
		m.boolean(lx, p, k, dst, lockNone)
	})
}

func (m *merger) pickup(lx *lexer, pd *PickupDetails) {
	const p = "deliveries.pickupDetails"
	m.object(lx, p, func(k string) {
		switch k {
		case "pickupPointId":
			m.str(lx, p, k, &pd.PickupPointID, lockDriver)
		case "externalPickupPointId":
			m.str(lx, p, k, &pd.ExternalPickupPointID, lockDriver)
		default:
			m.unknown(lx, p, k)
		}
	})
}

func (m *merger) instructions(lx *lexer, dst *[]Instruction) {
	const p = "deliveries.instructions"
	out, ok := array(m, lx, p, func(lx *lexer, ep string, in *Instruction) {
		m.object(lx, ep, func(k string) {
			switch k {
			case "instructionText":
				m.str(lx, ep, k, &in.InstructionText, lockNone)
			case "instructionType":
				m.str(lx, ep, k, &in.InstructionType, lockNone)
			default:
				m.unknown(lx, ep, k)
			}
		})
	})
	if ok && !slices.Equal(*dst, out) {
		*dst = out
		m.changed(p, "", lockDispatch)
	}
}

func (m *merger) deliveryDetails(lx *lexer, dd *DeliveryDetails) {
	const p = "deliveries.deliveryDetails"
	m.object(lx, p, func(k string) {
		var sub lexer
		switch k {
		case "address":
			m.address(orNull(lx, nullAddress, &sub), &dd.Address)
		case "latLong":
			ptrObject(m, lx, p+".latLong", &dd.LatLong, lockPinDrop, fillLatLong)
		case "propertyDetails":
			m.property(orNull(lx, nullProperty, &sub), &dd.PropertyDetails)
		default:
			m.unknown(lx, p, k)
		}
	})
}

func (m *merger) address(lx *lexer, a *Address) {
	const p = "deliveries.deliveryDetails.address"
	m.object(lx, p, func(k string) {
		var dst *string
		switch k {
		case "line1":
			dst = &a.Line1
		case "line2":
			dst = &a.Line2
		case "city":
			dst = &a.City
		case "state":
			dst = &a.State
		case "zipCode":
			dst = &a.ZipCode
		case "countryCode":
			dst = &a.CountryCode
		default:
			m.unknown(lx, p, k)
			return
		}
		m.str(lx, p, k, dst, lockDriver)
	})
}

func fillLatLong(m *merger, lx *lexer, p string, ll *LatLong, creating bool, lock lockClass) {
	var lat, lng bool
	m.object(lx, p, func(k string) {
		switch k {
		case "type":
			m.str(lx, p, k, &ll.Type, lock)
		case "lat":
			lat = true
			m.float(lx, p, k, &ll.Lat, lock)
		case "lng":
			lng = true
			m.float(lx, p, k, &ll.Lng, lock)
		default:
			m.unknown(lx, p, k)
		}
	})
	if creating {
		m.require(lat, p, "lat")
		m.require(lng, p, "lng")
	}
}

func (m *merger) property(lx *lexer, pd *PropertyDetails) {
	const p = "deliveries.deliveryDetails.propertyDetails"
	m.object(lx, p, func(k string) {
		switch k {
		case "gateCode":
			m.str(lx, p, k, &pd.GateCode, lockDispatch)
		case "propertyType":
			m.str(lx, p, k, &pd.PropertyType, lockDispatch)
		case "locationPreference":
			m.str(lx, p, k, &pd.LocationPreference, lockDispatch)
		default:
			m.unknown(lx, p, k)
		}
	})
}

func (m *merger) scans(lx *lexer, dst *[]Scan) {
	const p = "deliveries.scanDetails"
	out, ok := array(m, lx, p, func(lx *lexer, ep string, s *Scan) {
		m.object(lx, ep, func(k string) {
			switch k {
			case "scanType":
				m.str(lx, ep, k, &s.ScanType, lockNone)
			case "scanDetail":
				s.ScanDetail, _ = array(m, lx, join(ep, k), func(lx *lexer, dp string, sd *ScanDetail) {
					m.object(lx, dp, func(k string) {
						if k == "scanId" {
							m.str(lx, dp, k, &sd.ScanID, lockNone)
						} else {
							m.unknown(lx, dp, k)
						}
					})
				})
			default:
				m.unknown(lx, ep, k)
			}
		})
	})
	if ok && !scansEqual(*dst, out) {
		*dst = out
		m.changed(p, "", lockDispatch)
	}
}

func (m *merger) manifest(lx *lexer, om *OrderManifest) {
	const p = "deliveries.orderManifest"
	m.object(lx, p, func(k string) {
		switch k {
		case "summary":
			ptrObject(m, lx, p+".summary", &om.Summary, lockNone, fillSummary)
		case "itemDetails":
			const ip = p + ".itemDetails"
			out, ok := array(m, lx, ip, func(lx *lexer, ep string, it *Item) { fillItem(m, lx, ep, it) })
			if ok && !itemsEqual(om.ItemDetails, out) {
				om.ItemDetails = out
				m.changed(ip, "", lockDispatch)
			}
		default:
			m.unknown(lx, p, k)
		}
	})
}

func fillItem(m *merger, lx *lexer, p string, it *Item) {
	var qty bool
	m.object(lx, p, func(k string) {
		switch k {
		case "itemId":
			m.str(lx, p, k, &it.ItemID, lockNone)
		case "itemDescription":
			m.str(lx, p, k, &it.ItemDescription, lockNone)
		case "dimensions":
			ptrObject(m, lx, join(p, k), &it.Dimensions, lockNone, fillDimensions)
		case "quantity":
			qty = true
			m.integer(lx, p, k, &it.Quantity, lockNone)
		case "itemWeight":
			ptrObject(m, lx, join(p, k), &it.ItemWeight, lockNone, fillWeight)
		case "itemTotal":
			ptrObject(m, lx, join(p, k), &it.ItemTotal, lockNone, fillMoney)
		default:
			m.unknown(lx, p, k)
		}
	})
	m.require(qty, p, "quantity")
}

func fillSummary(m *merger, lx *lexer, p string, s *Summary, creating bool, lock lockClass) {
	var total bool
	m.object(lx, p, func(k string) {
		switch k {
		case "totalItems":
			total = true
			m.integer(lx, p, k, &s.TotalItems, lock)
		case "orderSize":
			m.str(lx, p, k, &s.OrderSize, lock)
		case "dimensions":
			out, ok := array(m, lx, join(p, k), func(lx *lexer, ep string, d *Dimensions) {
				fillDimensions(m, lx, ep, d, true, lock)
			})
			if ok && !slices.Equal(s.Dimensions, out) {
				s.Dimensions = out
				m.changed(p, k, lock)
			}
		case "totalValueOfItems":
			ptrObject(m, lx, join(p, k), &s.TotalValueOfItems, lock, fillMoney)
		case "totalOrderWeight":
			ptrObject(m, lx, join(p, k), &s.TotalOrderWeight, lock, fillWeight)
		case "specialHandlingAttributes":
			sp := join(p, k)
			var sub lexer
			slx := orNull(lx, nullSpecial, &sub)
			sh := &s.SpecialHandlingAttributes
			m.object(slx, sp, func(k string) {
				var dst *bool
				switch k {
				case "hasHazmatItems":
					dst = &sh.HasHazmatItems
				case "hasAlcoholItems":
					dst = &sh.HasAlcoholItems
				case "hasFragileItems":
					dst = &sh.HasFragileItems
				case "hasPharmacyItems":
					dst = &sh.HasPharmacyItems
				default:
					m.unknown(slx, sp, k)
					return
				}
				m.boolean(slx, sp, k, dst, lock)
			})
		default:
			m.unknown(lx, p, k)
		}
	})
	if creating {
		m.require(total, p, "totalItems")
	}
}

func fillDimensions(m *merger, lx *lexer, p string, d *Dimensions, creating bool, lock lockClass) {
	var l, w, h bool
	m.object(lx, p, func(k string) {
		switch k {
		case "length":
			l = true
			m.float(lx, p, k, &d.Length, lock)
		case "width":
			w = true
			m.float(lx, p, k, &d.Width, lock)
		case "height":
			h = true
			m.float(lx, p, k, &d.Height, lock)
		case "unitOfMeasure":
			m.str(lx, p, k, &d.UnitOfMeasure, lock)
		default:
			m.unknown(lx, p, k)
		}
	})
	if creating {
		m.require(l, p, "length")
		m.require(w, p, "width")
		m.require(h, p, "height")
	}
}

func fillWeight(m *merger, lx *lexer, p string, w *Weight, creating bool, lock lockClass) {
	var val bool
	m.object(lx, p, func(k string) {
		switch k {
		case "measurementValue":
			val = true
			m.float(lx, p, k, &w.MeasurementValue, lock)
		case "unitOfMeasure":
			m.str(lx, p, k, &w.UnitOfMeasure, lock)
		default:
			m.unknown(lx, p, k)
		}
	})
	if creating {
		m.require(val, p, "measurementValue")
	}
}

func fillMoney(m *merger, lx *lexer, p string, mo *Money, creating bool, lock lockClass) {
	var amt bool
	m.object(lx, p, func(k string) {
		switch k {
		case "currencyAmount":
			amt = true
			m.float(lx, p, k, &mo.CurrencyAmount, lock)
		case "currencyUnit":
			m.str(lx, p, k, &mo.CurrencyUnit, lock)
		default:
			m.unknown(lx, p, k)
		}
	})
	if creating {
		m.require(amt, p, "currencyAmount")
	}
}

// parseTimestamp accepts exactly the document's format,
// YYYY-MM-DDTHH:MM:SS.mmmZ: UTC, milliseconds, nothing else, so that every
// accepted value prints back identically.
func parseTimestamp(s []byte) (time.Time, bool) {
	if len(s) != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
		s[16] != ':' || s[19] != '.' || s[23] != 'Z' {
		return time.Time{}, false
	}
	ok := true
	num := func(a, b int) int {
		v := 0
		for i := a; i < b; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				ok = false
				return 0
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d := num(0, 4), num(5, 7), num(8, 10)
	h, mi, sec, ms := num(11, 13), num(14, 16), num(17, 19), num(20, 23)
	if !ok || y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ms*int(time.Millisecond), time.UTC)
	if t.Day() != d { // 31 April and 29 February of common years roll over
		return time.Time{}, false
	}
	return t, true
}

// timestampLayout prints a time in the document's format.
const timestampLayout = "2006-01-02T15:04:05.000Z"

// schemaName returns the payload schema's member name spelled like b, or
// "" for any other name. The switch on string(b) compares without
// converting, so a known name costs no allocation and the string returned
// is a constant: no member name kept by the decoder (in a path, a change
// or a message) can alias the caller's body.
func schemaName(b []byte) string {
	switch string(b) {
	case "addOnServices":
		return "addOnServices"
	case "address":
		return "address"
	case "attendedDelivery":
		return "attendedDelivery"
	case "capturePhotoProof":
		return "capturePhotoProof"
	case "captureSignatureProof":
		return "captureSignatureProof"
	case "chainOfCustody":
		return "chainOfCustody"
	case "city":
		return "city"
	case "clientId":
		return "clientId"
	case "countryCode":
		return "countryCode"
	case "currencyAmount":
		return "currencyAmount"
	case "currencyUnit":
		return "currencyUnit"
	case "customer":
		return "customer"
	case "deliveries":
		return "deliveries"
	case "deliveryDetails":
		return "deliveryDetails"
	case "deliveryMethod":
		return "deliveryMethod"
	case "dimensions":
		return "dimensions"
	case "email":
		return "email"
	case "externalOrderId":
		return "externalOrderId"
	case "externalPickupPointId":
		return "externalPickupPointId"
	case "firstName":
		return "firstName"
	case "gateCode":
		return "gateCode"
	case "hasAlcoholItems":
		return "hasAlcoholItems"
	case "hasFragileItems":
		return "hasFragileItems"
	case "hasHazmatItems":
		return "hasHazmatItems"
	case "hasPharmacyItems":
		return "hasPharmacyItems"
	case "height":
		return "height"
	case "instructionText":
		return "instructionText"
	case "instructionType":
		return "instructionType"
	case "instructions":
		return "instructions"
	case "isDropOffOTPRequired":
		return "isDropOffOTPRequired"
	case "itemDescription":
		return "itemDescription"
	case "itemDetails":
		return "itemDetails"
	case "itemId":
		return "itemId"
	case "itemTotal":
		return "itemTotal"
	case "itemWeight":
		return "itemWeight"
	case "lastName":
		return "lastName"
	case "lat":
		return "lat"
	case "latLong":
		return "latLong"
	case "length":
		return "length"
	case "line1":
		return "line1"
	case "line2":
		return "line2"
	case "lng":
		return "lng"
	case "locationPreference":
		return "locationPreference"
	case "measurementValue":
		return "measurementValue"
	case "number":
		return "number"
	case "orderManifest":
		return "orderManifest"
	case "orderPickupReadyTime":
		return "orderPickupReadyTime"
	case "orderSize":
		return "orderSize"
	case "phone":
		return "phone"
	case "pickupDetails":
		return "pickupDetails"
	case "pickupPointId":
		return "pickupPointId"
	case "proofOfDelivery":
		return "proofOfDelivery"
	case "propertyDetails":
		return "propertyDetails"
	case "propertyType":
		return "propertyType"
	case "quantity":
		return "quantity"
	case "requestedMaxDeliverySlotTime":
		return "requestedMaxDeliverySlotTime"
	case "requestedMinDeliverySlotTime":
		return "requestedMinDeliverySlotTime"
	case "returnable":
		return "returnable"
	case "scanDetail":
		return "scanDetail"
	case "scanDetails":
		return "scanDetails"
	case "scanId":
		return "scanId"
	case "scanType":
		return "scanType"
	case "specialHandlingAttributes":
		return "specialHandlingAttributes"
	case "state":
		return "state"
	case "summary":
		return "summary"
	case "totalItems":
		return "totalItems"
	case "totalOrderWeight":
		return "totalOrderWeight"
	case "totalValueOfItems":
		return "totalValueOfItems"
	case "type":
		return "type"
	case "unitOfMeasure":
		return "unitOfMeasure"
	case "width":
		return "width"
	case "zipCode":
		return "zipCode"
	}
	return ""
}
