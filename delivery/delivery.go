package delivery

import (
	"slices"
	"time"
)

// Delivery is one booked last-mile delivery: the members of the update
// payload (section 2.2 of the interface document) plus its identifier and
// lifecycle status.
//
// An empty string, a zero time.Time, a false boolean, a nil pointer and a
// nil slice all mean "not set": that is what a JSON null turns a member
// into. Optional objects that hold numbers (LatLong, Summary, Money, Weight,
// Dimensions) are pointers so that "absent" is not confused with 0.
type Delivery struct {
	DeliveryID string
	Status     Status

	ClientID                     string
	ExternalOrderID              string
	DeliveryMethod               string
	OrderPickupReadyTime         time.Time
	RequestedMinDeliverySlotTime time.Time
	RequestedMaxDeliverySlotTime time.Time

	Customer        Customer
	AddOnServices   AddOnServices
	PickupDetails   PickupDetails
	Instructions    []Instruction
	DeliveryDetails DeliveryDetails
	ScanDetails     []Scan
	OrderManifest   OrderManifest
}

// Customer is the person receiving the delivery.
type Customer struct {
	FirstName string
	LastName  string
	Email     string
	Phone     Phone
}

// Phone is a telephone number split into its country calling code (digits,
// optionally with a leading "+") and the national number (digits only).
type Phone struct {
	CountryCode string
	Number      string
}

// AddOnServices are the optional services booked with the delivery.
type AddOnServices struct {
	Returnable            bool
	AttendedDelivery      bool
	ProofOfDelivery       bool
	CapturePhotoProof     bool
	IsDropOffOTPRequired  bool
	CaptureSignatureProof bool
	ChainOfCustody        bool
}

// PickupDetails identifies the pickup point (the store or DC the driver
// collects from); it stands for the "pickup address" of section 3.
type PickupDetails struct {
	PickupPointID         string
	ExternalPickupPointID string
}

// Instruction is one free-text instruction. The payload's instructions
// array is what section 3 calls "pickup instructions".
type Instruction struct {
	InstructionText string
	InstructionType string
}

// DeliveryDetails is where the delivery goes.
type DeliveryDetails struct {
	Address         Address
	LatLong         *LatLong
	PropertyDetails PropertyDetails
}

// Address is the drop-off address.
type Address struct {
	Line1       string
	Line2       string
	City        string
	State       string
	ZipCode     string
	CountryCode string
}

// LatLong is the drop-off coordinate in degrees; Type says where it came
// from (CUSTOMER_PINDROP: the customer placed a pin).
type LatLong struct {
	Type string
	Lat  float64
	Lng  float64
}

// PropertyDetails describes the drop-off property; PropertyType and
// LocationPreference must form an allowed pair (see Allowed).
type PropertyDetails struct {
	GateCode           string
	PropertyType       string
	LocationPreference string
}

// Scan is one scan group: the scanned identifiers and the barcode type.
type Scan struct {
	ScanDetail []ScanDetail
	ScanType   string
}

// ScanDetail is one scanned identifier.
type ScanDetail struct {
	ScanID string
}

// OrderManifest lists the goods: an optional summary and the line items.
type OrderManifest struct {
	Summary     *Summary
	ItemDetails []Item
}

// Summary is the order-level summary of the manifest.
type Summary struct {
	TotalItems                int
	OrderSize                 string
	Dimensions                []Dimensions
	TotalValueOfItems         *Money
	TotalOrderWeight          *Weight
	SpecialHandlingAttributes SpecialHandling
}

// SpecialHandling flags goods that need special care.
type SpecialHandling struct {
	HasHazmatItems   bool
	HasAlcoholItems  bool
	HasFragileItems  bool
	HasPharmacyItems bool
}

// Dimensions are a box size in UnitOfMeasure (IN or CM).
type Dimensions struct {
	Length        float64
	Width         float64
	Height        float64
	UnitOfMeasure string
}

// Money is an amount in a currency (ISO 4217 code such as USD).
type Money struct {
	CurrencyAmount float64
	CurrencyUnit   string
}

// Weight is a mass in UnitOfMeasure (OZ, LB, G or KG).
type Weight struct {
	MeasurementValue float64
	UnitOfMeasure    string
}

// Item is one order line. ItemWeight is the weight of one unit and
// ItemTotal the value of the whole line (unit price × quantity); the
// summary totals are checked against them on that reading.
type Item struct {
	ItemID          string
	ItemDescription string
	Dimensions      *Dimensions
	Quantity        int
	ItemWeight      *Weight
	ItemTotal       *Money
}

// Clone returns a deep copy of d: no slice or pointer is shared with d, so
// changing the copy never changes d.
func (d Delivery) Clone() Delivery {
	c := d
	c.Instructions = slices.Clone(d.Instructions)
	c.ScanDetails = cloneScans(d.ScanDetails)
	c.OrderManifest.ItemDetails = cloneItems(d.OrderManifest.ItemDetails)
	// The optional objects outside arrays share one allocation: Clone runs
	// on every update.
	ll, s := d.DeliveryDetails.LatLong, d.OrderManifest.Summary
	if ll == nil && s == nil {
		return c
	}
	blk := new(struct {
		ll LatLong
		s  Summary
		v  Money
		w  Weight
	})
	if ll != nil {
		blk.ll = *ll
		c.DeliveryDetails.LatLong = &blk.ll
	}
	if s != nil {
		blk.s = *s
		blk.s.Dimensions = slices.Clone(s.Dimensions)
		if s.TotalValueOfItems != nil {
			blk.v = *s.TotalValueOfItems
			blk.s.TotalValueOfItems = &blk.v
		}
		if s.TotalOrderWeight != nil {
			blk.w = *s.TotalOrderWeight
			blk.s.TotalOrderWeight = &blk.w
		}
		c.OrderManifest.Summary = &blk.s
	}
	return c
}

// Equal reports whether d and e hold the same values (times compared as
// instants, nil and empty slices alike).
func (d Delivery) Equal(e Delivery) bool {
	return d.DeliveryID == e.DeliveryID && d.Status == e.Status &&
		d.ClientID == e.ClientID && d.ExternalOrderID == e.ExternalOrderID &&
		d.DeliveryMethod == e.DeliveryMethod &&
		d.OrderPickupReadyTime.Equal(e.OrderPickupReadyTime) &&
		d.RequestedMinDeliverySlotTime.Equal(e.RequestedMinDeliverySlotTime) &&
		d.RequestedMaxDeliverySlotTime.Equal(e.RequestedMaxDeliverySlotTime) &&
		d.Customer == e.Customer && d.AddOnServices == e.AddOnServices &&
		d.PickupDetails == e.PickupDetails &&
		slices.Equal(d.Instructions, e.Instructions) &&
		d.DeliveryDetails.Address == e.DeliveryDetails.Address &&
		ptrEqual(d.DeliveryDetails.LatLong, e.DeliveryDetails.LatLong) &&
		d.DeliveryDetails.PropertyDetails == e.DeliveryDetails.PropertyDetails &&
		scansEqual(d.ScanDetails, e.ScanDetails) &&
		summaryEqual(d.OrderManifest.Summary, e.OrderManifest.Summary) &&
		itemsEqual(d.OrderManifest.ItemDetails, e.OrderManifest.ItemDetails)
}

func ptrEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func cloneScans(s []Scan) []Scan {
	if s == nil {
		return nil
	}
	c := make([]Scan, len(s))
	n := 0
	for _, x := range s {
		n += len(x.ScanDetail)
	}
	ids := make([]ScanDetail, 0, n) // one backing array for every group
	for i, x := range s {
		c[i].ScanType = x.ScanType
		if x.ScanDetail != nil {
			a := len(ids)
			ids = append(ids, x.ScanDetail...)
			c[i].ScanDetail = ids[a:len(ids):len(ids)]
		}
	}
	return c
}

func scansEqual(a, b []Scan) bool {
	return slices.EqualFunc(a, b, func(x, y Scan) bool {
		return x.ScanType == y.ScanType && slices.Equal(x.ScanDetail, y.ScanDetail)
	})
}

func summaryEqual(a, b *Summary) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.TotalItems == b.TotalItems && a.OrderSize == b.OrderSize &&
		slices.Equal(a.Dimensions, b.Dimensions) &&
		ptrEqual(a.TotalValueOfItems, b.TotalValueOfItems) &&
		ptrEqual(a.TotalOrderWeight, b.TotalOrderWeight) &&
		a.SpecialHandlingAttributes == b.SpecialHandlingAttributes
}

func cloneItems(items []Item) []Item {
	if items == nil {
		return nil
	}
	// The items' optional objects are copied into one backing array: one
	// allocation instead of up to three per item.
	c := make([]Item, len(items))
	extra := make([]struct {
		d Dimensions
		w Weight
		m Money
	}, len(items))
	for i, it := range items {
		c[i] = it
		e := &extra[i]
		if it.Dimensions != nil {
			e.d = *it.Dimensions
			c[i].Dimensions = &e.d
		}
		if it.ItemWeight != nil {
			e.w = *it.ItemWeight
			c[i].ItemWeight = &e.w
		}
		if it.ItemTotal != nil {
			e.m = *it.ItemTotal
			c[i].ItemTotal = &e.m
		}
	}
	return c
}

func itemEqual(a, b Item) bool {
	return a.ItemID == b.ItemID && a.ItemDescription == b.ItemDescription &&
		ptrEqual(a.Dimensions, b.Dimensions) && a.Quantity == b.Quantity &&
		ptrEqual(a.ItemWeight, b.ItemWeight) && ptrEqual(a.ItemTotal, b.ItemTotal)
}

func itemsEqual(a, b []Item) bool { return slices.EqualFunc(a, b, itemEqual) }
