package delivery

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// The state-machine test drives a real delivery through random status
// changes and random partial updates, and checks each outcome against a
// model written from the document's tables alone: which statuses follow
// which, which fields each condition locks, which value pools are valid,
// and the 2.3 matrix.

type modelLock int

const (
	mFree modelLock = iota
	mDriver
	mPin
	mDispatch
)

// modelField is one updatable member: its JSON path under "deliveries",
// the condition that locks it, a pool of values, and how the model sets it.
type modelField struct {
	path []string
	lock modelLock
	pool []any // JSON values; nil is null
	set  func(d *Delivery, v any)
}

func str(v any) string {
	if v == nil {
		return ""
	}
	return v.(string)
}

func mts(v any) time.Time {
	t, _ := time.Parse(timestampLayout, v.(string))
	return t
}

var modelFields = []modelField{
	{[]string{"clientId"}, mFree, []any{"client-1", "client-2", nil}, func(d *Delivery, v any) { d.ClientID = str(v) }},
	{[]string{"orderPickupReadyTime"}, mFree, []any{"2026-11-22T09:30:00.000Z", "2026-11-22T11:30:00.000Z", "2026-11-22T12:45:00.000Z"},
		func(d *Delivery, v any) { d.OrderPickupReadyTime = mts(v) }},
	{[]string{"requestedMinDeliverySlotTime"}, mDispatch, []any{"2026-11-22T10:00:00.000Z", "2026-11-22T11:00:00.000Z", "2026-11-22T12:30:00.000Z"},
		func(d *Delivery, v any) { d.RequestedMinDeliverySlotTime = mts(v) }},
	{[]string{"requestedMaxDeliverySlotTime"}, mDispatch, []any{"2026-11-22T12:00:00.000Z", "2026-11-22T13:00:00.000Z", "2026-11-22T10:30:00.000Z"},
		func(d *Delivery, v any) { d.RequestedMaxDeliverySlotTime = mts(v) }},
	{[]string{"customer", "firstName"}, mDispatch, []any{"Ada", "Bea", nil}, func(d *Delivery, v any) { d.Customer.FirstName = str(v) }},
	{[]string{"customer", "lastName"}, mDispatch, []any{"Lovelace", "King"}, func(d *Delivery, v any) { d.Customer.LastName = str(v) }},
	{[]string{"customer", "email"}, mFree, []any{"ada@example.com", "b@c.de", nil, "bad"}, func(d *Delivery, v any) { d.Customer.Email = str(v) }},
	{[]string{"customer", "phone", "number"}, mDriver, []any{"5551234567", "5550000000", "12"}, func(d *Delivery, v any) { d.Customer.Phone.Number = str(v) }},
	{[]string{"addOnServices", "returnable"}, mFree, []any{true, false, nil}, func(d *Delivery, v any) { d.AddOnServices.Returnable = v == true }},
	{[]string{"pickupDetails", "pickupPointId"}, mDriver, []any{"STORE-42", "STORE-7"}, func(d *Delivery, v any) { d.PickupDetails.PickupPointID = str(v) }},
	{[]string{"instructions"}, mDispatch, []any{
		[]any{map[string]any{"instructionText": "Ring twice", "instructionType": "CUSTOMER"}},
		[]any{map[string]any{"instructionText": "Dog", "instructionType": "CUSTOMER"}}, nil},
		func(d *Delivery, v any) {
			d.Instructions = nil
			if v != nil {
				d.Instructions = []Instruction{{InstructionText: v.([]any)[0].(map[string]any)["instructionText"].(string), InstructionType: "CUSTOMER"}}
			}
		}},
	{[]string{"orderManifest", "itemDetails"}, mDispatch, []any{itemsJSON["ITEM-1"], itemsJSON["ITEM-3"], itemsJSON["ITEM-4"]},
		func(d *Delivery, v any) {
			d.OrderManifest.ItemDetails = itemsGo(v.([]any)[0].(map[string]any)["itemId"].(string))
		}},
	{[]string{"scanDetails"}, mDispatch, []any{
		[]any{map[string]any{"scanDetail": []any{map[string]any{"scanId": "SCAN-1"}, map[string]any{"scanId": "SCAN-2"}}, "scanType": "CODE128"}},
		[]any{map[string]any{"scanDetail": []any{map[string]any{"scanId": "SCAN-9"}}, "scanType": "CODE128"}}, nil},
		func(d *Delivery, v any) {
			d.ScanDetails = nil
			if v == nil {
				return
			}
			for _, id := range v.([]any)[0].(map[string]any)["scanDetail"].([]any) {
				if len(d.ScanDetails) == 0 {
					d.ScanDetails = []Scan{{ScanType: "CODE128"}}
				}
				d.ScanDetails[0].ScanDetail = append(d.ScanDetails[0].ScanDetail, ScanDetail{id.(map[string]any)["scanId"].(string)})
			}
		}},
	{[]string{"deliveryDetails", "address", "city"}, mDriver, []any{"Bentonville", "Rogers"}, func(d *Delivery, v any) { d.DeliveryDetails.Address.City = str(v) }},
	{[]string{"deliveryDetails", "latLong", "type"}, mPin, []any{"CUSTOMER_PINDROP", "GEOCODED"}, func(d *Delivery, v any) { d.DeliveryDetails.LatLong.Type = str(v) }},
	{[]string{"deliveryDetails", "latLong", "lat"}, mPin, []any{36.3729, 36.4, 95.0}, func(d *Delivery, v any) { d.DeliveryDetails.LatLong.Lat = v.(float64) }},
	{[]string{"deliveryDetails", "propertyDetails", "propertyType"}, mDispatch, []any{"HOUSE", "APARTMENT", "BUSINESS", "OTHER", nil},
		func(d *Delivery, v any) { d.DeliveryDetails.PropertyDetails.PropertyType = str(v) }},
	{[]string{"deliveryDetails", "propertyDetails", "locationPreference"}, mDispatch,
		[]any{"FRONT_DOOR", "BACK_DOOR", "SIDE_PORCH", "BUILDING_RECEPTION", "MAILROOM_OR_PROPERTY_STAFF", "GARAGE_DOOR", "NO_PREFERENCE", nil},
		func(d *Delivery, v any) { d.DeliveryDetails.PropertyDetails.LocationPreference = str(v) }},
	{[]string{"deliveryDetails", "propertyDetails", "gateCode"}, mDispatch, []any{"1234", "9", nil},
		func(d *Delivery, v any) { d.DeliveryDetails.PropertyDetails.GateCode = str(v) }},
}

// Three line-item lists: the booked one, one that keeps the summary's
// totals (3 items, 25.50 USD, 30 of 40 OZ), and one whose quantity breaks
// totalItems.
var itemsJSON = map[string]any{
	"ITEM-1": []any{
		map[string]any{"itemId": "ITEM-1", "itemDescription": "Mug", "dimensions": map[string]any{"length": 4, "width": 4, "height": 4, "unitOfMeasure": "IN"},
			"quantity": 2, "itemWeight": map[string]any{"measurementValue": 12, "unitOfMeasure": "OZ"}, "itemTotal": map[string]any{"currencyAmount": 15.5, "currencyUnit": "USD"}},
		map[string]any{"itemId": "ITEM-2", "itemDescription": "Tea", "quantity": 1,
			"itemWeight": map[string]any{"measurementValue": 8, "unitOfMeasure": "OZ"}, "itemTotal": map[string]any{"currencyAmount": 10, "currencyUnit": "USD"}},
	},
	"ITEM-3": []any{map[string]any{"itemId": "ITEM-3", "quantity": 3,
		"itemWeight": map[string]any{"measurementValue": 10, "unitOfMeasure": "OZ"}, "itemTotal": map[string]any{"currencyAmount": 25.5, "currencyUnit": "USD"}}},
	"ITEM-4": []any{map[string]any{"itemId": "ITEM-4", "quantity": 4,
		"itemWeight": map[string]any{"measurementValue": 10, "unitOfMeasure": "OZ"}, "itemTotal": map[string]any{"currencyAmount": 25.5, "currencyUnit": "USD"}}},
}

func itemsGo(first string) []Item {
	switch first {
	case "ITEM-1":
		return []Item{
			{ItemID: "ITEM-1", ItemDescription: "Mug", Dimensions: &Dimensions{4, 4, 4, "IN"}, Quantity: 2, ItemWeight: &Weight{12, "OZ"}, ItemTotal: &Money{15.5, "USD"}},
			{ItemID: "ITEM-2", ItemDescription: "Tea", Quantity: 1, ItemWeight: &Weight{8, "OZ"}, ItemTotal: &Money{10, "USD"}},
		}
	case "ITEM-3":
		return []Item{{ItemID: "ITEM-3", Quantity: 3, ItemWeight: &Weight{10, "OZ"}, ItemTotal: &Money{25.5, "USD"}}}
	}
	return []Item{{ItemID: "ITEM-4", Quantity: 4, ItemWeight: &Weight{10, "OZ"}, ItemTotal: &Money{25.5, "USD"}}}
}

// modelNext is the lifecycle of the Status documentation.
var modelNext = map[Status][]Status{
	StatusRequested:        {StatusDriverAssigned, StatusCancelled},
	StatusDriverAssigned:   {StatusEnrouteToPickup, StatusRequested, StatusCancelled},
	StatusEnrouteToPickup:  {StatusArrivedAtPickup, StatusRequested, StatusCancelled},
	StatusArrivedAtPickup:  {StatusDispatched, StatusRequested, StatusCancelled},
	StatusDispatched:       {StatusEnrouteToDropoff, StatusCancelled},
	StatusEnrouteToDropoff: {StatusDelivered, StatusFailed, StatusCancelled},
	StatusFailed:           {StatusEnrouteToDropoff, StatusReturned, StatusCancelled},
}

var (
	modelAssigned   = []Status{StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff, StatusFailed}
	modelDispatched = []Status{StatusDispatched, StatusEnrouteToDropoff, StatusFailed}
	modelNotAllowed = map[string][]string{
		"HOUSE":     {"BUILDING_RECEPTION", "MAILROOM_OR_PROPERTY_STAFF"},
		"APARTMENT": {"BACK_DOOR", "SIDE_PORCH", "GARAGE_DOOR"},
		"BUSINESS":  {"BACK_DOOR", "SIDE_PORCH", "GARAGE_DOOR"},
	}
)

// modelVerdict says whether the model's delivery breaks a booking
// constraint or the matrix, for the values the pools can produce.
func modelVerdict(d Delivery) (invalid, badCombo bool) {
	pd := d.DeliveryDetails.PropertyDetails
	badCombo = pd.LocationPreference != "" &&
		(pd.PropertyType == "" || slices.Contains(modelNotAllowed[pd.PropertyType], pd.LocationPreference))
	invalid = d.ClientID == "" || d.Customer.FirstName == "" || d.Customer.Email == "bad" ||
		len(d.Customer.Phone.Number) < 4 || d.DeliveryDetails.LatLong.Lat > 90 ||
		!d.RequestedMinDeliverySlotTime.Before(d.RequestedMaxDeliverySlotTime) ||
		d.OrderPickupReadyTime.After(d.RequestedMaxDeliverySlotTime) ||
		d.OrderManifest.ItemDetails[0].Quantity == 4 // totalItems stays 3
	return invalid, badCombo
}

// stateMachineRounds multiplies rapid's default 100 checks: rare
// sequences (a geocoded coordinate turned into a pin-drop after driver
// assignment) need a few hundred runs to show up, and 500 take well under a
// second.
const stateMachineRounds = 5

func TestStateMachine(t *testing.T) {
	for range stateMachineRounds {
		rapid.Check(t, stateMachine)
	}
}

func stateMachine(t *rapid.T) {
	{
		real := booked(t)
		model := real.Clone() // the model's view; changed only by the model's rules
		t.Repeat(map[string]func(*rapid.T){
			"transition": func(t *rapid.T) {
				// Mostly a forward step (so that runs reach the dispatched
				// states before a cancellation ends them), sometimes anything.
				gen := rapid.SampledFrom(Statuses())
				var forward []Status
				for _, n := range modelNext[model.Status] {
					if n != StatusCancelled {
						forward = append(forward, n)
					}
				}
				if len(forward) > 0 {
					f := rapid.SampledFrom(forward)
					gen = rapid.OneOf(f, f, f, gen)
				}
				to := gen.Draw(t, "to")
				got, err := Transition(real, to)
				if slices.Contains(modelNext[model.Status], to) {
					if err != nil {
						t.Fatalf("%s → %s refused: %v", model.Status, to, err)
					}
					model.Status = to
					real = got
				} else if err == nil {
					t.Fatalf("%s → %s accepted", model.Status, to)
				}
			},
			"update": func(t *rapid.T) {
				idx := rapid.SliceOfNDistinct(rapid.IntRange(0, len(modelFields)-1), 0, 5, rapid.ID).Draw(t, "fields")
				body := map[string]any{}
				next := model.Clone()
				changed, locked := false, false
				s := model.Status
				for _, i := range idx {
					f := modelFields[i]
					v := rapid.SampledFrom(f.pool).Draw(t, f.path[len(f.path)-1])
					obj := body
					for _, k := range f.path[:len(f.path)-1] {
						if obj[k] == nil {
							obj[k] = map[string]any{}
						}
						obj = obj[k].(map[string]any)
					}
					obj[f.path[len(f.path)-1]] = v
					alone := model.Clone()
					f.set(&alone, v)
					if alone.Equal(model) {
						continue
					}
					changed = true
					f.set(&next, v)
					switch f.lock {
					case mDriver:
						locked = locked || slices.Contains(modelAssigned, s)
					case mDispatch:
						locked = locked || slices.Contains(modelDispatched, s)
					case mPin:
						wasPin := model.DeliveryDetails.LatLong.Type == "CUSTOMER_PINDROP"
						locked = locked || (slices.Contains(modelAssigned, s) && wasPin)
					}
				}
				// A pin-drop coming into being is locked as well.
				if slices.Contains(modelAssigned, s) && next.DeliveryDetails.LatLong.Type == "CUSTOMER_PINDROP" &&
					*next.DeliveryDetails.LatLong != *model.DeliveryDetails.LatLong {
					locked = true
				}
				raw, err := json.Marshal(map[string]any{"deliveries": body})
				if err != nil {
					t.Fatal(err)
				}
				invalid, badCombo := modelVerdict(next)
				before := real.Clone()
				got, err := Apply(real, raw)
				if !real.Equal(before) {
					t.Fatal("Apply changed its input")
				}
				switch {
				case modelTerminal(s):
					if !errors.Is(err, ErrClosed) {
						t.Fatalf("closed delivery: %v", err)
					}
				case !changed:
					if !errors.Is(err, ErrNoChange) {
						t.Fatalf("%s: want no change, got %v", raw, err)
					}
				case locked || invalid || badCombo:
					if err == nil {
						t.Fatalf("%s in %s: accepted (locked %v invalid %v combo %v)", raw, s, locked, invalid, badCombo)
					}
					if errors.Is(err, ErrLockedField) != locked || errors.Is(err, ErrDisallowedCombination) != badCombo ||
						errors.Is(err, ErrInvalidValue) != invalid {
						t.Fatalf("%s in %s: %v (locked %v invalid %v combo %v)", raw, s, err, locked, invalid, badCombo)
					}
					if !got.Equal(real) {
						t.Fatal("failed update returned a changed delivery")
					}
				default:
					if err != nil {
						t.Fatalf("%s in %s: %v", raw, s, err)
					}
					if !got.Equal(next) {
						t.Fatalf("%s: result differs from the model", raw)
					}
					real, model = got, next
				}
			},
		})
	}
}

func modelTerminal(s Status) bool {
	return s == StatusDelivered || s == StatusReturned || s == StatusCancelled
}
