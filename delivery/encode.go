package delivery

import (
	"encoding/json"
	"time"
)

// The wire types mirror section 2.2 for output. Empty strings, zero times
// and nil objects are left out, so that feeding the output back to Book
// gives the same delivery.

type wireDelivery struct {
	DeliveryID                   string           `json:"deliveryId,omitempty"`
	Status                       Status           `json:"status,omitempty"`
	ClientID                     string           `json:"clientId,omitempty"`
	ExternalOrderID              string           `json:"externalOrderId,omitempty"`
	DeliveryMethod               string           `json:"deliveryMethod,omitempty"`
	OrderPickupReadyTime         *wireTime        `json:"orderPickupReadyTime,omitempty"`
	RequestedMinDeliverySlotTime *wireTime        `json:"requestedMinDeliverySlotTime,omitempty"`
	RequestedMaxDeliverySlotTime *wireTime        `json:"requestedMaxDeliverySlotTime,omitempty"`
	Customer                     wireCustomer     `json:"customer"`
	AddOnServices                wireAddOns       `json:"addOnServices"`
	PickupDetails                wirePickup       `json:"pickupDetails"`
	Instructions                 []wireInstr      `json:"instructions,omitempty"`
	DeliveryDetails              wireDetails      `json:"deliveryDetails"`
	ScanDetails                  []wireScan       `json:"scanDetails,omitempty"`
	OrderManifest                wireOrderManifst `json:"orderManifest"`
}

type wireTime time.Time

func (t *wireTime) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(*t).UTC().Format(timestampLayout))
}

func ts(t time.Time) *wireTime {
	if t.IsZero() {
		return nil
	}
	w := wireTime(t)
	return &w
}

type wireCustomer struct {
	FirstName string    `json:"firstName,omitempty"`
	LastName  string    `json:"lastName,omitempty"`
	Email     string    `json:"email,omitempty"`
	Phone     wirePhone `json:"phone"`
}

type wirePhone struct {
	CountryCode string `json:"countryCode,omitempty"`
	Number      string `json:"number,omitempty"`
}

type wireAddOns struct {
	Returnable            bool `json:"returnable"`
	AttendedDelivery      bool `json:"attendedDelivery"`
	ProofOfDelivery       bool `json:"proofOfDelivery"`
	CapturePhotoProof     bool `json:"capturePhotoProof"`
	IsDropOffOTPRequired  bool `json:"isDropOffOTPRequired"`
	CaptureSignatureProof bool `json:"captureSignatureProof"`
	ChainOfCustody        bool `json:"chainOfCustody"`
}

type wirePickup struct {
	PickupPointID         string `json:"pickupPointId,omitempty"`
	ExternalPickupPointID string `json:"externalPickupPointId,omitempty"`
}

type wireInstr struct {
	InstructionText string `json:"instructionText,omitempty"`
	InstructionType string `json:"instructionType,omitempty"`
}

type wireDetails struct {
	Address         wireAddress  `json:"address"`
	LatLong         *wireLatLong `json:"latLong,omitempty"`
	PropertyDetails wireProperty `json:"propertyDetails"`
}

type wireAddress struct {
	Line1       string `json:"line1,omitempty"`
	Line2       string `json:"line2,omitempty"`
	City        string `json:"city,omitempty"`
	State       string `json:"state,omitempty"`
	ZipCode     string `json:"zipCode,omitempty"`
	CountryCode string `json:"countryCode,omitempty"`
}

type wireLatLong struct {
	Type string  `json:"type,omitempty"`
	Lat  float64 `json:"lat"`
	Lng  float64 `json:"lng"`
}

type wireProperty struct {
	GateCode           string `json:"gateCode,omitempty"`
	PropertyType       string `json:"propertyType,omitempty"`
	LocationPreference string `json:"locationPreference,omitempty"`
}

type wireScan struct {
	ScanDetail []wireScanID `json:"scanDetail,omitempty"`
	ScanType   string       `json:"scanType,omitempty"`
}

type wireScanID struct {
	ScanID string `json:"scanId,omitempty"`
}

type wireOrderManifst struct {
	Summary     *wireSummary `json:"summary,omitempty"`
	ItemDetails []wireItem   `json:"itemDetails,omitempty"`
}

type wireSummary struct {
	TotalItems                int             `json:"totalItems"`
	OrderSize                 string          `json:"orderSize,omitempty"`
	Dimensions                []wireDims      `json:"dimensions,omitempty"`
	TotalValueOfItems         *wireMoney      `json:"totalValueOfItems,omitempty"`
	TotalOrderWeight          *wireWeight     `json:"totalOrderWeight,omitempty"`
	SpecialHandlingAttributes wireSpecialHand `json:"specialHandlingAttributes"`
}

type wireSpecialHand struct {
	HasHazmatItems   bool `json:"hasHazmatItems"`
	HasAlcoholItems  bool `json:"hasAlcoholItems"`
	HasFragileItems  bool `json:"hasFragileItems"`
	HasPharmacyItems bool `json:"hasPharmacyItems"`
}

type wireDims struct {
	Length        float64 `json:"length"`
	Width         float64 `json:"width"`
	Height        float64 `json:"height"`
	UnitOfMeasure string  `json:"unitOfMeasure,omitempty"`
}

type wireMoney struct {
	CurrencyAmount float64 `json:"currencyAmount"`
	CurrencyUnit   string  `json:"currencyUnit,omitempty"`
}

type wireWeight struct {
	MeasurementValue float64 `json:"measurementValue"`
	UnitOfMeasure    string  `json:"unitOfMeasure,omitempty"`
}

type wireItem struct {
	ItemID          string      `json:"itemId,omitempty"`
	ItemDescription string      `json:"itemDescription,omitempty"`
	Dimensions      *wireDims   `json:"dimensions,omitempty"`
	Quantity        int         `json:"quantity"`
	ItemWeight      *wireWeight `json:"itemWeight,omitempty"`
	ItemTotal       *wireMoney  `json:"itemTotal,omitempty"`
}

func convPtr[T, W any](p *T, f func(T) W) *W {
	if p == nil {
		return nil
	}
	w := f(*p)
	return &w
}

func convSlice[T, W any](s []T, f func(T) W) []W {
	if len(s) == 0 {
		return nil
	}
	out := make([]W, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

func wireDimsOf(d Dimensions) wireDims    { return wireDims(d) }
func wireMoneyOf(m Money) wireMoney       { return wireMoney(m) }
func wireWeightOf(w Weight) wireWeight    { return wireWeight(w) }
func wireInstrOf(i Instruction) wireInstr { return wireInstr(i) }

func toWire(d *Delivery, identity bool) wireDelivery {
	w := wireDelivery{
		ClientID:                     d.ClientID,
		ExternalOrderID:              d.ExternalOrderID,
		DeliveryMethod:               d.DeliveryMethod,
		OrderPickupReadyTime:         ts(d.OrderPickupReadyTime),
		RequestedMinDeliverySlotTime: ts(d.RequestedMinDeliverySlotTime),
		RequestedMaxDeliverySlotTime: ts(d.RequestedMaxDeliverySlotTime),
		Customer: wireCustomer{
			FirstName: d.Customer.FirstName, LastName: d.Customer.LastName, Email: d.Customer.Email,
			Phone: wirePhone(d.Customer.Phone),
		},
		AddOnServices: wireAddOns(d.AddOnServices),
		PickupDetails: wirePickup(d.PickupDetails),
		Instructions:  convSlice(d.Instructions, wireInstrOf),
		DeliveryDetails: wireDetails{
			Address:         wireAddress(d.DeliveryDetails.Address),
			LatLong:         convPtr(d.DeliveryDetails.LatLong, func(l LatLong) wireLatLong { return wireLatLong(l) }),
			PropertyDetails: wireProperty(d.DeliveryDetails.PropertyDetails),
		},
		ScanDetails: convSlice(d.ScanDetails, func(s Scan) wireScan {
			return wireScan{
				ScanDetail: convSlice(s.ScanDetail, func(x ScanDetail) wireScanID { return wireScanID(x) }),
				ScanType:   s.ScanType,
			}
		}),
		OrderManifest: wireOrderManifst{
			Summary: convPtr(d.OrderManifest.Summary, func(s Summary) wireSummary {
				return wireSummary{
					TotalItems: s.TotalItems, OrderSize: s.OrderSize,
					Dimensions:                convSlice(s.Dimensions, wireDimsOf),
					TotalValueOfItems:         convPtr(s.TotalValueOfItems, wireMoneyOf),
					TotalOrderWeight:          convPtr(s.TotalOrderWeight, wireWeightOf),
					SpecialHandlingAttributes: wireSpecialHand(s.SpecialHandlingAttributes),
				}
			}),
			ItemDetails: convSlice(d.OrderManifest.ItemDetails, func(it Item) wireItem {
				return wireItem{
					ItemID: it.ItemID, ItemDescription: it.ItemDescription,
					Dimensions: convPtr(it.Dimensions, wireDimsOf), Quantity: it.Quantity,
					ItemWeight: convPtr(it.ItemWeight, wireWeightOf), ItemTotal: convPtr(it.ItemTotal, wireMoneyOf),
				}
			}),
		},
	}
	if identity {
		w.DeliveryID, w.Status = d.DeliveryID, d.Status
	}
	return w
}

// MarshalJSON encodes d as one object with deliveryId, status and the
// members of section 2.2, timestamps in the document's format. It is the
// delivery as a service would show it.
func (d Delivery) MarshalJSON() ([]byte, error) { return json.Marshal(toWire(&d, true)) }

// BookingBody encodes d as a booking (or full update) body,
// {"deliveries": {...}}, without deliveryId and status. Book of that body
// gives d back (with the id passed to Book and status DELIVERY_REQUESTED).
func BookingBody(d Delivery) ([]byte, error) {
	return json.Marshal(struct {
		Deliveries wireDelivery `json:"deliveries"`
	}{toWire(&d, false)})
}

// Receipt is the response body of a successful update (section 4.2):
// {"deliveries":{"deliveryId","externalOrderId"}}.
type Receipt struct {
	Deliveries ReceiptDelivery `json:"deliveries"`
}

// ReceiptDelivery is the content of a Receipt.
type ReceiptDelivery struct {
	DeliveryID      string `json:"deliveryId"`
	ExternalOrderID string `json:"externalOrderId"`
}

// NewReceipt returns the response body for d.
func NewReceipt(d Delivery) Receipt {
	return Receipt{Deliveries: ReceiptDelivery{DeliveryID: d.DeliveryID, ExternalOrderID: d.ExternalOrderID}}
}
