package delivery

import (
	"slices"
	"time"

	"github.com/haulplan/haulplan/internal/jsonwire"
)

// The payload schema of section 2.2, written once: every member of every
// object with its JSON name, the model's field it maps to, the lock of
// section 3 and whether a new object must carry it. Decoding (merge and
// null handling, decode.go) and encoding (encode.go) both follow these
// lists, and TestSchemaCoversModel walks the model's fields against them,
// so a member added to the model and not here fails a test.

// field is one member of the objects of type T.
type field[T any] struct {
	name     string    // JSON member name
	goName   string    // the model's field
	lock     lockClass // lockInherit: the enclosing member's
	required bool      // a new object must carry it (the model has no "not set" value for it)
	sub      any       // the *schema of a nested object, array element or optional object
	addr     func(v *T) any
	read     func(m *merger, v *T)
	write    func(e *jsonwire.Encoder, v *T) // writes the member, or nothing when it is left out
}

// schema is the list of members of one object type, and the reader built
// from it.
type schema[T any] struct {
	what     string
	fields   []field[T]
	obj      jsonwire.Object[*merger, T]
	required []string
}

func newSchema[T any](what string, fields ...field[T]) *schema[T] {
	s := &schema[T]{what: what, fields: fields}
	s.obj.What = what
	for _, f := range fields {
		s.obj.Members = append(s.obj.Members, jsonwire.Member[*merger, T]{Name: f.name, Read: f.read})
		if f.required {
			s.required = append(s.required, f.name)
		}
	}
	return s
}

// merge reads an object into v member by member; null means every member
// null.
func (s *schema[T]) merge(m *merger, v *T) {
	if m.d.Peek() == jsonwire.KindNull {
		m.d.Null()
		s.obj.ReadNull(&m.d, m, v)
		return
	}
	s.obj.Read(&m.d, m, v)
}

// create reads a new object into v (its creation is the one change) and
// reports the required members it lacks.
func (s *schema[T]) create(m *merger, v *T) {
	m.suppress++
	seen, ok := s.obj.Read(&m.d, m, v)
	m.suppress--
	if ok && len(s.required) > 0 {
		s.obj.Missing(&m.d, seen, "is required when the enclosing object is created", s.required...)
	}
}

// writeMembers writes every member of v that is not left out.
func (s *schema[T]) writeMembers(e *jsonwire.Encoder, v *T) {
	for i := range s.fields {
		s.fields[i].write(e, v)
	}
}

func (s *schema[T]) write(e *jsonwire.Encoder, v *T) {
	e.BeginObject()
	s.writeMembers(e, v)
	e.EndObject()
}

// The kinds of members. Strings, timestamps, optional objects and arrays
// are left out of the output when not set; booleans, numbers and the
// objects the model always has are always written.

func text[T any](name, goName string, lock lockClass, get func(*T) *string) field[T] {
	return field[T]{name: name, goName: goName, lock: lock,
		addr: func(v *T) any { return get(v) },
		read: func(m *merger, v *T) { m.str(get(v), lock) },
		write: func(e *jsonwire.Encoder, v *T) {
			if s := *get(v); s != "" {
				e.Name(name)
				e.String(s)
			}
		}}
}

func flag[T any](name, goName string, get func(*T) *bool) field[T] {
	return field[T]{name: name, goName: goName,
		addr: func(v *T) any { return get(v) },
		read: func(m *merger, v *T) { m.boolean(get(v), lockInherit) },
		write: func(e *jsonwire.Encoder, v *T) {
			e.Name(name)
			e.Bool(*get(v))
		}}
}

func stamp[T any](name, goName string, lock lockClass, get func(*T) *time.Time) field[T] {
	return field[T]{name: name, goName: goName, lock: lock,
		addr: func(v *T) any { return get(v) },
		read: func(m *merger, v *T) { m.timestamp(get(v), lock) },
		write: func(e *jsonwire.Encoder, v *T) {
			if t := *get(v); !t.IsZero() {
				e.Name(name)
				e.String(t.UTC().Format(timestampLayout))
			}
		}}
}

// num is a number a new object must carry.
func num[T any](name, goName string, get func(*T) *float64) field[T] {
	return field[T]{name: name, goName: goName, required: true,
		addr: func(v *T) any { return get(v) },
		read: func(m *merger, v *T) { m.float(get(v), lockInherit) },
		write: func(e *jsonwire.Encoder, v *T) {
			e.Name(name)
			e.Float(*get(v))
		}}
}

// count is an integer a new object must carry.
func count[T any](name, goName string, get func(*T) *int) field[T] {
	return field[T]{name: name, goName: goName, required: true,
		addr: func(v *T) any { return get(v) },
		read: func(m *merger, v *T) { m.integer(get(v), lockInherit) },
		write: func(e *jsonwire.Encoder, v *T) {
			e.Name(name)
			e.Int(int64(*get(v)))
		}}
}

// obj is an object the model always has: null clears each of its members.
func obj[T, U any](name, goName string, lock lockClass, s *schema[U], get func(*T) *U) field[T] {
	return field[T]{name: name, goName: goName, lock: lock, sub: s,
		addr: func(v *T) any { return get(v) },
		read: func(m *merger, v *T) {
			saved := m.enter(lock)
			s.merge(m, get(v))
			m.lock = saved
		},
		write: func(e *jsonwire.Encoder, v *T) {
			e.Name(name)
			s.write(e, get(v))
		}}
}

// opt is an optional object: null removes it, an object updates it member
// by member or creates it.
func opt[T, U any](name, goName string, lock lockClass, s *schema[U], get func(*T) **U) field[T] {
	return field[T]{name: name, goName: goName, lock: lock, sub: s,
		addr: func(v *T) any { return get(v) },
		read: func(m *merger, v *T) {
			saved := m.enter(lock)
			defer func() { m.lock = saved }()
			p := get(v)
			switch k := m.d.Peek(); k {
			case jsonwire.KindNull:
				m.d.Null()
				if *p != nil {
					*p = nil
					m.changed(lockInherit)
				}
				return
			case jsonwire.KindObject:
			default:
				m.d.WrongType(s.what, k)
				return
			}
			if *p == nil {
				n := new(U)
				s.create(m, n)
				*p = n
				m.changed(lockInherit)
				return
			}
			s.obj.Read(&m.d, m, *p)
		},
		write: func(e *jsonwire.Encoder, v *T) {
			if p := *get(v); p != nil {
				e.Name(name)
				s.write(e, p)
			}
		}}
}

// list is an array of objects, replaced and compared as a whole.
func list[T, U any](name, goName string, lock lockClass, s *schema[U], get func(*T) *[]U, equal func(a, b []U) bool) field[T] {
	return field[T]{name: name, goName: goName, lock: lock, sub: s,
		addr: func(v *T) any { return get(v) },
		read: func(m *merger, v *T) {
			saved := m.enter(lock)
			defer func() { m.lock = saved }()
			dst := get(v)
			var out []U
			switch k := m.d.Peek(); k {
			case jsonwire.KindNull:
				m.d.Null()
			case jsonwire.KindArray:
				m.suppress++
				jsonwire.ReadArray(&m.d, m, &out, "", s.create)
				m.suppress--
			default:
				m.d.WrongType("an array of "+s.what, k)
				return
			}
			if !equal(*dst, out) {
				*dst = out
				m.changed(lockInherit)
			}
		},
		write: func(e *jsonwire.Encoder, v *T) {
			if l := *get(v); len(l) > 0 {
				e.Name(name)
				e.BeginArray()
				for i := range l {
					s.write(e, &l[i])
				}
				e.EndArray()
			}
		}}
}

// bodySchema is the body of a booking or an update, {"deliveries": {...}}.
var bodySchema = newSchema("a body {\"deliveries\": {...}}",
	field[Delivery]{name: "deliveries", read: func(m *merger, d *Delivery) {
		if m.skip {
			m.d.Skip()
			return
		}
		deliverySchema.obj.Read(&m.d, m, d)
	}},
)

var deliverySchema = newSchema("the delivery payload (an object)",
	text("clientId", "ClientID", lockNone, func(d *Delivery) *string { return &d.ClientID }),
	text("externalOrderId", "ExternalOrderID", lockNone, func(d *Delivery) *string { return &d.ExternalOrderID }),
	text("deliveryMethod", "DeliveryMethod", lockNone, func(d *Delivery) *string { return &d.DeliveryMethod }),
	stamp("orderPickupReadyTime", "OrderPickupReadyTime", lockNone, func(d *Delivery) *time.Time { return &d.OrderPickupReadyTime }),
	stamp("requestedMinDeliverySlotTime", "RequestedMinDeliverySlotTime", lockDispatch, func(d *Delivery) *time.Time { return &d.RequestedMinDeliverySlotTime }),
	stamp("requestedMaxDeliverySlotTime", "RequestedMaxDeliverySlotTime", lockDispatch, func(d *Delivery) *time.Time { return &d.RequestedMaxDeliverySlotTime }),
	obj("customer", "Customer", lockNone, customerSchema, func(d *Delivery) *Customer { return &d.Customer }),
	obj("addOnServices", "AddOnServices", lockNone, addOnsSchema, func(d *Delivery) *AddOnServices { return &d.AddOnServices }),
	obj("pickupDetails", "PickupDetails", lockDriver, pickupSchema, func(d *Delivery) *PickupDetails { return &d.PickupDetails }),
	list("instructions", "Instructions", lockDispatch, instructionSchema, func(d *Delivery) *[]Instruction { return &d.Instructions }, slices.Equal[[]Instruction]),
	obj("deliveryDetails", "DeliveryDetails", lockNone, deliveryDetailsSchema, func(d *Delivery) *DeliveryDetails { return &d.DeliveryDetails }),
	list("scanDetails", "ScanDetails", lockDispatch, scanSchema, func(d *Delivery) *[]Scan { return &d.ScanDetails }, scansEqual),
	obj("orderManifest", "OrderManifest", lockNone, manifestSchema, func(d *Delivery) *OrderManifest { return &d.OrderManifest }),
)

var customerSchema = newSchema("a customer object",
	text("firstName", "FirstName", lockDispatch, func(c *Customer) *string { return &c.FirstName }),
	text("lastName", "LastName", lockDispatch, func(c *Customer) *string { return &c.LastName }),
	text("email", "Email", lockNone, func(c *Customer) *string { return &c.Email }),
	obj("phone", "Phone", lockDriver, phoneSchema, func(c *Customer) *Phone { return &c.Phone }),
)

var phoneSchema = newSchema("a phone object",
	text("countryCode", "CountryCode", lockInherit, func(p *Phone) *string { return &p.CountryCode }),
	text("number", "Number", lockInherit, func(p *Phone) *string { return &p.Number }),
)

var addOnsSchema = newSchema("an addOnServices object",
	flag("returnable", "Returnable", func(a *AddOnServices) *bool { return &a.Returnable }),
	flag("attendedDelivery", "AttendedDelivery", func(a *AddOnServices) *bool { return &a.AttendedDelivery }),
	flag("proofOfDelivery", "ProofOfDelivery", func(a *AddOnServices) *bool { return &a.ProofOfDelivery }),
	flag("capturePhotoProof", "CapturePhotoProof", func(a *AddOnServices) *bool { return &a.CapturePhotoProof }),
	flag("isDropOffOTPRequired", "IsDropOffOTPRequired", func(a *AddOnServices) *bool { return &a.IsDropOffOTPRequired }),
	flag("captureSignatureProof", "CaptureSignatureProof", func(a *AddOnServices) *bool { return &a.CaptureSignatureProof }),
	flag("chainOfCustody", "ChainOfCustody", func(a *AddOnServices) *bool { return &a.ChainOfCustody }),
)

var pickupSchema = newSchema("a pickupDetails object",
	text("pickupPointId", "PickupPointID", lockInherit, func(p *PickupDetails) *string { return &p.PickupPointID }),
	text("externalPickupPointId", "ExternalPickupPointID", lockInherit, func(p *PickupDetails) *string { return &p.ExternalPickupPointID }),
)

var instructionSchema = newSchema("an instruction object",
	text("instructionText", "InstructionText", lockInherit, func(i *Instruction) *string { return &i.InstructionText }),
	text("instructionType", "InstructionType", lockInherit, func(i *Instruction) *string { return &i.InstructionType }),
)

var deliveryDetailsSchema = newSchema("a deliveryDetails object",
	obj("address", "Address", lockDriver, addressSchema, func(d *DeliveryDetails) *Address { return &d.Address }),
	opt("latLong", "LatLong", lockPinDrop, latLongSchema, func(d *DeliveryDetails) **LatLong { return &d.LatLong }),
	obj("propertyDetails", "PropertyDetails", lockDispatch, propertySchema, func(d *DeliveryDetails) *PropertyDetails { return &d.PropertyDetails }),
)

var addressSchema = newSchema("an address object",
	text("line1", "Line1", lockInherit, func(a *Address) *string { return &a.Line1 }),
	text("line2", "Line2", lockInherit, func(a *Address) *string { return &a.Line2 }),
	text("city", "City", lockInherit, func(a *Address) *string { return &a.City }),
	text("state", "State", lockInherit, func(a *Address) *string { return &a.State }),
	text("zipCode", "ZipCode", lockInherit, func(a *Address) *string { return &a.ZipCode }),
	text("countryCode", "CountryCode", lockInherit, func(a *Address) *string { return &a.CountryCode }),
)

var latLongSchema = newSchema("a latLong object",
	text("type", "Type", lockInherit, func(l *LatLong) *string { return &l.Type }),
	num("lat", "Lat", func(l *LatLong) *float64 { return &l.Lat }),
	num("lng", "Lng", func(l *LatLong) *float64 { return &l.Lng }),
)

var propertySchema = newSchema("a propertyDetails object",
	text("gateCode", "GateCode", lockInherit, func(p *PropertyDetails) *string { return &p.GateCode }),
	text("propertyType", "PropertyType", lockInherit, func(p *PropertyDetails) *string { return &p.PropertyType }),
	text("locationPreference", "LocationPreference", lockInherit, func(p *PropertyDetails) *string { return &p.LocationPreference }),
)

var scanSchema = newSchema("a scan object",
	list("scanDetail", "ScanDetail", lockInherit, scanDetailSchema, func(s *Scan) *[]ScanDetail { return &s.ScanDetail }, slices.Equal[[]ScanDetail]),
	text("scanType", "ScanType", lockInherit, func(s *Scan) *string { return &s.ScanType }),
)

var scanDetailSchema = newSchema("a scanDetail object",
	text("scanId", "ScanID", lockInherit, func(s *ScanDetail) *string { return &s.ScanID }),
)

var manifestSchema = newSchema("an orderManifest object",
	opt("summary", "Summary", lockNone, summarySchema, func(o *OrderManifest) **Summary { return &o.Summary }),
	list("itemDetails", "ItemDetails", lockDispatch, itemSchema, func(o *OrderManifest) *[]Item { return &o.ItemDetails }, itemsEqual),
)

var summarySchema = newSchema("a summary object",
	count("totalItems", "TotalItems", func(s *Summary) *int { return &s.TotalItems }),
	text("orderSize", "OrderSize", lockInherit, func(s *Summary) *string { return &s.OrderSize }),
	list("dimensions", "Dimensions", lockInherit, dimensionsSchema, func(s *Summary) *[]Dimensions { return &s.Dimensions }, slices.Equal[[]Dimensions]),
	opt("totalValueOfItems", "TotalValueOfItems", lockInherit, moneySchema, func(s *Summary) **Money { return &s.TotalValueOfItems }),
	opt("totalOrderWeight", "TotalOrderWeight", lockInherit, weightSchema, func(s *Summary) **Weight { return &s.TotalOrderWeight }),
	obj("specialHandlingAttributes", "SpecialHandlingAttributes", lockInherit, specialSchema, func(s *Summary) *SpecialHandling { return &s.SpecialHandlingAttributes }),
)

var specialSchema = newSchema("a specialHandlingAttributes object",
	flag("hasHazmatItems", "HasHazmatItems", func(s *SpecialHandling) *bool { return &s.HasHazmatItems }),
	flag("hasAlcoholItems", "HasAlcoholItems", func(s *SpecialHandling) *bool { return &s.HasAlcoholItems }),
	flag("hasFragileItems", "HasFragileItems", func(s *SpecialHandling) *bool { return &s.HasFragileItems }),
	flag("hasPharmacyItems", "HasPharmacyItems", func(s *SpecialHandling) *bool { return &s.HasPharmacyItems }),
)

var dimensionsSchema = newSchema("a dimensions object",
	num("length", "Length", func(d *Dimensions) *float64 { return &d.Length }),
	num("width", "Width", func(d *Dimensions) *float64 { return &d.Width }),
	num("height", "Height", func(d *Dimensions) *float64 { return &d.Height }),
	text("unitOfMeasure", "UnitOfMeasure", lockInherit, func(d *Dimensions) *string { return &d.UnitOfMeasure }),
)

var moneySchema = newSchema("a money object",
	num("currencyAmount", "CurrencyAmount", func(m *Money) *float64 { return &m.CurrencyAmount }),
	text("currencyUnit", "CurrencyUnit", lockInherit, func(m *Money) *string { return &m.CurrencyUnit }),
)

var weightSchema = newSchema("a weight object",
	num("measurementValue", "MeasurementValue", func(w *Weight) *float64 { return &w.MeasurementValue }),
	text("unitOfMeasure", "UnitOfMeasure", lockInherit, func(w *Weight) *string { return &w.UnitOfMeasure }),
)

var itemSchema = newSchema("an item object",
	text("itemId", "ItemID", lockInherit, func(i *Item) *string { return &i.ItemID }),
	text("itemDescription", "ItemDescription", lockInherit, func(i *Item) *string { return &i.ItemDescription }),
	opt("dimensions", "Dimensions", lockInherit, dimensionsSchema, func(i *Item) **Dimensions { return &i.Dimensions }),
	count("quantity", "Quantity", func(i *Item) *int { return &i.Quantity }),
	opt("itemWeight", "ItemWeight", lockInherit, weightSchema, func(i *Item) **Weight { return &i.ItemWeight }),
	opt("itemTotal", "ItemTotal", lockInherit, moneySchema, func(i *Item) **Money { return &i.ItemTotal }),
)
