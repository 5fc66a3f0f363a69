package delivery

import (
	"math"
	"slices"
	"strconv"
	"strings"
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

// merger walks a parsed "deliveries" object against the payload schema and
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
		return strings.Clone(name) // name may be a key that aliases the body
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

func (m *merger) typeErr(parent, name, want string, n *node) {
	m.vs.Add(CodeInvalidType, join(parent, name), "must be %s, not %s", want, n.kind)
}

func (m *merger) unknown(parent, name string) {
	m.vs.Add(CodeUnknownMember, join(parent, name), "is not a member of the delivery payload")
}

// object reports whether n is an object, reporting a type error if not and
// every repeated member name if so; a repeated member is refused because
// JSON leaves its meaning open.
func (m *merger) object(n *node, p string) bool {
	if n.kind != kObject {
		m.typeErr(p, "", "an object", n)
		return false
	}
	for i := 1; i < len(n.members); i++ {
		for j := 0; j < i; j++ {
			if n.members[i].key == n.members[j].key {
				m.vs.Add(CodeDuplicateMember, join(p, n.members[i].key), "appears more than once")
				break
			}
		}
	}
	return true
}

func (m *merger) str(n *node, parent, name string, dst *string, lock lockClass) {
	var v string
	switch n.kind {
	case kString:
		v = n.s
	case kNull:
	default:
		m.typeErr(parent, name, "a string", n)
		return
	}
	if *dst != v {
		*dst = v
		m.changed(parent, name, lock)
	}
}

func (m *merger) boolean(n *node, parent, name string, dst *bool, lock lockClass) {
	var v bool
	switch n.kind {
	case kBool:
		v = n.b
	case kNull:
	default:
		m.typeErr(parent, name, "a boolean", n)
		return
	}
	if *dst != v {
		*dst = v
		m.changed(parent, name, lock)
	}
}

func (m *merger) timestamp(n *node, parent, name string, dst *time.Time, lock lockClass) {
	var v time.Time
	switch n.kind {
	case kString:
		t, ok := parseTimestamp(n.s)
		if !ok {
			m.vs.Add(CodeInvalidFormat, join(parent, name),
				"must be an ISO 8601 UTC timestamp with milliseconds like 2026-11-22T10:00:00.000Z, not %q", short(n.s))
			return
		}
		v = t
	case kNull:
	default:
		m.typeErr(parent, name, "a string", n)
		return
	}
	if !dst.Equal(v) {
		*dst = v
		m.changed(parent, name, lock)
	}
}

// number returns the value of a number node; ok is false (and a violation
// recorded) for null, other types and numbers beyond float64.
func (m *merger) number(n *node, parent, name string) (float64, bool) {
	switch n.kind {
	case kNumber:
		f, err := strconv.ParseFloat(n.s, 64)
		if err != nil {
			m.vs.Add(CodeOutOfRange, join(parent, name), "number %s is too large", short(n.s))
			return 0, false
		}
		return f, true
	case kNull:
		m.vs.Add(CodeRequired, join(parent, name), "must not be null (send null for the enclosing object to remove it)")
	default:
		m.typeErr(parent, name, "a number", n)
	}
	return 0, false
}

func (m *merger) float(n *node, parent, name string, dst *float64, lock lockClass) {
	f, ok := m.number(n, parent, name)
	if ok && *dst != f {
		*dst = f
		m.changed(parent, name, lock)
	}
}

// maxExactInt bounds integers to those a float64 (and so any JSON reader)
// holds exactly.
const maxExactInt = 1 << 53

func (m *merger) integer(n *node, parent, name string, dst *int, lock lockClass) {
	f, ok := m.number(n, parent, name)
	if !ok {
		return
	}
	if f != math.Trunc(f) {
		m.vs.Add(CodeNotInteger, join(parent, name), "must be an integer, not %s", short(n.s))
		return
	}
	if math.Abs(f) > maxExactInt {
		m.vs.Add(CodeOutOfRange, join(parent, name), "integer %s is too large", short(n.s))
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

// ptrObject merges n into the optional object *dst: null removes it, an
// object updates it member by member, or creates it (then the creation is
// the one change recorded, and fill checks the members it needs).
func ptrObject[T any](m *merger, n *node, p string, dst **T, lock lockClass,
	fill func(m *merger, n *node, p string, v *T, creating bool, lock lockClass)) {
	if n.kind == kNull {
		if *dst != nil {
			*dst = nil
			m.changed(p, "", lock)
		}
		return
	}
	if !m.object(n, p) {
		return
	}
	if *dst == nil {
		v := new(T)
		m.suppress++
		fill(m, n, p, v, true, lock)
		m.suppress--
		*dst = v
		m.changed(p, "", lock)
		return
	}
	fill(m, n, p, *dst, false, lock)
}

// Null for a non-optional object means every member null; these are those
// objects spelled out.
var (
	nullNode            = node{kind: kNull}
	nullCustomer        = nullObject("firstName", "lastName", "email", "phone")
	nullPhone           = nullObject("countryCode", "number")
	nullAddOns          = nullObject("returnable", "attendedDelivery", "proofOfDelivery", "capturePhotoProof", "isDropOffOTPRequired", "captureSignatureProof", "chainOfCustody")
	nullPickup          = nullObject("pickupPointId", "externalPickupPointId")
	nullDeliveryDetails = nullObject("address", "latLong", "propertyDetails")
	nullAddress         = nullObject("line1", "line2", "city", "state", "zipCode", "countryCode")
	nullProperty        = nullObject("gateCode", "propertyType", "locationPreference")
	nullManifest        = nullObject("summary", "itemDetails")
	nullSpecial         = nullObject("hasHazmatItems", "hasAlcoholItems", "hasFragileItems", "hasPharmacyItems")
)

func nullObject(keys ...string) node {
	n := node{kind: kObject}
	for _, k := range keys {
		n.members = append(n.members, member{key: k, val: nullNode})
	}
	return n
}

func orNull(n *node, null *node) *node {
	if n.kind == kNull {
		return null
	}
	return n
}

func (m *merger) delivery(n *node, d *Delivery) {
	const p = "deliveries"
	if n.kind == kNull {
		m.vs.Add(CodeInvalidType, p, "must be an object, not null")
		return
	}
	if !m.object(n, p) {
		return
	}
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "clientId":
			m.str(v, p, k, &d.ClientID, lockNone)
		case "externalOrderId":
			m.str(v, p, k, &d.ExternalOrderID, lockNone)
		case "deliveryMethod":
			m.str(v, p, k, &d.DeliveryMethod, lockNone)
		case "orderPickupReadyTime":
			m.timestamp(v, p, k, &d.OrderPickupReadyTime, lockNone)
		case "requestedMinDeliverySlotTime":
			m.timestamp(v, p, k, &d.RequestedMinDeliverySlotTime, lockDispatch)
		case "requestedMaxDeliverySlotTime":
			m.timestamp(v, p, k, &d.RequestedMaxDeliverySlotTime, lockDispatch)
		case "customer":
			m.customer(orNull(v, &nullCustomer), &d.Customer)
		case "addOnServices":
			m.addOns(orNull(v, &nullAddOns), &d.AddOnServices)
		case "pickupDetails":
			m.pickup(orNull(v, &nullPickup), &d.PickupDetails)
		case "instructions":
			m.instructions(v, &d.Instructions)
		case "deliveryDetails":
			m.deliveryDetails(orNull(v, &nullDeliveryDetails), &d.DeliveryDetails)
		case "scanDetails":
			m.scans(v, &d.ScanDetails)
		case "orderManifest":
			m.manifest(orNull(v, &nullManifest), &d.OrderManifest)
		default:
			m.unknown(p, k)
		}
	}
}

func (m *merger) customer(n *node, c *Customer) {
	const p = "deliveries.customer"
	if !m.object(n, p) {
		return
	}
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "firstName":
			m.str(v, p, k, &c.FirstName, lockDispatch)
		case "lastName":
			m.str(v, p, k, &c.LastName, lockDispatch)
		case "email":
			m.str(v, p, k, &c.Email, lockNone)
		case "phone":
			v = orNull(v, &nullPhone)
			const pp = p + ".phone"
			if !m.object(v, pp) {
				continue
			}
			for j := range v.members {
				kk, vv := v.members[j].key, &v.members[j].val
				switch kk {
				case "countryCode":
					m.str(vv, pp, kk, &c.Phone.CountryCode, lockDriver)
				case "number":
					m.str(vv, pp, kk, &c.Phone.Number, lockDriver)
				default:
					m.unknown(pp, kk)
				}
			}
		default:
			m.unknown(p, k)
		}
	}
}

func (m *merger) addOns(n *node, a *AddOnServices) {
	const p = "deliveries.addOnServices"
	if !m.object(n, p) {
		return
	}
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
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
			m.unknown(p, k)
			continue
		}
		m.boolean(v, p, k, dst, lockNone)
	}
}

func (m *merger) pickup(n *node, pd *PickupDetails) {
	const p = "deliveries.pickupDetails"
	if !m.object(n, p) {
		return
	}
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "pickupPointId":
			m.str(v, p, k, &pd.PickupPointID, lockDriver)
		case "externalPickupPointId":
			m.str(v, p, k, &pd.ExternalPickupPointID, lockDriver)
		default:
			m.unknown(p, k)
		}
	}
}

// array decodes an array member into a new slice with elem (run with
// changes suppressed: the array is compared as a whole). ok is false when
// n is neither an array nor null.
func array[T any](m *merger, n *node, p string, elem func(n *node, p string, v *T)) (out []T, ok bool) {
	switch n.kind {
	case kNull:
		return nil, true
	case kArray:
	default:
		m.typeErr(p, "", "an array", n)
		return nil, false
	}
	out = make([]T, len(n.members))
	m.suppress++
	for i := range n.members {
		ep := index(p, i)
		if e := &n.members[i].val; m.object(e, ep) {
			elem(e, ep, &out[i])
		}
	}
	m.suppress--
	return out, true
}

func (m *merger) instructions(n *node, dst *[]Instruction) {
	const p = "deliveries.instructions"
	out, ok := array(m, n, p, func(n *node, p string, in *Instruction) {
		for i := range n.members {
			k, v := n.members[i].key, &n.members[i].val
			switch k {
			case "instructionText":
				m.str(v, p, k, &in.InstructionText, lockNone)
			case "instructionType":
				m.str(v, p, k, &in.InstructionType, lockNone)
			default:
				m.unknown(p, k)
			}
		}
	})
	if ok && !slices.Equal(*dst, out) {
		*dst = out
		m.changed(p, "", lockDispatch)
	}
}

func (m *merger) deliveryDetails(n *node, dd *DeliveryDetails) {
	const p = "deliveries.deliveryDetails"
	if !m.object(n, p) {
		return
	}
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "address":
			m.address(orNull(v, &nullAddress), &dd.Address)
		case "latLong":
			ptrObject(m, v, p+".latLong", &dd.LatLong, lockPinDrop, fillLatLong)
		case "propertyDetails":
			m.property(orNull(v, &nullProperty), &dd.PropertyDetails)
		default:
			m.unknown(p, k)
		}
	}
}

func (m *merger) address(n *node, a *Address) {
	const p = "deliveries.deliveryDetails.address"
	if !m.object(n, p) {
		return
	}
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
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
			m.unknown(p, k)
			continue
		}
		m.str(v, p, k, dst, lockDriver)
	}
}

func fillLatLong(m *merger, n *node, p string, ll *LatLong, creating bool, lock lockClass) {
	var lat, lng bool
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "type":
			m.str(v, p, k, &ll.Type, lock)
		case "lat":
			lat = true
			m.float(v, p, k, &ll.Lat, lock)
		case "lng":
			lng = true
			m.float(v, p, k, &ll.Lng, lock)
		default:
			m.unknown(p, k)
		}
	}
	if creating {
		m.require(lat, p, "lat")
		m.require(lng, p, "lng")
	}
}

func (m *merger) property(n *node, pd *PropertyDetails) {
	const p = "deliveries.deliveryDetails.propertyDetails"
	if !m.object(n, p) {
		return
	}
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "gateCode":
			m.str(v, p, k, &pd.GateCode, lockDispatch)
		case "propertyType":
			m.str(v, p, k, &pd.PropertyType, lockDispatch)
		case "locationPreference":
			m.str(v, p, k, &pd.LocationPreference, lockDispatch)
		default:
			m.unknown(p, k)
		}
	}
}

func (m *merger) scans(n *node, dst *[]Scan) {
	const p = "deliveries.scanDetails"
	out, ok := array(m, n, p, func(n *node, p string, s *Scan) {
		for i := range n.members {
			k, v := n.members[i].key, &n.members[i].val
			switch k {
			case "scanType":
				m.str(v, p, k, &s.ScanType, lockNone)
			case "scanDetail":
				s.ScanDetail, _ = array(m, v, join(p, k), func(n *node, p string, sd *ScanDetail) {
					for i := range n.members {
						k, v := n.members[i].key, &n.members[i].val
						if k == "scanId" {
							m.str(v, p, k, &sd.ScanID, lockNone)
						} else {
							m.unknown(p, k)
						}
					}
				})
			default:
				m.unknown(p, k)
			}
		}
	})
	if ok && !scansEqual(*dst, out) {
		*dst = out
		m.changed(p, "", lockDispatch)
	}
}

func (m *merger) manifest(n *node, om *OrderManifest) {
	const p = "deliveries.orderManifest"
	if !m.object(n, p) {
		return
	}
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "summary":
			ptrObject(m, v, p+".summary", &om.Summary, lockNone, fillSummary)
		case "itemDetails":
			const ip = p + ".itemDetails"
			out, ok := array(m, v, ip, func(n *node, p string, it *Item) { fillItem(m, n, p, it) })
			if ok && !itemsEqual(om.ItemDetails, out) {
				om.ItemDetails = out
				m.changed(ip, "", lockDispatch)
			}
		default:
			m.unknown(p, k)
		}
	}
}

func fillItem(m *merger, n *node, p string, it *Item) {
	var qty bool
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "itemId":
			m.str(v, p, k, &it.ItemID, lockNone)
		case "itemDescription":
			m.str(v, p, k, &it.ItemDescription, lockNone)
		case "dimensions":
			ptrObject(m, v, join(p, k), &it.Dimensions, lockNone, fillDimensions)
		case "quantity":
			qty = true
			m.integer(v, p, k, &it.Quantity, lockNone)
		case "itemWeight":
			ptrObject(m, v, join(p, k), &it.ItemWeight, lockNone, fillWeight)
		case "itemTotal":
			ptrObject(m, v, join(p, k), &it.ItemTotal, lockNone, fillMoney)
		default:
			m.unknown(p, k)
		}
	}
	m.require(qty, p, "quantity")
}

func fillSummary(m *merger, n *node, p string, s *Summary, creating bool, lock lockClass) {
	var total bool
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "totalItems":
			total = true
			m.integer(v, p, k, &s.TotalItems, lock)
		case "orderSize":
			m.str(v, p, k, &s.OrderSize, lock)
		case "dimensions":
			out, ok := array(m, v, join(p, k), func(n *node, p string, d *Dimensions) {
				fillDimensions(m, n, p, d, true, lock)
			})
			if ok && !slices.Equal(s.Dimensions, out) {
				s.Dimensions = out
				m.changed(p, k, lock)
			}
		case "totalValueOfItems":
			ptrObject(m, v, join(p, k), &s.TotalValueOfItems, lock, fillMoney)
		case "totalOrderWeight":
			ptrObject(m, v, join(p, k), &s.TotalOrderWeight, lock, fillWeight)
		case "specialHandlingAttributes":
			v = orNull(v, &nullSpecial)
			sp := join(p, k)
			if !m.object(v, sp) {
				continue
			}
			sh := &s.SpecialHandlingAttributes
			for j := range v.members {
				kk, vv := v.members[j].key, &v.members[j].val
				var dst *bool
				switch kk {
				case "hasHazmatItems":
					dst = &sh.HasHazmatItems
				case "hasAlcoholItems":
					dst = &sh.HasAlcoholItems
				case "hasFragileItems":
					dst = &sh.HasFragileItems
				case "hasPharmacyItems":
					dst = &sh.HasPharmacyItems
				default:
					m.unknown(sp, kk)
					continue
				}
				m.boolean(vv, sp, kk, dst, lock)
			}
		default:
			m.unknown(p, k)
		}
	}
	if creating {
		m.require(total, p, "totalItems")
	}
}

func fillDimensions(m *merger, n *node, p string, d *Dimensions, creating bool, lock lockClass) {
	var l, w, h bool
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "length":
			l = true
			m.float(v, p, k, &d.Length, lock)
		case "width":
			w = true
			m.float(v, p, k, &d.Width, lock)
		case "height":
			h = true
			m.float(v, p, k, &d.Height, lock)
		case "unitOfMeasure":
			m.str(v, p, k, &d.UnitOfMeasure, lock)
		default:
			m.unknown(p, k)
		}
	}
	if creating {
		m.require(l, p, "length")
		m.require(w, p, "width")
		m.require(h, p, "height")
	}
}

func fillWeight(m *merger, n *node, p string, w *Weight, creating bool, lock lockClass) {
	var val bool
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "measurementValue":
			val = true
			m.float(v, p, k, &w.MeasurementValue, lock)
		case "unitOfMeasure":
			m.str(v, p, k, &w.UnitOfMeasure, lock)
		default:
			m.unknown(p, k)
		}
	}
	if creating {
		m.require(val, p, "measurementValue")
	}
}

func fillMoney(m *merger, n *node, p string, mo *Money, creating bool, lock lockClass) {
	var amt bool
	for i := range n.members {
		k, v := n.members[i].key, &n.members[i].val
		switch k {
		case "currencyAmount":
			amt = true
			m.float(v, p, k, &mo.CurrencyAmount, lock)
		case "currencyUnit":
			m.str(v, p, k, &mo.CurrencyUnit, lock)
		default:
			m.unknown(p, k)
		}
	}
	if creating {
		m.require(amt, p, "currencyAmount")
	}
}

// parseTimestamp accepts exactly the document's format,
// YYYY-MM-DDTHH:MM:SS.mmmZ: UTC, milliseconds, nothing else, so that every
// accepted value prints back identically.
func parseTimestamp(s string) (time.Time, bool) {
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
